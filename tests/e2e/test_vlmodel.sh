#!/bin/bash
# test_vlmodel.sh BUILD - `vlmodel bsp --trace` and `vlmodel alphabeta-csv` on
# real MPI runs under the layer with computation ignored (tests/e2e/mpi.ini:
# every rank on its own node), so that all computation is vl_compute() and the
# M-steps, their w and h, and the BSPWB time are known in closed form:
#   bsp_steps (tests/e2e/bsp_steps.c): 6 steps closed by barrier, bcast,
#     gather, alltoall, scan and the end; bsp_steps -phase: 3 communication
#     phases without collectives; samples/mpi/allreduce: a barrier, then
#     allreduces.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
CFG=$HERE/mpi.ini
VLMODEL=$BUILD/vlmodel
PRE=""
[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload
for x in "$VLMODEL" "$BUILD/tests/bsp_steps" "$BUILD/samples/mpi/allreduce.v"; do
	[ -x "$x" ] || { fail "$x not built"; e2e_summary; exit 1; }
done

# mpi NP CONFIG TRACEDIR PROG ARGS...
mpi() {
	local np=$1 cfg=$2 dir=$3
	shift 3
	rm -rf "$dir"
	if ! out=$("$BUILD/vlrun" $PRE -np "$np" --vmconfig "$cfg" --trace-dir "$dir" "$@" 2>&1); then
		fail "vlrun $np ranks $*: exit status"
		echo "$out" | tail -20
	fi
}

# column NAME of a CSV on stdin (header row after '#' comments): one value per row
col() {
	awk -F, -v n="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == n) c = i; h = 1; next }
		{ printf "%s%s", s, $c; s = " " } END { print "" }'
}
# the value of comment "# KEY: value"
meta() { sed -n "s/^# $1: //p"; }
# the detail table's column NAME of step S (one value per task)
step_col() { awk -F, -v s="$1" '/^#/ { next } !h { h = 1; print; next } $1 == s' | col "$2"; }
# "equal" if seconds A and B differ by at most 0.5 us (vlpost prints us)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; print (d <= 5.000001e-7 && d >= -5.000001e-7) ? "equal" : a " != " b }'; }

G=8ns/B
L=20us

# ---- M-steps from collectives ----
mpi 4 "$CFG" "$WORK/coll" "$BUILD/tests/bsp_steps"
steps=$("$VLMODEL" bsp --trace "$WORK/coll" --g $G --L $L --csv)
detail=$("$VLMODEL" bsp --trace "$WORK/coll" --g $G --L $L --csv --detail)
assert_eq "bsp_steps: rule" coll "$(echo "$steps" | meta rule)"
assert_eq "bsp_steps: M-steps" 6 "$(echo "$steps" | meta steps)"
assert_eq "bsp_steps: steps closed by" "barrier bcast gather alltoall scan end" \
	"$(echo "$steps" | col closed_by)"
assert_eq "bsp_steps: max h per step" "7000 6144 300 384 192 0" "$(echo "$steps" | col max_h_B)"
assert_eq "bsp_steps: max w per step" "0.004 0.0005 0 0 0 0.002" "$(echo "$steps" | col max_w_s)"
assert_eq "step 1 (ring + barrier): w" "0.001 0.002 0.003 0.004" "$(echo "$detail" | step_col 1 w_s)"
assert_eq "step 1: h = out + in" "5000 3000 5000 7000" "$(echo "$detail" | step_col 1 h_B)"
assert_eq "step 1: partners (barrier: all)" "4 4 4 4" "$(echo "$detail" | step_col 1 partners)"
assert_eq "step 2 (bcast from 1): h" "2048 6144 2048 2048" "$(echo "$detail" | step_col 2 h_B)"
assert_eq "step 2: partners" "2 1 2 2" "$(echo "$detail" | step_col 2 partners)"
assert_eq "step 3 (gather to 2): h" "100 100 300 100" "$(echo "$detail" | step_col 3 h_B)"
assert_eq "step 3: partners" "1 1 4 1" "$(echo "$detail" | step_col 3 partners)"
assert_eq "step 4 (alltoall): in" "192 192 192 192" "$(echo "$detail" | step_col 4 in_B)"
assert_eq "step 5 (scan): in" "0 64 128 192" "$(echo "$detail" | step_col 5 in_B)"
assert_eq "step 5: partners" "1 2 3 4" "$(echo "$detail" | step_col 5 partners)"
assert_eq "step 6 (rank 0 computes): w" "0.002 0 0 0" "$(echo "$detail" | step_col 6 w_s)"
# BSPWB = sum over steps of max w + g max h + L (the last step: max w only)
want=$(awk 'BEGIN { g = 8e-9; L = 2e-5
	printf "%.9g", 0.004 + g * 7000 + L + 0.0005 + g * 6144 + L + g * 300 + L + g * 384 + L + g * 192 + L + 0.002 }')
assert_eq "bsp_steps: BSPWB time" "$want" "$(echo "$steps" | meta bspwb_s)"
assert_eq "bsp_steps: MPM time (the heaviest task sets every step)" "$want" \
	"$(echo "$steps" | meta mpm_s)"
vl=$("$BUILD/vlpost" stats "$WORK/coll" | sed -n 's/^predicted elapsed time: \(.*\) s$/\1/p')
assert_eq "bsp_steps: vlayer time = vlpost stats" equal "$(near "$vl" "$(echo "$steps" | meta vlayer_s)")"
assert_eq "bsp_steps: last step ends at the vlayer time" "$(echo "$steps" | meta vlayer_s)" \
	"$(echo "$steps" | col vlayer_s | awk '{ print $NF }')"

# ---- the allreduce sample: a barrier, 3 allreduces of 1 KiB, 1 of an int ----
mpi 4 "$CFG" "$WORK/ar" "$BUILD/samples/mpi/allreduce.v" -n 3 -c 128
ar=$("$VLMODEL" bsp --trace "$WORK/ar" --g $G --L $L --csv)
assert_eq "allreduce: M-steps" 5 "$(echo "$ar" | meta steps)"
assert_eq "allreduce: closed by" "barrier allreduce allreduce allreduce allreduce" \
	"$(echo "$ar" | col closed_by)"
assert_eq "allreduce: h = 2 (p-1) m" "0 6144 6144 6144 24" "$(echo "$ar" | col max_h_B)"

# ---- M-steps from communication phases (no collectives) ----
mpi 4 "$CFG" "$WORK/phase" "$BUILD/tests/bsp_steps" -phase
ph=$("$VLMODEL" bsp --trace "$WORK/phase" --g $G --L $L --csv)
phd=$("$VLMODEL" bsp --trace "$WORK/phase" --g $G --L $L --csv --detail)
assert_eq "phases: rule" phase "$(echo "$ph" | meta rule)"
assert_eq "phases: M-steps" 3 "$(echo "$ph" | meta steps)"
for s in 1 2 3; do
	assert_eq "phase $s: w" "0.001 0.002 0.003 0.004" "$(echo "$phd" | step_col $s w_s)"
	assert_eq "phase $s: h" "5000 3000 5000 7000" "$(echo "$phd" | step_col $s h_B)"
	assert_eq "phase $s: partners" "2 2 2 2" "$(echo "$phd" | step_col $s partners)"
done
"$VLMODEL" bsp --trace "$WORK/phase" --g $G --L $L --steps coll >/dev/null 2>"$WORK/err"
assert_eq "phases: --steps coll refused (exit status)" 2 $?
assert_eq "phases: --steps coll message" \
	"vlmodel: $WORK/phase: --steps coll: no collective over all 4 tasks" "$(cat "$WORK/err")"

# ---- alphabeta-csv: the phase program on interconnects a (mpi.ini) and b ----
sed -e 's/^trans_per_kib = 8us/trans_per_kib = 16us/' -e 's/^trans_delay = 30us/trans_delay = 60us/' \
	"$CFG" >"$WORK/slow.ini"
mpi 4 "$WORK/slow.ini" "$WORK/phase-b" "$BUILD/tests/bsp_steps" -phase
mpi 2 "$CFG" "$WORK/two" "$BUILD/tests/bsp_steps" -phase
mpi 2 "$WORK/slow.ini" "$WORK/two-b" "$BUILD/tests/bsp_steps" -phase
"$VLMODEL" alphabeta-csv -o "$WORK/jobs.csv" "four=$WORK/phase,$WORK/phase-b" \
	"two=$WORK/two,$WORK/two-b" 2>"$WORK/err"
assert_eq "alphabeta-csv: exit status" 0 $?
assert_eq "alphabeta-csv: stderr" "" "$(cat "$WORK/err")"
assert_eq "alphabeta-csv: jobs" "four two" "$(col job <"$WORK/jobs.csv")"
assert_eq "alphabeta-csv: messages per task" "3 3" "$(col messages <"$WORK/jobs.csv")"
assert_eq "alphabeta-csv: avg_bytes (mean of 1000 (r+1))" "2500 1500" \
	"$(col avg_bytes <"$WORK/jobs.csv")"
for r in phase phase-b; do
	vl=$("$BUILD/vlpost" stats "$WORK/$r" | sed -n 's/^predicted elapsed time: \(.*\) s$/\1/p')
	c=$([ $r = phase ] && echo time_a || echo time_b)
	assert_eq "alphabeta-csv: $c = vlpost stats ($r)" equal \
		"$(near "$vl" "$(col "$c" <"$WORK/jobs.csv" | awk '{ print $1 }')")"
done
ab=$("$VLMODEL" alphabeta "$WORK/jobs.csv" --a 60us,128MB/s --b 90us,64MB/s --predict 0,inf --csv)
assert_eq "alphabeta on the runs: exit status" 0 $?
assert_eq "alphabeta on the runs: alpha and beta are numbers" yes \
	"$(echo "$ab" | awk '/^# alpha: / { a = $3 } /^# beta: / { b = $3 }
		END { print (a + 0 == a && b + 0 == b) ? "yes" : "no" }')"

e2e_summary
