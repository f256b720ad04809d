#!/bin/bash
# test_tracedir.sh BUILD - one run per trace directory (issue 14, point 3).
# A second run into the directory of a live run is refused (exit 2, a message
# naming the live run's pid, host and start) and the live run's traces stay
# complete, for MPI (vlrun) and PVM (the first task: a run under another pvmd
# is refused, another task started from the shell under the same pvmd joins);
# a stale lock (its process gone) is reported and taken over; a lock of
# another host is refused.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
cd "$WORK" || exit 2
cat > slow_mpi.c <<'C'
#include <mpi.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int r, x = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	sleep(3); /* real seconds: the second run starts meanwhile */
	MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
C
cat > slow_pvm.c <<'C'
#include <pvm3.h>
#include <unistd.h>
int main(void)
{
	if (pvm_mytid() < 0)
		return 1;
	sleep(3);
	pvm_exit();
	return 0;
}
C
VLCC_CC="cc ${SAN:-}" "$BUILD/vlcc" -mpi slow_mpi.c -o slow_mpi && "$BUILD/vlcc" slow_pvm.c -o slow_pvm -lpvm3
assert_eq "test programs built" 0 $?

# ---- MPI: vlrun ----
"$BUILD/vlrun" -np 2 --trace-dir T ./slow_mpi > a.out 2>&1 &
a=$!
for _ in $(seq 1 100); do [ -f T/.vlayer-lock ] && break; sleep 0.1; done
"$BUILD/vlrun" -np 2 --trace-dir T ./slow_mpi > b.out 2>&1
assert_eq "MPI: a second run into a live run's directory: exit status" 2 $?
if grep -q "vltracedir: trace directory $WORK/T is in use by a live run started .* (pid $a on " b.out; then
	ok "MPI: the message names the live run"
else
	fail "MPI: message: $(cat b.out)"
fi
wait $a
assert_eq "MPI: the first run ends well" 0 $?
assert_eq "MPI: its traces, complete" "0 2" "$("$BUILD/vlpost" stats --brief T > /dev/null 2>&1; echo $?) $(ls T/vl-*.trc | wc -l)"
assert_eq "MPI: its lock is gone" no "$([ -e T/.vlayer-lock ] && echo yes || echo no)"

# a stale lock: its process is gone
sh -c 'exit 0' &
dead=$!
wait $dead
echo "$dead $(hostname) 1700000000" > T/.vlayer-lock
"$BUILD/vlrun" -np 2 --trace-dir T ./slow_mpi > c.out 2>&1
assert_eq "MPI: a stale lock is taken over" 0 $?
grep -q "taking over the stale lock of $WORK/T: pid $dead (started 2023-11-1[45] ..:..:..) is gone" c.out
assert_eq "MPI: ... and reported" 0 $?
# another host's lock cannot be checked: refused, with how to remove it
echo "1 some-other-host 1700000000" > T/.vlayer-lock
"$BUILD/vltracedir" claim T $$ 2> d.err
assert_eq "another host's lock: refused" 3 $?
grep -q "in use by a run started .* on host some-other-host (pid 1).*remove $WORK/\?T/.vlayer-lock\|remove T/.vlayer-lock" d.err
assert_eq "another host's lock: the message says how to remove it" 0 $?
rm -f T/.vlayer-lock

# ---- PVM: the first task ----
# a run under another pvmd (another virtual machine) is refused; a second task
# started from the shell under the same pvmd (NetPIPE-PVM's two ends) joins
pvmd_start "$WORK" || { fail "pvmd"; e2e_summary; exit 1; }
VLAYER_TRACE_DIR=P ./slow_pvm > pa.out 2>&1 &
pa=$!
for _ in $(seq 1 100); do [ -f P/.vlayer-lock ] && break; sleep 0.1; done
(
	. "$TOP/scripts/pvmd.sh"
	vl_pvmd_start "$WORK" "$WORK" || exit 99
	VLAYER_TRACE_DIR=P ./slow_pvm
	rc=$?
	vl_pvmd_cleanup
	exit $rc
) > pb.out 2>&1
assert_eq "PVM: a run under another pvmd into a live run's directory: exit status" 2 $?
if grep -q "vlayer: trace directory $WORK/P is in use by a live run started .* (pid $pa on " pb.out; then
	ok "PVM: the message names the live run"
else
	fail "PVM: message: $(cat pb.out)"
fi
VLAYER_TRACE_DIR=P ./slow_pvm > pc.out 2>&1
assert_eq "PVM: a second task from the shell under the same pvmd joins the run" 0 $?
wait $pa
assert_eq "PVM: the first run ends well" 0 $?
assert_eq "PVM: both tasks' traces, complete" "0 2" "$("$BUILD/vlpost" stats --brief P > /dev/null 2>&1; echo $?) $(ls P/vl-*.trc | wc -l)"
assert_eq "PVM: the lock is gone" no "$([ -e P/.vlayer-lock ] && echo yes || echo no)"
pvmd_stop
e2e_summary
