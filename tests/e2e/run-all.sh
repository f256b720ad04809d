#!/bin/bash
# run-all.sh BUILD - every end-to-end test; prints "N passed, M failed" at the end.
BUILD=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
total_p=0
total_f=0
for t in tests/e2e/test_*.sh; do
	echo "== $t"
	out=$(bash "$t" "$BUILD" 2>&1)
	rc=$?
	echo "$out"
	p=$(echo "$out" | awk '/^[0-9]+ passed, [0-9]+ failed$/ { p = $1 } END { print p + 0 }')
	f=$(echo "$out" | awk '/^[0-9]+ passed, [0-9]+ failed$/ { f = $3 } END { print f + 0 }')
	[ $rc = 0 ] || [ "$f" -gt 0 ] || f=1
	total_p=$((total_p + p))
	total_f=$((total_f + f))
done
echo "e2e: $total_p passed, $total_f failed"
[ $total_f = 0 ]
