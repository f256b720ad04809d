#!/bin/bash
# test_crash.sh BUILD - a task that crashes after its last send leaves a
# readable trace with that send; a task killed by pvm_kill while it waits
# still writes its END record.  MPI too: a rank that crashes (Open MPI's own
# signal handlers in place: the layer flushes, then chains to them) or calls
# MPI_Abort leaves its send in its trace, not a header alone.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
VLCC_CC="${VLCC_CC:-cc}" "$BUILD/vlcc" -O1 -o "$WORK/crash" "$HERE/crash.c" ||
	{ fail "build crash.c"; e2e_summary; exit 1; }
pvmd_start "$WORK:/usr/bin"
VMCONFIG="$HERE/semantics.ini" VLAYER_TRACE_DIR="$WORK/trace" timeout 60 "$WORK/crash" > "$WORK/out" 2>&1
assert_eq "parent exit status" 0 $?
assert_eq "parent got the crashed child's message" "got 42" "$(grep '^got' "$WORK/out")"
assert_eq "pvm_kill succeeded" "kill 0" "$(grep '^kill' "$WORK/out")"
"$BUILD/vlpost" stats --brief --csv "$WORK/trace" > "$WORK/stats.csv" 2> "$WORK/stats.err"
assert_eq "vlpost stats reads all three traces" 0 $?
assert_eq "tasks" 3 "$(ls "$WORK/trace" | grep -c '\.trc$')"
# exactly one task has no END record: the crashed one, which still shows its send
assert_eq "tasks without END" 1 "$(grep -c 'no END record' "$WORK/stats.err")"
crashed=$(grep 'no END record' "$WORK/stats.err" | sed -E 's/.*vl-([0-9a-f]+)\.trc.*/\1/')
crashed=$(printf "0x%x" $((16#$crashed)))
head -1 "$WORK/stats.csv" > "$WORK/head"
sent_col=$(tr ',' '\n' < "$WORK/head" | grep -n -x -E 'sent|msgs_sent|messages_sent' | cut -d: -f1 | head -1)
tid_col=$(tr ',' '\n' < "$WORK/head" | grep -n -x 'tid' | cut -d: -f1 | head -1)
if [ -n "$sent_col" ] && [ -n "$tid_col" ]; then
	assert_eq "the crashed task's trace holds its send" 1 \
		"$(awk -F, -v t="$tid_col" -v s="$sent_col" -v c="$crashed" \
			'$t == c { print $s }' "$WORK/stats.csv")"
else
	fail "unexpected CSV header: $(cat "$WORK/head")"
fi

# ---- MPI ----
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
VLCC_CC="${VLCC_CC:-cc}" "$BUILD/vlcc" -mpi -O1 -o "$WORK/mpi_crash" "$HERE/mpi_crash.c" ||
	{ fail "build mpi_crash.c"; e2e_summary; exit 1; }
for mode in crash abort; do
	T="$WORK/mtrace-$mode"
	timeout 60 "$BUILD/vlrun" -np 2 --vmconfig "$HERE/mpi.ini" --trace-dir "$T" \
		"$WORK/mpi_crash" $mode > "$WORK/m$mode.out" 2>&1
	rc=$?
	if [ $rc != 0 ] && [ $rc != 124 ]; then ok "MPI $mode: the job fails ($rc)"; else fail "MPI $mode: exit status $rc"; fi
	"$BUILD/vlpost" stats --brief --csv "$T" > "$WORK/m$mode.csv" 2> "$WORK/m$mode.err"
	assert_eq "MPI $mode: vlpost reads both traces" "0 2" "$? $(ls "$T" | grep -c '\.trc$')"
	h=$(head -1 "$WORK/m$mode.csv")
	tc=$(echo "$h" | tr ',' '\n' | grep -n -x tid | cut -d: -f1)
	sc=$(echo "$h" | tr ',' '\n' | grep -n -x -E 'sent|msgs_sent|messages_sent' | cut -d: -f1 | head -1)
	assert_eq "MPI $mode: rank 1's trace holds its send" 1 \
		"$(awk -F, -v t="$tc" -v s="$sc" '$t == "1" || $t == "0x1" { print $s }' "$WORK/m$mode.csv")"
done
# the aborting rank ended its trace itself (END); the crashed one has none
grep -q 'vl-00000001.trc: no END record' "$WORK/mabort.err"
assert_eq "MPI abort: rank 1's trace has its END" 1 $?
grep -q 'vl-00000001.trc: no END record' "$WORK/mcrash.err"
assert_eq "MPI crash: rank 1's trace has no END (it crashed)" 0 $?
e2e_summary
