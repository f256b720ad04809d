#!/bin/bash
# test_pvm_examples_all.sh BUILD - the rest of Debian's pvm-examples (the C and
# Fortran programs test_examples.sh and test_pvm_fortran.sh do not run): each
# is built unchanged with vlcc (-w: their warnings are not ours) and natively,
# run natively and under the layer with the same inputs under a private pvmd,
# and compared after normalising task ids and numbers.  For every program:
# vlcc builds it; the same normalised output as native (the first task's and
# the spawned tasks' from the pvmd log); the same exit status; one trace per
# task the program started; vlpost trf of the traces passes vlpost check.
#
# Covered: hello_other (alone: no parent), inherita with inherit1 / inherit3,
# inheritb (+ inherit2), mhf_server + mhf_tickle (message handlers), task0 +
# task1 + task_end + lmbi + gmbi + rme (mailbox), dbwtest ibwtest pbwtest
# rbwtest (two copies in one group), gs, joinleave, tst, thb + tnb, tjf, tjl,
# trsg, ge, gexamp, and in Fortran fspmd (spmd.f), hitc + hitc_slave, frsg.
# Interactive ones (mhf_tickle, trsg, frsg) get their answers on stdin;
# programs started by hand one after the other (task0/task1/task_end, lmbi,
# mhf_server/mhf_tickle) run from one script in one virtual machine.
# Not run: xep and mtile (xep is an X11 program, mtile its worker; no source
# in pvm-examples), srm.pvm (a resource manager: it registers with pvmd as
# the machine's RM and serves it until killed; no source in pvm-examples),
# and hello, master1/slave1, spmd, timing, gexample (test_examples.sh),
# master1.f/slave1.f and gexample.f (test_pvm_fortran.sh).  The tarball's
# mbox.c, ptest.c and starter.c are not among the package's programs (no
# binary in pvm-examples, no target in its Makefile's "all").
#
# A program in KNOWN (below) differs from native for a reason that needs a
# decision in the layer; its differences print "known: ..." instead of FAIL.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
TARBALL=/usr/share/doc/pvm-examples/examples.tar.gz
GTARBALL=/usr/share/doc/pvm-examples/gexamples.tar.gz
if [ ! -f "$TARBALL" ] || [ ! -f "$GTARBALL" ]; then
	ok "skipped: needs pvm-examples (apt-get install pvm-examples)"
	e2e_summary
	exit 0
fi

# late: lmbi waits in pvm_recv(-1, -1) for an END message from a task_end
# started from the shell 3 s later; under virtual order the layer would take
# the lone waiting task for a deadlock after [simulation] deadlock_after (2 s),
# while PVM lets any task enrol and send it a message at any time: the run
# says deadlock_after = 10s (README, Known limits).
KNOWN=""

mkdir -p "$WORK/src" "$WORK/native" "$WORK/virtual" "$WORK/bin"
tar xzf "$TARBALL" -C "$WORK/src"
tar xzf "$GTARBALL" -C "$WORK/src"

# ---- building: NAME:SOURCES:FLAGS (sources relative to the tarballs) ----
CPROGS="hello_other:examples/hello_other.c
inherita:examples/inherita.c
inheritb:examples/inheritb.c
inherit1:examples/inherit1.c
inherit2:examples/inherit2.c
inherit3:examples/inherit3.c
mhf_server:examples/mhf_server.c
mhf_tickle:examples/mhf_tickle.c
task0:examples/task0.c examples/taskf.c
task1:examples/task1.c examples/taskf.c
task_end:examples/task_end.c examples/taskf.c
rme:examples/rme.c examples/taskf.c
lmbi:examples/lmbi.c examples/taskf.c
gmbi:examples/gmbi.c examples/taskf.c
dbwtest:examples/bwtest.c:-DENCODE=PvmDataDefault -DPACK
ibwtest:examples/bwtest.c:-DENCODE=PvmDataInPlace -DPACK
pbwtest:examples/bwtest.c
rbwtest:examples/bwtest.c:-DENCODE=PvmDataRaw -DPACK
gs:gexamples/gs.c
joinleave:gexamples/joinleave.c
tst:gexamples/tst.c
thb:gexamples/thb.c
tnb:gexamples/tnb.c
tjf:gexamples/tjf.c
tjl:gexamples/tjl.c
trsg:gexamples/trsg.c
ge:gexamples/ge.c
gexamp:gexamples/gexamp.c"
# (the flags of the bwtest family are those of examples/Makefile.aimk)
while IFS=: read -r name srcs flags; do
	read -r -a srcs <<< "$srcs"
	srcs=("${srcs[@]/#/$WORK/src/}")
	# shellcheck disable=SC2086
	cc -w -O1 $flags "${srcs[@]}" -o "$WORK/native/$name" -lgpvm3 -lpvm3 || fail "native build of $name"
	# shellcheck disable=SC2086
	if VLCC_CC=cc "$BUILD/vlcc" -w -O1 $flags "${srcs[@]}" -o "$WORK/virtual/$name" -lgpvm3 -lpvm3; then
		ok "vlcc builds $name unchanged"
	else
		fail "vlcc build of $name"
	fi
