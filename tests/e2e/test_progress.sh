#!/bin/bash
# test_progress.sh BUILD - the progress bar of the converters (merge.c) on a
# generated trace (build/bench/gentrace): VLPOST_PROGRESS=1 forces it (no delay,
# also off a terminal), so stderr ends with the 100 % bar and a newline; without
# it (stderr not a terminal) and with VLPOST_PROGRESS=0 nothing of it is written.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
G=$BUILD/bench/gentrace
if [ ! -x "$G" ]; then
	echo "test_progress.sh: $G missing (make $1/bench/gentrace)"
	exit 1
fi
"$G" gen "$WORK/t" 4 20000 >/dev/null || exit 1
convs="trf paje svg"
"$BUILD/vlpost" otf2 --help 2>/dev/null | grep -q "built without" || convs="$convs otf2"
for conv in $convs; do
	VLPOST_PROGRESS=1 "$BUILD/vlpost" $conv -o "$WORK/out.$conv" "$WORK/t" >/dev/null 2>"$WORK/forced.err"
	assert_eq "$conv forced: exit" 0 $?
	assert_eq "$conv forced: a 100% bar" 1 "$(grep -c '\] 100%  .* records/s' "$WORK/forced.err")"
	rm -rf "$WORK/out.$conv"
	"$BUILD/vlpost" $conv -o "$WORK/out.$conv" "$WORK/t" >/dev/null 2>"$WORK/plain.err"
	assert_eq "$conv not a terminal: no bar" 0 "$(grep -c 'records/s' "$WORK/plain.err")"
	rm -rf "$WORK/out.$conv"
	VLPOST_PROGRESS=0 "$BUILD/vlpost" $conv -o "$WORK/out.$conv" "$WORK/t" >/dev/null 2>"$WORK/off.err"
	assert_eq "$conv VLPOST_PROGRESS=0: no bar" 0 "$(grep -c 'records/s' "$WORK/off.err")"
	rm -rf "$WORK/out.$conv"
done
e2e_summary
