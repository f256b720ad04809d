#!/bin/bash
# test_paje.sh BUILD - `vlpost paje` on real MPI runs, read back with pj_dump
# (Debian package pajeng): build/samples/mpi/ring.v, and a ring with user marks
# and collectives built with vlcc, each under vlrun -np 4.  For each run:
# vlpost paje and pj_dump exit 0; the number of links equals the number of
# messages (vlpost stats --brief --csv); every task has Computing, Communicating and
# Waiting states whose durations sum to the task's total_us within 1 ns per
# record; the marks of vl_mark() are Mark events with their labels.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
PRE=""
[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload
if ! command -v pj_dump >/dev/null; then
	echo "test_paje.sh: pj_dump not found (apt-get install pajeng)"
	exit 1
fi

cat >"$WORK/markring.c" <<'PROG'
#include <mpi.h>
#include <stdio.h>
#include <vlayer.h>
int main(int argc, char **argv)
{
	int rank, np, tok = 0, sum = 0;
	char label[24];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	for (int lap = 0; lap < 3; lap++) {
		snprintf(label, sizeof label, "lap %d", lap);
		vl_mark(lap, label);
		vl_compute(0.0001 * (rank + 1));
		if (rank == 0) {
			MPI_Send(&tok, 1, MPI_INT, 1, lap, MPI_COMM_WORLD);
			MPI_Recv(&tok, 1, MPI_INT, np - 1, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&tok, 1, MPI_INT, rank - 1, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			tok++;
			MPI_Send(&tok, 1, MPI_INT, (rank + 1) % np, lap, MPI_COMM_WORLD);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	vl_mark(9, "done");
	MPI_Finalize();
	return sum == np * (np - 1) / 2 ? 0 : 1;
}
PROG

# check NAME TRACEDIR MARKS: the assertions above on one run (MARKS: expected
# number of Mark events)
check() {
	local name=$1 dir=$2 marks=$3
	if ! "$BUILD/vlpost" paje -o "$WORK/$name.paje" "$dir" 2>"$WORK/$name.err"; then
		fail "$name: vlpost paje: $(head -3 "$WORK/$name.err")"
		return
	fi
	ok "$name: vlpost paje"
	if ! pj_dump -l 9 "$WORK/$name.paje" >"$WORK/$name.dump" 2>&1; then
		fail "$name: pj_dump: $(tail -3 "$WORK/$name.dump")"
		return
	fi
	ok "$name: pj_dump accepts the file"
	"$BUILD/vlpost" stats --brief --csv "$dir" >"$WORK/$name.csv" 2>/dev/null
	local msgs links
	msgs=$(awk -F, 'NR > 1 { n += $12 } END { print n + 0 }' "$WORK/$name.csv")
	links=$(grep -c '^Link, 0, Message,' "$WORK/$name.dump")
	assert_eq "$name: links = messages received" "$msgs" "$links"
	[ "$msgs" -gt 0 ] || fail "$name: no messages"
	# per task (container name "0x<tid> <program>"): the three states present and
	# their durations summing to total_us; tolerance 1 ns per record
	local bad
	bad=$(awk -F', ' -v nrec_dir="$dir" '
		FNR == 1 { file++ }
		file == 1 && FNR > 1 {
			split($0, c, ",")
			name = c[2] " " c[5]; total[name] = c[9] * 1000; tasks++
			next
		}
		file == 2 && $1 == "State" && $3 == "State" {
			sum[$2] += $6 * 1e9; n[$2]++; seen[$2 SUBSEP $8] = 1
		}
		END {
			for (t in total) {
				for (v = 1; v <= 3; v++) {
					s = v == 1 ? "Computing" : v == 2 ? "Communicating" : "Waiting"
					if (!((t SUBSEP s) in seen)) print t ": no " s " state"
				}
				d = sum[t] - total[t]; if (d < 0) d = -d
				if (d > n[t] + 1) printf "%s: states sum to %.0f ns, total %.0f ns\n", t, sum[t], total[t]
			}
			if (tasks != 4) print "expected 4 tasks, got " tasks
		}' "$WORK/$name.csv" "$WORK/$name.dump")
	if [ -z "$bad" ]; then
		ok "$name: every task has Computing/Communicating/Waiting summing to its total"
	else
		fail "$name: $bad"
	fi
	assert_eq "$name: Mark events" "$marks" "$(grep -c '^Event, .*, Mark,' "$WORK/$name.dump")"
}

# ring.v: 4 ranks, no marks
if "$BUILD/vlrun" $PRE -np 4 --vmconfig "$HERE/mpi.ini" --trace-dir "$WORK/ring" \
	"$BUILD/samples/mpi/ring.v" >"$WORK/ring.out" 2>&1; then
	check ring "$WORK/ring" 0
else
	fail "ring.v under vlrun: $(tail -3 "$WORK/ring.out")"
fi

# markring: marks (3 laps + "done" per rank), a barrier and an allreduce
if VLCC_CC="${VLCC_CC:-cc}" "$BUILD/vlcc" -mpi -I"$HERE/../../include" "$WORK/markring.c" \
	-o "$WORK/markring" >"$WORK/cc.out" 2>&1; then
	if "$BUILD/vlrun" $PRE -np 4 --vmconfig "$HERE/mpi.ini" --trace-dir "$WORK/mr" \
		"$WORK/markring" >"$WORK/mr.out" 2>&1; then
		check markring "$WORK/mr" 16
		grep -q '^Event, .*, Mark, [0-9.]*, lap 2$' "$WORK/markring.dump" &&
			ok "markring: mark labels" || fail "markring: no 'lap 2' mark"
		grep -q '^State, .*, Collective, .*, allreduce$' "$WORK/markring.dump" &&
			ok "markring: collectives as Collective states" ||
			fail "markring: no allreduce Collective state"
	else
		fail "markring under vlrun: $(tail -3 "$WORK/mr.out")"
	fi
else
	fail "vlcc -mpi markring.c: $(tail -3 "$WORK/cc.out")"
fi
e2e_summary
