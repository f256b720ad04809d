#!/bin/sh
# run-model.sh BUILDDIR - golden tests of `vlmodel` (the analytic models).
#
# Builds nothing: BUILDDIR must hold vlmodel and tests/mktrace.  Every directory
# tests/golden/model/<case>/ holds
#   args          the arguments of vlmodel: one line of shell (quoting,
#                 redirections and "&& cat FILE" allowed) run as `vlmodel ARGS`
#                 in the case's work directory, which holds a copy of the case's
#                 other files, an empty directory `empty`, and for every
#                 trace-NAME.txt the trace directory NAME built by mktrace
#   expected.out  stdout
#   expected.err  optional: stderr (absent: stderr must be empty)
#   expected.rc   optional: the exit status (default 0)
# Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-model.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
# HERE: read by golden_loop
# shellcheck disable=SC2034
HERE=$(cd "$(dirname "$0")" && pwd)
VLMODEL=$B/vlmodel
MKTRACE=$B/tests/mktrace
for x in "$VLMODEL" "$MKTRACE"; do
	[ -x "$x" ] || { echo "${0##*/}: $x not built" >&2; exit 2; }
done
golden_work model

run_case() {
	c=$1
	t=$WORK/$(basename "$c")
	mkdir -p "$t/empty"
	for f in "$c"/*; do
		n=$(basename "$f")
		case $n in
		args | expected.*) ;;
		trace-*.txt)
			d=${n#trace-}
			if ! "$MKTRACE" "$f" "$t/${d%.txt}" 2>"$t/mk.err"; then
				echo "  mktrace $n failed:"; sed 's/^/    /' "$t/mk.err"; return 1
			fi ;;
		*) cp "$f" "$t/" ;;
		esac
	done
	args=$(cat "$c/args")
	(cd "$t" && eval "\"\$VLMODEL\" $args") >"$t/out" 2>"$t/err"
	rc=$?
	if [ -n "$UPDATE" ]; then
		cp "$t/out" "$c/expected.out"
		if [ -s "$t/err" ]; then cp "$t/err" "$c/expected.err"; else rm -f "$c/expected.err"; fi
		if [ "$rc" != 0 ]; then echo "$rc" >"$c/expected.rc"; else rm -f "$c/expected.rc"; fi
	fi
	ok=0
	want=0
	[ -f "$c/expected.rc" ] && want=$(cat "$c/expected.rc")
	if [ "$rc" != "$want" ]; then echo "  exit status $rc, expected $want"; ok=1; fi
	same "$t/out" "$c/expected.out" stdout || ok=1
	if [ -f "$c/expected.err" ]; then
		same "$t/err" "$c/expected.err" stderr || ok=1
	else
		empty "$t/err" stderr || ok=1
	fi
	return $ok
}

golden_loop model args
