#!/bin/bash
# test_outfile.sh BUILD - what `vlpost ... -o FILE` does to FILE: a regular
# file is replaced atomically (keeping its permissions); a symbolic link is
# written through (the link stays, its target gets the output, also when the
# target does not exist yet); a FIFO or a device is written directly, never
# replaced; "-" is standard output (trf's table then goes to stderr); a full
# device, a directory and a full standard output are errors (exit 2), never
# a silent success.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
P="$BUILD/vlpost"
cd "$WORK" || exit 2
"$BUILD/tests/mktrace" "$TOP/tests/golden/trf/masterworker/input.txt" T 2> mk.err
assert_eq "traces made" 0 $?
"$P" trf -o ref.trf T > ref.stats
assert_eq "reference .trf" 0 $?
cmp -s ref.trf "$TOP/tests/golden/trf/masterworker/expected.trf"
assert_eq "reference .trf = the golden file" 0 $?

echo old > plain.trf
chmod 640 plain.trf
"$P" trf -o plain.trf T > /dev/null
assert_eq "regular file: replaced" "0 640" "$(cmp -s ref.trf plain.trf; echo $?) $(stat -c %a plain.trf)"
[ -e plain.trf.tmp ] && fail "regular file: plain.trf.tmp left" || ok "regular file: no .tmp left"

echo old > target.trf
ln -s target.trf link.trf
"$P" trf -o link.trf T > /dev/null
assert_eq "symlink: still a symlink" link "$([ -L link.trf ] && echo link)"
cmp -s ref.trf target.trf
assert_eq "symlink: its target has the output" 0 $?

mkdir sub
ln -s sub/new.trf dangling.trf
"$P" trf -o dangling.trf T > /dev/null
assert_eq "dangling symlink: still a symlink" link "$([ -L dangling.trf ] && echo link)"
cmp -s ref.trf sub/new.trf
assert_eq "dangling symlink: the file it names is created" 0 $?

mkfifo fifo
# (stopped after 30 s: a vlpost that fails before it opens the FIFO leaves
# the reader waiting for a writer, and the test would never end)
timeout 30 cat fifo > from-fifo &
reader=$!
"$P" trf -o fifo T > /dev/null
rc=$?
wait $reader
assert_eq "FIFO: exit status" 0 $rc
assert_eq "FIFO: still a FIFO" fifo "$([ -p fifo ] && echo fifo)"
cmp -s ref.trf from-fifo
assert_eq "FIFO: the reader got the output" 0 $?

"$P" trf -o /dev/null T > /dev/null
assert_eq "/dev/null: exit status" 0 $?
assert_eq "/dev/null: still a character device" chr "$([ -c /dev/null ] && echo chr)"

"$P" trf -o - T > stdout.trf 2> stdout.err
assert_eq "-o -: exit status" 0 $?
cmp -s ref.trf stdout.trf
assert_eq "-o -: the .trf on standard output, alone" 0 $?
cmp -s ref.stats stdout.err
assert_eq "-o -: the table on stderr" 0 $?
"$P" paje -o - T > stdout.paje
assert_eq "paje -o -: exit status" 0 $?
"$P" paje -o file.paje T
cmp -s file.paje stdout.paje
assert_eq "paje -o -: the same as the file" 0 $?
"$P" svg -o - T > stdout.svg
assert_eq "svg -o -: exit status" 0 $?
"$P" svg -o file.svg T
cmp -s file.svg stdout.svg
assert_eq "svg -o -: the same as the file" 0 $?

if [ -w /dev/full ]; then
	"$P" trf -o /dev/full T > /dev/null 2> full.err
	assert_eq "/dev/full: exit status" 2 $?
	assert_eq "/dev/full: the reason" "vlpost: /dev/full: No space left on device" "$(cat full.err)"
	"$P" stats T > /dev/full 2> full2.err
	assert_eq "stats > /dev/full: exit status" 2 $?
	assert_eq "stats > /dev/full: the reason" "vlpost: standard output: No space left on device" "$(cat full2.err)"
else
	ok "no /dev/full here: skipped"
fi
"$P" trf -o sub T > /dev/null 2> dir.err
assert_eq "a directory: exit status" 2 $?
assert_eq "a directory: the reason" "vlpost: sub: Is a directory" "$(cat dir.err)"
e2e_summary
