#!/bin/bash
# demo.sh BUILD - the main job: run the master/worker sample on the bundled
# Vienna cluster (CLUE's), convert its traces and print the predicted times;
# then the same program on the Aachen cluster and a present-day one.
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
echo "ParaGraph files: $OUT/masterworker-*.trf; task traces: $OUT/trace-*/"