done <<< "$CPROGS"

FORTRAN=1
if ! command -v gfortran > /dev/null || ! ls /usr/lib/*/libfpvm3.a > /dev/null 2>&1; then
	FORTRAN=0
	ok "skipped: the Fortran programs need gfortran and libfpvm3 (pvm-dev)"
fi
# as test_pvm_fortran.sh: -I/usr/include finds '../include/fpvm3.h',
# -fallow-argument-mismatch for their untyped buffers (both builds)
if [ $FORTRAN = 1 ]; then
	for p in fspmd:examples/spmd.f hitc:examples/hitc.f hitc_slave:examples/hitc_slave.f frsg:gexamples/frsg.f; do
		name=${p%%:*} src=$WORK/src/${p#*:}
		gfortran -w -O1 -fallow-argument-mismatch -I/usr/include "$src" -o "$WORK/native/$name" \
			-lfpvm3 -lgpvm3 -lpvm3 || fail "native build of $name"
		if "$BUILD/vlcc" -pvmf77 -w -O1 -fallow-argument-mismatch -I/usr/include "$src" \
			-o "$WORK/virtual/$name"; then
			ok "vlcc -pvmf77 builds ${p#*:} unchanged"
		else
			fail "vlcc -pvmf77 build of ${p#*:}"
		fi
	done
fi
# SPMD programs (bwtest, spmd.f) are spawned by this helper, which waits for them
cc -O1 "$HERE/spawner.c" -o "$WORK/native/spawner" -lpvm3
VLCC_CC=cc "$BUILD/vlcc" -O1 "$HERE/spawner.c" -o "$WORK/virtual/spawner" -lpvm3

# ---- programs started by hand one after the other: one script each, run
# in $WORK with the mode (native / virtual) as argument; the output of the
# programs started in the background is printed at the end ----
cat > "$WORK/bin/waitfor.sh" << 'EOF'
# waitfor FILE PATTERN: until the (line-buffered) log FILE shows PATTERN
waitfor() {
	for _ in $(seq 100); do
		grep -q "$2" "$1" 2> /dev/null && return 0
		sleep 0.1
	done
	echo "no '$2' in $1 after 10 s"
}
EOF
# message handlers: the server makes a context, publishes it in the mailbox
# and waits; the client asks it (menu answers on stdin) to install
# string_catcher1 for (client, tag 20, server's context), shows the handler
# list, sends the handler a string and tells the server to compare, then
# tells it to exit.  The pauses let the server install the handler before the
# message it must catch is sent (the program has no other synchronisation).
cat > "$WORK/bin/mhf.sh" << 'EOF'
m=$1
. bin/waitfor.sh
stdbuf -oL "$m/mhf_server" > "$m.mhf_server.log" 2>&1 &
s=$!
waitfor "$m.mhf_server.log" startup
ctx=$(sed -n 's/^mhf_server: t[0-9a-f]* on machine .* with context \([0-9]*\)\.$/\1/p' "$m.mhf_server.log")
{ printf '1\n20\n%s\n1\n' "$ctx"; sleep 1; printf '0\n4\n20\n%s\n1\nhello there\n' "$ctx"
  sleep 1; printf '9\n'; } | "$m/mhf_tickle"
echo "mhf_tickle: exit $?"
wait $s
echo "mhf_server: exit $?"
cat "$m.mhf_server.log"
EOF
# mailbox: task0 offers a service in a new context and serves task1; lmbi
# puts two entries and waits; gmbi lists the mailbox (all, then *lmbi*); rme
# may not delete lmbi's entry; another lmbi puts a persistent entry and
# exits; gmbi lists it; task_end ends the first lmbi (through its entry) and
# task0.  task0 lives until the end: a task started from the shell joins the
# run of the first task while it lives, and starts a new run (which empties
# the trace directory) once it has ended.
cat > "$WORK/bin/mbox.sh" << 'EOF'
m=$1
. bin/waitfor.sh
stdbuf -oL "$m/task0" svc d > "$m.task0.log" 2>&1 &
t0=$!
waitfor "$m.task0.log" 'waiting for service'
"$m/task1" svc 0 d; echo "task1: exit $?"
stdbuf -oL "$m/lmbi" 2 d w > "$m.lmbi.log" 2>&1 &
l=$!
waitfor "$m.lmbi.log" 'waiting for exit'
lt=$(sed -n 's/^lmbi: \(t[0-9a-f]*\) on machine.*/\1/p' "$m.lmbi.log" | head -1)
"$m/gmbi"; echo "gmbi: exit $?"
"$m/rme" "${lt}lmbi1" 0; echo "rme: exit $?"
"$m/gmbi" '*lmbi*'; echo "gmbi: exit $?"
"$m/lmbi" 1 p e; echo "lmbi: exit $?"
"$m/gmbi"; echo "gmbi: exit $?"
"$m/task_end" "${lt}lmbi0" 0; echo "task_end: exit $?"
"$m/task_end" svc 0; echo "task_end: exit $?"
wait $l; echo "lmbi: exit $?"
wait $t0; echo "task0: exit $?"
cat "$m.task0.log" "$m.lmbi.log"
EOF
# a task that waits for a task not started yet (PVM allows any task to enrol
# and send it a message at any time)
cat > "$WORK/bin/late.sh" << 'EOF'
m=$1
export VMCONFIG=${LATE_VMCONFIG:-${VMCONFIG:-}}
stdbuf -oL "$m/lmbi" 1 d w > "$m.late.log" 2>&1 &
l=$!
sleep 3
lt=$(sed -n 's/^lmbi: \(t[0-9a-f]*\) on machine.*/\1/p' "$m.late.log" | head -1)
"$m/task_end" "${lt}lmbi0" 0; echo "task_end: exit $?"
wait $l; echo "lmbi: exit $?"
cat "$m.late.log"
EOF

