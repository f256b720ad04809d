# lib.sh - the common part of the golden runners tests/golden/run-*.sh, sourced
# by each once B is its BUILDDIR argument, made absolute.  POSIX sh.
#
# golden_start: HERE (this directory), VLPOST and MKTRACE set,
#   and both must be built (else exit 2).
# golden_work PREFIX: WORK, a temporary directory removed on exit; pass, fail.
# golden_loop KIND FILE: run_case (defined by the runner) on every directory
#   tests/golden/KIND/<case>/ that holds FILE; prints "ok"/"FAIL" per case, then
#   "N passed, M failed"; its status is 1 if a case failed.
# For the runners of one vlpost command per case (paje, svg, trf, otf2), over
# the globals c (the case's directory), t (its work directory), rc and ok:
# golden_trace, golden_vlpost, golden_update, golden_check, golden_output, and
# all of them for a command that writes one file: golden_file_case.

# the variables set here (ok, pass, ...) are read by the runners
# shellcheck shell=sh disable=SC2034

golden_start() {
	HERE=$(cd "$(dirname "$0")" && pwd)
	VLPOST=$B/vlpost
	MKTRACE=$B/tests/mktrace
	for x in "$VLPOST" "$MKTRACE"; do
		[ -x "$x" ] || { echo "${0##*/}: $x not built" >&2; exit 2; }
	done
}

golden_work() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/vlpost-$1.XXXXXX") || exit 2
	trap 'rm -rf "$WORK"' EXIT INT TERM
	pass=0
	fail=0
}

# same FILE EXPECTED LABEL: compare, print a diff on mismatch
same() {
	if [ -f "$2" ] && diff -u "$2" "$1" >"$WORK/diff" 2>&1; then
		return 0
	fi
	echo "  $3 differs:"
	if [ -f "$2" ]; then sed 's/^/    /' "$WORK/diff"; else echo "    ($2 missing)"; fi
	return 1
}

# empty FILE LABEL: FILE must be empty
empty() {
	[ ! -s "$1" ] && return 0
	echo "  unexpected $2:"
	sed 's/^/    /' "$1"
	return 1
}

golden_loop() {
	for c in "$HERE/$1"/*/; do
		c=${c%/}
		[ -f "$c/$2" ] || continue
		if run_case "$c"; then
			pass=$((pass + 1))
			echo "ok   $1/$(basename "$c")"
		else
			fail=$((fail + 1))
			echo "FAIL $1/$(basename "$c")"
		fi
	done
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# golden_trace CASEDIR: c, t (created), args; the traces of input.txt in $t/trace
golden_trace() {
	c=$1
	t=$WORK/$(basename "$c")
	mkdir -p "$t"
	if ! "$MKTRACE" "$c/input.txt" "$t/trace" 2>"$t/mk.err"; then
		echo "  mktrace failed:"; sed 's/^/    /' "$t/mk.err"; return 1
	fi
	args=
	[ -f "$c/args" ] && args=$(cat "$c/args")
	return 0
}

# golden_vlpost COMMAND OUT: vlpost COMMAND $args -o OUT on the traces; rc,
# $t/stdout, and $t/stderr with the trace directory written as TRACEDIR
golden_vlpost() {
	# shellcheck disable=SC2086
	"$VLPOST" "$1" $args -o "$2" "$t/trace" >"$t/stdout" 2>"$t/stderr.raw"
	rc=$?
	sed "s#$t/trace#TRACEDIR#g" "$t/stderr.raw" >"$t/stderr"
}

# golden_update [TEST FILE EXPECTED]...: EXPECTED becomes a copy of FILE if
# [ TEST FILE ] (TEST: -f or -s), else is removed; then expected.err and expected.rc
golden_update() {
	while [ $# -ge 3 ]; do
		if { [ "$1" = -f ] && [ -f "$2" ]; } || { [ "$1" = -s ] && [ -s "$2" ]; }; then
			cp "$2" "$3"
		else
			rm -f "$3"
		fi
		shift 3
	done
	if [ -s "$t/stderr" ]; then cp "$t/stderr" "$c/expected.err"; else rm -f "$c/expected.err"; fi
	if [ "$rc" != 0 ]; then echo "$rc" >"$c/expected.rc"; else rm -f "$c/expected.rc"; fi
}

# golden_check: the exit status (expected.rc, default 0) and stderr (expected.err,
# else empty); ok=1 on a mismatch
golden_check() {
	want=0
	[ -f "$c/expected.rc" ] && want=$(cat "$c/expected.rc")
	if [ "$rc" != "$want" ]; then echo "  exit status $rc, expected $want"; ok=1; fi
	if [ -f "$c/expected.err" ]; then
		same "$t/stderr" "$c/expected.err" stderr || ok=1
	else
		empty "$t/stderr" stderr || ok=1
	fi
}

# golden_output FILE EXPECTED LABEL CHECK: with EXPECTED, FILE must equal it and
# pass CHECK FILE; without, neither FILE nor FILE.tmp may be left; ok=1 if not
golden_output() {
	if [ -f "$2" ]; then
		same "$1" "$2" "$3" || ok=1
		"$4" "$1" || ok=1
	elif [ -e "$1" ] || [ -e "$1.tmp" ]; then
		echo "  an output file was left behind"; ok=1
	fi
}

# golden_file_case CASEDIR COMMAND EXT CHECK: 0 if the case passes: vlpost
# COMMAND writes out.EXT as expected.EXT (passing CHECK), stdout stays empty
golden_file_case() {
	golden_trace "$1" || return 1
	golden_vlpost "$2" "$t/out.$3"
	if [ -n "$UPDATE" ]; then golden_update -f "$t/out.$3" "$c/expected.$3"; fi

	ok=0
	golden_check
	empty "$t/stdout" stdout || ok=1
	golden_output "$t/out.$3" "$c/expected.$3" ".$3" "$4"
	return $ok
}
