#!/bin/sh
# run-calib.sh BUILDDIR - golden tests of `vlcalib fit` (and `vlcalib run`,
# `vlcalib --help`).
#
# Builds nothing: BUILDDIR must hold vlcalib and vlconfig.  Every directory
# tests/golden/calib/<case>/ holds
#   args            the arguments after `vlcalib fit`, run in the case's
#                   directory (so messages name the files as given there)
#   input.csv       usually: a raw file (gen-raw.awk made exact/ and noisy/)
#   expected.out    stdout of `vlcalib fit ARGS -o OUT.ini` (table, fragment)
#   expected.ini    the fragment written to OUT.ini; absent: neither OUT.ini
#                   nor OUT.ini.tmp may be left
#   expected.csv    stdout of `vlcalib fit ARGS --csv` (which must then exit
#                   0 with nothing on stderr); absent: that stdout is empty
#   expected.err    stderr (absent: must be empty)
#   expected.rc     optional exit status (default 0)
# Every fragment written must be a VMConfig that vlconfig accepts once a
# [host] section is added, and must load to the same models (vlconfig --dump).
# Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-calib.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
VLCALIB=$B/vlcalib
VLCONFIG=$B/vlconfig
for x in "$VLCALIB" "$VLCONFIG"; do
	[ -x "$x" ] || { echo "run-calib.sh: $x not built" >&2; exit 2; }
done
golden_work calib

# vmc_ok INI: INI + a [host] section is a VMConfig, and vlconfig --dump shows
# as many models and contention tables as INI sets
vmc_ok() {
	{ cat "$1"; printf '[host a]\n'; } >"$t/full.ini"
	if ! "$VLCONFIG" "$t/full.ini" >"$t/vlconfig.out" 2>&1; then
		echo "  vlconfig rejects the fragment:"; sed 's/^/    /' "$t/vlconfig.out"
		return 1
	fi
	"$VLCONFIG" --dump "$t/full.ini" >"$t/dump"
	for k in send_model trans_model contention; do
		if [ "$(grep -c "^$k " "$1")" != "$(grep -c "^$k " "$t/dump")" ]; then
			echo "  vlconfig --dump has another number of $k lines"; return 1
		fi
	done
	return 0
}

# run_case DIR: 0 if the case passes
run_case() {
	c=$1
	t=$WORK/$(basename "$c")
	mkdir -p "$t"
	args=$(cat "$c/args")
	# shellcheck disable=SC2086
	(cd "$c" && "$VLCALIB" fit $args -o "$t/out.ini") >"$t/stdout" 2>"$t/stderr.raw"
	rc=$?
	sed "s#$t/#OUT/#g" "$t/stderr.raw" >"$t/stderr"
	# shellcheck disable=SC2086
	(cd "$c" && "$VLCALIB" fit $args --csv) >"$t/out.csv" 2>"$t/csv.err"
	csvrc=$?
	if [ -n "$UPDATE" ]; then
		golden_update -f "$t/out.ini" "$c/expected.ini" -s "$t/stdout" "$c/expected.out" \
			-s "$t/out.csv" "$c/expected.csv"
	fi

	ok=0
	golden_check
	if [ -f "$c/expected.out" ]; then
		same "$t/stdout" "$c/expected.out" stdout || ok=1
	else
		empty "$t/stdout" stdout || ok=1
	fi
	golden_output "$t/out.ini" "$c/expected.ini" fragment vmc_ok
	if [ -f "$c/expected.csv" ]; then
		same "$t/out.csv" "$c/expected.csv" "--csv output" || ok=1
		empty "$t/csv.err" "--csv stderr" || ok=1
		[ "$csvrc" = 0 ] || { echo "  --csv: exit status $csvrc"; ok=1; }
	elif [ -s "$t/out.csv" ]; then
		echo "  --csv printed something, but there is no expected.csv"; ok=1
	fi
	return $ok
}

status=0
golden_loop calib args || status=1

# vlcalib --help, and vlcalib run: execs vlcalib-run beside the binary
misc() {
	if "$VLCALIB" --help >"$WORK/help" 2>&1 && grep -q -- '--penalty' "$WORK/help" &&
		grep -q 'vlcalib run' "$WORK/help"; then
		echo "ok   --help"; pass=$((pass + 1))
	else
		echo "FAIL --help"; fail=$((fail + 1)); status=1
	fi
	mkdir -p "$WORK/bin"
	cp "$VLCALIB" "$WORK/bin/vlcalib"
	"$WORK/bin/vlcalib" run mpi --no-fit >"$WORK/run.out" 2>&1
	if [ $? = 2 ] && grep -q "vlcalib-run" "$WORK/run.out"; then
		echo "ok   run (no vlcalib-run: error)"; pass=$((pass + 1))
	else
		echo "FAIL run (no vlcalib-run: error)"; sed 's/^/    /' "$WORK/run.out"
		fail=$((fail + 1)); status=1
	fi
	printf '#!/bin/sh\necho "vlcalib-run: $0 $*"\nexit 3\n' >"$WORK/bin/vlcalib-run"
	chmod +x "$WORK/bin/vlcalib-run"
	out=$("$WORK/bin/vlcalib" run mpi --hosts "a b" -o x.csv)
	rc=$?
	if [ "$rc" = 3 ] && [ "$out" = "vlcalib-run: $WORK/bin/vlcalib-run mpi --hosts a b -o x.csv" ]; then
		echo "ok   run (execs vlcalib-run with the arguments)"; pass=$((pass + 1))
	else
		echo "FAIL run: status $rc, output: $out"; fail=$((fail + 1)); status=1
	fi
}
misc
echo "$pass passed, $fail failed (with --help and run)"
exit $status
