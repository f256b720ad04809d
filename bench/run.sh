#!/bin/bash
# run.sh BUILD - what the layer costs in real time: native and virtualised runs
# of the same samples in one invocation, under one private pvmd.  Prints
# figures and ratios; it asserts nothing (see README "Benchmarks").
set -u
BUILD=$(cd "${1:-build}" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/scripts/pvmd.sh"
trap vl_pvmd_cleanup EXIT
trap 'exit 130' INT TERM
WORKDIR=$(mktemp -d)
vl_pvmd_start "$BUILD/samples" "$WORKDIR" || exit 1
export VMCONFIG="$TOP/vmconfig/vienna.ini" VLAYER_TRACE_DIR="$WORKDIR/trace"
REPEAT=${REPEAT:-3}

wall() { # wall CMD... -> best real time in ms over REPEAT runs
	local best=0 t0 t1 d i
	for ((i = 0; i < REPEAT; i++)); do
		t0=$(date +%s%N)
		"$@" > /dev/null || return 1
		t1=$(date +%s%N)
		d=$(((t1 - t0) / 1000))
		if [ $best = 0 ] || [ $d -lt $best ]; then best=$d; fi
	done
	echo $best
}

printf '%-34s %12s %12s %8s\n' "benchmark" "native ms" "vlayer ms" "ratio"
row() {
	local name=$1 n v
	shift
	n=$(wall "$BUILD/samples/$1" "${@:2}")
	v=$(wall "$BUILD/samples/$1.v" "${@:2}")
	awk -v name="$name" -v n="$n" -v v="$v" \
		'BEGIN { printf "%-34s %12.1f %12.1f %8.3f\n", name, n / 1000, v / 1000, v / n }'
}
row "ping-pong 8 B x 2000" pingpong -r 2000 8
row "ping-pong 64 KiB x 500" pingpong -r 500 65536
row "master/worker 4 workers, 64 jobs" masterworker -w 4 -j 64 -s 20000
row "token ring 8 tasks x 200 rounds" tokenring -n 8 -r 200 -b 8

# virtual order (README "Which message"): a wildcard-heavy farm of tiny jobs,
# under ordering = virtual (the default) and ordering = real, beside native
REAL_CFG="$WORKDIR/real.ini"
sed 's/^ordering = virtual /ordering = real    /' "$VMCONFIG" > "$REAL_CFG"
printf '\n%-34s %10s %10s %10s %9s %9s\n' "wildcard farm (masterworker)" "native ms" "real ms" \
	"virtual ms" "virt/real" "virt/nat"
farmrow() {
	local w=$1 j=$2 n r v
	n=$(wall "$BUILD/samples/masterworker" -w "$w" -j "$j" -s 100)
	r=$(VMCONFIG="$REAL_CFG" wall "$BUILD/samples/masterworker.v" -w "$w" -j "$j" -s 100)
	v=$(wall "$BUILD/samples/masterworker.v" -w "$w" -j "$j" -s 100)
	awk -v name="$w workers, $j tiny jobs" -v n="$n" -v r="$r" -v v="$v" \
		'BEGIN { printf "%-34s %10.1f %10.1f %10.1f %9.2f %9.2f\n", name, n / 1000, r / 1000,
			 v / 1000, v / r, v / n }'
}
farmrow 8 512
farmrow 64 1024
rm -rf "$WORKDIR"
