#!/bin/bash
# test_pingpong.sh BUILD - the virtual round-trip time of the ping-pong sample,
# with computation ignored, equals the closed-form model value to the
# nanosecond: RTT = 2 (S(n) + T(n) + R), inside one node and between nodes,
# for sizes on, between and beyond the piecewise-linear breakpoints.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)

# pwl "B:NS B:NS ..." SIZE -> value (same integer arithmetic as model.c)
pwl() {
	local pts=($1) n=$2 i b0 v0 b1 v1
	IFS=: read -r b0 v0 <<< "${pts[0]}"
	if [ ${#pts[@]} = 1 ] || [ "$n" -le "$b0" ]; then echo "$v0"; return; fi
	for ((i = 0; i < ${#pts[@]} - 1; i++)); do
		IFS=: read -r b0 v0 <<< "${pts[i]}"
		IFS=: read -r b1 v1 <<< "${pts[i + 1]}"
		if [ "$n" -le "$b1" ] || [ $i = $((${#pts[@]} - 2)) ]; then break; fi
	done
	echo $((v0 + (v1 - v0) * (n - b0) / (b1 - b0)))
}

intra_rtt() { # S=3us R=2us T=10us + n * 1e6 ps / 1024e3
	echo $((2 * (3000 + 10000 + n * 1000000 / 1024000 + 2000)))
}
inter_rtt() {
	local s t
	s=$(pwl "0:20000 1024:25000 65536:400000" "$n")
	t=$(pwl "0:50000 1500:62000 1048576:9000000" "$n")
	echo $((2 * (s + t + 7000)))
}

pvmd_start "$BUILD/samples"
export VMCONFIG="$HERE/pingpong.ini" VLAYER_TRACE_DIR="$WORK/trace"
for place in a b; do
	sizes="0 8 1000 1024 1500 4096 65536 200000 2000000"
	out=$("$BUILD/samples/pingpong.v" -r 3 -h $place $sizes 2>&1)
	for n in $sizes; do
		got=$(echo "$out" | awk -v n=$n '$1 == "size" && $2 == n { print $6 }')
		if [ $place = a ]; then exp=$(intra_rtt); else exp=$(inter_rtt); fi
		assert_eq "ping-pong host a->$place $n bytes: virtual RTT ns" "$exp" "$got"
		assert_eq "ping-pong host a->$place $n bytes: total of 3 reps ns" "$((3 * exp))" \
			"$(echo "$out" | awk -v n=$n '$1 == "size" && $2 == n { print $8 }')"
	done
	# the traces agree: every task has an END record, the child starts at the spawn delay
	if [ -x "$BUILD/vlpost" ]; then
		"$BUILD/vlpost" stats --csv "$WORK/trace" > "$WORK/stats.csv" 2> "$WORK/stats.err"
		assert_eq "vlpost stats on the ping-pong traces exits" 0 $?
		assert_eq "tasks in the trace" 2 "$(ls "$WORK/trace" | grep -c '\.trc$')"
	fi
done
# a virtual host mapped to a real one (real = this machine): spawned there by PVM
sed "s/^\[host b\]/[host b]\nreal = $(hostname)/" "$HERE/pingpong.ini" > "$WORK/real.ini"
n=4096
out=$(VMCONFIG="$WORK/real.ini" "$BUILD/samples/pingpong.v" -r 3 -h b $n 2>&1)
assert_eq "host b mapped to real host $(hostname): virtual RTT ns" "$(inter_rtt)" \
	"$(echo "$out" | awk '$1 == "size" { print $6 }')"

# the same, unmodified native binary with the layer given by LD_PRELOAD
# (not in the sanitizer build: ASan's runtime must come first in the process)
[ -n "${VL_SANITIZED:-}" ] && { e2e_summary; exit; }
n=1500
out=$(LD_PRELOAD="$BUILD/libvlayer-pvm.so" "$BUILD/samples/pingpong" -r 3 -h b $n 2>&1)
assert_eq "LD_PRELOAD: native binary, virtual RTT ns" "$(inter_rtt)" \
	"$(echo "$out" | awk '$1 == "size" { print $6 }')"
e2e_summary
