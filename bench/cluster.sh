#!/bin/bash
# cluster.sh BUILD - an emulated cluster (issue 13): 4 network namespaces of
# this machine (hosts vlc1..vlc4), each joined to a bridge by a veth pair whose
# two ends are rate-limited by tbf (RATE each way: a star of full-duplex
# links).  On it, natively (Open MPI over TCP, its tuned collectives forced to
# the algorithms the model times: binomial bcast, recursive-doubling
# allreduce, pairwise alltoall): ping-pongs of 8 B and 1 MiB give the model
# (latency, bandwidth), then bcast, allreduce and alltoall of 64 KiB and 1 MiB
# are measured (the least and the median of REPS repetitions).  The same
# program under vlrun on the fitted VMConfig, with [topology] kind = star
# (full duplex; and half duplex) and without one (contention-free, "free"),
# gives the predictions (seconds); and "calib": calib_mpi run on the cluster
# (ping-pongs and its sharing experiments, every size to 4 MiB) and `vlcalib fit` give the
# whole VMConfig, [topology] included (its duplex, bandwidth, backplane).  The
# table shows each against the measured least.  Needs root, ip, tc (iproute2), unshare and
# mpirun; says why and exits 0 otherwise.  Figures only.
# BENCH_RATE (100mbit), BENCH_QUEUE (tbf's latency: how long a packet may
# queue, 1s), BENCH_BURST (tbf's burst, 10kb), BENCH_REPS (5), BENCH_CALIB
# (calib_mpi's options: all ping-pong sizes to 4 MiB, 1 s a row), BENCH_KEEP (keep the work folder: its fit).
set -u
BUILD=$(cd "${1:-build}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
RATE=${BENCH_RATE:-100mbit}
REPS=${BENCH_REPS:-5}
QUEUE=${BENCH_QUEUE:-1s}
BURST=${BENCH_BURST:-10kb}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
skip() { echo "cluster.sh: skipped: $1"; exit 0; }
[ "$(id -u)" = 0 ] || skip "the namespaces are made as root"
for c in ip tc unshare mpirun mpicc; do command -v $c > /dev/null || skip "no $c"; done
W=$(mktemp -d)
NS=vlc$$n
export VL_CL_NS=$NS
cleanup() {
	for i in 1 2 3 4 br; do
		ip netns del "$NS$i" 2> /dev/null
		rm -rf "/etc/netns/$NS$i"
	done
	[ -n "${BENCH_KEEP:-}" ] && echo "kept: $W" || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
ip netns add "${NS}br" 2> "$W/err" || skip "no network namespaces here ($(head -1 "$W/err"))"
ip -n "${NS}br" link add br0 type bridge && ip -n "${NS}br" link set br0 up || skip "no bridge"
for i in 1 2 3 4; do
	ip netns add "$NS$i" &&
		ip link add "vc$$$i" type veth peer name "vb$$$i" &&
		ip link set "vc$$$i" netns "$NS$i" && ip link set "vb$$$i" netns "${NS}br" &&
		ip -n "${NS}br" link set "vb$$$i" master br0 &&
		ip -n "${NS}br" link set "vb$$$i" up &&
		ip -n "$NS$i" addr add "10.234.0.$i/24" dev "vc$$$i" &&
		ip -n "$NS$i" link set "vc$$$i" up && ip -n "$NS$i" link set lo up &&
		ip netns exec "$NS$i" tc qdisc add dev "vc$$$i" root tbf rate "$RATE" burst "$BURST" \
			latency "$QUEUE" &&
		ip netns exec "${NS}br" tc qdisc add dev "vb$$$i" root tbf rate "$RATE" burst "$BURST" \
			latency "$QUEUE" || skip "host vlc$i cannot be made (veth, bridge or tbf)"
	mkdir -p "/etc/netns/$NS$i"
	{
		echo "127.0.0.1 localhost"
		for j in 1 2 3 4; do echo "10.234.0.$j vlc$j"; done
	} > "/etc/netns/$NS$i/hosts"
done
mpicc -O2 -o "$W/collbench" "$HERE/collbench.c" || skip "mpicc failed"
"$BUILD/vlcc" -mpi -O2 -o "$W/collbench.v" "$HERE/collbench.c" || skip "vlcc -mpi failed"
printf 'vlc1 slots=1\nvlc2 slots=1\nvlc3 slots=1\nvlc4 slots=1\n' > "$W/hosts"
# measure KIND BYTES: "KIND BYTES min median" natively on the cluster
# on_cluster CMD...: CMD under mpirun with one rank on each emulated host
on_cluster() {
	ip netns exec "${NS}1" unshare --uts sh -c 'hostname vlc1; exec "$@"' sh \
		timeout 900 mpirun --mca plm_rsh_agent "$HERE/../tests/e2e/multihost/rsh.sh" --hostfile "$W/hosts" \
		-np 4 --map-by node --mca btl tcp,self --mca btl_tcp_if_include 10.234.0.0/24 \
		--mca oob_tcp_if_include 10.234.0.0/24 --mca coll_tuned_use_dynamic_rules 1 \
		--mca mpi_yield_when_idle 1 --mca coll_tuned_bcast_algorithm 6 --mca coll_tuned_allreduce_algorithm 3 \
		--mca coll_tuned_alltoall_algorithm 2 "$@"
}
measure() {
	on_cluster "$W/collbench" "$1" "$2" "$REPS" 2> "$W/mpi.err" | tail -1
}
pp8=$(measure pingpong 8 | awk '{ print $3 }')
pp1m=$(measure pingpong 1048576 | awk '{ print $3 }')
[ -n "$pp8" ] && [ -n "$pp1m" ] || skip "mpirun on the cluster failed: $(tail -3 "$W/mpi.err")"
# the model: one-way time t(n) = L + n / B through the two points
read -r L B <<< "$(awk -v a="$pp8" -v b="$pp1m" 'BEGIN {
	B = (1048576 - 8) / (b - a); L = a - 8 / B; if (L < 0) L = 0
	printf "%d %.0f", L * 1e9, B }')"
model() { # NAME [TOPOLOGY LINES]
	local name=$1
	shift
	{
		printf '[simulation]\ncompute = ignore\n[network inter]\ntrans_delay = %dns\n' "$L"
		printf 'bandwidth = %sB/s\n[mpi]\neager_limit = 65536\nranks_per_node = 1\n' "$B"
		printf '[collectives]\nbcast = binomial_ompi\nallreduce = recursive_doubling\n'
		printf 'alltoall = pairwise\n[hosts vlc]\ncount = 4\n'
		[ $# -gt 0 ] && printf '[topology]\n' && printf '%s\n' "$@"
	} > "$W/$name.ini"
}
model star "kind = star"
model half "kind = star" "duplex = half"
model free
# calib: the cluster calibrated by vlcalib, sharing experiments included
if on_cluster "$BUILD/calib_mpi" --only rtt,oneway,send,recv,share ${BENCH_CALIB:---sizes 0:4MiB --row-budget 1s --min-time 5ms} -o "$W/raw.csv" \
	> "$W/calib.out" 2>&1 && "$BUILD/vlcalib" fit --stat min "$W/raw.csv" -o "$W/fit.ini" > "$W/fit.out" 2>&1; then
	{
		printf '[simulation]\ncompute = ignore\n[mpi]\neager_limit = 65536\nranks_per_node = 1\n'
		printf '[collectives]\nbcast = binomial_ompi\nallreduce = recursive_doubling\n'
		printf 'alltoall = pairwise\n[hosts vlc]\ncount = 4\n'
		grep -v '^eager_limit' "$W/fit.ini" | sed '/^\[mpi\]/d'
	} > "$W/calib.ini"
	echo "vlcalib on the cluster: $(sed -n '/^\[topology\]/,/^\[/p' "$W/fit.ini" | grep -v '^;' |
		grep '=' | tr -s ' ' | paste -sd';')"
else
	echo "vlcalib on the cluster failed: $(tail -2 "$W/calib.out" "$W/fit.out")"
	cp "$W/free.ini" "$W/calib.ini"
fi
predict() { # CONFIG KIND BYTES: the predicted time
	OMPI_MCA_rmaps_base_oversubscribe=1 "$BUILD/vlrun" -np 4 --vmconfig "$W/$1.ini" \
		--trace-dir "$W/t" "$W/collbench.v" "$2" "$3" 1 2> "$W/vl.err" | tail -1 |
		awk '{ print $3 }'
}
echo "emulated cluster: 4 hosts, tbf $RATE each way per host link; fitted L = $L ns," \
	"B = $B B/s (ping-pong 8 B: $pp8 s, 1 MiB: $pp1m s)"
printf '%-10s %8s %10s %10s %10s %7s %10s %7s %10s %7s %10s %7s\n' kind bytes "measured" \
	"median" "star" "error" "half" "error" "free" "error" "calib" "error"
for k in bcast allreduce alltoall; do
	for n in 65536 1048576; do
		read -r _ _ mn md <<< "$(measure $k $n)"
		ps=$(predict star $k $n)
		ph=$(predict half $k $n)
		pf=$(predict free $k $n)
		pc=$(predict calib $k $n)
		awk -v k=$k -v n=$n -v mn="$mn" -v md="$md" -v ps="$ps" -v ph="$ph" -v pf="$pf" -v pc="$pc" '
		function e(p) { return mn > 0 ? 100 * (p - mn) / mn : 0 }
		BEGIN {
			printf "%-10s %8d %10.6f %10.6f %10.6f %+6.1f%% %10.6f %+6.1f%% %10.6f %+6.1f%% %10.6f %+6.1f%%\n",
				k, n, mn, md, ps, e(ps), ph, e(ph), pf, e(pf), pc, e(pc) }'
	done
done
