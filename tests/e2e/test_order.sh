#!/bin/bash
# test_order.sh BUILD - virtual order (issue 11), PVM: what a wildcard
# receive gets is decided in virtual time.  A heterogeneous task farm (worker
# speeds 1, 2, 4, 8; computation given by vl_compute_flops, compute = ignore)
# against an exact event simulation of the same farm (farm/farm_sim.py),
# identical over 10 runs, beside a CPU hog, with pvmd and every task on one
# CPU, and with the workers started in another real order; a real deadlock
# reported and stopped; a killed worker; an exit notice after the ended
# task's last message; ordering = real still available.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
F="$HERE/farm"
for p in farm_pvm deadlock_pvm poll_pvm notify_pvm pass_pvm; do
	VLCC_CC="${VLCC_CC:-cc}" "$BUILD/vlcc" -Wall -Wextra -Werror -O1 -I"$HERE/../../include" \
		-o "$WORK/$p" "$F/$p.c" -lm || { fail "build $p.c"; e2e_summary; exit 1; }
done
cc -O1 -o "$WORK/rawchild" "$F/rawchild_pvm.c" -lpvm3 || fail "native build of rawchild_pvm.c"
VLCC_CC="${VLCC_CC:-cc}" "$BUILD/vlcc" -O1 -o "$WORK/rawmaster" "$F/rawchild_pvm.c" -lpvm3 ||
	fail "vlcc build of rawchild_pvm.c"
HOG_PIDS=""
stop_hogs() { [ -z "$HOG_PIDS" ] || kill $HOG_PIDS 2>/dev/null; wait $HOG_PIDS 2>/dev/null; HOG_PIDS=""; }
trap 'stop_hogs; e2e_cleanup' EXIT

# farm N ARGS...: a fresh pvmd (tids as in every other run), the farm's output
# in $WORK/farm.N, its traces in $WORK/trace.N
farm() {
	local n=$1
	shift
	pvmd_start "$WORK:/usr/bin"
	VMCONFIG="${CFG:-$F/farm.ini}" VLAYER_TRACE_DIR="$WORK/trace.$n" timeout 120 \
		"$WORK/farm_pvm" "$@" > "$WORK/farm.$n" 2> "$WORK/farm.$n.err"
	echo "exit $?" >> "$WORK/farm.$n"
	pvmd_stop
}
sim() {
	python3 "$F/farm_sim.py" --jobs "$1" --flops "$2" --rates 1e9,2e9,4e9,8e9 --send 5000 \
		--recv 5000 --trans 50000 --ps-per-kib 8000000 --bytes 4
}

# 1. the farm equals the event simulation, to the ns and choice by choice
sim 40 1e6 > "$WORK/expected"
echo "exit 0" >> "$WORK/expected"
farm 0 -w 4 -j 40 -f 1e6
assert_eq "farm (40 jobs, speeds 1 2 4 8) = event simulation: end, counts, order" \
	"$(cat "$WORK/expected")" "$(cat "$WORK/farm.0")"
assert_eq "the factor-8 worker takes the most jobs" 3 \
	"$(awk '$1 == "count" { if ($3 > m) { m = $3; w = $2 } } END { print w }' "$WORK/farm.0")"
"$BUILD/vlpost" stats --brief "$WORK/trace.0" > "$WORK/stats.0" 2>&1
assert_eq "vlpost stats on the farm's traces" 0 $?
sim 200 2e5 > "$WORK/expected2"
echo "exit 0" >> "$WORK/expected2"
farm big -w 4 -j 200 -f 2e5
assert_eq "farm (200 small jobs) = event simulation" "$(cat "$WORK/expected2")" "$(cat "$WORK/farm.big")"

# 2. identical over 10 runs: output, statistics and every trace record
same=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	farm "r$i" -w 4 -j 40 -f 1e6
	"$BUILD/vlpost" stats --brief "$WORK/trace.r$i" > "$WORK/stats.r$i" 2>&1
	if cmp -s "$WORK/farm.0" "$WORK/farm.r$i" && cmp -s "$WORK/stats.0" "$WORK/stats.r$i" &&
		diff -r -x .vlayer-board -x .vlayer-lock "$WORK/trace.0" "$WORK/trace.r$i" > /dev/null; then
		same=$((same + 1))
	fi
