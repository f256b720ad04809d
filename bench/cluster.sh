#!/bin/bash
# cluster.sh BUILD - an emulated cluster (issue 13): 4 network namespaces of
# this machine (hosts vlc1..vlc4), each joined to a bridge by a veth pair whose
# two ends are rate-limited by tbf (RATE each way: a star of full-duplex
# links; tests/e2e/multihost/emucluster.sh).  Two parts, each with its own
# model fitted to its own ping-pongs of 8 B and 1 MiB on the cluster (latency,
# bandwidth); the collectives of 64 KiB and 1 MiB are measured there (the
# least and the median of REPS repetitions) and predicted by the same program
# under the layer with [topology] kind = star (fair sharing "star", FIFO
# "fifo", half duplex "half") and without a topology ("free"):
#   PVM: bench/pvmcoll.c (pvm_send/pvm_recv over direct routes: binomial
#        bcast, recursive-doubling allreduce, pairwise alltoall, and one host
#        sending to three / three to one, "fanout" / "fanin"), the natives
#        in one PVM virtual machine of the 4 hosts, the predictions under a
#        private pvmd of this machine; and "calib": calib_pvm on the cluster
#        (one task per host, direct routes, its sharing experiments) and
#        `vlcalib fit`;
#   MPI: bench/collbench.c under Open MPI over TCP, its tuned collectives
#        forced to the algorithms the model times; and "calib": calib_mpi run
#        on the cluster (ping-pongs and its sharing experiments, every size to
#        4 MiB) and `vlcalib fit` give the whole VMConfig, [topology] included
#        (its duplex, bandwidth, backplane).
# The tables show each prediction against the measured least.  Needs root, ip,
# tc (iproute2), unshare, and pvmd or mpirun; says why and exits 0 otherwise.
# Figures only (test_cluster.sh asserts the PVM part).
# BENCH_ONLY (pvm or mpi: that part alone), BENCH_RATE (100mbit), BENCH_QUEUE
# (tbf's latency: how long a packet may queue, 1s), BENCH_BURST (tbf's burst,
# 3kb: two frames; 10kb, the default before 2026-11-27, let the first 10 kB of
# every message through at once), BENCH_REPS (5), BENCH_CALIB (calib_mpi's
# options: all ping-pong sizes to 4 MiB, 1 s a row), BENCH_KEEP (keep the work
# folder: its fit).
set -u
BUILD=$(cd "${1:-build}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
REPS=${BENCH_REPS:-5}
EC_RATE=${BENCH_RATE:-100mbit}
EC_QUEUE=${BENCH_QUEUE:-1s}
EC_BURST=${BENCH_BURST:-3kb}
export OPENBLAS_NUM_THREADS=1
skip() { echo "cluster.sh: skipped: $1"; exit 0; }
[ "$(id -u)" = 0 ] || skip "the namespaces are made as root"
W=$(mktemp -d)
EC_W=$W
. "$HERE/../tests/e2e/multihost/emucluster.sh"
. "$HERE/../scripts/pvmd.sh"
cleanup() {
	ec_down
	vl_pvmd_cleanup
	[ -n "${BENCH_KEEP:-}" ] && echo "kept: $W" || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
ec_up || skip "$EC_WHY"
# fit NAME T8 T1M: "L_ns B" of the line t(n) = L + n / B through the ping-pongs
fit() {
	awk -v a="$1" -v b="$2" 'BEGIN { B = (1048576 - 8) / (b - a); L = a - 8 / B
		if (L < 0) L = 0; printf "%d %.0f", L * 1e9, B }'
}
# model NAME L B [TOPOLOGY LINES]: a VMConfig of the 4 hosts, vlc1..vlc4
model() {
	local name=$1 l=$2 b=$3
	shift 3
	{
		printf '[simulation]\ncompute = ignore\n[network inter]\ntrans_delay = %dns\n' "$l"
		printf 'bandwidth = %sB/s\n[mpi]\neager_limit = 65536\nranks_per_node = 1\n' "$b"
		printf '[collectives]\nbcast = binomial_ompi\nallreduce = recursive_doubling\n'
		printf 'alltoall = pairwise\n[hosts vlc]\ncount = 4\n'
		[ $# -gt 0 ] && printf '[topology]\n' && printf '%s\n' "$@"
	} > "$W/$name.ini"
}
models() { # PREFIX L B: the star (fair, fifo, half duplex) and contention-free models
	model "$1star" "$2" "$3" "kind = star"
	model "$1fifo" "$2" "$3" "kind = star" "sharing = fifo"
	model "$1half" "$2" "$3" "kind = star" "duplex = half"
	model "$1free" "$2" "$3"
}
# table MEASURE PREDICT PREFIX COLUMNS...: per collective and size, the
# measured least and median, and each model's prediction and error
table() {
	local measure=$1 predict=$2 pre=$3 k n c mn md line
	shift 3
	printf '%-10s %8s %10s %10s' kind bytes measured median
	for c in "$@"; do printf ' %10s %7s' "$c" error; done
	echo
	for k in ${KINDS:-bcast allreduce alltoall}; do
		for n in 65536 1048576; do
			read -r _ _ mn md <<< "$($measure $k $n)"
			line=$(printf '%-10s %8d %10.6f %10.6f' $k $n "${mn:-0}" "${md:-0}")
			for c in "$@"; do
				line="$line $(awk -v mn="${mn:-0}" -v p="$($predict "$pre$c" $k $n)" 'BEGIN {
					printf "%10.6f %+6.1f%%", p, (mn > 0 ? 100 * (p - mn) / mn : 0) }')"
			done
			echo "$line"
		done
	done
}

# ---- MPI: Open MPI over TCP ----
mpi_part() {
	mpicc -O2 -o "$W/collbench" "$HERE/collbench.c" || { echo "MPI: mpicc failed"; return; }
	"$BUILD/vlcc" -mpi -O2 -o "$W/collbench.v" "$HERE/collbench.c" ||
		{ echo "MPI: vlcc -mpi failed"; return; }
	local pp8 pp1m L B
	pp8=$(mpi_measure pingpong 8 | awk '{ print $3 }')
	pp1m=$(mpi_measure pingpong 1048576 | awk '{ print $3 }')
	if [ -z "$pp8" ] || [ -z "$pp1m" ]; then
		echo "MPI: mpirun on the cluster failed: $(tail -3 "$W/mpi.err")"
		return
	fi
	read -r L B <<< "$(fit "$pp8" "$pp1m")"
	models mpi "$L" "$B"
	# calib: the cluster calibrated by vlcalib, sharing experiments included
	if on_cluster "$BUILD/calib_mpi" --only rtt,oneway,send,recv,share ${BENCH_CALIB:---sizes 0:4MiB --row-budget 1s --min-time 5ms} -o "$W/raw.csv" \
		> "$W/calib.out" 2>&1 && "$BUILD/vlcalib" fit --stat min "$W/raw.csv" -o "$W/fit.ini" > "$W/fit.out" 2>&1; then
		{
			printf '[simulation]\ncompute = ignore\n[mpi]\neager_limit = 65536\nranks_per_node = 1\n'
			printf '[collectives]\nbcast = binomial_ompi\nallreduce = recursive_doubling\n'
			printf 'alltoall = pairwise\n[hosts vlc]\ncount = 4\n'
			grep -v '^eager_limit' "$W/fit.ini" | sed '/^\[mpi\]/d'
		} > "$W/mpicalib.ini"
		echo "MPI: vlcalib on the cluster: $(sed -n '/^\[topology\]/,/^\[/p' "$W/fit.ini" | grep -v '^;' |
			grep '=' | tr -s ' ' | paste -sd';')"
	else
		echo "MPI: vlcalib on the cluster failed: $(tail -2 "$W/calib.out" "$W/fit.out")"
		cp "$W/mpifree.ini" "$W/mpicalib.ini"
	fi
	echo "MPI on the emulated cluster: fitted L = $L ns, B = $B B/s (ping-pong 8 B: $pp8 s," \
		"1 MiB: $pp1m s)"
	table mpi_measure mpi_predict mpi star fifo half free calib
}
# on_cluster CMD...: CMD under mpirun with one rank on each emulated host, Open
# MPI's tuned collectives forced to the algorithms the model times
on_cluster() {
	ec_mpi --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 6 \
		--mca coll_tuned_allreduce_algorithm 3 --mca coll_tuned_alltoall_algorithm 2 "$@"
}
# mpi_measure KIND BYTES: "KIND BYTES min median" natively on the cluster
mpi_measure() {
	on_cluster "$W/collbench" "$1" "$2" "$REPS" 2> "$W/mpi.err" | tail -1
}
mpi_predict() { # CONFIG KIND BYTES: the predicted time
	OMPI_MCA_rmaps_base_oversubscribe=1 "$BUILD/vlrun" -np 4 --vmconfig "$W/$1.ini" \
		--trace-dir "$W/t" "$W/collbench.v" "$2" "$3" 1 2> "$W/vl.err" | tail -1 |
		awk '{ print $3 }'
}

