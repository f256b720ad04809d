#!/bin/bash
# clue-sweep.sh VMCONFIG [OUTDIR] [--quick] [--keep-traces]
#
# Repeats the ScaLAPACK sweep of the CLUE report (AURORA TR2000-05, chapter 4,
# ../shared/reference/001-clue-miss-pvm.txt): matrix multiply (PBLAS pdgemm),
# Cholesky (pdpotrf) and LU (pdgetrf) factorization of a 2000 x 2000 matrix,
# for every block size of the report's figures (16 32 50 100 200 400 500; the
# report plots 100..500 for Vienna and 16..100 for Aachen) and every process
# grid of its plots (1x1 1x2 2x1 2x2 1x4 4x1 2x4).  Each case runs twice:
#   - the virtual binary (pdbench.v) under build/vlrun on the VMConfig: the
#     PREDICTED time on the modelled cluster;
#   - the native binary (pdbench) under plain mpirun: the REAL time on this
#     machine.
# The time is the routine's own wall time (MPI_Wtime around the call, virtual
# under the layer, the maximum over the ranks), as the report collected "the
# reported wall time" of each run.  The predicted elapsed time of the whole
# program (set-up, generation and verification included; `vlpost stats`) is
# recorded too.  Every run checks its numerical result (samples/mpi/scalapack/
# pdbench.c); a failed check, a failed run or a time-out shows as FAILED,
# ERROR or TIMEOUT in the tables, and the script then exits with status 1.
#
# Output in OUTDIR (default clue-sweep-out):
#   results.csv                  one row per case: both times, residuals, status
#   ROUTINE-predicted.{txt,csv}  predicted routine time [s], rows = block sizes,
#                                columns = grids
#   ROUTINE-real.{txt,csv}       real routine time on this machine [s]
#   ROUTINE-elapsed.{txt,csv}    predicted elapsed time of the whole program [s]
#   log/                         the output of every run; traces/ with --keep-traces
#
# --quick: n = 500, block sizes 32 100, grids 1x1 1x2 2x2 (for tests).
# Environment overrides: SWEEP_N, SWEEP_NBS, SWEEP_GRIDS, SWEEP_ROUTINES (space
# separated lists), SWEEP_TIMEOUT (seconds per run, default 900), BUILD (the
# build directory, default build next to this script's directory).
#
# Oversubscription: 8 ranks on a machine with fewer cores run oversubscribed
# (OMPI_MCA_rmaps_base_oversubscribe=1 is set here).  The REAL times then
# include the time slicing of this machine, but the PREDICTED times stay
# meaningful: the layer charges each rank its thread CPU time
# (CLOCK_THREAD_CPUTIME_ID), which does not grow while the rank is descheduled,
# and models communication and waiting in virtual time.  (Cache and memory
# bandwidth sharing between ranks still affect the CPU time a little.)  BLAS
# runs with one thread per rank (OPENBLAS_NUM_THREADS=1): the layer only sees
# the calling thread's CPU time, and the model gives each rank one processor.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$HERE/../build}
quick=0
keep=0
args=()
for a in "$@"; do
	case "$a" in
	--quick) quick=1 ;;
	--keep-traces) keep=1 ;;
	-h | --help)
		awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
		exit 0
		;;
	-*)
		echo "clue-sweep: unknown option $a" >&2
		exit 2
		;;
	*) args+=("$a") ;;
	esac
