#!/bin/bash
# post.sh BUILD - how fast vlpost converts: a generated set of about 10 million
# trace records (a ring of TASKS tasks, default 16, 64 and 1024 tasks) through
# `vlpost trf`, `vlpost stats` (whose critical path keeps the records in memory)
# and `vlpost stats --brief`: records per second and peak memory.  Prints
# figures only (the goal of issue 4: at least 5 million events per second).
# BENCH_RECORDS (10000000), BENCH_TASKS ("16 64 1024"): the trace sets;
# BENCH_REPEAT (1): runs of each conversion, the fastest is shown.  The output
# of the previous run is removed before each run: deleting a large file is the
# file system's work, not the conversion's (about 0.4 s for 600 MB on ext4).
set -u
BUILD=$(cd "${1:-build}" && pwd)
G=$BUILD/bench/gentrace
. "$(dirname "$0")/fastest.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
N=${BENCH_RECORDS:-10000000}
REP=${BENCH_REPEAT:-1}
printf '%-34s %10s %10s %12s %12s\n' "conversion" "records" "seconds" "records/s" "peak MiB"
for tasks in ${BENCH_TASKS:-16 64 1024}; do
	rm -rf "$W/t"
	n=$("$G" gen "$W/t" $tasks $N) || exit 1
	for what in trf stats "stats --brief"; do
		case $what in
		trf) cmd=("$BUILD/vlpost" trf -o "$W/out.trf" "$W/t") ;;
		stats) cmd=("$BUILD/vlpost" stats "$W/t") ;;
		*) cmd=("$BUILD/vlpost" stats --brief "$W/t") ;;
		esac
		fastest "vlpost $what, $tasks tasks" 34 "$n" 'rm -f "$W/out.trf"' "${cmd[@]}"
	done
done
rm -f "$W/out.trf"