done
assert_eq "runs identical to the first (output, stats, trace files)" 10 "$same"

# 3. beside a CPU hog (two busy loops), then with pvmd and all tasks on one CPU,
# then with the workers starting in a random real order
for _ in 1 2; do
	(while :; do :; done) &
	HOG_PIDS="$HOG_PIDS $!"
done
farm hog -w 4 -j 40 -f 1e6
stop_hogs
assert_eq "beside a CPU hog: the same farm" "$(cat "$WORK/farm.0")" "$(cat "$WORK/farm.hog")"
if command -v taskset > /dev/null; then
	VL_PVMD_WRAP="taskset -c 0" farm one -w 4 -j 40 -f 1e6
	assert_eq "every task on one CPU (taskset): the same farm" "$(cat "$WORK/farm.0")" \
		"$(cat "$WORK/farm.one")"
else
	echo "skip: taskset not installed"
fi
farm late -w 4 -j 40 -f 1e6 -d
assert_eq "workers started in another real order: the same farm" "$(cat "$WORK/farm.0")" \
	"$(cat "$WORK/farm.late")"

# 4. a real deadlock (parent and child both receive first): a report naming
# both tasks and what they wait for, status 4, in seconds
pvmd_start "$WORK:/usr/bin"
t0=$(date +%s%N)
VMCONFIG="$F/farm.ini" VLAYER_TRACE_DIR="$WORK/trace.dl" timeout 60 "$WORK/deadlock_pvm" \
	> "$WORK/dl.out" 2> "$WORK/dl.err"
rc=$?
t1=$(date +%s%N)
sleep 0.3
pvmd_log > "$WORK/dl.log"
pvmd_stop
assert_eq "deadlock: exit status" 4 "$rc"
assert_eq "deadlock: found within 10 s" yes "$( [ $(( (t1 - t0) / 1000000000 )) -lt 10 ] && echo yes || echo no)"
# the task that sees it first prints the report: the parent or the child (pvmd's log)
assert_eq "deadlock: one report listing both waits" 2 \
	"$(cat "$WORK/dl.err" "$WORK/dl.log" | grep -c 'waits in pvm_recv(tid=t[0-9a-f]*, tag=7)')"
assert_eq "deadlock: the program did not go on" "" "$(cat "$WORK/dl.out")"
assert_eq "deadlock: both tasks stopped with the message" 2 \
	"$(cat "$WORK/dl.err" "$WORK/dl.log" | grep -c 'vlayer: deadlock: every task waits for a message')"

# 5. a worker killed (SIGKILL) mid-run: the others take every job, the master
# ends, the dead worker's trace stays readable
farm kill -w 4 -j 40 -f 1e6 -k 1
assert_eq "killed worker: the master ends" "exit 0" "$(tail -1 "$WORK/farm.kill")"
assert_eq "killed worker: the master learns it" "worker 1 gone" "$(grep gone "$WORK/farm.kill")"
assert_eq "killed worker: all 40 jobs done by the others" 40 \
	"$(awk '$1 == "count" && $2 != 1 { s += $3 } END { print s }' "$WORK/farm.kill")"
"$BUILD/vlpost" stats --brief "$WORK/trace.kill" > /dev/null 2>&1
assert_eq "killed worker: vlpost stats reads the traces" 0 $?
assert_eq "killed worker: 5 traces" 5 "$(ls "$WORK/trace.kill" | grep -c '\.trc$')"

# 5b. polls: the child sends 1 ms (virtual) after its start but 200 ms (real)
# late; every failed pvm_nrecv costs R = 5 us, so the count is exact
arr_after=$((1000000 + 5000 + 50000 + 4 * 8000000 / 1024000)) # compute + S + T(4 B)
for mode in nrecv probe; do
	pvmd_start "$WORK:/usr/bin"
	VMCONFIG="$F/farm.ini" VLAYER_TRACE_DIR="$WORK/trace.poll" timeout 60 "$WORK/poll_pvm" \
		$([ $mode = probe ] && echo -p) > "$WORK/poll.out" 2>&1
	pvmd_stop
	pv() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/poll.out"; }
	assert_eq "pvm_$mode polls before a message 1 ms away (200 ms real)" \
		$(((arr_after + 4999) / 5000)) "$(pv polls)"
	assert_eq "pvm_$mode: the message's content" 42 "$(pv value)"
