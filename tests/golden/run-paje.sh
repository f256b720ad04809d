#!/bin/sh
# run-paje.sh BUILDDIR - golden tests of `vlpost paje`.
#
# Builds nothing: BUILDDIR must hold vlpost and tests/mktrace.  Every directory
# tests/golden/paje/<case>/ holds
#   input.txt       the traces as text (tests/tools/mktrace.c)
#   args            optional: extra options for `vlpost paje` (e.g. --partial)
#   expected.paje   the Pajé file to write; absent: no .paje (nor .tmp) may be left
#   expected.err    stderr, with the trace directory written as TRACEDIR;
#                   absent: stderr must be empty
#   expected.rc     optional exit status (default 0)
# stdout must be empty.  Every .paje written is also read with pj_dump (Debian
# package pajeng), which must exit 0; without pj_dump that check is skipped.
# Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-paje.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
HERE=$(cd "$(dirname "$0")" && pwd)
VLPOST=$B/vlpost
MKTRACE=$B/tests/mktrace
for x in "$VLPOST" "$MKTRACE"; do
	[ -x "$x" ] || { echo "run-paje.sh: $x not built" >&2; exit 2; }
done
PJDUMP=$(command -v pj_dump)
[ -n "$PJDUMP" ] || echo "run-paje.sh: pj_dump not found (apt-get install pajeng): not checking with it"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/vlpost-golden.XXXXXX") || exit 2
trap 'rm -rf "$WORK"' EXIT INT TERM
pass=0
fail=0

# same FILE EXPECTED LABEL: compare, print a diff on mismatch
same() {
	if [ -f "$2" ] && diff -u "$2" "$1" >"$WORK/diff" 2>&1; then
		return 0
	fi
	echo "  $3 differs:"
	if [ -f "$2" ]; then sed 's/^/    /' "$WORK/diff"; else echo "    ($2 missing)"; fi
	return 1
}

empty() {
	[ ! -s "$1" ] && return 0
	echo "  unexpected $2:"
	sed 's/^/    /' "$1"
	return 1
}

update() {
	c=$1 rc=$2 t=$3
	if [ -f "$t/out.paje" ]; then cp "$t/out.paje" "$c/expected.paje"; else rm -f "$c/expected.paje"; fi
	if [ -s "$t/stderr" ]; then cp "$t/stderr" "$c/expected.err"; else rm -f "$c/expected.err"; fi
	if [ "$rc" != 0 ]; then echo "$rc" >"$c/expected.rc"; else rm -f "$c/expected.rc"; fi
}

# run_case DIR: 0 if the case passes
run_case() {
	c=$1
	t=$WORK/$(basename "$c")
	mkdir -p "$t"
	if ! "$MKTRACE" "$c/input.txt" "$t/trace" 2>"$t/mk.err"; then
		echo "  mktrace failed:"; sed 's/^/    /' "$t/mk.err"; return 1
	fi
	args=
	[ -f "$c/args" ] && args=$(cat "$c/args")
	# shellcheck disable=SC2086
	"$VLPOST" paje $args -o "$t/out.paje" "$t/trace" >"$t/stdout" 2>"$t/stderr.raw"
	rc=$?
	sed "s#$t/trace#TRACEDIR#g" "$t/stderr.raw" >"$t/stderr"
	if [ -n "$UPDATE" ]; then update "$c" "$rc" "$t"; fi

	ok=0
	want=0
	[ -f "$c/expected.rc" ] && want=$(cat "$c/expected.rc")
	if [ "$rc" != "$want" ]; then echo "  exit status $rc, expected $want"; ok=1; fi
	if [ -f "$c/expected.err" ]; then
		same "$t/stderr" "$c/expected.err" stderr || ok=1
	else
		empty "$t/stderr" stderr || ok=1
	fi
	empty "$t/stdout" stdout || ok=1
	if [ -f "$c/expected.paje" ]; then
		same "$t/out.paje" "$c/expected.paje" .paje || ok=1
		if [ -n "$PJDUMP" ] && ! "$PJDUMP" "$t/out.paje" >"$t/dump" 2>&1; then
			echo "  pj_dump failed:"; tail -5 "$t/dump" | sed 's/^/    /'; ok=1
		fi
	elif [ -e "$t/out.paje" ] || [ -e "$t/out.paje.tmp" ]; then
		echo "  an output file was left behind"; ok=1
	fi
	return $ok
}

for c in "$HERE"/paje/*/; do
	c=${c%/}
	[ -f "$c/input.txt" ] || continue
	if run_case "$c"; then
		pass=$((pass + 1))
		echo "ok   paje/$(basename "$c")"
	else
		fail=$((fail + 1))
		echo "FAIL paje/$(basename "$c")"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