done
if [ ${#args[@]} -lt 1 ] || [ ${#args[@]} -gt 2 ]; then
	echo "usage: clue-sweep.sh VMCONFIG [OUTDIR] [--quick] [--keep-traces]" >&2
	exit 2
fi
CFG=${args[0]}
OUT=${args[1]:-clue-sweep-out}
[ -f "$CFG" ] || { echo "clue-sweep: no VMConfig $CFG" >&2; exit 2; }
BUILD=$(cd "$BUILD" && pwd) || exit 2
PROG=$BUILD/samples/mpi/scalapack/pdbench
for f in "$PROG" "$PROG.v" "$BUILD/vlrun" "$BUILD/vlpost"; do
	if [ ! -x "$f" ]; then
		echo "clue-sweep: $f is missing (make; ScaLAPACK: libscalapack-openmpi-dev)" >&2
		exit 2
	fi
done
"$BUILD/vlconfig" "$CFG" > /dev/null || exit 2

if [ $quick = 1 ]; then
	N=${SWEEP_N:-500}
	NBS=${SWEEP_NBS:-"32 100"}
	GRIDS=${SWEEP_GRIDS:-"1x1 1x2 2x2"}
else
	N=${SWEEP_N:-2000}
	NBS=${SWEEP_NBS:-"16 32 50 100 200 400 500"}
	GRIDS=${SWEEP_GRIDS:-"1x1 1x2 2x1 2x2 1x4 4x1 2x4"}
fi
ROUTINES=${SWEEP_ROUTINES:-"gemm potrf getrf"}
TMO=${SWEEP_TIMEOUT:-900}

export OMPI_MCA_rmaps_base_oversubscribe=1
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OPENBLAS_NUM_THREADS=1
MPIRUN=${MPIRUN:-mpirun}

mkdir -p "$OUT/log" || exit 2
OUT=$(cd "$OUT" && pwd)
RES=$OUT/results.csv
echo "routine,n,nb,grid,np,predicted_s,predicted_elapsed_s,real_s,real_elapsed_s,residual_virtual,residual_native,status" > "$RES"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# status of one run from its exit code and output line: OK FAILED ERROR TIMEOUT
run_status() {
	local rc=$1 line=$2
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo TIMEOUT
	elif [ -z "$line" ]; then
		echo ERROR
	elif [ "$(echo "$line" | awk '{ print $7 }')" != OK ]; then
		echo FAILED
	elif [ "$rc" != 0 ]; then
		echo ERROR
	else
		echo OK
	fi
}

echo "clue-sweep: VMConfig $CFG, n = $N, block sizes $NBS, grids $GRIDS, routines $ROUTINES"
echo "clue-sweep: output in $OUT"
t_start=$(now)
nfail=0
for r in $ROUTINES; do
	for nb in $NBS; do
		for g in $GRIDS; do
			np=$((${g%x*} * ${g#*x}))
			id=$r-$N-$nb-$g
			tdir=$OUT/traces/$id
			# virtual
			t0=$(now)
			timeout -k 10 "$TMO" "$BUILD/vlrun" -np $np --vmconfig "$CFG" --trace-dir "$tdir" \
				-x OPENBLAS_NUM_THREADS "$PROG.v" "$r" "$N" "$nb" "$g" > "$OUT/log/$id.virtual" 2>&1
			rc=$?
			tv=$(elapsed "$t0" "$(now)")
			line=$(grep "^$r $N $nb $g " "$OUT/log/$id.virtual" | tail -1)
			sv=$(run_status $rc "$line")
			pred=$(echo "$line" | awk '{ print $5 }')
			resv=$(echo "$line" | awk '{ print $6 }')
			pel=$("$BUILD/vlpost" stats --brief "$tdir" 2>> "$OUT/log/$id.virtual" |
				sed -n 's/^predicted elapsed time: \([0-9.e+-]*\) s$/\1/p')
			[ $keep = 1 ] || rm -rf "$tdir"
			# native
			t0=$(now)
			timeout -k 10 "$TMO" "$MPIRUN" -np $np -x OPENBLAS_NUM_THREADS "$PROG" "$r" "$N" "$nb" "$g" \
				> "$OUT/log/$id.native" 2>&1
			rc=$?
			tn=$(elapsed "$t0" "$(now)")
			line=$(grep "^$r $N $nb $g " "$OUT/log/$id.native" | tail -1)
			sn=$(run_status $rc "$line")
			real=$(echo "$line" | awk '{ print $5 }')
			resn=$(echo "$line" | awk '{ print $6 }')
			if [ "$sv" = OK ] && [ "$sn" = OK ]; then
				st=OK
			else
				st="virtual:$sv/native:$sn"
				nfail=$((nfail + 1))
				[ "$sv" = OK ] || pred=$sv
				[ "$sn" = OK ] || real=$sn
				[ "$sv" = OK ] || pel=$sv
			fi
			echo "$r,$N,$nb,$g,$np,${pred:-ERROR},${pel:-ERROR},${real:-ERROR},$tn,$resv,$resn,$st" >> "$RES"
			printf '%-6s n=%-5s nb=%-4s %-4s predicted %10s s (run %6ss)  real %10s s (run %6ss)  %s\n' \
				"$r" "$N" "$nb" "$g" "${pred:-ERROR}" "$tv" "${real:-ERROR}" "$tn" "$st"
		done
	done
done

# tables: rows = block sizes, columns = grids, from results.csv column COL
table() {
	local r=$1 col=$2 name=$3 title=$4
	awk -F, -v r="$r" -v col="$col" -v nbs="$NBS" -v grids="$GRIDS" -v title="$title" \
		-v csv="$OUT/$r-$name.csv" -v txt="$OUT/$r-$name.txt" '
		NR > 1 && $1 == r { v[$3 "," $4] = $col }
		END {
			nn = split(nbs, nb, " "); ng = split(grids, g, " ")
			line = "nb"; for (j = 1; j <= ng; j++) line = line "," g[j]
			print line > csv
			printf "%s\n", title > txt
			printf "%5s", "nb" > txt
			for (j = 1; j <= ng; j++) printf " %10s", g[j] > txt
			printf "\n" > txt
			for (i = 1; i <= nn; i++) {
				line = nb[i]; printf "%5s", nb[i] > txt
				for (j = 1; j <= ng; j++) {
					x = (nb[i] "," g[j]) in v ? v[nb[i] "," g[j]] : "-"
					line = line "," x
					if (x ~ /^[0-9.]+$/) printf " %10.4f", x > txt; else printf " %10s", x > txt
				}
				print line > csv
				printf "\n" > txt
			}
		}' "$RES"
}
for r in $ROUTINES; do
	table "$r" 6 predicted "$r, n = $N: PREDICTED routine time [s] on $(basename "$CFG") (vlayer, virtual MPI_Wtime)"
	table "$r" 8 real "$r, n = $N: REAL routine time [s] on this machine ($(nproc) cores, native mpirun)"
	table "$r" 7 elapsed "$r, n = $N: PREDICTED elapsed time of the whole program [s] on $(basename "$CFG") (vlpost stats)"
done
echo
for r in $ROUTINES; do
	cat "$OUT/$r-predicted.txt"
	echo
	cat "$OUT/$r-real.txt"
	echo
done
echo "clue-sweep: $(elapsed "$t_start" "$(now)") s for the sweep; $nfail failed case(s); tables in $OUT"
[ $nfail = 0 ]
