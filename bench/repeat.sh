#!/bin/bash
# repeat.sh BUILD - how repeatable predictions with measured computation are
# (issue 15, item 3): the scalar product (p = 1, 2, 4, 8, 16) and Cannon (p = 1,
# 4, 16) under vlrun on vmconfig/vienna.ini, RUNS (5) runs each, first on a quiet
# machine, then beside a CPU hog (two busy loops, stopped by their pids).  Prints
# per case the median predicted time and the spread (max - min) / median; the
# target is 3 %.  With computation ignored the prediction does not vary at all
# (test_order, test_scalapack); this measures what measured CPU times add.
# Then the same with the CPU gate ([simulation] cpus = auto).
# First the machine's own floor: the spread of one fixed loop's CPU time run
# natively (bench/cpuloop.c), which no layer can go below.
# Asserts nothing.  RUNS, PS_SCALAR, PS_CANNON, N_SCALAR, N_CANNON override.
set -u
BUILD=$(cd "${1:-build}" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OPENBLAS_NUM_THREADS=1
W=$(mktemp -d)
HOGS=""
stop_hogs() { [ -z "$HOGS" ] || kill $HOGS 2>/dev/null; wait $HOGS 2>/dev/null; HOGS=""; }
trap 'stop_hogs; rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
RUNS=${RUNS:-5}
S=$BUILD/samples/mpi
CFG=$TOP/vmconfig/vienna.ini

# predicted NP PROG ARGS...: the run's predicted elapsed time (s)
predicted() {
	local np=$1
	shift
	rm -rf "$W/t"
	"$BUILD/vlrun" --vmconfig "$CFG" --trace-dir "$W/t" -np "$np" "$@" > /dev/null 2>&1 || return 1
	"$BUILD/vlpost" stats --brief "$W/t" 2> /dev/null | sed -n 's/^predicted elapsed time: \([0-9.e+-]*\) s$/\1/p'
}

# row LABEL NP PROG ARGS...: RUNS predictions, their median and spread
row() {
	local label=$1 np=$2 i v vals=""
	shift 2
	for ((i = 0; i < RUNS; i++)); do
		v=$(predicted "$np" "$@") || v=""
		[ -n "$v" ] && vals="$vals $v"
	done
	echo $vals | tr ' ' '\n' | sort -g | awk -v l="$label" -v np="$np" -v runs="$RUNS" '
		{ v[NR] = $1 }
		END {
			if (NR == 0) { printf "%-22s %4d   (no run succeeded)\n", l, np; exit }
			med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%-22s %4d %5d/%d %12.6f %12.6f %12.6f %8.1f %%\n", l, np, NR, runs,
				med, v[1], v[NR], (med > 0 ? 100 * (v[NR] - v[1]) / med : 0)
		}'
}

table() { # TITLE
	printf '\n%s\n' "$1"
	printf '%-22s %4s %7s %12s %12s %12s %9s\n' "sample" "p" "runs" "median s" "min s" "max s" "spread"
	for p in ${PS_SCALAR:-1 2 4 8 16}; do
		row "scalar product" "$p" "$S/scalarprod.v" -n "${N_SCALAR:-1000000}"
	done
	for p in ${PS_CANNON:-1 4 16}; do
		row "cannon" "$p" "$S/cannon.v" -n "${N_CANNON:-240}"
	done
}

# floor LABEL N: the spread of one fixed loop's CPU time, natively, 2 x RUNS runs
floor() {
	local i
	for ((i = 0; i < 2 * RUNS; i++)); do "$W/cpuloop" "$2"; done | sort -g | awk -v l="$1" '
		{ v[NR] = $1 }
		END {
			med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%-22s %4s %5d/%d %12.6f %12.6f %12.6f %8.1f %%\n", l, "-", NR, NR,
				med, v[1], v[NR], (med > 0 ? 100 * (v[NR] - v[1]) / med : 0)
		}'
}

echo "repeatability of predictions with measured computation ($(nproc) CPUs, vienna.ini, $RUNS runs each)"
# the machine's own floor: no prediction from measured CPU time can repeat
# better than the CPU time of identical work does
if cc -O2 -o "$W/cpuloop" "$TOP/bench/cpuloop.c" 2> /dev/null; then
	printf '\n%s\n' "this machine's floor: one fixed loop's CPU time, natively (bench/cpuloop.c)"
	printf '%-22s %4s %7s %12s %12s %12s %9s\n' "loop" "" "runs" "median s" "min s" "max s" "spread"
	floor "loop, about 5 ms" 3000000
	floor "loop, about 0.5 s" 300000000
fi
# the same with the CPU gate ([simulation] cpus = auto: no more ranks compute
# at once than there are processors, each pinned to one)
sed 's/^\[simulation\]/[simulation]\ncpus = auto/' "$CFG" > "$W/gate.ini"
PLAIN=$CFG
for gate in off auto; do
	[ $gate = off ] && CFG=$PLAIN || CFG=$W/gate.ini
	table "quiet machine, cpus = $gate"
	for _ in 1 2; do
		(while :; do :; done) &
		HOGS="$HOGS $!"
	done
	table "beside a CPU hog (two busy loops), cpus = $gate"
	stop_hogs
done
