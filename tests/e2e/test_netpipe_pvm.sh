#!/bin/bash
# test_netpipe_pvm.sh BUILD - NetPIPE-PVM (Debian netpipe-pvm, /usr/bin/NPpvm:
# PvmDataInPlace, PvmRouteDirect, wildcard receives, no pvm_exit), unmodified,
# with the layer preloaded: its receiver (NPpvm, started first, VLAYER_HOST=a)
# and its transmitter (NPpvm -h HOST, VLAYER_HOST=b) run to the end, measure
# the sizes a native run measures, and every one-way time they report equals
# the model's S + trans_delay + n / bandwidth + R (netpipe.ini: 49 us + n us)
# to the digit printed; both traces are complete.  Skipped without NPpvm.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
if ! command -v NPpvm > /dev/null; then
	ok "skipped: no NetPIPE-PVM (apt-get install netpipe-pvm, or make deps)"
	e2e_summary
	exit 0
fi
if [ -n "${VL_SANITIZED:-}" ]; then
	ok "skipped in the sanitizer build (NPpvm runs with LD_PRELOAD)"
	e2e_summary
	exit 0
fi
OPTS="-u 4096 -n 50" # sizes 1 .. 4099 bytes, 3 trials of 50 round trips each
pvmd_start /usr/bin

# enrolled: how many tasks the pvmd holds a connection of (its connected Unix
# stream sockets: a task enrolls through the one it listens on)
enrolled() {
	ls -l "/proc/$VL_PVMD_PID/fd" 2> /dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p' |
		awk 'NR == FNR { mine[$1] = 1; next } $6 == "03" && ($7 in mine) { n++ } END { print n + 0 }' \
			- /proc/net/unix
}
# netpipe DIR [ENV...]: receiver, then transmitter, in DIR, each stopped after
# $NP_T s; the transmitter needs the receiver enrolled and alone (it takes the
# one other task of pvm_tasks for the receiver, and stops if it finds 1): it
# starts once the pvmd holds one task's connection, and under the layer once
# the receiver's trace file is there too (it retries while it finds 1 task)
netpipe() {
	local dir=$WORK/$1 rx i
	shift
	rm -rf "$dir"
	mkdir -p "$dir" && cd "$dir" || return 1
	env "$@" VLAYER_HOST=a timeout "$NP_T" NPpvm $OPTS > rx.out 2>&1 &
	rx=$!
	tx=none
	for i in $(seq 1 100); do
		if [ "$(enrolled)" = 1 ] && { [ $# = 0 ] || ls trace/vl-*.trc > /dev/null 2>&1; }; then
			env "$@" VLAYER_HOST=b timeout "$NP_T" NPpvm -h localhost $OPTS > tx.out 2>&1
			tx=$?
			grep -q 'n=1$' tx.out || break
		fi
		sleep 0.1
	done
	wait $rx
	rxs=$?
	cd "$WORK" || return 1
}
# The native run (the sizes it measures, < 1 s) is tried up to 3 times: once,
# in a CI run beside other tests (2026-11-28), natively both NPpvm waited until
# their timeout (60 s) and the cause was not found (not again in 12 runs
# beside 3 CPU hogs; a transmitter started 30 times back to back never found
# the try before still listed).  The layer's run is not retried.
NP_T=20
for try in 1 2 3; do
	netpipe native
	[ "$tx" = 0 ] && [ "$rxs" = 0 ] && break
	echo "note: native NetPIPE-PVM, try $try: transmitter $tx, receiver $rxs (124: stopped after $NP_T s)"
done
assert_eq "native: transmitter exit status" 0 "$tx"
assert_eq "native: receiver exit status" 0 "$rxs"
NP_T=60
netpipe layer LD_PRELOAD="$BUILD/libvlayer-pvm.so" VMCONFIG="$HERE/netpipe.ini" \
	VLAYER_TRACE_DIR="$WORK/layer/trace"
assert_eq "layer: transmitter exit status" 0 "$tx"
assert_eq "layer: receiver exit status" 0 "$rxs"
grep -E 'decode|Bad parameter|vlayer' "$WORK/layer/"*.out && fail "layer: messages above"
assert_eq "layer: the sizes of the native run" "$(awk '{ print $1 }' "$WORK/native/np.out" | xargs)" \
	"$(awk '{ print $1 }' "$WORK/layer/np.out" | xargs)"
assert_eq "sizes measured" 58 "$(wc -l < "$WORK/layer/np.out")"
# np.out: bytes, Mbps, one-way time in s (%12.8f); the transmitter's stderr: usec (%.2f)
while read -r n mbps t; do
	assert_eq "one-way time of $n bytes (s)" "$(awk -v n="$n" 'BEGIN { printf "%.8f", (49 + n) * 1e-6 }')" "$t"
done < "$WORK/layer/np.out"
assert_eq "the transmitter's report (us) = 49 + n" "" \
	"$(awk '/usec$/ && $(NF - 1) != sprintf("%.2f", 49 + $2) { print }' "$WORK/layer/tx.out")"
assert_eq "lines of the transmitter's report" 58 "$(grep -c 'usec$' "$WORK/layer/tx.out")"

# both traces complete: messages and bytes as NetPIPE sends them (establish:
# one int; 100 warm-up round trips of 1 byte; per size one repeat count (an
# int) and 3 x 50 round trips), communication time = sends x S + receives x R
sum=$(awk '{ s += $1 } END { print s }' "$WORK/layer/np.out")
"$BUILD/vlpost" stats --csv "$WORK/layer/trace" > "$WORK/stats.csv" 2> "$WORK/stats.err"
assert_eq "vlpost stats on the traces" 0 $?
col() { awk -F, -v h="$1" -v c="$2" '$4 == h { print $c }' "$WORK/stats.csv"; }
assert_eq "receiver (a): messages sent, bytes sent" "8800 $((100 + 150 * sum))" "$(col a 10) $(col a 11)"
assert_eq "transmitter (b): messages sent, bytes sent" "8859 $((4 + 100 + 58 * 4 + 150 * sum))" \
	"$(col b 10) $(col b 11)"
assert_eq "receiver (a): communication time (us)" "$((8800 * 5 + 8859 * 4)).000" "$(col a 7)"
assert_eq "transmitter (b): communication time (us)" "$((8859 * 5 + 8800 * 4)).000" "$(col b 7)"
e2e_summary
