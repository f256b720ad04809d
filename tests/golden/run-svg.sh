#!/bin/sh
# run-svg.sh BUILDDIR - golden tests of `vlpost svg`.
#
# Builds nothing: BUILDDIR must hold vlpost and tests/mktrace.  Every directory
# tests/golden/svg/<case>/ holds
#   input.txt       the traces as text (tests/tools/mktrace.c)
#   args            optional: extra options for `vlpost svg` (e.g. --partial)
#   expected.svg   the SVG file to write; absent: no .svg (nor .tmp) may be left
#   expected.err    stderr, with the trace directory written as TRACEDIR;
#                   absent: stderr must be empty
#   expected.rc     optional exit status (default 0)
# stdout must be empty.  Every .svg written must be well-formed XML: checked with
# xmllint --noout (Debian package libxml2-utils), else with python3's
# xml.dom.minidom, else not checked (a note says so).
# Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-svg.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
HERE=$(cd "$(dirname "$0")" && pwd)
VLPOST=$B/vlpost
MKTRACE=$B/tests/mktrace
for x in "$VLPOST" "$MKTRACE"; do
	[ -x "$x" ] || { echo "run-svg.sh: $x not built" >&2; exit 2; }
done
# wellformed FILE: 0 if FILE is well-formed XML (or nothing can check it)
if command -v xmllint >/dev/null; then
	wellformed() { xmllint --noout "$1"; }
elif command -v python3 >/dev/null; then
	wellformed() { python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1"; }
else
	echo "run-svg.sh: neither xmllint (apt-get install libxml2-utils) nor python3: not checking well-formedness"
	wellformed() { :; }
fi

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
	if [ -f "$t/out.svg" ]; then cp "$t/out.svg" "$c/expected.svg"; else rm -f "$c/expected.svg"; fi
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
	"$VLPOST" svg $args -o "$t/out.svg" "$t/trace" >"$t/stdout" 2>"$t/stderr.raw"
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
	if [ -f "$c/expected.svg" ]; then
		same "$t/out.svg" "$c/expected.svg" .svg || ok=1
		if ! wellformed "$t/out.svg" >"$t/xml" 2>&1; then
			echo "  not well-formed XML:"; tail -5 "$t/xml" | sed 's/^/    /'; ok=1
		fi
	elif [ -e "$t/out.svg" ] || [ -e "$t/out.svg.tmp" ]; then
		echo "  an output file was left behind"; ok=1
	fi
	return $ok
}

for c in "$HERE"/svg/*/; do
	c=${c%/}
	[ -f "$c/input.txt" ] || continue
	if run_case "$c"; then
		pass=$((pass + 1))
		echo "ok   svg/$(basename "$c")"
	else
		fail=$((fail + 1))
		echo "FAIL svg/$(basename "$c")"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
