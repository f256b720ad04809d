#!/bin/bash
# run-all.sh BUILD - every end-to-end test; prints "N passed, M failed" at the end.
# run-all.sh BUILD [NAME...] - only tests/e2e/test_NAME.sh for the names given
BUILD=${1:-build}
shift
cd "$(dirname "$0")/../.." || exit 2
tests=""
for n in "$@"; do tests="$tests tests/e2e/test_$n.sh"; done
[ -n "$tests" ] || tests=$(ls tests/e2e/test_*.sh)
total_p=0
total_f=0
for t in $tests; do
	echo "== $t"
	t0=$(date +%s)
	out=$(bash "$t" "$BUILD" 2>&1)
	rc=$?
	echo "$out"
	echo "-- $(basename "$t" .sh): $(($(date +%s) - t0)) s"
	p=$(echo "$out" | awk '/^[0-9]+ passed, [0-9]+ failed$/ { p = $1 } END { print p + 0 }')
	f=$(echo "$out" | awk '/^[0-9]+ passed, [0-9]+ failed$/ { f = $3 } END { print f + 0 }')
	[ $rc = 0 ] || [ "$f" -gt 0 ] || f=1
	total_p=$((total_p + p))
	total_f=$((total_f + f))
done
echo "e2e: $total_p passed, $total_f failed"
[ $total_f = 0 ]