# ---- PVM: the same collectives by pvm_send/pvm_recv over direct routes ----
pvm_part() {
	command -v pvmd > /dev/null || { echo "PVM: skipped: no pvmd"; return; }
	cc -O2 -o "$W/pvmcoll" "$HERE/pvmcoll.c" -lpvm3 || { echo "PVM: cc failed"; return; }
	"$BUILD/vlcc" -O2 -o "$W/pvmcoll.v" "$HERE/pvmcoll.c" || { echo "PVM: vlcc failed"; return; }
	ec_pvm_up || { echo "PVM: skipped: $EC_WHY"; return; }
	local pp8 pp1m L B k n
	pp8=$(pvm_measure pingpong 8 | awk '{ print $3 }')
	pp1m=$(pvm_measure pingpong 1048576 | awk '{ print $3 }')
	if [ -z "$pp8" ] || [ -z "$pp1m" ]; then
		echo "PVM: pvmcoll on the cluster failed: $(tail -3 "$W/pvm.err")"
		return
	fi
	for k in bcast allreduce alltoall fanout fanin; do
		for n in 65536 1048576; do
			pvm_measure $k $n > "$W/pvm.$k.$n"
		done
	done
	# calib: calib_pvm on the cluster (one task per host, direct routes, its
	# sharing experiments included) and `vlcalib fit`
	if (cd "$W" && ec_pvm timeout 900 "$BUILD/calib_pvm" -np 4 --hosts vlc1,vlc2,vlc3,vlc4 \
		--route direct --only rtt,oneway,send,recv,share \
		${BENCH_CALIB:---sizes 0:4MiB --row-budget 1s --min-time 5ms} -o "$W/pvmraw.csv") \
		> "$W/pvmcalib.out" 2>&1 &&
		"$BUILD/vlcalib" fit --stat min "$W/pvmraw.csv" -o "$W/pvmfit.ini" > "$W/pvmfit.out" 2>&1; then
		{
			printf '[simulation]\ncompute = ignore\n[hosts vlc]\ncount = 4\n'
			cat "$W/pvmfit.ini"
		} > "$W/pvmcalib.ini"
		echo "PVM: vlcalib on the cluster: $(sed -n '/^\[topology\]/,/^\[/p' "$W/pvmfit.ini" |
			grep -v '^;' | grep '=' | tr -s ' ' | paste -sd';')"
	else
		echo "PVM: vlcalib on the cluster failed: $(tail -2 "$W/pvmcalib.out" "$W/pvmfit.out")"
	fi
	ec_pvm_down
	# the predictions run on this machine alone, under a private pvmd
	vl_pvmd_start "$W:/usr/bin" "$W" || return
	read -r L B <<< "$(fit "$pp8" "$pp1m")"
	models pvm "$L" "$B"
	echo "PVM on the emulated cluster: fitted L = $L ns, B = $B B/s (ping-pong 8 B: $pp8 s," \
		"1 MiB: $pp1m s)"
	[ -f "$W/pvmcalib.ini" ] || cp "$W/pvmfree.ini" "$W/pvmcalib.ini"
	KINDS="bcast allreduce alltoall fanout fanin" table pvm_measured pvm_predict pvm fifo star half free calib
	vl_pvmd_stop
}
pvm_measure() { # KIND BYTES: "KIND BYTES min median" natively on the cluster
	(cd "$W" && ec_pvm timeout 300 "$W/pvmcoll" "$1" "$2" "$REPS") 2> "$W/pvm.err" | tail -1
}
pvm_measured() { cat "$W/pvm.$1.$2"; }
pvm_predict() { # CONFIG KIND BYTES
	(cd "$W" && VMCONFIG="$W/$1.ini" VLAYER_TRACE_DIR="$W/t" timeout 300 "$W/pvmcoll.v" "$2" "$3" 1) \
		2> "$W/vl.err" | tail -1 | awk '{ print $3 }'
}

echo "emulated cluster: 4 hosts, tbf $EC_RATE each way per host link (burst $EC_BURST," \
	"queue $EC_QUEUE), least and median of $REPS"
case ${BENCH_ONLY:-} in
mpi) mpi_part ;;
pvm) pvm_part ;;
*)
	pvm_part
	mpi_part
	;;
esac
