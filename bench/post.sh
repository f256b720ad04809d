#!/bin/bash
# post.sh BUILD - how fast vlpost converts: a generated set of about 10 million
# trace records (a ring of TASKS tasks, default 16, 64 and 1024 tasks) through
# `vlpost trf` and `vlpost stats`: records per second and peak memory.  Prints
# figures only (the goal of issue 4: at least 5 million events per second).
set -u
BUILD=$(cd "${1:-build}" && pwd)
G=$BUILD/bench/gentrace
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
N=${BENCH_RECORDS:-10000000}
printf '%-34s %10s %10s %12s %12s\n' "conversion" "records" "seconds" "records/s" "peak MiB"
for tasks in ${BENCH_TASKS:-16 64 1024}; do
	rm -rf "$W/t"
	n=$("$G" gen "$W/t" $tasks $N) || exit 1
	for what in trf stats; do
		if [ $what = trf ]; then cmd=("$BUILD/vlpost" trf -o "$W/out.trf" "$W/t"); else cmd=("$BUILD/vlpost" stats "$W/t"); fi
		read -r s kib < <("$G" run "${cmd[@]}" 2> /dev/null | tail -1)
		awk -v w="vlpost $what, $tasks tasks" -v n=$n -v s=$s -v k=$kib \
			'BEGIN { printf "%-34s %10d %10.2f %12.0f %12.1f\n", w, n, s, n / s, k / 1024 }'
	done
done
