#!/bin/sh
# run-trf.sh BUILDDIR - golden tests of `vlpost trf` (and `vlpost stats`, `vlpost check`).
#
# Builds nothing: BUILDDIR must hold vlpost and tests/mktrace.  Every directory
# tests/golden/trf/<case>/ holds
#   input.txt       the traces as text (tests/tools/mktrace.c)
#   args            optional: extra options for `vlpost trf` (e.g. --partial)
#   expected.trf    the .trf to write; absent: no .trf (nor .tmp) may be left
#   expected.stats  the stats table `vlpost trf` prints; `vlpost stats` must
#                   print the same; absent: stdout must be empty
#   expected.err    stderr, with the trace directory written as TRACEDIR;
#                   absent: stderr must be empty
#   expected.rc     optional exit status (default 0)
# Every .trf written is also checked with `vlpost check`.
# Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-trf.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
HERE=$(cd "$(dirname "$0")" && pwd)
VLPOST=$B/vlpost
MKTRACE=$B/tests/mktrace
for x in "$VLPOST" "$MKTRACE"; do
	[ -x "$x" ] || { echo "run-trf.sh: $x not built" >&2; exit 2; }
done

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
	if [ -f "$t/out.trf" ]; then cp "$t/out.trf" "$c/expected.trf"; else rm -f "$c/expected.trf"; fi
	if [ -s "$t/stdout" ]; then cp "$t/stdout" "$c/expected.stats"; else rm -f "$c/expected.stats"; fi
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
	"$VLPOST" trf $args -o "$t/out.trf" "$t/trace" >"$t/stdout" 2>"$t/stderr.raw"
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
	if [ -f "$c/expected.trf" ]; then
		same "$t/out.trf" "$c/expected.trf" .trf || ok=1
		if ! "$VLPOST" check "$t/out.trf" >"$t/check" 2>&1; then
			echo "  vlpost check failed:"; sed 's/^/    /' "$t/check"; ok=1
		fi
	elif [ -e "$t/out.trf" ] || [ -e "$t/out.trf.tmp" ]; then
		echo "  an output file was left behind"; ok=1
	fi
	if [ -f "$c/expected.stats" ]; then
		same "$t/stdout" "$c/expected.stats" "trf stdout" || ok=1
		"$VLPOST" stats "$t/trace" >"$t/stats" 2>/dev/null
		same "$t/stats" "$c/expected.stats" "vlpost stats" || ok=1
	else
		empty "$t/stdout" stdout || ok=1
	fi
	return $ok
}

for c in "$HERE"/trf/*/; do
	c=${c%/}
	[ -f "$c/input.txt" ] || continue
	if run_case "$c"; then
		pass=$((pass + 1))
		echo "ok   trf/$(basename "$c")"
	else
		fail=$((fail + 1))
		echo "FAIL trf/$(basename "$c")"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
