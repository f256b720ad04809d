#!/bin/sh
# run-scaling.sh BUILDDIR - golden tests of `vlpost scaling`.
#
# Builds nothing: BUILDDIR must hold vlpost and tests/mktrace.  Every directory
# tests/golden/scaling/<case>/ holds
#   NAME.txt        one run's traces as text (tests/tools/mktrace.c), built into
#                   the trace directory NAME; the comments give the expected values
#   args            the arguments of `vlpost scaling`, run in the case's work
#                   directory (which also holds an empty directory `empty`)
#   env             optional: VAR=VALUE words put into the environment of vlpost
#   expected.txt    stdout of `vlpost scaling ARGS`
#   expected.csv    optional: stdout of `vlpost scaling --csv ARGS`
#   expected.err    stderr of each run; absent: stderr must be empty
#   expected.status optional: the exit status of each run (default 0)
#   expected.dat, expected.gp   optional: the files PREFIX.dat and PREFIX.gp of
#                   `-o PREFIX` (the first -o in args)
# With -o and gnuplot installed (and no env file), PREFIX.svg must exist, begin
# with <?xml or <svg and hold a <path.  Without gnuplot, vlpost's note about it
# is removed from stderr before the comparison.
# Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-scaling.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
golden_start
HAVE_GNUPLOT=0
command -v gnuplot >/dev/null 2>&1 && HAVE_GNUPLOT=1

golden_work scaling

# run FMT OUT [options]: vlpost scaling in $t with the case's env and args
run() {
	fmt=$1 out=$2
	shift 2
	# shellcheck disable=SC2046,SC2086
	(cd "$t" && env $envs "$VLPOST" scaling "$@" $args) >"$t/$out" 2>"$t/err.raw"
	rc=$?
	if [ "$HAVE_GNUPLOT" = 0 ]; then
		grep -v 'not found (Debian: apt-get install gnuplot-nox)' "$t/err.raw" >"$t/err.$fmt"
	else
		cp "$t/err.raw" "$t/err.$fmt"
	fi
	if [ "$rc" != "$want" ]; then echo "  $fmt: exit status $rc, expected $want"; return 1; fi
	return 0
}

svg_ok() {
	[ -f "$1" ] || { echo "  $1 missing (gnuplot did not run?)"; return 1; }
	head -c 200 "$1" | grep -q -e '<?xml' -e '<svg' || { echo "  $1: no <?xml or <svg"; return 1; }
	grep -q '<path' "$1" || { echo "  $1: no <path"; return 1; }
}

run_case() {
	c=$1
	t=$WORK/$(basename "$c")
	mkdir -p "$t/empty"
	for f in "$c"/*.txt; do
		n=$(basename "$f" .txt)
		case $n in expected) continue ;; esac
		if ! "$MKTRACE" "$f" "$t/$n" 2>"$t/mk.err"; then
			echo "  mktrace $n failed:"; sed 's/^/    /' "$t/mk.err"; return 1
		fi
	done
	args=$(cat "$c/args")
	envs=
	[ -f "$c/env" ] && envs=$(cat "$c/env")
	want=0
	[ -f "$c/expected.status" ] && want=$(cat "$c/expected.status")
	prefix=$(echo "$args" | sed -n 's/.*-o \([^ ]*\).*/\1/p')
	[ -n "$prefix" ] && mkdir -p "$t/$(dirname "$prefix")"
	ok=0
	run text out.txt || ok=1
	if [ -f "$c/expected.csv" ] || { [ -n "$UPDATE" ] && [ "$want" = 0 ]; }; then
		run csv out.csv --csv || ok=1
	fi
	if [ -n "$UPDATE" ]; then
		cp "$t/out.txt" "$c/expected.txt"
		[ -f "$t/out.csv" ] && cp "$t/out.csv" "$c/expected.csv"
		if [ -s "$t/err.text" ]; then cp "$t/err.text" "$c/expected.err"; else rm -f "$c/expected.err"; fi
		if [ -n "$prefix" ] && [ -f "$t/$prefix.dat" ]; then
			cp "$t/$prefix.dat" "$c/expected.dat"
			cp "$t/$prefix.gp" "$c/expected.gp"
		fi
	fi
	same "$t/out.txt" "$c/expected.txt" "text" || ok=1
	[ -f "$c/expected.csv" ] && { same "$t/out.csv" "$c/expected.csv" "csv" || ok=1; }
	for f in text csv; do
		[ -f "$t/err.$f" ] || continue
		if [ -f "$c/expected.err" ]; then
			same "$t/err.$f" "$c/expected.err" "$f stderr" || ok=1
		elif [ -s "$t/err.$f" ]; then
			echo "  unexpected $f stderr:"; sed 's/^/    /' "$t/err.$f"; ok=1
		fi
	done
	if [ -n "$prefix" ] && [ "$want" = 0 ]; then
		[ -f "$c/expected.dat" ] && { same "$t/$prefix.dat" "$c/expected.dat" "$prefix.dat" || ok=1; }
		[ -f "$c/expected.gp" ] && { same "$t/$prefix.gp" "$c/expected.gp" "$prefix.gp" || ok=1; }
		if [ "$HAVE_GNUPLOT" = 1 ] && [ -z "$envs" ]; then
			svg_ok "$t/$prefix.svg" || ok=1
		fi
	fi
	return $ok
}

golden_loop scaling args
