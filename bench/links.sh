#!/bin/bash
# links.sh BUILD - what shared links (issue 13, [topology]) cost the timing of
# one collective: the engine's simulation of a call (tests/tools/collsim) on a
# VMConfig without a topology (the contention-free sweep), with a star and
# with a bus (the flow model: rates recomputed at every start and end of a
# message), each timed in the same invocation; seconds per call and the ratio
# to the contention-free sweep.  Then what point-to-point sharing online costs
# a run (vlayer/core/order_flows.c: a receive waits until its message's arrival
# is final): real seconds of the token ring sample (one message in flight), of
# the ray tracer sample (hundreds of small messages in flight) and,
# if installed, of LAMMPS (4 ranks, two per node; every step's halo exchange on
# the links at once), natively and under the layer without and with a
# [topology] (star, bus, and the bus with collectives = shared: a blocking
# collective's messages in the run's table too; and the bus with ranks 1-3
# through the board server, as on other real hosts: a loopback round trip per
# flow call), in the same invocation, with the predicted times of the bus
# runs.  Figures only.  BENCH_P ("16 64 128").
set -u
BUILD=$(cd "${1:-build}" && pwd)
make -s -C "$(dirname "$0")/.." B="$BUILD" "$BUILD/tests/collsim" > /dev/null || exit 1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
printf '%-36s %6s %12s %12s %12s %9s %9s\n' "collective (64 KiB blocks)" "ranks" "none s" "star s" \
	"bus s" "star/none" "bus/none"
secs() { # CONFIG KIND ALG P: seconds of one simulated call
	local t0 t1
	t0=$(date +%s%N)
	"$BUILD/tests/collsim" "$1" "$2" "$3" "$4" 0 65536 > /dev/null || echo "collsim failed: $*" >&2
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }'
}
for p in ${BENCH_P:-16 64 128}; do
	for kind in none star bus; do
		{
			printf '[simulation]\ncompute = ignore\n[network inter]\ntrans_delay = 10us\n'
			printf 'bandwidth = 1Gbit/s\n[mpi]\nranks_per_node = 1\n[hosts n]\ncount = %d\n' $p
			[ $kind = none ] || printf '[topology]\nkind = %s\n' $kind
		} > "$W/$kind.ini"
	done
	for c in "bcast binomial" "allreduce ring" "alltoall pairwise" "alltoall linear"; do
		set -- $c
		a=$(secs "$W/none.ini" $1 $2 $p)
		b=$(secs "$W/star.ini" $1 $2 $p)
		d=$(secs "$W/bus.ini" $1 $2 $p)
		awk -v n="$1 $2" -v p=$p -v a=$a -v b=$b -v d=$d 'BEGIN {
			printf "%-36s %6d %12.4f %12.4f %12.4f %9.1f %9.1f\n", n, p, a, b, d,
				(a > 0 ? b / a : 0), (a > 0 ? d / a : 0) }'
	done
done

# ---- point to point online ----
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OPENBLAS_NUM_THREADS=1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
rsecs() { # CMD...: real seconds of a command
	local t0 t1
	t0=$(date +%s%N)
	"$@" > "$W/run.out" 2>&1 || echo "failed: $*: $(tail -2 "$W/run.out")" >&2
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}
for kind in none star bus; do
	{
		printf '[simulation]\ncompute = ignore\n[network inter]\ntrans_delay = 50us\n'
		printf 'bandwidth = 100Mbit/s\n[mpi]\nranks_per_node = 2\neager_limit = 64KiB\n'
		printf '[hosts node]\ncount = 2\nprocessors = 2\n'
		[ $kind = none ] || printf '[topology]\nkind = %s\n' $kind
	} > "$W/p$kind.ini"
done
{ cat "$W/pbus.ini"; printf 'collectives = shared\n'; } > "$W/pcbus.ini"
printf '\n%-44s %9s %9s %9s %9s %9s %9s %10s %10s %10s %10s\n' \
	"run, 4 ranks on 2 nodes (real seconds)" native none star bus bus+coll bus,rmt \
	"star/none" "bus/none" "b+c/none" "rmt/none"
row() { # NAME CMD...: native, then under the layer on each VMConfig
	local n=$1 a b c d e f
	shift
	a=$(rsecs mpirun -np 4 "$@")
	b=$(rsecs "$BUILD/vlrun" -np 4 --vmconfig "$W/pnone.ini" --trace-dir "$W/t" "$@")
	c=$(rsecs "$BUILD/vlrun" -np 4 --vmconfig "$W/pstar.ini" --trace-dir "$W/t" "$@")
	d=$(rsecs "$BUILD/vlrun" -np 4 --vmconfig "$W/pbus.ini" --trace-dir "$W/tb" "$@")
	e=$(rsecs "$BUILD/vlrun" -np 4 --vmconfig "$W/pcbus.ini" --trace-dir "$W/tc" "$@")
	f=$(VLAYER_BOARD_REMOTE=1 rsecs "$BUILD/vlrun" -np 4 --vmconfig "$W/pbus.ini" \
		--trace-dir "$W/tr" "$@")
	awk -v n="$n" -v a=$a -v b=$b -v c=$c -v d=$d -v e=$e -v f=$f 'BEGIN {
		printf "%-44s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %10.2f %10.2f %10.2f %10.2f\n",
			n, a, b, c, d, e, f, (b > 0 ? c / b : 0), (b > 0 ? d / b : 0),
			(b > 0 ? e / b : 0), (b > 0 ? f / b : 0) }'
	printf '%-44s predicted: bus %s s, bus+coll %s s, bus,rmt %s s\n' "" \
		"$("$BUILD/vlpost" stats "$W/tb" | sed -n 's/^predicted elapsed time: \(.*\) s$/\1/p')" \
		"$("$BUILD/vlpost" stats "$W/tc" | sed -n 's/^predicted elapsed time: \(.*\) s$/\1/p')" \
		"$("$BUILD/vlpost" stats "$W/tr" | sed -n 's/^predicted elapsed time: \(.*\) s$/\1/p')"
}
row "token ring, 2000 laps of 8 KiB" "$BUILD/samples/mpi/ring.v" -n 2000 -s 8192
row "ray tracer, 10 frames (2560 columns each)" "$BUILD/samples/mpi/raytrace.v"
if [ -x /usr/bin/lmp ]; then
	cd "$W" && row "LAMMPS in.melt, 100 steps" /usr/bin/lmp -in "$ROOT/tests/e2e/lammps/in.melt" -log none
else
	echo "LAMMPS: not installed (Debian package lammps), skipped"
fi
