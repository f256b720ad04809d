#!/bin/sh
# run-otf2.sh BUILDDIR - golden tests of `vlpost otf2`.
#
# Builds nothing: BUILDDIR must hold vlpost (built with OTF2 support) and
# tests/mktrace; otf2-print (Debian package otf2-tools) must be installed: both
# missing is a failure, not a skip.  Every directory tests/golden/otf2/<case>/ holds
#   input.txt       the traces as text (tests/tools/mktrace.c)
#   args            optional: extra options for `vlpost otf2` (e.g. --partial)
#   expected.txt    `otf2-print` then `otf2-print -G` of the archive written
#                   (deterministic: no uuid or date is printed); absent: no
#                   archive (nor ARCHIVE.tmp) may be left
#   expected.err    stderr, with the trace directory written as TRACEDIR;
#                   absent: stderr must be empty
#   expected.rc     optional exit status (default 0)
# The inputs are copies of the Pajé cases (tests/golden/paje/): their comments
# describe the trf/Pajé mapping, the expected files the OTF2 one.
# stdout must be empty.  Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-otf2.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
HERE=$(cd "$(dirname "$0")" && pwd)
VLPOST=$B/vlpost
MKTRACE=$B/tests/mktrace
for x in "$VLPOST" "$MKTRACE"; do
	[ -x "$x" ] || { echo "run-otf2.sh: $x not built" >&2; exit 2; }
done
command -v otf2-print >/dev/null ||
	{ echo "run-otf2.sh: FAIL: otf2-print not found (apt-get install otf2-tools)" >&2; exit 1; }
if "$VLPOST" otf2 --help 2>&1 >/dev/null | grep -q 'built without OTF2'; then
	echo "run-otf2.sh: FAIL: $VLPOST was built without OTF2 support" \
		"(apt-get install libopen-trace-format2-dev, then rebuild)" >&2
	exit 1
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/vlpost-golden.XXXXXX") || exit 2
trap 'rm -rf "$WORK"' EXIT INT TERM
pass=0
fail=0

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
	if [ -f "$t/out.txt" ]; then cp "$t/out.txt" "$c/expected.txt"; else rm -f "$c/expected.txt"; fi
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
	"$VLPOST" otf2 $args -o "$t/out" "$t/trace" >"$t/stdout" 2>"$t/stderr.raw"
	rc=$?
	sed "s#$t/trace#TRACEDIR#g" "$t/stderr.raw" >"$t/stderr"
	ok=0
	if [ -d "$t/out" ]; then
		if ! { otf2-print "$t/out/traces.otf2" && otf2-print -G "$t/out/traces.otf2"; } \
			>"$t/out.txt" 2>"$t/print.err"; then
			echo "  otf2-print failed:"; tail -5 "$t/print.err" | sed 's/^/    /'; ok=1
		fi
	fi
	if [ -n "$UPDATE" ]; then update "$c" "$rc" "$t"; fi

	want=0
	[ -f "$c/expected.rc" ] && want=$(cat "$c/expected.rc")
	if [ "$rc" != "$want" ]; then echo "  exit status $rc, expected $want"; ok=1; fi
	if [ -f "$c/expected.err" ]; then
		same "$t/stderr" "$c/expected.err" stderr || ok=1
	else
		empty "$t/stderr" stderr || ok=1
	fi
	empty "$t/stdout" stdout || ok=1
	if [ -f "$c/expected.txt" ]; then
		same "$t/out.txt" "$c/expected.txt" "otf2-print output" || ok=1
	elif [ -e "$t/out" ] || [ -e "$t/out.tmp" ]; then
		echo "  an archive was left behind"; ok=1
	fi
	return $ok
}

for c in "$HERE"/otf2/*/; do
	c=${c%/}
	[ -f "$c/input.txt" ] || continue
	if run_case "$c"; then
		pass=$((pass + 1))
		echo "ok   otf2/$(basename "$c")"
	else
		fail=$((fail + 1))
		echo "FAIL otf2/$(basename "$c")"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
