#!/bin/bash
# test_cpugate.sh BUILD - the CPU gate ([simulation] cpus, issue 15): with
# measured computation no more tasks of a run compute at once than cpus; a
# token whose holder sleeps outside the layer is taken back; off by default
# and never under compute = ignore.  Real intervals are read by the program
# (tests/e2e/cpugate_mpi.c) with the clock_gettime system call.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
mpi_env
VLCC_CC="${VLCC_CC:-cc}" "$BUILD/vlcc" -mpi -Wall -Wextra -Werror -O1 \
	-o "$WORK/cpugate_mpi" "$HERE/cpugate_mpi.c" || { fail "build cpugate_mpi.c"; e2e_summary; exit 1; }

# config CPUS [COMPUTE]: a VMConfig of 4 hosts with that gate
config() {
	printf '[simulation]\ncompute = %s\ncpus = %s\n\n[network]\nsend_delay = 10us\n' \
		"${2:-measured}" "$1" > "$WORK/c.ini"
	printf 'recv_delay = 10us\ntrans_delay = 10us\n\n[hosts n]\ncount = 4\n' >> "$WORK/c.ini"
}
# run NP ARGS...: output in $out, traces in $WORK/t
run() {
	local np=$1
	shift
	rm -rf "$WORK/t"
	out=$(timeout 120 "$BUILD/vlrun" $PRE -np "$np" --vmconfig "$WORK/c.ini" --trace-dir "$WORK/t" \
		"$WORK/cpugate_mpi" "$@" 2>&1)
	[ $? = 0 ] || { fail "cpugate_mpi $*: exit status"; echo "$out" | tail -5; }
}
gate_file() { ls -A "$WORK/t" | grep -c '^\.vlayer-cpus\.'; }

# 1. one processor: 4 ranks computing 30 ms three times never overlap
config 1
run 4 busy 30 3
assert_eq "cpus = 1: at most one rank computes at once" "overlap 1" "$out"
assert_eq "cpus = 1: the run's gate file" 1 "$(gate_file)"
# two processors, in the same directory without emptying it: two ranks
# compute at once, not more and not one (the earlier run's gate of one
# processor is removed when the directory is claimed)
config 2
out=$(timeout 120 "$BUILD/vlrun" $PRE -np 4 --vmconfig "$WORK/c.ini" --trace-dir "$WORK/t" \
	"$WORK/cpugate_mpi" busy 30 3 2>&1)
assert_eq "cpus = 2, run into the same directory: two ranks compute at once" "overlap 2" "$out"
# the control: without the gate the 4 ranks do overlap (on 2 processors or more)
config off
run 4 busy 30 3
assert_eq "cpus = off: no gate file" 0 "$(gate_file)"
if [ "$(nproc)" -ge 2 ]; then
	case "$out" in
	"overlap 1" | "") fail "cpus = off: the ranks should overlap ($out)" ;;
	*) ok "cpus = off: the ranks compute at once ($out)" ;;
	esac
else
	echo "skip: one processor here, the control needs two"
fi
# 2. a holder that sleeps outside the layer gives its token up: the other
# ranks compute before rank 0's 400 ms sleep ends
config 1
run 4 sleep 400
assert_eq "cpus = 1: a sleeping holder's token is taken back" "before 3 of 3" "$out"
# 3. the waiters are served smallest virtual time first, whatever order they
# came in: four tasks on the gate of one processor (tests/tools/gate_order):
# H takes it at virtual time 0 and computes 400 ms; meanwhile 1, 2 and 3 ask
# for it in that real order, at virtual times 3, 2 and 1 ms
mkdir -p "$WORK/g"
: > "$WORK/g.order"
VLAYER_TRACE_DIR="$WORK/g" timeout 60 "$BUILD/tests/gate_order" 0 400 9 >> "$WORK/g.order" &
gpids=$!
sleep 0.1
for w in "3000 20 1" "2000 20 2" "1000 20 3"; do
	VLAYER_TRACE_DIR="$WORK/g" timeout 60 "$BUILD/tests/gate_order" $w >> "$WORK/g.order" &
	gpids="$gpids $!"
	sleep 0.05
done
wait $gpids
assert_eq "cpus = 1: the smallest virtual time computes first (9: the holder)" "9 3 2 1" \
	"$(tr '\n' ' ' < "$WORK/g.order" | sed 's/ $//')"
# 4. computation ignored: no gate
config 1 ignore
run 4 busy 1 1
assert_eq "compute = ignore: no gate file" 0 "$(gate_file)"
# 5. PVM: the ping-pong sample (a parent and its spawned child) through the gate
pvmd_start "$BUILD/samples"
config 1
rm -rf "$WORK/t"
out=$(VMCONFIG="$WORK/c.ini" VLAYER_TRACE_DIR="$WORK/t" timeout 60 "$BUILD/samples/pingpong.v" -r 3 -h n2 8 1000 2>&1)
assert_eq "PVM ping-pong with cpus = 1: exit status" 0 $?
pvmd_stop
assert_eq "PVM: the run's gate file" 1 "$(gate_file)"
assert_eq "PVM: both tasks traced" 2 "$(ls "$WORK/t" | grep -c '\.trc$')"
e2e_summary