done

# 5b'. the sender of the candidate is not waited for: the child sends, then
# waits for real without calling PVM until the parent has chosen (what it
# sends later cannot be taken first); the second message comes S later
rm -f "$WORK/snd.flag"
pvmd_start "$WORK:/usr/bin"
VMCONFIG="$F/farm.ini" VLAYER_TRACE_DIR="$WORK/trace.snd" timeout 60 "$WORK/poll_pvm" \
	-s "$WORK/snd.flag" > "$WORK/snd.out" 2>&1
pvmd_stop
assert_eq "pvm_recv(-1): the candidate's sender is not waited for" "sender saw 1 after 5000" \
	"$(cat "$WORK/snd.out")"

# 5c. a child that does not use vlayer: found out (warning), not waited for,
# its message taken; no deadlock declared meanwhile
pvmd_start "$WORK:/usr/bin"
VMCONFIG="$F/farm.ini" VLAYER_TRACE_DIR="$WORK/trace.raw" timeout 60 "$WORK/rawmaster" \
	"$WORK/rawchild" > "$WORK/raw.out" 2> "$WORK/raw.err"
assert_eq "a child without vlayer: the master ends" 0 $?
assert_eq "a child without vlayer: its message is taken" "value 7" "$(cat "$WORK/raw.out")"
assert_eq "a child without vlayer: the master says so" 1 \
	"$(grep -c 'does not use vlayer: it is not waited for' "$WORK/raw.err")"
pvmd_stop

# 5d. an exit notice (pvmd's message, no virtual time) comes after the result
# the ended task sent just before it ended, as natively; it once counted as
# there at the receiver's clock and overtook the result.  Model (farm.ini
# less its hosts: compute = ignore): the result arrives at the worker's send
# time + its delays; the notice at the worker's end time, at least 1 ns after
# the result
pvmd_start "$WORK:/usr/bin"
VMCONFIG="$F/farm.ini" VLAYER_TRACE_DIR="$WORK/trace.notify" timeout 60 "$WORK/notify_pvm" \
	> "$WORK/notify.out" 2> "$WORK/notify.err"
assert_eq "exit notice: the parent ends" 0 $?
assert_eq "exit notice: the result first, then the notice with the worker's tid" \
	"message 1: tag 2|message 2: tag 99 tid worker" \
	"$(sed 's/ at [0-9]*$//' "$WORK/notify.out" | paste -sd '|')"
assert_eq "exit notice: taken after the result in virtual time" 1 \
	"$(awk '{ t[NR] = $NF } END { print (NR == 2 && t[2] > t[1]) }' "$WORK/notify.out")"
"$BUILD/vlpost" trf -o "$WORK/notify.trf" "$WORK/trace.notify" > /dev/null 2>&1 &&
	"$BUILD/vlpost" check "$WORK/notify.trf" > /dev/null 2>&1
assert_eq "exit notice: the traces convert and check (the notice: a receive no task sent)" 0 $?
pvmd_stop

# 5b. measured computation (a real loop of about 35 ms per job, host factors
# 1, 1/2, 1/4, 1/8): every choice, the counts and the master's time equal
# the event simulation in which each job takes the time it took in the traces
# (jobs vary by up to 10 % in CPU time: no one time per job predicts the counts)
CFG="$F/farm_measured.ini" farm measured -w 4 -j 40 -m 8000000
python3 "$F/measured_check.py" "$BUILD/vlpost" "$WORK/trace.measured" "$WORK/farm.measured" \
	> "$WORK/measured.check" 2>&1
assert_eq "measured computation: every choice as the event simulation with the traced job times" \
	"0 exit 0" "$? $(tail -1 "$WORK/farm.measured")"
cat "$WORK/measured.check"

