#!/bin/bash
# test_verdict.sh BUILD - one reader, one verdict (docs/vlpost.md, "Trace
# validation"): every vlpost command that reads a trace directory (trf, stats,
# paje, svg, otf2, scaling) accepts or refuses the same corrupted traces, and
# whatever `vlpost trf` accepts, `vlpost check` accepts in the .trf it wrote.
# A refusal is exit status 2, a first line "vlpost: ..." on stderr naming the
# trace directory, and no output file left.  The one documented difference:
# `vlpost stats` reads an incomplete run (a truncated file, a task without END)
# with warnings, where the others refuse it.
# First the corruptions that split the verdicts before (a receive with another
# tag than its send: trf wrote a .trf that check rejected; a time of 10^9 s;
# messages received twice, by another task or with a seq never sent; stats and
# scaling accepting tachyons and receives without send), then a deterministic
# sweep over two golden traces: every record deleted, duplicated and swapped
# with the next, the type, tag, seq, peer and times of records changed, a file
# truncated at every record boundary and inside every record, bytes inverted,
# a file emptied or removed, stray bytes after END, stray files.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
P="$BUILD/vlpost"
MK="$BUILD/tests/mktrace"
cd "$WORK" || exit 2

# the golden inputs without comments and empty lines: one task or record a line
strip() {
	sed 's/#.*//' "$TOP/tests/golden/trf/$1/input.txt" | awk 'NF'
}
strip masterworker > mw.txt
strip nonblocking > nb.txt
"$MK" mw.txt base > /dev/null
assert_eq "the reference traces are made" 0 $?
OTF2=1
if "$P" otf2 -o probe.otf2 base 2>&1 | grep -q "built without OTF2"; then
	OTF2=0
	ok "vlpost built without OTF2: otf2 left out"
fi

# refused CMD OUT RC ERRFILE DIR: why the refusal of CMD (exit RC, stderr in
# ERRFILE, output OUT or -) is not a proper one ("" if it is)
refused() {
	local first
	first=$(head -1 "$4")
	[ "$3" = 2 ] || { echo " $1 exits $3, not 2;"; return; }
	case "$first" in
	"vlpost: "*"$5"*) ;;
	*) echo " $1: first line of stderr '$first' does not name $5;" ;;
	esac
	if [ "$2" != - ] && { [ -e "$2" ] || [ -e "$2.tmp" ]; }; then
		echo " $1 leaves $2 behind;"
	fi
}

# judge DIR NAME [VERDICT]: trf's verdict on DIR (ok, bad, or incomplete: the
# error is a truncated file or a missing END), which every other command must
# share, and, if given, must be VERDICT.  One assertion per trace.
judge() {
	local d=$1 name=$2 o="$WORK/o" ref rc why="" cmd out
	rm -rf "$o" && mkdir "$o"
	"$P" trf -o "$o/x.trf" "$d" > /dev/null 2> "$o/err"
	rc=$?
	if [ $rc = 0 ]; then
		ref=ok
		"$P" check "$o/x.trf" > "$o/check" 2>&1 ||
			why=" check rejects the .trf of trf: $(head -1 "$o/check");"
	else
		ref=bad
		grep -q -e 'no END record' -e 'truncated after' "$o/err" && ref=incomplete
		why=$(refused trf "$o/x.trf" $rc "$o/err" "$d")
	fi
	LAST_ERR=$(head -1 "$o/err")
	[ -z "${3:-}" ] || [ "$3" = $ref ] || why="$why trf says $ref, expected $3;"
	for cmd in stats "stats --brief --csv" "stats --json"; do
		"$P" $cmd "$d" > /dev/null 2> "$o/err"
		rc=$?
		case $ref/$rc in
		ok/0) ;;
		incomplete/0) grep -q "^vlpost: warning: $d/" "$o/err" || why="$why $cmd: no warning;" ;;
		ok/*) why="$why $cmd refuses: $(head -1 "$o/err");" ;;
		incomplete/*) why="$why $cmd refuses an incomplete run: $(head -1 "$o/err");" ;;
		*) why="$why$(refused "$cmd" - $rc "$o/err" "$d")" ;;
		esac
	done
	for cmd in paje svg otf2 scaling; do
		[ $cmd != otf2 ] || [ $OTF2 = 1 ] || continue
		out="$o/x.$cmd"
		if [ $cmd = scaling ]; then
			out=-
			"$P" scaling "$d" > /dev/null 2> "$o/err"
		else
			"$P" $cmd -o "$out" "$d" > /dev/null 2> "$o/err"
		fi
		rc=$?
		if [ $ref = ok ]; then
			[ $rc = 0 ] || why="$why $cmd refuses: $(head -1 "$o/err");"
		else
			why="$why$(refused $cmd "$out" $rc "$o/err" "$d")"
		fi
	done
	if [ -z "$why" ]; then ok "$name: $ref, every command agrees"; else fail "$name ($ref):$why"; fi
}

# edit NAME BASE AWK [VERDICT]: judge the traces of BASE (mw.txt, nb.txt) as
# awk edits them; an edit that mktrace refuses is not a trace, and skipped
SKIPPED=0
edit() {
	rm -rf mutant
	if awk "$3" "$2" > m.txt && "$MK" m.txt mutant > /dev/null 2>&1; then
		judge mutant "$1" "${4:-}"
	else
		SKIPPED=$((SKIPPED + 1))
	fi
}

# set line I's key K to V (the awk of edit)
setkey() {
	echo "NR == $1 { sub(/ $2=[^ ]*/, \"\"); \$0 = \$0 \" $2=$3\" } { print }"
}

