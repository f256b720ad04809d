#!/bin/bash
# test_tablix2.sh BUILD - Tablix (Debian tablix2: a parallel genetic timetable
# solver on PVM, nobody here wrote it), unmodified, with the layer preloaded,
# on a heterogeneous machine (tablix/hetero.ini: hosts front, fast and slow,
# speeds 1000, 4000 and 125 by pvm_config).  The master tablix2 shares its
# kernels (tablix2_kernel) out by those speeds and spawns them on the hosts it
# chose (pvm_spawn with PvmTaskHost); it then multicasts the problem, takes
# their reports with wildcard receives, passes migrations between them and
# collects one result each, with pvm_notify(PvmTaskExit) to see kernels die.
# The problem is tablix/school.xml (38 lessons, modules timeplace and
# sametime).  Asserted: tablix2 ends with status 0 and writes one result per
# kernel, and each result solves the problem (tablix/timetable.awk: every
# lesson of the problem placed, no room, teacher or class twice at one time);
# the kernels are on the hosts tablix2's own rule gives for those speeds (one
# trace per task, 1 + the kernels tablix2 reports; the virtual host in each
# trace, in vlpost stats and in the Paje file); the slow host is ignored with
# tablix2's message; the kernels tablix2 lists are the traced ones; the traces
# convert to a .trf that vlpost check accepts and to a Paje file pj_dump
# reads.  A native run under the same pvmd (one real host: all kernels
# there) prints the same as the virtual one but for the host count and the
# ignored host, and leaves the same task messages in the pvmd log.
# Under virtual order (the VMConfig's default) a kernel's exit notice, a
# pvmd message without virtual time, must come after the result the kernel
# sent just before it ended, as natively: it once counted as there at the
# master's clock, and tablix2 reported "node ... has unexpectedly quit" and
# wrote fewer results (10 runs of 42 with this file).
# Skipped without tablix2.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$HERE/tablix
if ! command -v tablix2 > /dev/null || ! command -v tablix2_kernel > /dev/null; then
	echo "skip: no tablix2 (apt-get install tablix2)"
	e2e_summary
	exit $?
fi
if [ -n "${VL_SANITIZED:-}" ]; then
	echo "skip: not in the sanitizer build (tablix2 runs with LD_PRELOAD)"
	e2e_summary
	exit $?
fi
CFG=$DATA/hetero.ini
KERNELS=4
# -d 3: also the informational messages (node count, results received) and
# the generations table; a population of 50 per kernel, migration every 5
# generations: a solution in well under a second here, natively and virtually
OPTS="-n $KERNELS -d 3 -p popsize=50,migrtime=5"
pvmd_start /usr/bin

# run MODE [ENV...]: tablix2 in $WORK/MODE (output files there), stdout in
# out, stderr in err, the exit status in rc, the tasks' lines of the pvmd log
# (time stamps and task ids masked) in log
run() {
	local dir=$WORK/$1 n
	shift
	mkdir -p "$dir"
	n=$(pvmd_log | wc -l)
	(cd "$dir" && env "$@" timeout 60 tablix2 $OPTS -o "$dir/" "$DATA/school.xml" > out 2> err
		echo $? > rc)
	sleep 0.3
	pvmd_log | tail -n +$((n + 1)) | grep -v -e '^\[pvmd' -e '\] [0-9/]* [0-9:]* \(vm\|ready\) ' |
		sed -E -e 's/^\[t8[0-9a-f]{7}\] [0-9/]+ [0-9:]+ //' -e 's/t[0-9a-f]{5,8}/tTID/g' > "$dir/log"
}
run native
run layer LD_PRELOAD="$BUILD/libvlayer-pvm.so" VMCONFIG="$CFG" VLAYER_TRACE_DIR="$WORK/layer/trace"
N=$WORK/native
L=$WORK/layer

# the hosts tablix2 chooses (its nodes.c, choose()): kernel k goes to the host
# with the largest speed * KERNELS / total speed - kernels given so far
# (first such host on ties); speed = 1000 / factor, as pvm_config reports
choose() {
	awk -v k=$KERNELS '
		/^\[host / { h = $2; sub(/\]$/, "", h); name[n++] = h }
		/^factor *=/ { f[n - 1] = $3 }
		END {
			for (i = 0; i < n; i++) { sp[i] = int(1000 / f[i] + 0.5); sum += sp[i] }
			for (i = 0; i < n; i++) j[i] = sp[i] * k / sum
			for (t = 0; t < k; t++) {
				m = 0
				for (i = 1; i < n; i++) if (j[i] > j[m]) m = i
				run[m]++; j[m]--
			}
			for (i = 0; i < n; i++) printf "%s%s %d", i ? " " : "", name[i], run[i]
		}' "$CFG"
}
expect=$(choose)
assert_eq "tablix2's rule on hetero.ini's speeds (kernels per host)" "front 1 fast 3 slow 0" "$expect"

