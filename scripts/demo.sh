#!/bin/bash
# demo.sh BUILD - the main job: run the master/worker sample on the bundled
# Vienna cluster (CLUE's), convert its traces and print the predicted times;
# then the same program on the Aachen cluster and a present-day one.  Then
# the same for an unmodified MPI binary (the allreduce sample) under vlrun.
set -u
BUILD=$(cd "${1:-build}" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT="$TOP/demo-out"
. "$TOP/scripts/pvmd.sh"
trap vl_pvmd_cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$OUT"
vl_pvmd_start "$BUILD/samples" "$OUT" || exit 1

for cfg in vienna aachen modern-100g; do
	echo "=== masterworker (8 workers, 64 jobs) on vmconfig/$cfg.ini"
	rm -rf "$OUT/trace-$cfg"
	VMCONFIG="$TOP/vmconfig/$cfg.ini" VLAYER_TRACE_DIR="$OUT/trace-$cfg" \
		"$BUILD/samples/masterworker.v" -w 8 -j 64 -s 300000 || exit 1
	"$BUILD/vlpost" trf -o "$OUT/masterworker-$cfg.trf" "$OUT/trace-$cfg" | tee "$OUT/stats-$cfg.txt" ||
		exit 1
	"$BUILD/vlpost" paje -o "$OUT/masterworker-$cfg.paje" "$OUT/trace-$cfg" || exit 1
	"$BUILD/vlpost" svg -o "$OUT/masterworker-$cfg.svg" "$OUT/trace-$cfg" || exit 1
	"$BUILD/vlpost" stats --full "$OUT/trace-$cfg" > "$OUT/stats-full-$cfg.txt" || exit 1
	echo
done
echo "=== the same program natively on this machine"
"$BUILD/samples/masterworker" -w 8 -j 64 -s 300000
echo
echo "=== predicted elapsed time of masterworker -w 8 -j 64"
for cfg in vienna aachen modern-100g; do
	printf '  %-14s %s\n' "$cfg" "$(grep 'predicted elapsed' "$OUT/stats-$cfg.txt" | sed 's/.*: //')"
done
echo
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_rmaps_base_oversubscribe=1
for cfg in vienna aachen modern-100g; do
	echo "=== MPI: the native allreduce sample (8 ranks, 20 x 64 Ki doubles) under vlrun on $cfg"
	"$BUILD/vlrun" -np 8 --vmconfig "$TOP/vmconfig/$cfg.ini" --trace-dir "$OUT/mpi-trace-$cfg" \
		"$BUILD/samples/mpi/allreduce" -n 20 -c 65536 || exit 1
	"$BUILD/vlpost" trf -o "$OUT/allreduce-$cfg.trf" "$OUT/mpi-trace-$cfg" > "$OUT/mpi-stats-$cfg.txt" ||
		exit 1
	"$BUILD/vlpost" paje -o "$OUT/allreduce-$cfg.paje" "$OUT/mpi-trace-$cfg" || exit 1
	"$BUILD/vlpost" svg -o "$OUT/allreduce-$cfg.svg" "$OUT/mpi-trace-$cfg" || exit 1
	tail -1 "$OUT/mpi-stats-$cfg.txt"
done
echo "=== the same natively on this machine"
mpirun -np 8 "$BUILD/samples/mpi/allreduce" -n 20 -c 65536
echo
echo "=== the analytic models beside vlayer on vienna (calibrated from the modelled machine)"
"$TOP/scripts/model-compare.sh" "$BUILD" "$TOP/vmconfig/vienna.ini" "$OUT/models" || exit 1
echo
echo "ParaGraph files: $OUT/masterworker-*.trf, $OUT/allreduce-*.trf"
echo "Paje files (ViTE, pj_dump): $OUT/masterworker-*.paje, $OUT/allreduce-*.paje"
echo "SVG space-time diagrams (any browser): $OUT/masterworker-*.svg, $OUT/allreduce-*.svg"
echo "full statistics (histogram, matrix, critical path): $OUT/stats-full-*.txt"
echo "task traces: $OUT/*trace-*/"
echo "models against vlayer, calibration of vienna: $OUT/models/ (fit.csv, *-bsp.txt)"
