#!/bin/bash
# test_mpi_fortran.sh BUILD - Fortran MPI programs under the layer: their calls
# are seen and timed exactly, through each binding.  tests/e2e/mpi_exact_f.f90
# (include 'mpif.h'), mpi_exact_fmod.f90 (use mpi) and mpi_exact_f08.f90 (use
# mpi_f08, whose wrappers call Open MPI's ompi_*_f) built with vlcc -mpifort,
# and mpi_exact_f.f90 built with plain mpifort (.native), timed through vlrun's
# LD_PRELOAD.  Computation is ignored and every rank is on its own virtual host
# (tests/e2e/mpi.ini), so every message uses the inter-node model:
#   S = 10 us (send), R = 20 us (receive), T(b) = 30 us + b * 8 us / KiB,
# eager below 4 KiB.  Each program prints "T RANK LABEL NS" after each phase:
# ping-pong (first round trip, end), one Isend/Irecv/Waitall exchange, barrier,
# allreduce, allreduce in place.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
CFG=$HERE/mpi.ini
S=10000
R=20000
T() { echo $((30000 + $1 * 8000000 / 1024000)); }
max() { if [ "$1" -gt "$2" ]; then echo "$1"; else echo "$2"; fi; }

# run PROGRAM ARGS...: 2 ranks; sets $out
run() {
	out=$("$BUILD/vlrun" -np 2 --vmconfig "$CFG" --trace-dir "$WORK/trace" "$@" 2>&1)
	if [ $? != 0 ]; then
		fail "mpirun 2 ranks: $(basename "$1") ${*:2}: exit status"
		echo "$out" | tail -20
	fi
	if echo "$out" | grep -q "^BAD"; then
		fail "$(basename "$1") ${*:2}: result or status under the layer: $(echo "$out" | grep "^BAD" | head -3)"
	fi
}
# stat RANK COLUMN: a column of vlpost stats --brief --csv ($st)
stat() {
	echo "$st" | awk -F, -v r="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$1 == r { print $k[c] }'
}
# us NS: nanoseconds as vlpost prints microseconds
us() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }
# get RANK LABEL
get() { echo "$out" | awk -v r="$1" -v l="$2" '$1 == "T" && $2 == r && $3 == l { print $4 }'; }

# One collective step between two ranks entering at e0 and e1 (dissemination
# barrier and recursive-doubling allreduce on 2 ranks are both one exchange):
# each sends (S), the message arrives T(b) after the sender's send ended, the
# receive ends R after the later of its own send and the arrival.
# pair E_ME E_PEER BYTES: this rank's exit
pair() { echo $(($(max $(($1 + S)) $(($2 + S + $(T $3)))) + R)); }

# vlcc linked the layer into the three; the native binary only gets it from vlrun
for prog in mpi_exact_f mpi_exact_fmod mpi_exact_f08; do
	assert_eq "$prog needs libvlayer-mpi" 1 "$(readelf -d "$BUILD/tests/$prog" | grep -c 'libvlayer-mpi')"
done
assert_eq "mpi_exact_f.native needs no libvlayer" 0 \
	"$(readelf -d "$BUILD/tests/mpi_exact_f.native" | grep -c 'libvlayer')"

for prog in mpi_exact_f mpi_exact_fmod mpi_exact_f08 mpi_exact_f.native; do
	case $prog in
	mpi_exact_f) what="mpif.h" ;;
	mpi_exact_fmod) what="use mpi" ;;
	mpi_exact_f08) what="use mpi_f08" ;;
	*) what="mpif.h native under vlrun" ;;
	esac
	for n in 100 10000; do
		run "$BUILD/tests/$prog" $n
		Tn=$(T $n)
		one=$((S + Tn + R))
		# ---- ping-pong, 3 round trips ----
		assert_eq "$what $n B: ping-pong RTT ns" $((2 * one)) "$(get 0 first)"
		a0=$((6 * one))
		a1=$((5 * one + S))
		# a rendezvous send returns when its data are in (T later)
		[ $n -lt 4096 ] || a1=$((a1 + Tn))
		assert_eq "$what $n B: rank 0 after 3 round trips" $a0 "$(get 0 pingpong)"
		assert_eq "$what $n B: rank 1 after 3 round trips" $a1 "$(get 1 pingpong)"
		# ---- Irecv, Isend (costs S), Waitall; rank 0 enters T + R later than rank 1 ----
		if [ $n -lt 4096 ]; then
			# eager: rank 1's message (sent at a1 + S) arrives before rank 0's
			# own send ends; rank 0's arrives at a0 + S + T
			e0=$((a0 + S + R))
			e1=$((a0 + S + Tn + R))
		else
			# rendezvous: rank 0's data leave at a0 + S (rank 1's receive was
			# posted before), rank 1's when rank 0 posts its receive (a0);
			# Waitall waits for req(1), the send, first: it is done when its
			# data are in (a0 + S + T), then the receive (in by a0 + T) costs R
			e0=$((a0 + S + Tn + R))
			e1=$((a0 + S + Tn + R))
		fi
		assert_eq "$what $n B: rank 0 after the exchange (enters the barrier)" $e0 "$(get 0 exchange)"
		assert_eq "$what $n B: rank 1 after the exchange (enters the barrier)" $e1 "$(get 1 exchange)"
		# ---- barrier, dissemination: ceil(log2 2) = 1 round of empty messages ----
		f0=$(pair $e0 $e1 0)
		f1=$(pair $e1 $e0 0)
		assert_eq "$what $n B: barrier rank 0" $f0 "$(get 0 barrier)"
		assert_eq "$what $n B: barrier rank 1" $f1 "$(get 1 barrier)"
		# ---- allreduce of max(1, n/8) doubles, recursive doubling: one exchange ----
		b=$((8 * (n / 8 > 0 ? n / 8 : 1)))
		g0=$(pair $f0 $f1 $b)
		g1=$(pair $f1 $f0 $b)
		assert_eq "$what $n B: allreduce rank 0" $g0 "$(get 0 allreduce)"
		assert_eq "$what $n B: allreduce rank 1" $g1 "$(get 1 allreduce)"
		end=($(pair $g0 $g1 $b) $(pair $g1 $g0 $b))
		assert_eq "$what $n B: allreduce in place rank 0" ${end[0]} "$(get 0 end)"
		assert_eq "$what $n B: allreduce in place rank 1" ${end[1]} "$(get 1 end)"
		# ---- one trace per rank; vlpost stats shows the messages and the times ----
		assert_eq "$what $n B: traces" 2 "$(ls "$WORK/trace"/*.trc 2> /dev/null | wc -l)"
		st=$("$BUILD/vlpost" stats --brief --csv "$WORK/trace" 2>&1)
		assert_eq "$what $n B: vlpost stats exits" 0 $?
		for r in 0 1; do
			# 3 ping-pong messages and 1 Isend each way; the collectives' are not counted
			assert_eq "$what $n B: vlpost rank $r messages sent" 4 "$(stat $r msgs_sent)"
			assert_eq "$what $n B: vlpost rank $r bytes sent" $((4 * n)) "$(stat $r bytes_sent)"
			assert_eq "$what $n B: vlpost rank $r messages received" 4 "$(stat $r msgs_recv)"
			# communication: 4 sends and 4 receives, 3 collective steps of S + R
			assert_eq "$what $n B: vlpost rank $r comm_us" "$(us $((7 * (S + R))))" "$(stat $r comm_us)"
			assert_eq "$what $n B: vlpost rank $r total_us" "$(us ${end[$r]})" "$(stat $r total_us)"
		done
	done
done
e2e_summary
