# fastest.sh - sourced by bench/post.sh and bench/replay.sh: fastest LABEL
# WIDTH N BEFORE CMD... runs CMD under bench/gentrace's meter $REP times (each
# time after the shell command BEFORE, e.g. removing the last output) and prints
# one row: LABEL, N records, the fastest run's seconds, records per second and
# its peak memory (MiB).  Needs $G (gentrace) and $REP.
fastest() {
	local label=$1 width=$2 n=$3 before=$4 best= s kib r
	shift 4
	for ((r = 0; r < REP; r++)); do
		eval "$before"
		read -r s kib < <("$G" run "$@" 2> /dev/null | tail -1)
		if [ -z "$best" ] || awk -v a="$s" -v b="${best% *}" 'BEGIN { exit !(a < b) }'; then
			best="$s $kib"
		fi
	done
	read -r s kib <<< "$best"
	awk -v w="$label" -v W="$width" -v n="$n" -v s="$s" -v k="$kib" \
		'BEGIN { printf "%-*s %10d %10.2f %12.0f %12.1f\n", W, w, n, s, n / s, k / 1024 }'
}