# ---- 1. the corruptions that split the verdicts ----
judge base "the reference" ok
# the master's second receive says tag 3; worker 0x40003 sent tag 2 (trf used
# to write it, check rejected the .trf)
edit "a receive with another tag than its send" mw.txt "$(setkey 8 tag 3)" bad
assert_eq "... and trf's error names both tags" 1 \
	"$(echo "$LAST_ERR" | grep -c 'vl-00040001.trc: record 6: receives message 1 of task 0x40003 with tag 3, which .*vl-00040003.trc sends with tag 2$')"
edit "a task ending at 10^9 s" mw.txt "$(setkey 9 t 1000000000s)" ok
edit "a message received twice" mw.txt \
	'NR == 15 { print "recv peer=0x40001 tag=1 seq=1 bytes=800 t0=27us t1=27us arrival=9us" } { print }' bad
# both receive ends come before the send begin at the same time (task 0x1 is
# processor 0): they wait for it in the merge, one of them in vain
cat > twice.txt << 'EOF'
task 0x1 host 0 hostname n0 prog r start 0
start t=0
recv peer=0x2 tag=1 seq=1 bytes=8 t=10us arrival=10us
recv peer=0x2 tag=1 seq=1 bytes=8 t=10us arrival=10us
end t=20us comp=20us comm=0 wait=0
task 0x2 host 0 hostname n0 prog s start 0
start t=0
send peer=0x1 tag=1 seq=1 bytes=8 t0=10us t1=11us arrival=10us
end t=20us comp=19us comm=1us wait=0
EOF
edit "a message received twice at the time it is sent" twice.txt '{ print }' bad
edit "a receive of a message sent to another task" mw.txt "$(setkey 18 seq 1)" bad
edit "a receive of a seq never sent" mw.txt "$(setkey 6 seq 3)" bad
edit "a receive from a task without trace" mw.txt "$(setkey 6 peer 0x40077)" bad
edit "a receive ending before its send begins (tachyon)" "$TOP/tests/golden/trf/tachyon/input.txt" '{ print }' bad
edit "a task without END" "$TOP/tests/golden/trf/noend/input.txt" '{ print }' incomplete

# ---- 2. the sweep ----
for base in mw.txt nb.txt; do
	n=$(wc -l < $base)
	tids=(0x40001 0x40002 0x40003)
	[ $base = mw.txt ] || tids=(0 1)
	for i in $(seq 1 "$n"); do
		line=$(sed -n "${i}p" $base)
		case $line in task*) continue ;; esac
		edit "$base line $i deleted" $base "NR != $i"
		edit "$base line $i twice" $base "{ print } NR == $i { print }"
		[ $i = "$n" ] || edit "$base line $i after the next" $base \
			"NR == $i { h = \$0; next } { print } NR == $i + 1 { print h }"
		case $line in
		send* | recv* | wait* | irecv*)
			edit "$base line $i tag 99" $base "$(setkey $i tag 99)"
			edit "$base line $i seq 9" $base "$(setkey $i seq 9)"
			edit "$base line $i peer ${tids[i % ${#tids[@]}]}" $base \
				"$(setkey $i peer ${tids[i % ${#tids[@]}]})"
			edit "$base line $i t0 0" $base "$(setkey $i t0 0)"
			;;
		end*)
			edit "$base line $i at 10^9 s" $base "$(setkey $i t 1000000000s)"
			edit "$base line $i at 4611686018427387904 ns" $base "$(setkey $i t 4611686018427387904)"
			edit "$base line $i at 4611686018427387905 ns" $base "$(setkey $i t 4611686018427387905)"
			;;
		esac
		[ $((i % 4)) != 1 ] || edit "$base line $i unknown type" $base "NR == $i { \$1 = 77 } { print }"
	done
done
# the bytes of the master's file (256 bytes of header, 64 per record)
F=vl-00040001.trc
size=$(stat -c %s base/$F)
for cut in $(seq 0 32 $((size - 1))) 1 255; do
	rm -rf mutant && cp -r base mutant && truncate -s $cut mutant/$F
	judge mutant "$F cut at byte $cut"
done
# invert one byte: the header's magic, version, tid, start; in records the
# type, peer, seq, bytes, t0, t1, t2
for off in 0 8 20 40 256 328 344 348 360 408 416 424 520 600 720; do
	rm -rf mutant && cp -r base mutant
	b=$(od -An -tu1 -j $off -N1 mutant/$F)
	printf "$(printf '\\%03o' $((b ^ 255)))" | dd of=mutant/$F bs=1 seek=$off conv=notrunc 2> /dev/null
	judge mutant "$F byte $off inverted"
done
rm -rf mutant && cp -r base mutant && : > mutant/$F && judge mutant "$F empty"
rm -rf mutant && cp -r base mutant && rm mutant/vl-00040002.trc && judge mutant "a worker's file removed"
rm -rf mutant && cp -r base mutant && printf 0123456789 >> mutant/$F && judge mutant "stray bytes after END"
rm -rf mutant && cp -r base mutant && head -c 500 /dev/zero > mutant/vl-0000beef.trc && judge mutant "a stray vl-0000beef.trc"
rm -rf mutant && cp -r base mutant && echo notes > mutant/README && judge mutant "a file that is not a trace" ok
rm -rf mutant && mkdir mutant && judge mutant "an empty directory" bad
echo "($SKIPPED edits left out: not a trace mktrace can write)"
e2e_summary