# 5c. calls passed through to libpvm3 while a task computes (pass_pvm.c):
# worker A computes 2 x 15 ms around 200 pvm_pstat and 60 ms of packing, B
# adds 60 ms with vl_compute; A's result comes first, and A's computation
# is its own CPU time outside those calls (not less: the real waits for the
# daemon are not taken off; not more: the packing is not counted, neither in
# A's clock nor in what the master sees of it while A computes).  Again with
# the workers on the board through the board server (VLAYER_BOARD_REMOTE=1:
# as on another real host, their CPU time reaches the master over TCP).
pass_check() {
	local how=$1 d=$WORK/pass$2 spin_ns gap_ns
	pvmd_start "$WORK:/usr/bin"
	VMCONFIG="$F/farm_measured.ini" VLAYER_TRACE_DIR="$d.trace" timeout 60 \
		"$WORK/pass_pvm" > "$d.out" 2> "$d.err"
	assert_eq "pass-through calls while computing$how: the master ends" 0 $?
	pvmd_stop
	assert_eq "pass-through calls while computing$how: the earlier result is taken first" \
		"first A second B" "$(head -1 "$d.out")"
	spin_ns=$(awk '$1 == "spin" { print $2 }' "$d.out")
	gap_ns=$("$BUILD/vlpost" dump "$d.trace" 2>/dev/null | awk '
		$1 == "task" && $7 == "pass_pvm" && $3 != -1 { n++; if (n == 1) a = $2 }
		$1 == a && $2 == "recv" { t = $9 }
		$1 == a && $2 == "send" && $5 == 32 { print $8 - t }')
	assert_eq "pass-through calls while computing$how: A's computation = its CPU time outside them (within 0 .. +3 ms)" \
		1 "$(awk -v g="$gap_ns" -v s="$spin_ns" 'BEGIN { print (g != "" && s > 0 && g >= s - 50000 && g <= s + 3000000) }')"
	echo "  A: spin $spin_ns ns, traced computation $gap_ns ns, $(grep pass "$d.out")"
}
pass_check "" local
VLAYER_BOARD_REMOTE=1 pass_check " (board server)" remote

# 6. the demo's program (masterworker on vienna.ini) with computation ignored:
# two runs give byte-identical statistics
sed 's/^compute = measured/compute = ignore/' "$HERE/../../vmconfig/vienna.ini" > "$WORK/vienna-ignore.ini"
for i in 1 2; do
	pvmd_start "$BUILD/samples:/usr/bin"
	VMCONFIG="$WORK/vienna-ignore.ini" VLAYER_TRACE_DIR="$WORK/trace.demo$i" timeout 120 \
		"$BUILD/samples/masterworker.v" -w 8 -j 64 -s 3000 > "$WORK/demo$i.out" 2>&1
	# the master does not wait for its workers: let them take their last message
	for _ in $(seq 1 100); do
		"$BUILD/vlpost" stats --brief "$WORK/trace.demo$i" 2>&1 > /dev/null | grep -q 'no END' ||
			break
		sleep 0.1
	done
	pvmd_stop
	"$BUILD/vlpost" stats --brief "$WORK/trace.demo$i" > "$WORK/demo$i.stats" 2>&1
done
assert_eq "demo program twice, computation ignored: vlpost stats --brief identical" \
	"$(cat "$WORK/demo1.stats")" "$(cat "$WORK/demo2.stats")"
assert_eq "demo program: 9 tasks in the statistics" 9 "$(grep -c 'masterworker' "$WORK/demo1.stats")"

# 7. ordering = real (CLUE's: real arrival order) is still there
sed 's/^compute = ignore/compute = ignore\nordering = real/' "$F/farm.ini" > "$WORK/real.ini"
CFG="$WORK/real.ini" farm real -w 4 -j 40 -f 1e6
assert_eq "ordering = real: the farm runs" "exit 0" "$(tail -1 "$WORK/farm.real")"
assert_eq "ordering = real: every job done" 40 \
	"$(awk '$1 == "count" { s += $3 } END { print s }' "$WORK/farm.real")"
assert_eq "ordering = real: no board" "" "$(ls -a "$WORK/trace.real" | grep board)"
e2e_summary
