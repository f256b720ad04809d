#!/bin/bash
# test_simgrid.sh BUILD - vlpost simgrid: MPI runs under the layer (computation
# ignored, tests/e2e/mpi.ini) exported to SimGrid's time-independent trace and
# replayed by SimGrid 3.32's smpirun (docs/simgrid.md).
#  (1) on the contention-free platform (--topology fatpipe) SimGrid's end time
#      of every rank equals vlayer's, to the nanosecond (message sizes whose
#      transmission is a whole number of ns: vlayer truncates, SimGrid not);
#  (2) on a star or a bus, 3 ranks sending 3968 B to rank 0 at once share its
#      link: the transfers take 3 times as long; SimGrid's value is the closed
#      form of its max-min sharing;
#  (3) the VMConfig's [topology] (tests/e2e/simgrid/pattern.c, S = R = 0):
#      3 sends at once from one host on a star end at L + 3(n+16)/B, an
#      exchange takes L + (n+16)/B on full-duplex links and L + 2(n+16)/B on
#      half-duplex ones, a switch's backplane of one link's bandwidth makes two
#      disjoint transfers share it, a 2x2 torus adds one hop latency per hop.
# Skips (0 failed) without smpirun.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OPENBLAS_NUM_THREADS=1
if ! command -v "${SMPIRUN:-smpirun}" > /dev/null 2>&1; then
	echo "skipped: no smpirun (SimGrid: Debian package libsimgrid-dev)"
	e2e_summary
	exit
