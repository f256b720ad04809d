#!/bin/sh
# run-stats.sh BUILDDIR - golden tests of `vlpost stats` in its three formats.
#
# Builds nothing: BUILDDIR must hold vlpost and tests/mktrace.  Every directory
# tests/golden/stats/<case>/ holds
#   input.txt       the traces as text (tests/tools/mktrace.c)
#   args            optional: extra options for the text run (e.g. --matrix)
#   expected.txt    `vlpost stats [args]` (text: table and report)
#   expected.csv    `vlpost stats --csv` (every section)
#   expected.json   `vlpost stats --json`
#   expected.err    stderr of each run, with the trace directory written as
#                   TRACEDIR; absent: stderr must be empty
# Also checks that `vlpost stats --full [args]` prints expected.txt too, that
# `vlpost stats --brief` prints the beginning of expected.txt (the table) and
# `--brief --csv` the first section of expected.csv (the tasks), and, if python3
# or jq is installed, that the JSON of --json and of --brief --json parses.
# Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-stats.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
golden_start

golden_work stats

json_ok() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -m json.tool "$1" >/dev/null 2>"$WORK/json.err"
	elif command -v jq >/dev/null 2>&1; then
		jq . "$1" >/dev/null 2>"$WORK/json.err"
	else
		return 0
	fi
}

# run FORMAT OUTFILE [options]: vlpost stats, exit status must be 0
run() {
	fmt=$1 out=$2
	shift 2
	# shellcheck disable=SC2086
	"$VLPOST" stats "$@" "$t/trace" >"$t/$out" 2>"$t/err.raw"
	rc=$?
	sed "s#$t/trace#TRACEDIR#g" "$t/err.raw" >"$t/err.$fmt"
	if [ "$rc" != 0 ]; then echo "  $fmt: exit status $rc"; return 1; fi
	return 0
}

run_case() {
	golden_trace "$1" || return 1
	ok=0
	# shellcheck disable=SC2086
	run text out.txt $args || ok=1
	# shellcheck disable=SC2086
	run full out.full --full $args || ok=1
	run csv out.csv --csv || ok=1
	run json out.json --json || ok=1
	run brief out.brief --brief || ok=1
	run briefcsv out.briefcsv --brief --csv || ok=1
	run briefjson out.briefjson --brief --json || ok=1
	if [ -n "$UPDATE" ]; then
		cp "$t/out.txt" "$c/expected.txt"
		cp "$t/out.csv" "$c/expected.csv"
		cp "$t/out.json" "$c/expected.json"
		if [ -s "$t/err.text" ]; then cp "$t/err.text" "$c/expected.err"; else rm -f "$c/expected.err"; fi
	fi
	same "$t/out.txt" "$c/expected.txt" "text" || ok=1
	same "$t/out.csv" "$c/expected.csv" "csv" || ok=1
	same "$t/out.json" "$c/expected.json" "json" || ok=1
	same "$t/out.full" "$c/expected.txt" "--full (as the default)" || ok=1
	head -n "$(wc -l <"$t/out.brief")" "$c/expected.txt" >"$t/head.txt" 2>/dev/null
	same "$t/out.brief" "$t/head.txt" "--brief (the beginning of expected.txt)" || ok=1
	sed '/^$/q' "$c/expected.csv" 2>/dev/null | sed '/^$/d' >"$t/head.csv"
	same "$t/out.briefcsv" "$t/head.csv" "--brief --csv (the tasks of expected.csv)" || ok=1
	for f in text full csv json brief briefcsv briefjson; do
		if [ -f "$c/expected.err" ]; then
			same "$t/err.$f" "$c/expected.err" "$f stderr" || ok=1
		elif [ -s "$t/err.$f" ]; then
			echo "  unexpected $f stderr:"; sed 's/^/    /' "$t/err.$f"; ok=1
		fi
	done
	for f in out.json out.briefjson; do
		if ! json_ok "$t/$f"; then
			echo "  invalid JSON ($f):"; sed 's/^/    /' "$WORK/json.err"; ok=1
		fi
	done
	return $ok
}

golden_loop stats input.txt
