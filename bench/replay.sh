#!/bin/bash
# replay.sh BUILD - how fast `vlpost replay` re-times a run: a generated set of
# about 10 million trace records (bench/gentrace: a ring of TASKS tasks that
# compute, send and receive, default 16, 64 and 1024 tasks) replayed on its own
# machine and on another one (other delays and host factors):
# records per second and peak memory (the goal of issue 13: at least 10 million
# events per second, memory bounded by the number of tasks).  Figures only.
# BENCH_RECORDS (10000000), BENCH_TASKS ("16 64 1024"), BENCH_REPEAT (1: the
# fastest of that many runs is shown).
set -u
BUILD=$(cd "${1:-build}" && pwd)
G=$BUILD/bench/gentrace
. "$(dirname "$0")/fastest.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
N=${BENCH_RECORDS:-10000000}
REP=${BENCH_REPEAT:-1}
# the machines: the generator puts tasks 2k and 2k+1 on host node(k+1)
printf '[network]\nsend_delay = 1us\nrecv_delay = 1us\ntrans_delay = 10us\n[hosts node]\ncount = 512\nprocessors = 2\n' \
	> "$W/own.ini"
printf '[network]\nsend_delay = 3us\nrecv_delay = 2us\ntrans_delay = 25us\ntrans_per_kib = 8us\n[hosts node]\ncount = 512\nprocessors = 2\nfactor = 0.5\n' \
	> "$W/other.ini"
printf '%-40s %10s %10s %12s %12s\n' "replay" "records" "seconds" "records/s" "peak MiB"
for tasks in ${BENCH_TASKS:-16 64 1024}; do
	rm -rf "$W/t"
	n=$("$G" gen "$W/t" $tasks $N) || exit 1
	for on in own other; do
		fastest "vlpost replay on $on, $tasks tasks" 40 "$n" : "$BUILD/vlpost" replay \
			--from "$W/own.ini" --vmconfig "$W/$on.ini" "$W/t"
	done
done