fi
PROG=$BUILD/tests/mpi_exact
CFG=$HERE/mpi.ini
PRE=""
[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload
# mpi.ini between nodes: S = 10 us, R = 20 us, T(b) = 30 us + b * 8 us / KiB
S=10000
R=20000
T() { echo $((30000 + $1 * 8000000 / 1024000)); }

# run NP CONFIG PROG ARGS...: the run's traces in $WORK/trace
run() {
	local np=$1 cfg=$2
	shift 2
	rm -rf "$WORK/trace"
	out=$("$BUILD/vlrun" $PRE -np "$np" --vmconfig "$cfg" --trace-dir "$WORK/trace" "$@" 2>&1) ||
		{ fail "vlrun $np ranks: $*: exit status"; echo "$out" | tail -5; }
}
# replay NAME CONFIG [OPTIONS]: vlpost simgrid --run; the table in $WORK/NAME.sg
replay() {
	local name=$1 cfg=$2
	shift 2
	if ! "$BUILD/vlpost" simgrid --run --vmconfig "$cfg" "$@" "$WORK/trace" > "$WORK/$name.sg" \
		2> "$WORK/$name.err"; then
		fail "$name: vlpost simgrid --run: exit status"
		cat "$WORK/$name.err" | tail -5
	fi
}
# col NAME RANK COLUMN: vlayer_ns (4) or simgrid_ns (5) of RANK
col() { awk -v r="$2" -v c="$3" '$1 == r && NF == 6 { print $c }' "$WORK/$1.sg"; }
# same NAME NP WHAT: every rank's SimGrid end = vlayer's (and there is one)
same() {
	local r v
	for r in $(seq 0 $(($2 - 1))); do
		v=$(col "$1" $r 4)
		assert_eq "$3: rank $r: SimGrid end ns = vlayer's ($v)" "${v:-missing}" "$(col "$1" $r 5)"
	done
}

# ---- the export itself ----
run 2 "$CFG" "$PROG" pingpong 128 1
if "$BUILD/vlpost" simgrid -o "$WORK/pp" --vmconfig "$CFG" "$WORK/trace" > "$WORK/pp.cmd" 2>&1; then
	ok "vlpost simgrid writes the export"
else
	fail "vlpost simgrid: exit status"; cat "$WORK/pp.cmd"
fi
assert_eq "rank 0's actions" "0 init|0 sleep 0.000010000|0 send 1 7 128|0 recv 1 8 128|0 sleep 0.000020000|0 sleep 0" \
	"$(paste -sd'|' "$WORK/pp/rank-0.txt")"
assert_eq "rank 1's actions" "1 init|1 recv 0 7 128|1 sleep 0.000020000|1 sleep 0.000010000|1 send 0 8 128|1 sleep 0" \
	"$(paste -sd'|' "$WORK/pp/rank-1.txt")"
assert_eq "hostfile: one virtual host per rank" "n1 n2" "$(paste -sd' ' "$WORK/pp/hostfile")"
# the latency: 30 us minus 16 B at 8 us/KiB (SimGrid's envelope)
assert_eq "platform: n1's link to other hosts" \
	'<link id="n1-inter" latency="2.9875e-05s" bandwidth="128000000Bps" sharing_policy="FATPIPE"/>' \
	"$(grep '<link id="n1-inter"' "$WORK/pp/platform.xml" | sed 's/^ *//')"
assert_eq "the one-line command" "cd $WORK/pp && smpirun -no-privatize -np 2" "$(cut -d' ' -f1-7 "$WORK/pp.cmd")"
grep -q -- "--cfg=smpi/send-is-detached-thresh:4096 --cfg=smpi/async-small-thresh:4096" "$WORK/pp.cmd" &&
	ok "eager limit 4 KiB: SimGrid's detached and asynchronous thresholds" ||
	fail "eager thresholds not in the command: $(cat "$WORK/pp.cmd")"
# the printed command replays it (the generated replay.sh as well)
if (cd "$WORK" && eval "$(head -1 "$WORK/pp.cmd")") > "$WORK/pp.log" 2>&1; then
	ok "the printed smpirun command runs"
else
	fail "the printed smpirun command: $(tail -3 "$WORK/pp.log")"
fi

# ---- (1) contention-free: SimGrid's times are vlayer's ----
for n in 0 128 4096 8192; do
	run 2 "$CFG" "$PROG" pingpong $n 3
	replay "pingpong-$n" "$CFG"
	same "pingpong-$n" 2 "pingpong $n B"
	one=$((S + $(T $n) + R))
	assert_eq "pingpong $n B: rank 0 in SimGrid = 6 (S + T + R)" $((6 * one)) "$(col "pingpong-$n" 0 5)"
done
# the receiver computes 1 ms before its receive: eager, and rendezvous (waits)
for n in 1024 8192; do
	run 2 "$CFG" "$PROG" pingpong $n 1 1000000
	replay "late-$n" "$CFG"
	same "late-$n" 2 "pingpong $n B, receiver 1 ms late"
done
run 4 "$CFG" "$PROG" ring 256 2
replay ring "$CFG"
same ring 4 "ring of 4, 256 B, 2 laps"
assert_eq "ring: rank 0 in SimGrid = 8 (S + T + R)" $((8 * (S + $(T 256) + R))) "$(col ring 0 5)"
run 4 "$CFG" "$PROG" isend 512
replay isend "$CFG"
same isend 4 "Irecv, Isend and Waitall with both neighbours of 4"
# inside a node: 2 ranks on n1 (intra: S 1 us, R 2 us, T 3 us + 1 us/KiB)
sed 's/^ranks_per_node = 1/ranks_per_node = 2/' "$CFG" > "$WORK/intra.ini"
run 2 "$WORK/intra.ini" "$PROG" pingpong 1024 2
replay intra "$WORK/intra.ini"
same intra 2 "pingpong inside a node, 1 KiB"
assert_eq "intra pingpong: rank 0 = 4 (1 + 3 + 1 + 2 us)" 28000 "$(col intra 0 5)"

# collectives: SimGrid's algorithms (smpi/KIND, chosen from [collectives]) with
# no send and receive time give vlayer's times (4 ranks; KIND BYTES ROOT)
ZCFG=$HERE/simgrid/nooverhead.ini
for k in "bcast 1024 0" "barrier 0 0" "reduce 1024 1" "allreduce 1024 0" "gather 256 0" \
	"scatter 256 2" "allgather 256 0" "alltoall 256 0"; do
	set -- $k
	run 4 "$ZCFG" "$PROG" coll $k
	replay "coll-$1" "$ZCFG"
	"$BUILD/vlpost" simgrid -o "$WORK/coll" --vmconfig "$ZCFG" "$WORK/trace" > /dev/null 2>&1
	grep -q "^0 $1\( \|$\)" "$WORK/coll/rank-0.txt" && ok "$1: a TI $1 action" ||
		fail "$1: no TI $1 action in rank-0.txt"
	same "coll-$1" 4 "$1 ($2 B) on 4 ranks"
done
assert_eq "allgather ring, 4 ranks: 3 steps of T(256)" $((3 * $(T 256))) "$(col coll-allgather 0 5)"

# ---- (2) a shared link: 3 ranks send 3968 B to rank 0 at once ----
"$BUILD/vlcc" -mpi -Wall -Wextra -Werror -O2 -o "$WORK/fanin" "$HERE/simgrid/fanin.c" ||
	fail "build fanin.c"
n=3968
run 4 "$CFG" "$WORK/fanin" $n
replay fanin-fatpipe "$CFG"
same fanin-fatpipe 4 "fan-in 3 to 1, contention-free"
# vlayer: all arrive at S + T(n); rank 0 ends 3 R later
assert_eq "fan-in: vlayer's rank 0" $((S + $(T $n) + 3 * R)) "$(col fanin-fatpipe 0 4)"
# SimGrid on a star: the 3 transfers share rank 0's down link (128 MB/s): each
# (n + 16 B) at a third of the bandwidth; latency 30 us - 16 B (the envelope)
c=7.8125 # ns per byte
star=$(awk -v s=$S -v r=$R -v n=$n -v c=$c 'BEGIN { printf "%d", s + (30000 - 16 * c) + 3 * (n + 16) * c + 3 * r }')
for topo in star bus; do
	replay "fanin-$topo" "$CFG" --topology $topo
	assert_eq "fan-in on a $topo: rank 0 in SimGrid (3 transfers share a link)" "$star" "$(col "fanin-$topo" 0 5)"
	assert_eq "fan-in on a $topo: the senders leave after S" "$S $S $S" \
		"$(echo $(col "fanin-$topo" 1 5) $(col "fanin-$topo" 2 5) $(col "fanin-$topo" 3 5))"
done
assert_eq "fan-in: SimGrid's transfer on a star is 3x vlayer's" $((3 * ($(T $n) - 30000))) \
	"$(awk -v a="$(col fanin-star 0 5)" -v s=$S -v r=$R -v c=$c 'BEGIN { printf "%d", a - s - 3 * r - 30000 - 32 * c }')"

# vlpost replay --engine simgrid is the same replay on the contention-free platform
"$BUILD/vlpost" replay --engine simgrid --vmconfig "$CFG" "$WORK/trace" > "$WORK/engine.sg" 2> "$WORK/engine.err"
assert_eq "vlpost replay --engine simgrid: exit status" 0 $?
assert_eq "vlpost replay --engine simgrid: rank 0 ends in SimGrid when in vlayer" \
	"$(awk '$1 == 0 && NF == 6 { print $4 }' "$WORK/engine.sg")" "$(awk '$1 == 0 && NF == 6 { print $5 }' "$WORK/engine.sg")"
grep -q . "$WORK/engine.sg" || fail "vlpost replay --engine simgrid printed nothing: $(tail -3 "$WORK/engine.err")"

# ---- errors ----
# the run left its VMConfig in the trace directory (vlrun's claim): the default
assert_eq "the run left its VMConfig in the trace directory" "$(cat "$CFG")" "$(cat "$WORK/trace/vmconfig.ini")"
"$BUILD/vlpost" simgrid -o "$WORK/dflt" "$WORK/trace" > /dev/null 2>&1
assert_eq "no --vmconfig: TRACEDIR/vmconfig.ini is used" 0 $?
rm -f "$WORK/trace/vmconfig.ini"
"$BUILD/vlpost" simgrid "$WORK/trace" > /dev/null 2> "$WORK/novm.err"
assert_eq "no VMConfig: exit status 2" 2 $?
SMPIRUN=/nonexistent/smpirun "$BUILD/vlpost" simgrid --run --vmconfig "$CFG" "$WORK/trace" > /dev/null 2>&1
assert_eq "smpirun missing: exit status 3" 3 $?
# ---- (3) the VMConfig's [topology]: SimGrid's sharing, closed forms ----
# S = R = 0, T(b) = 30 us + b x 7.8125 ns (128 MB/s); 3968 B: (3968 + 16) B take
# 31125 ns; the topology's latency L = 30 us, less the envelope's 125 ns where a
# route has one bottleneck (star, switch, bus)
"$BUILD/vlcc" -mpi -Wall -Wextra -Werror -O2 -o "$WORK/pattern" "$HERE/simgrid/pattern.c" ||
	fail "build pattern.c"
n=3968
e=31125 # (n + 16) x c
# topo NAME KIND DUPLEX [EXTRA LINE]: a VMConfig of 4 hosts (one rank each) with [topology]
topo() {
	{
		printf '[simulation]\ncompute = ignore\n[network inter]\ntrans_delay = 30us\n'
		printf 'trans_per_kib = 8us\n[mpi]\neager_limit = 4KiB\nranks_per_node = 1\n'
		printf '[hosts n]\ncount = 4\n[topology]\nkind = %s\nduplex = %s\n%s\n' "$2" "$3" "${4:-}"
	} > "$WORK/$1.ini"
}
# fanout: rank 0 sends to 3 ranks at once: its up link is shared three ways
topo star-full star full
run 4 "$WORK/star-full.ini" "$WORK/pattern" fanout $n
replay fanout-star "$WORK/star-full.ini"
assert_eq "star, full duplex: 3 sends at once from one host end at L + 3 (n+16)/B" \
	"$((30000 - 125 + 3 * e)) $((30000 - 125 + 3 * e)) $((30000 - 125 + 3 * e))" \
	"$(echo $(col fanout-star 1 5) $(col fanout-star 2 5) $(col fanout-star 3 5))"
assert_eq "star: vlayer's own prediction shares the link as well: L + 3 n/B each (SimGrid's less its envelope)" \
	"$((30000 + 3 * 31000)) $((30000 + 3 * 31000)) $((30000 + 3 * 31000))" \
	"$(echo $(col fanout-star 1 4) $(col fanout-star 2 4) $(col fanout-star 3 4))"

# exchange: 0 and 1 send to each other at once
run 4 "$WORK/star-full.ini" "$WORK/pattern" exchange $n
replay exch-full "$WORK/star-full.ini"
assert_eq "star, full duplex: an exchange takes L + (n+16)/B (the directions apart)" \
	"$((30000 - 125 + e))" "$(col exch-full 0 5)"
topo star-half star half
replay exch-half "$WORK/star-half.ini"
assert_eq "star, half duplex: an exchange takes L + 2 (n+16)/B (one link, both ways)" \
	"$((30000 - 125 + 2 * e))" "$(col exch-half 0 5)"
# pairs 0->1 and 2->3 through a switch whose backplane is one link's bandwidth
topo switch-bp switch full "backplane = 128000000B/s"
run 4 "$WORK/switch-bp.ini" "$WORK/pattern" pairs $n
replay pairs-bp "$WORK/switch-bp.ini"
assert_eq "switch, backplane = one link: two disjoint transfers share it (2x)" \
	"$((30000 - 125 + 2 * e)) $((30000 - 125 + 2 * e))" "$(echo $(col pairs-bp 1 5) $(col pairs-bp 3 5))"
topo switch-free switch full
replay pairs-free "$WORK/switch-free.ini"
assert_eq "switch without a backplane limit: disjoint transfers do not meet" \
	"$((30000 - 125 + e)) $((30000 - 125 + e))" "$(echo $(col pairs-free 1 5) $(col pairs-free 3 5))"
# a 2x2 torus of 5 us hops: rank 0 (0,0) to rank 3 (1,1) crosses 2 hops
topo torus torus full "dims = 2x2
latency = 5us"
run 4 "$WORK/torus.ini" "$WORK/pattern" route $n 3
replay route-torus "$WORK/torus.ini"
assert_eq "torus 2x2: a message from (0,0) to (1,1) crosses 2 hops: 2 x 5 us + (n+16)/B" \
	"$((2 * 5000 + e))" "$(col route-torus 3 5)"
run 4 "$WORK/torus.ini" "$WORK/pattern" route $n 1
replay route-torus1 "$WORK/torus.ini"
assert_eq "torus 2x2: to a neighbour, 1 hop" "$((5000 + e))" "$(col route-torus1 1 5)"
grep -q "envelope is not taken off" "$WORK/route-torus.err" &&
	ok "torus: says that SimGrid's envelope is not taken off the hops" ||
	fail "torus: no note on the envelope: $(cat "$WORK/route-torus.err")"
# --topology fatpipe still gives the contention-free platform
run 4 "$WORK/star-full.ini" "$WORK/pattern" fanout $n
replay fanout-fat "$WORK/star-full.ini" --topology fatpipe
assert_eq "--topology fatpipe overrides [topology]: contention-free" "$(T $n)" "$(col fanout-fat 3 5)"

e2e_summary