# ---- normalising: what legitimately differs between two runs ----
# task ids (t40001, 0x40001), the mode's directory in paths (gs, gexamp print
# argv[0]), the task prefix of the pvmd log, the order of lines
norm_ids() {
	sed -E -e 's/^\[[^]]*\] ?//' -e 's/t[0-9a-f]{5,8}/tTID/g' -e 's/0x[0-9a-f]{5,8}/0xTID/g' \
		-e 's#(native|virtual)/#MODE/#g' "$@"
}
# numbers that are times (bwtest's round trips)
norm() { norm_ids "$@" | sed -E -e 's/-?[0-9]+(\.[0-9]+)?/N/g' -e 's/ +/ /g' | sort; }
# numbers that are results: kept (long ones are tids or contexts)
norm_keep() { norm_ids "$@" | sed -E -e 's/\b[0-9]{6,}\b/NUM/g' | sort; }

is_known() { case "$KNOWN" in *" $1 "*) return 0 ;; esac; return 1; }
# check NAME WHAT EXPECTED ACTUAL: ok, FAIL, or known for the programs in KNOWN
check() {
	if [ "$3" = "$4" ]; then
		ok "$1: $2"
	elif is_known "$1"; then
		echo "known: $1: $2: expected '$3', got '$4'"
	else
		fail "$1: $2: expected '$3', got '$4'"
	fi
}

# run_case NAME NTASKS NORM CMD...: CMD ({M} = native / virtual) under a fresh
# pvmd natively and under the layer (stdin from $WORK/stdin.NAME), then the
# assertions (pvm_example_run adds the spawned tasks' output from the pvmd
# log, without PVM's own race of two tasks starting the group server at once).
run_case() {
	local name=$1 ntasks=$2 nm=$3 m a b n
	shift 3
	[ -f "$WORK/stdin.$name" ] || echo > "$WORK/stdin.$name"
	for m in native virtual; do
		[ $m = virtual ] && export VLAYER_TRACE_DIR="$WORK/trace.$name"
		pvm_example_run $m "$name" timeout 20 "${@//\{M\}/$m}"
		unset VLAYER_TRACE_DIR
		[ -z "${NORM_DROP:-}" ] || sed -i -E "/$NORM_DROP/d" "$WORK/$m.$name.out"
	done
	check "$name" "exit status as native" "$(grep '^exit' "$WORK/native.$name.out")" \
		"$(grep '^exit' "$WORK/virtual.$name.out")"
	a=$($nm "$WORK/native.$name.out")
	b=$($nm "$WORK/virtual.$name.out")
	if [ "$a" = "$b" ]; then
		ok "$name: same output as native"
	else
		if is_known "$name"; then
			echo "known: $name: output differs from native"
		else
			fail "$name: output differs from native"
		fi
		diff <(echo "$a") <(echo "$b") | head -20
	fi
	n=$(find "$WORK/trace.$name" -maxdepth 1 -name '*.trc' 2> /dev/null | wc -l)
	check "$name" "one trace per task ($ntasks)" "$ntasks" "$n"
	trf_checks "$name" "$WORK/trace.$name"
}