for m in native layer; do
	d=$WORK/$m
	assert_eq "$m: tablix2 exit status" 0 "$(cat "$d/rc")"
	grep -q -e 'unexpectedly quit' -e 'FATAL' -e 'failed' "$d/err" "$d/out" &&
		{ fail "$m: tablix2 reports a failure:"; grep -e 'unexpectedly quit' -e 'FATAL' -e 'failed' "$d/err" "$d/out"; }
	assert_eq "$m: 'PGA using N nodes'" "$KERNELS" \
		"$(sed -n 's/^\[tablix\] PGA using \([0-9]*\) nodes\? on .*/\1/p' "$d/err")"
	assert_eq "$m: results uploaded / all received" "$KERNELS 1" \
		"$(grep -c 'is uploading the result$' "$d/err") $(grep -c 'All results were received' "$d/err")"
	assert_eq "$m: the kernels read the problem (38 lessons)" 1 \
		"$(grep -c -m1 'kernel: I have 38 tuples' "$d/out")"
	set -- "$d"/result*.xml
	assert_eq "$m: result files" $KERNELS $#
	want=$(awk -f "$DATA/timetable.awk" "$DATA/school.xml" | sed '$d' | sort | md5sum | cut -c1-32)
	for r in "$@"; do
		b=$(basename "$r")
		xmllint --noout "$r" 2> /dev/null || [ $? = 127 ] || fail "$m: $b is not well-formed XML"
		assert_eq "$m: $b: fitness" 'fitness="0"' "$(grep -o -m1 'fitness="[0-9]*"' "$r")"
		got=$(awk -f "$DATA/timetable.awk" "$r")
		assert_eq "$m: $b: lessons placed, clashes" "placed 38 clashes 0" "$(echo "$got" | tail -1)"
		assert_eq "$m: $b: the problem's lessons" "$want" "$(echo "$got" | sed '$d' | sort | md5sum | cut -c1-32)"
	done
	set -- "$d"/conv*.txt
	assert_eq "$m: convergence files" $KERNELS $#
done
assert_eq "native: one real host" "PGA using $KERNELS nodes on 1 host" "$(sed -n 's/^\[tablix\] //p' "$N/err" | grep '^PGA')"
assert_eq "layer: the virtual hosts of pvm_config" "PGA using $KERNELS nodes on 3 hosts" \
	"$(sed -n 's/^\[tablix\] //p' "$L/err" | grep '^PGA')"
assert_eq "layer: the slow host ignored, with tablix2's message" "[tablix] Host 'slow' is too slow and will be ignored." \
	"$(grep 'too slow' "$L/err")"
assert_eq "native: no host ignored" 0 "$(grep -c 'too slow' "$N/err")"
# what both print, task ids and numbers (fitness, generations per minute,
# times) masked, without the progress lines and the kernels' forwarded
# messages (their number depends on timing), the host count and the ignored host
norm() {
	grep -v -e '^\[[0-9a-fx]*\] ' -e 'too slow' "$@" |
		sed -E -e 's/on [0-9]+ hosts?/on N hosts/' -e 's/\binf\b|\b[0-9a-f]*[0-9][0-9a-f]*(\.[0-9]+)?\b/N/g' | sort
}
for f in out err; do
	if [ "$(norm "$N/$f")" = "$(norm "$L/$f")" ]; then
		ok "std$f as native (ids, numbers, host count masked)"
	else
		fail "std$f differs from native"
		diff <(norm "$N/$f") <(norm "$L/$f") | head -20
	fi
done
# each kernel calls pvm_send after its pvm_exit, which libpvm refuses (once
# re-enrolled) with a message in the pvmd log; the rest of the log (pvmd's own
# lines, how task output is split into lines) depends on timing
bad() { grep -o 'pvm_send(): Bad parameter' "$1" | wc -l; }
assert_eq "the kernels' libpvm messages in the pvmd log as native" "$(bad "$N/log")" "$(bad "$L/log")"
grep -i 'vlayer' "$L/log" "$L/err" "$L/out" && fail "layer: messages of the layer above"

