#!/bin/bash
# test_badconfig.sh BUILD - a bad or missing VMConfig stops a virtualised
# program before it does anything: one line FILE:LINE: [section] key: ..., exit 2.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
cat > "$WORK/bad.ini" <<'INI'
[host a]
processors = 2

[network inter]
send_delay = 50
INI
out=$(cd "$WORK" && VMCONFIG="$WORK/bad.ini" "$BUILD/samples/pingpong.v" 8 2>&1)
assert_eq "exit status with a bad VMConfig" 2 $?
assert_eq "the message" \
	"vlayer: $WORK/bad.ini:5: [network inter] send_delay: \"50\" has no time unit (use a number with ns, us, ms or s, e.g. 50us)" \
	"$out"
out=$(cd "$WORK" && VMCONFIG="$WORK/none.ini" "$BUILD/samples/pingpong.v" 8 2>&1)
assert_eq "exit status with a missing VMConfig" 2 $?
assert_eq "the message" "vlayer: $WORK/none.ini: cannot open: No such file or directory" "$out"
# ./VMConfig is used when $VMCONFIG is not set
cp "$WORK/bad.ini" "$WORK/VMConfig"
out=$(cd "$WORK" && "$BUILD/samples/pingpong.v" 8 2>&1)
assert_eq "./VMConfig is read" 2 $?
e2e_summary
