#!/bin/sh
# run-trf.sh BUILDDIR - golden tests of `vlpost trf` (and `vlpost stats`, `vlpost check`).
#
# Builds nothing: BUILDDIR must hold vlpost and tests/mktrace.  Every directory
# tests/golden/trf/<case>/ holds
#   input.txt       the traces as text (tests/tools/mktrace.c)
#   args            optional: extra options for `vlpost trf` (e.g. --partial)
#   expected.trf    the .trf to write; absent: no .trf (nor .tmp) may be left
#   expected.stats  the stats table `vlpost trf` prints; `vlpost stats --brief`
#                   must print the same, and `vlpost stats` begin with it;
#                   absent: stdout must be empty
#   expected.err    stderr, with the trace directory written as TRACEDIR;
#                   absent: stderr must be empty
#   expected.rc     optional exit status (default 0)
# Every .trf written is also checked with `vlpost check`.
# Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-trf.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
golden_start
golden_work golden

# check_ok FILE: `vlpost check` accepts FILE
check_ok() {
	"$VLPOST" check "$1" >"$t/check" 2>&1 && return 0
	echo "  vlpost check failed:"; sed 's/^/    /' "$t/check"
	return 1
}

# run_case DIR: 0 if the case passes
run_case() {
	golden_trace "$1" || return 1
	golden_vlpost trf "$t/out.trf"
	if [ -n "$UPDATE" ]; then
		golden_update -f "$t/out.trf" "$c/expected.trf" -s "$t/stdout" "$c/expected.stats"
	fi

	ok=0
	golden_check
	golden_output "$t/out.trf" "$c/expected.trf" .trf check_ok
	if [ -f "$c/expected.stats" ]; then
		same "$t/stdout" "$c/expected.stats" "trf stdout" || ok=1
		"$VLPOST" stats --brief "$t/trace" >"$t/stats" 2>/dev/null
		same "$t/stats" "$c/expected.stats" "vlpost stats --brief" || ok=1
		"$VLPOST" stats "$t/trace" 2>/dev/null | head -n "$(wc -l <"$c/expected.stats")" >"$t/stats"
		same "$t/stats" "$c/expected.stats" "vlpost stats (its beginning)" || ok=1
	else
		empty "$t/stdout" stdout || ok=1
	fi
	return $ok
}

golden_loop trf input.txt
