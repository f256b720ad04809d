#!/bin/bash
# test_scaling.sh BUILD - `vlpost scaling` on real MPI runs.  A work-split program
# (8 ms of declared work, vl_compute(0.008 / p) per rank, then an allreduce; built
# with vlcc) under vlrun -np 1, 2, 4, 8 with tests/e2e/mpi.ini (measured computation
# ignored, so the times are reproducible; build/samples/mpi/allreduce alone has no
# computation: its T1 is 0 and the speed-up undefined): every row's elapsed time
# equals the "predicted elapsed time" of `vlpost stats` on its traces, the speed-up
# column equals T1 / Tp and the efficiency S / p computed from those printed times
# (3 decimals, as printed), and gnuplot (Debian gnuplot-nox) draws the SVG.  Then
# build/samples/mpi/allreduce at 2 and 4 ranks on vmconfig/vienna.ini and
# vmconfig/modern-100g.ini, labelled vienna/N and modern/N: two curves in the .dat
# and the .gp, and the SVG.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
PRE=""
[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload
PROG=$BUILD/samples/mpi/allreduce
if ! command -v gnuplot >/dev/null; then
	echo "test_scaling.sh: gnuplot not found (apt-get install gnuplot-nox)"
	exit 1
fi

cat >"$WORK/split.c" <<'PROG'
#include <mpi.h>
#include <vlayer.h>
int main(int argc, char **argv)
{
	int np;
	double part = 1.0, sum = 0.0;
	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	vl_compute(0.008 / np);
	MPI_Allreduce(&part, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return sum == np ? 0 : 1;
}
PROG
if ! VLCC_CC="${VLCC_CC:-cc}" "$BUILD/vlcc" -mpi -I"$TOP/include" "$WORK/split.c" \
	-o "$WORK/split" >"$WORK/cc.out" 2>&1; then
	fail "vlcc -mpi split.c: $(tail -3 "$WORK/cc.out")"
	e2e_summary
	exit
fi

# run NAME NP CONFIG PROGRAM [ARGS]: PROGRAM under vlrun, traces into $WORK/NAME
run() {
	local name=$1 np=$2 cfg=$3
	shift 3
	if "$BUILD/vlrun" $PRE -np "$np" --vmconfig "$cfg" --trace-dir "$WORK/$name" "$@" \
		>"$WORK/$name.out" 2>&1; then
		ok "$name: $(basename "$1") under vlrun -np $np"
	else
		fail "$name: vlrun -np $np --vmconfig $cfg: $(tail -3 "$WORK/$name.out")"
	fi
}

# svg_ok FILE: gnuplot's SVG
svg_ok() {
	if [ -f "$1" ] && head -c 200 "$1" | grep -q -e '<?xml' -e '<svg' && grep -q '<path' "$1"; then
		ok "$(basename "$1") drawn by gnuplot"
	else
		fail "$1: missing or not an SVG with paths"
	fi
}

# elapsed DIR: "predicted elapsed time" of vlpost stats, in us (an integer)
elapsed() {
	"$BUILD/vlpost" stats "$1" | sed -n 's/^predicted elapsed time: \([0-9.]*\) s$/\1/p' | tr -d .
}

for np in 1 2 4 8; do
	run np$np $np "$HERE/mpi.ini" "$WORK/split"
done
mkdir -p "$WORK/plot"
if "$BUILD/vlpost" scaling -o "$WORK/plot/mpi" np8="$WORK"/np8 np1="$WORK"/np1 \
	np4="$WORK"/np4 np2="$WORK"/np2 >"$WORK/table" 2>"$WORK/table.err"; then
	ok "vlpost scaling (4 runs) exit status 0"
else
	fail "vlpost scaling: $(cat "$WORK/table.err")"
fi
[ -s "$WORK/table.err" ] && fail "vlpost scaling stderr: $(cat "$WORK/table.err")"
assert_eq "order of the rows" "np1 np2 np4 np8" "$(awk 'NR > 1 && NF == 11 { printf "%s%s", s, $1; s = " " }' "$WORK/table")"
t1=$(elapsed "$WORK/np1")
for np in 1 2 4 8; do
	tp=$(elapsed "$WORK/np$np")
	row=$(awk -v l="np$np" '$1 == l' "$WORK/table")
	want=$(awk -v a="$t1" -v b="$tp" -v p="$np" 'BEGIN { s = a / b; printf "%d %.6f %.3f %.3f", p, b / 1e6, s, s / p }')
	assert_eq "np$np: tasks, T, speed-up T1/Tp, efficiency" "$want" "$(echo "$row" | awk '{ print $2, $3, $4, $5 }')"
done
svg_ok "$WORK/plot/mpi.svg"

for cfg in vienna modern-100g; do
	for np in 2 4; do
		run "$cfg-$np" $np "$TOP/vmconfig/$cfg.ini" "$PROG" -n 20 -c 256
	done
done
if "$BUILD/vlpost" scaling -o "$WORK/plot/configs" vienna/2="$WORK"/vienna-2 vienna/4="$WORK"/vienna-4 \
	modern/2="$WORK"/modern-100g-2 modern/4="$WORK"/modern-100g-4 >"$WORK/table2" 2>"$WORK/table2.err"; then
	ok "vlpost scaling (2 VMConfigs) exit status 0"
else
	fail "vlpost scaling (2 VMConfigs): $(cat "$WORK/table2.err")"
fi
assert_eq "curves in configs.dat" '# index 0: curve "vienna"|# index 1: curve "modern"' \
	"$(grep '^# index' "$WORK/plot/configs.dat" | paste -sd'|')"
assert_eq "points per curve" "2 2" "$(awk '/^# index/ { if (n != "") printf "%d ", n; n = 0; next } /^[0-9]/ { n++ } END { print n }' "$WORK/plot/configs.dat")"
assert_eq "curves plotted" "index 0|index 1" \
	"$(grep -o "index [0-9]* using 1:4" "$WORK/plot/configs.gp" | cut -d' ' -f1,2 | sort -u | paste -sd'|')"
svg_ok "$WORK/plot/configs.svg"
cat "$WORK/table" "$WORK/table2"
e2e_summary
