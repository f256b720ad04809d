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
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
golden_start
command -v otf2-print >/dev/null ||
	{ echo "run-otf2.sh: FAIL: otf2-print not found (apt-get install otf2-tools)" >&2; exit 1; }
if "$VLPOST" otf2 --help 2>&1 >/dev/null | grep -q 'built without OTF2'; then
	echo "run-otf2.sh: FAIL: $VLPOST was built without OTF2 support" \
		"(apt-get install libopen-trace-format2-dev, then rebuild)" >&2
	exit 1
fi
golden_work golden

# run_case DIR: 0 if the case passes
run_case() {
	golden_trace "$1" || return 1
	golden_vlpost otf2 "$t/out"
	ok=0
	if [ -d "$t/out" ]; then
		if ! { otf2-print "$t/out/traces.otf2" && otf2-print -G "$t/out/traces.otf2"; } \
			>"$t/out.txt" 2>"$t/print.err"; then
			echo "  otf2-print failed:"; tail -5 "$t/print.err" | sed 's/^/    /'; ok=1
		fi
	fi
	if [ -n "$UPDATE" ]; then golden_update -f "$t/out.txt" "$c/expected.txt"; fi

	golden_check
	empty "$t/stdout" stdout || ok=1
	if [ -f "$c/expected.txt" ]; then
		same "$t/out.txt" "$c/expected.txt" "otf2-print output" || ok=1
	elif [ -e "$t/out" ] || [ -e "$t/out.tmp" ]; then
		echo "  an archive was left behind"; ok=1
	fi
	return $ok
}

golden_loop otf2 input.txt