# the traces: one per task, each on the host tablix2 chose
T=$L/trace
ntrc=$(find "$T" -maxdepth 1 -name 'vl-*.trc' 2> /dev/null | wc -l)
nk=$(sed -n 's/^\[tablix\] PGA using \([0-9]*\) nodes\? on .*/\1/p' "$L/err")
assert_eq "layer: traces = 1 + the kernels tablix2 reports ($nk)" $((1 + ${nk:-0})) "$ntrc"
"$BUILD/vlpost" stats --csv "$T" > "$WORK/stats.csv" 2> "$WORK/stats.err"
assert_eq "vlpost stats on the traces" 0 $?
# proc,tid,host,host_name,program,...: the first section only
awk -F, 'NR > 1 && NF == 0 { exit } NR > 1' "$WORK/stats.csv" > "$WORK/tasks.csv"
assert_eq "layer: tablix2 traced on the first host" "front" \
	"$(awk -F, '$5 == "tablix2" { print $4 }' "$WORK/tasks.csv")"
perhost() {
	awk '{ c[$1]++ } END { for (h in c) print h, c[h] }' | sort
}
assert_eq "layer: kernels per host in the traces (vlpost stats) = tablix2's choice" \
	"$(echo "$expect" | xargs -n 2 | awk '$2 > 0' | sort | xargs)" \
	"$(awk -F, '$5 == "tablix2_kernel" { print $4 }' "$WORK/tasks.csv" | perhost | xargs)"
ktids=$(awk -F, '$5 == "tablix2_kernel" { sub(/^0x/, "", $2); print $2 }' "$WORK/tasks.csv" | sort | xargs)
assert_eq "layer: the kernels in tablix2's generations table are the traced ones" "$ktids" \
	"$(awk '/^node\tgenerations/ { t = 1; next } t && NF == 2 { print $1 } t && NF == 0 { t = 0 }' "$L/out" |
		sort | xargs)"
assert_eq "layer: the kernels that uploaded results are the traced ones" "$ktids" \
	"$(sed -n 's/.*node \([0-9a-f]*\) is uploading the result$/\1/p' "$L/err" | sort | xargs)"
sent=$(awk -F, '{ s += $10 } END { print s + 0 }' "$WORK/tasks.csv")
recv=$(awk -F, '{ s += $12 } END { print s + 0 }' "$WORK/tasks.csv")
assert_eq "layer: messages were exchanged (sent $sent, received $recv)" 1 \
	"$(awk -v s="$sent" -v r="$recv" -v k=$KERNELS 'BEGIN { print (s > 10 * k && r > 10 * k) }')"
assert_eq "layer: kernels that sent and received messages" $KERNELS \
	"$(awk -F, '$5 == "tablix2_kernel" && $10 > 0 && $12 > 0' "$WORK/tasks.csv" | wc -l)"

"$BUILD/vlpost" trf -o "$WORK/tablix.trf" "$T" > /dev/null 2>&1
assert_eq "vlpost trf" 0 $?
"$BUILD/vlpost" check "$WORK/tablix.trf" > "$WORK/check.out" 2>&1
assert_eq "vlpost check accepts the .trf" 0 $?
"$BUILD/vlpost" paje -o "$WORK/tablix.paje" "$T" > /dev/null 2>&1
assert_eq "vlpost paje" 0 $?
if command -v pj_dump > /dev/null; then
	pj_dump "$WORK/tablix.paje" > "$WORK/paje.dump" 2> "$WORK/pj_dump.err"
	assert_eq "pj_dump reads the Paje file" "0 0" "$? $(wc -c < "$WORK/pj_dump.err")"
	# Container, PARENT, Task, start, end, duration, TID PROGRAM
	assert_eq "pj_dump: the tasks under their hosts" \
		"$(awk -F, '{ print $4 "/" $5 }' "$WORK/tasks.csv" | sort | xargs)" \
		"$(awk -F', ' '$1 == "Container" && $3 == "Task" { split($7, a, " "); print $2 "/" a[2] }' \
			"$WORK/paje.dump" | sort | xargs)"
	links=$(grep -c '^Link,' "$WORK/paje.dump")
	assert_eq "pj_dump: message links ($links), at most the messages sent ($sent)" 1 \
		"$(awk -v l="$links" -v s="$sent" 'BEGIN { print (l > 0 && l <= s) }')"
else
	fail "pj_dump not installed (apt-get install pajeng)"
fi
e2e_summary
