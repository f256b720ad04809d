#!/bin/bash
# links.sh BUILD - what shared links (issue 13, [topology]) cost the timing of
# one collective: the engine's simulation of a call (tests/tools/collsim) on a
# VMConfig without a topology (the contention-free sweep), with a star and
# with a bus (the flow model: rates recomputed at every start and end of a
# message), each timed in the same invocation; seconds per call and the ratio
# to the contention-free sweep.  Figures only.  BENCH_P ("16 64 128").
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
