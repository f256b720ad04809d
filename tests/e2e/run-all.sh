#!/bin/bash
# run-all.sh BUILD - every end-to-end test; prints "N passed, M failed" at the end.
# run-all.sh BUILD [NAME...] - only tests/e2e/test_NAME.sh for the names given
#
# The tests run E2E_JOBS at a time (default: the processors, at most 2), the
# longest first; each test's output is printed whole when it ends.  Every
# test has its own work directory and its own pvmd (lib.sh), and what the
# tests assert of virtual time does not depend on real load (a run beside a
# CPU hog gives the same traces).  The tests that measure real time or real
# CPU time (calibration, the emulated cluster, the CPU gate, the browser, the
# analytical models' fits against measured computation, the start-up's
# measured CPU time) run afterwards, one at a time.  (test_pvm_examples_all
# runs with the others: it passed beside three CPU hogs, 107 s for 69 s.)
# E2E_JOBS=1: every test one at a time, in name order.  The build must be
# up to date (make check builds first): test_install runs make install.
BUILD=${1:-build}
shift
cd "$(dirname "$0")/../.." || exit 2
tests=""
for n in "$@"; do tests="$tests tests/e2e/test_$n.sh"; done
[ -n "$tests" ] || tests=$(ls tests/e2e/test_*.sh)

JOBS=${E2E_JOBS:-$(nproc 2> /dev/null || echo 1)}
[ "$JOBS" -gt 2 ] && JOBS=2
[ "$JOBS" -ge 1 ] 2> /dev/null || JOBS=1
# alone at the end: real time or real CPU time is measured
ALONE="calib calib_loop cluster cpugate svg model_samples model_compare startup"
# first: the longest (seconds on a 2-CPU machine, 2026-11-27)
LONG="build mpi links order_remote order_mpi mpi_apps pvm_examples_all verdict lammps install order multihost"

name() { basename "$1" .sh | sed 's/^test_//'; }
member() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }

par=""
alone=""
for t in $tests; do
	if [ "$JOBS" -gt 1 ] && member "$(name "$t")" "$ALONE"; then alone="$alone $t"; else par="$par $t"; fi
done
if [ "$JOBS" -gt 1 ]; then
	first=""
	rest=""
	for n in $LONG; do
		for t in $par; do [ "$(name "$t")" = "$n" ] && first="$first $t"; done
	done
	for t in $par; do member "$(name "$t")" "$LONG" || rest="$rest $t"; done
	par="$first $rest"
fi

OUT=$(mktemp -d "${TMPDIR:-/tmp}/vlayer-run-all.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
total_p=0
total_f=0

# start T: in the background, output and status into $OUT; a TMPDIR of its
# own (short: sockets live there), so that two mpiruns' session directories
# never race (Open MPI: "orte_session_dir failed ... File exists" when one
# removed the shared /tmp/ompi.HOST.UID that another was creating)
start() {
	local t=$1 n
	n=$(name "$t")
	(
		t0=$(date +%s)
		tmp=$(mktemp -d "/tmp/vl.XXXXXX")
		TMPDIR=$tmp bash "$t" "$BUILD" > "$OUT/$n.out" 2>&1
		echo $? > "$OUT/$n.rc.tmp"
		rm -rf "$tmp"
		echo $(($(date +%s) - t0)) > "$OUT/$n.s"
		mv "$OUT/$n.rc.tmp" "$OUT/$n.rc"
	) &
}
# report T (ended): its output, its time, its counts
report() {
	local t=$1 n p f rc
	n=$(name "$t")
	echo "== $t"
	cat "$OUT/$n.out"
	echo "-- test_$n: $(cat "$OUT/$n.s") s"
	rc=$(cat "$OUT/$n.rc")
	p=$(awk '/^[0-9]+ passed, [0-9]+ failed$/ { p = $1 } END { print p + 0 }' "$OUT/$n.out")
	f=$(awk '/^[0-9]+ passed, [0-9]+ failed$/ { f = $3 } END { print f + 0 }' "$OUT/$n.out")
	[ "$rc" = 0 ] || [ "$f" -gt 0 ] || f=1
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	rm -f "$OUT/$n.rc"
}

# the parallel part: at most JOBS running; report each as it ends
running=""
for t in $par; do
	while [ "$(echo $running | wc -w)" -ge "$JOBS" ]; do
		wait -n 2> /dev/null || sleep 0.2
		still=""
		for r in $running; do
			if [ -e "$OUT/$(name "$r").rc" ]; then report "$r"; else still="$still $r"; fi
		done
		running=$still
	done
	start "$t"
	running="$running $t"
done
wait
for r in $running; do report "$r"; done

# then the ones that measure real time, one at a time
for t in $alone; do
	start "$t"
	wait
	report "$t"
done
echo "e2e: $total_p passed, $total_f failed"
[ $total_f = 0 ]
