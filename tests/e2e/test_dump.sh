#!/bin/bash
# test_dump.sh BUILD - vlpost dump: every record of a trace directory as text,
# exact values (a directory made by tests/tools/mktrace from text); a bad
# directory or a truncated file: status 2, the records before the error kept.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
P="$BUILD/vlpost"
cd "$WORK" || exit 2
cat > in.txt <<'T'
task 0x40001 host 0 hostname n1 prog farm start 0
start t=0
send peer=0x40002 tag=7 seq=1 bytes=1024 t0=100 t1=5100 arrival=60000
recv peer=0x40002 tag=8 seq=1 bytes=4 t0=5200 t1=70300 wait=60000 arrival=65300
mark id=3 label="phase two" t=70400
end t=80000 comp=0 comm=10200 wait=60000
task 0x40002 ptid 0x40001 host 1 hostname n2 prog farm start 0
start t=0
recv peer=0x40001 tag=7 seq=1 bytes=1024 t0=10 t1=65000 wait=59990 arrival=60000
send peer=0x40001 tag=8 seq=1 bytes=4 t0=65100 t1=65200 arrival=65300
end t=65300 comp=0 comm=1000 wait=59990
T
"$BUILD/tests/mktrace" in.txt T 2> mk.err || fail "mktrace: $(cat mk.err)"
"$P" dump T > dump.out 2> dump.err
assert_eq "dump: exit status" 0 $?
assert_eq "dump: a task line per file, a line per record" "2 9" \
	"$(grep -c '^task ' dump.out) $(grep -vc '^task ' dump.out)"
assert_eq "dump: the first task's header" "task 262145 -1 0 n1 0 farm" "$(sed -n 1p dump.out)"
assert_eq "dump: a send, every field" "262145 send 0 262146 7 1 1024 100 5100 60000 0 0" \
	"$(sed -n 3p dump.out)"
assert_eq "dump: a receive, every field" "262145 recv 0 262146 8 1 4 5200 70300 60000 65300 0" \
	"$(sed -n 4p dump.out)"
assert_eq "dump: a mark's label, spaces as _" "262145 mark 0 3 0 0 0 70400 70400 0 0 0 phase_two" \
	"$(sed -n 5p dump.out)"
assert_eq "dump: the child's header" "task 262146 262145 1 n2 0 farm" "$(sed -n 7p dump.out)"
# a truncated file: the records before the error, then status 2 and the error
printf 'task 0x40001\nstart t=0\ncompute t0=0 t1=100\nstray 10\n' > bad.txt
"$BUILD/tests/mktrace" bad.txt B 2> mk.err || fail "mktrace bad: $(cat mk.err)"
"$P" dump B > bad.out 2> bad.err
assert_eq "dump, truncated file: status 2" 2 $?
assert_eq "dump, truncated file: its two complete records printed" 2 "$(grep -vc '^task ' bad.out)"
assert_eq "dump, truncated file: the error names the file" 1 "$(grep -c 'vl-00040001.trc.*trunc' bad.err)"
"$P" dump "$WORK/none" > /dev/null 2> none.err
assert_eq "dump, no such directory: status 2" 2 $?
"$P" dump > /dev/null 2> usage.err
assert_eq "dump without a directory: status 2, its usage" "2 1" "$? $(grep -c 'usage: vlpost dump TRACEDIR' usage.err)"
# the argument parsing dump shares with check (vlpost_cli_one_arg)
for c in "dump -x:dump: unknown option -x" "dump a b:dump: extra argument b" \
	"check:check: missing FILE.trf" "check a b:check: extra argument b"; do
	"$P" ${c%%:*} > /dev/null 2> args.err
	assert_eq "vlpost ${c%%:*}: status 2, the message" "2 vlpost: ${c#*:}" "$? $(head -1 args.err)"
done
"$P" check --help > help.out 2>&1
assert_eq "vlpost check --help: status 0, usage on stdout" "0 1" "$? $(grep -c '^usage: vlpost check' help.out)"
e2e_summary
