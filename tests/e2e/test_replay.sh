#!/bin/bash
# test_replay.sh BUILD - vlpost replay (issue 13, what-if replay; docs/replay.md).
# Real PVM and MPI programs run online on a machine A; replaying their traces
# on A reproduces every record (the replayed trace files are byte-identical to
# the recorded ones).  Replaying A's traces on another machine B gives, for
# programs whose path does not depend on timing, exactly the traces of an
# online run on B (byte-identical: every record, every END component, to the
# ns).  A task farm (wildcard receives) replayed on a machine where its choices
# change is reported as an approximation.  Bad input exits 2.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OPENBLAS_NUM_THREADS=1
PRE=""
[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload

# same_traces WHAT DIR1 DIR2: the same files, byte for byte
same_traces() {
	local f n=0 bad=0
	for f in "$2"/vl-*.trc; do
		n=$((n + 1))
		cmp -s "$f" "$3/$(basename "$f")" || bad=$((bad + 1))
	done
	[ "$(ls "$3" | grep -c '\.trc$')" = $n ] || bad=$((bad + 1))
	assert_eq "$1: trace files differing (of $n)" 0 $bad
}

# replay_same WHAT TRACEDIR: replay on the run's own VMConfig (TRACEDIR/vmconfig.ini)
replay_same() {
	rm -rf "$WORK/rep"
	"$BUILD/vlpost" replay --vmconfig "$2/vmconfig.ini" -o "$WORK/rep" "$2" \
		> "$WORK/rep.out" 2> "$WORK/rep.err"
	assert_eq "$1: replay on its own VMConfig exits" 0 $?
	grep -q "every record reproduced" "$WORK/rep.err" || fail "$1: $(cat "$WORK/rep.err")"
	same_traces "$1 replayed on its own VMConfig" "$2" "$WORK/rep"
	"$BUILD/vlpost" stats --brief "$2" > "$WORK/stats.orig" 2>&1
	cmp -s "$WORK/stats.orig" "$WORK/rep.out"
	assert_eq "$1: replayed table = vlpost stats --brief of the run (cmp)" 0 $?
}

# replay_other WHAT TRACE_A CONFIG_B TRACE_B: A's traces replayed on B = the run on B
replay_other() {
	rm -rf "$WORK/rep"
	"$BUILD/vlpost" replay --vmconfig "$3" -o "$WORK/rep" "$2" > "$WORK/rep.out" 2> "$WORK/rep.err"
	assert_eq "$1: replay on B exits" 0 $?
	if grep -q approximation "$WORK/rep.err"; then
		fail "$1: an approximation reported: $(grep approximation "$WORK/rep.err")"
	fi
	same_traces "$1 replayed on B vs run on B" "$4" "$WORK/rep"
	"$BUILD/vlpost" stats --brief "$4" > "$WORK/stats.b" 2>&1
	cmp -s "$WORK/stats.b" "$WORK/rep.out"
	assert_eq "$1: replayed table = the table of the run on B (cmp)" 0 $?
}

# ---- PVM: the ping-pong sample (spawn, eager messages inside and between hosts) ----
A=$HERE/pingpong.ini
# B: other delays, models and spawn delay, the same host names
sed -e 's/^\(send_delay *= *\)[0-9]*/\17/' -e 's/^\(recv_delay *= *\)[0-9]*/\111/' \
	-e 's/^\(trans_delay *= *\)[0-9]*/\1123/' -e 's/:25000/:31000/; s/:62000/:77000/' \
	-e 's/^init_delay = 2ms/init_delay = 3ms/' "$A" > "$WORK/pingpong_b.ini"
cmp -s "$A" "$WORK/pingpong_b.ini" && fail "machine B differs from A"
pvmd_start "$BUILD/samples"
for m in a b; do
	cfg=$A
	[ $m = b ] && cfg=$WORK/pingpong_b.ini
	VMCONFIG="$cfg" VLAYER_TRACE_DIR="$WORK/pp.$m" "$BUILD/samples/pingpong.v" -r 3 -h b \
		0 1000 1500 65536 200000 > /dev/null 2>&1
	assert_eq "pingpong on $m: exit" 0 $?
	pvmd_stop
	pvmd_start "$BUILD/samples" # a fresh pvmd: the same tids in both runs
done
pvmd_stop
cmp -s "$A" "$WORK/pp.a/vmconfig.ini"
assert_eq "the run left a copy of its VMConfig (cmp)" 0 $?
replay_same "pvm pingpong" "$WORK/pp.a"
replay_other "pvm pingpong" "$WORK/pp.a" "$WORK/pingpong_b.ini" "$WORK/pp.b"
# --from names the old machine; without it and without vmconfig.ini: exit 2
cp -r "$WORK/pp.a" "$WORK/pp.nocfg"
rm "$WORK/pp.nocfg/vmconfig.ini"
"$BUILD/vlpost" replay --vmconfig "$A" "$WORK/pp.nocfg" > /dev/null 2> "$WORK/err"
assert_eq "no vmconfig.ini and no --from: exit" 2 $?
grep -q -- "--from" "$WORK/err" || fail "the message names --from: $(cat "$WORK/err")"
"$BUILD/vlpost" replay --from "$A" --vmconfig "$A" "$WORK/pp.nocfg" > "$WORK/out" 2>&1
assert_eq "--from: exit" 0 $?
grep -q "every record reproduced" "$WORK/out" || fail "--from: $(cat "$WORK/out")"
"$BUILD/vlpost" replay --vmconfig "$WORK/nonexistent.ini" "$WORK/pp.a" > /dev/null 2>&1
assert_eq "a missing --vmconfig file: exit" 2 $?
printf '[host x]\n' > "$WORK/onehost.ini"
"$BUILD/vlpost" replay --vmconfig "$WORK/onehost.ini" "$WORK/pp.a" > /dev/null 2> "$WORK/err"
assert_eq "a machine without host b: exit" 2 $?
grep -q "host 1 (b)" "$WORK/err" || fail "the message names the host: $(cat "$WORK/err")"
"$BUILD/vlpost" replay "$WORK/pp.a" > /dev/null 2>&1
assert_eq "no --vmconfig: exit" 2 $?

# ---- MPI: ring, ping-pong (eager and rendezvous), nonblocking, collectives ----
if [ -x "$BUILD/tests/mpi_exact" ] && [ -x "$BUILD/vlrun" ]; then
	MA=$HERE/mpi.ini
	# B: other delays, a larger eager limit, other collective algorithms
	sed -e 's/^send_delay = 10us/send_delay = 13us/' -e 's/^recv_delay = 20us/recv_delay = 17us/' \
		-e 's/^trans_per_kib = 8us/trans_per_kib = 5us/' -e 's/^eager_limit = 4KiB/eager_limit = 16KiB/' \
		"$MA" > "$WORK/mpi_b.ini"
	printf '\n[collectives]\nbarrier = linear\nbcast = linear\nallreduce = ring\n' >> "$WORK/mpi_b.ini"
	mrun() { # NAME CFG NP ARGS...
		local name=$1 cfg=$2 np=$3
		shift 3
		"$BUILD/vlrun" $PRE -np "$np" --vmconfig "$cfg" --trace-dir "$WORK/$name" \
			"$BUILD/tests/mpi_exact" "$@" > "$WORK/$name.out" 2>&1 ||
			fail "mpirun $name: $(tail -3 "$WORK/$name.out")"
	}
	i=0
	for args in "2 pingpong 1000 3" "2 pingpong 8192 2" "4 ring 512 3" "4 isend 6000" \
		"4 coll barrier 0 0" "4 coll allreduce 800 0" "3 coll bcast 5000 0" \
		"4 coll alltoall 300 0" "4 coll gather 700 0"; do
		i=$((i + 1))
		set -- $args
		np=$1
		shift
		mrun "m$i.a" "$MA" "$np" "$@"
		mrun "m$i.b" "$WORK/mpi_b.ini" "$np" "$@"
		replay_same "mpi $args" "$WORK/m$i.a"
		replay_other "mpi $args" "$WORK/m$i.a" "$WORK/mpi_b.ini" "$WORK/m$i.b"
	done
	# selection = openmpi: the call made (gatherv of equal blocks,
	# allgatherv, reduce_scatter_block) is in the trace; the replay times it
	# as the run did
	{ cat "$MA"; printf '\n[collectives]\nselection = openmpi\n'; } > "$WORK/mpi_o.ini"
	for args in "4 coll gatherv 700 0" "4 coll allgatherv 100 0" \
		"4 coll reduce_scatter_block 16 0"; do
		i=$((i + 1))
		set -- $args
		np=$1
		shift
		mrun "m$i.a" "$WORK/mpi_o.ini" "$np" "$@"
		replay_same "mpi openmpi $args" "$WORK/m$i.a"
	done
else
	echo "skip: no MPI build (tests/mpi_exact)"
fi

# ---- the PVM farm: wildcard receives; on another machine, other choices ----
F=$HERE/farm
if VLCC_CC="${VLCC_CC:-cc}" "$BUILD/vlcc" -O1 -I"$HERE/../../include" -o "$WORK/farm_pvm" \
	"$F/farm_pvm.c" -lm > /dev/null 2>&1; then
	pvmd_start "$WORK:/usr/bin"
	VMCONFIG="$F/farm.ini" VLAYER_TRACE_DIR="$WORK/farm" timeout 120 "$WORK/farm_pvm" -w 4 -j 40 \
		-f 1e6 > "$WORK/farm.out" 2>&1
	assert_eq "farm: exit" 0 $?
	pvmd_stop
	replay_same "pvm farm" "$WORK/farm"
	# B: a slow network: results now arrive in another order
	sed -e 's/^trans_delay = 50us/trans_delay = 5ms/' -e 's/^send_delay = 5us/send_delay = 900us/' \
		"$F/farm.ini" > "$WORK/farm_b.ini"
	"$BUILD/vlpost" replay --vmconfig "$WORK/farm_b.ini" "$WORK/farm" > "$WORK/rep.out" 2> "$WORK/rep.err"
	assert_eq "farm on B: replay exits" 0 $?
	grep -q "warning: approximation: a receive takes a message that arrives" "$WORK/rep.err" ||
		fail "farm on B: no approximation warning: $(cat "$WORK/rep.err")"
	grep -q "warning: approximation" "$WORK/rep.err" && ok "farm on B: reported as an approximation"
else
	fail "vlcc build of farm_pvm.c"
fi

e2e_summary