export VMCONFIG="$HERE/onehost.ini"
{ cat "$VMCONFIG"; printf '\n[simulation]\ndeadlock_after = 10s\n'; } > "$WORK/late.ini"
export LATE_VMCONFIG="$WORK/late.ini"

# -- examples/ --
# alone (no parent): libpvm's own error for pvm_send(PvmNoParent)
run_case hello_other 1 norm_keep '{M}/hello_other'
# contexts: inherita makes a context and spawns inherit1 (which spawns
# inherit2) or inherit3 (which makes its own context); inheritb spawns an
# inherit2 in each of two new contexts and receives in each.  inherita1 is
# stopped after 8 s: natively it ends in well under 1 s, and under the layer
# of 2026-11-26 it hangs (inherit1's first context is the one inherita made:
# inherit1 announces its messages to inherita in the main class, inherita
# counts them in the side class, so inherita's wait never raises its bound
# and inherit1's wildcard receive waits for it for ever)
run_case inherita1 3 norm_keep timeout 8 '{M}/inherita' inherit1
run_case inherita3 3 norm_keep '{M}/inherita' inherit3
run_case inheritb 3 norm_keep '{M}/inheritb'
# (2026-11-26: the handler is handed the layer's wrapper, not the message)
run_case mhf 2 norm_keep bash bin/mhf.sh '{M}'
# 10 tasks, the three gmbi among them (2026-11-26: gmbi makes no call the
# layer wraps, so it gets no trace, and it lists the layer's own mailbox
# entries vlayer.<tid>)
run_case mbox 10 norm_keep bash bin/mbox.sh '{M}'
run_case late 2 norm_keep bash bin/late.sh '{M}'
# the bandwidth tests: two copies (one group; instance 0 is the master);
# their round trips are times (norm)
for p in dbwtest ibwtest pbwtest rbwtest; do
	run_case $p 3 norm '{M}/spawner' 2 $p
	# under the layer the round trips are virtual: 800000 bytes each way on
	# onehost.ini (20 + 30 + 10 us per message, 1 Gbit/s) take 2 x 6.46 ms
	t=$(sed -n 's/.*Roundtrip T = \([0-9]*\) (us).*Data size: 800000$/\1/p' "$WORK/virtual.$p.out")
	check $p "virtual round trip of 800000 bytes: the model's 12920 us (within 1%)" yes \
		"$([ -n "$t" ] && [ "$t" -ge 12791 ] && [ "$t" -le 13049 ] && echo yes || echo "no: ${t:-none}")"
done

# -- gexamples/ --
# gs: its first member prints a line per turn of a busy loop on pvm_gsize
# until the others have joined: how many depends on real timing
NORM_DROP='waiting on kids to join' run_case gs 4 norm_keep '{M}/gs' 4
run_case joinleave 1 norm_keep '{M}/joinleave' 200
run_case tst 1 norm_keep '{M}/tst'
run_case thb 4 norm_keep '{M}/thb' 3
run_case tjf 1 norm_keep '{M}/tjf'
run_case tjl 1 norm_keep '{M}/tjl'
printf '4\n5\n' > "$WORK/stdin.trsg"
run_case trsg 4 norm_keep '{M}/trsg'
# ge checks the group (pvm_getinst/pvm_gettid) while the first members may
# already have left it (no barrier before pvm_lvgroup, unlike gexamp): its
# "gid N doesn't match up!" lines depend on real timing, natively as well
NORM_DROP="doesn't match up" run_case ge 4 norm_keep '{M}/ge' 4
run_case gexamp 4 norm_keep '{M}/gexamp' 4
# -- Fortran --
if [ $FORTRAN = 1 ]; then
	run_case fspmd 5 norm_keep '{M}/spawner' 4 fspmd
	run_case hitc 2 norm_keep '{M}/hitc'
	printf '4\n5\n' > "$WORK/stdin.frsg"
	run_case frsg 4 norm_keep '{M}/frsg'
fi
e2e_summary
