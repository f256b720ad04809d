#!/bin/bash
# test_lammps.sh BUILD - LAMMPS (Debian lammps, /usr/bin/lmp), unmodified, under
# vlrun on 2 and 4 ranks with a bundled small input (lammps/in.melt): it runs to
# its end, prints its (virtual) loop time, and its traces are complete, every
# send with its receive, and convert for ParaGraph (vlpost trf + check), Pajé
# (pj_dump) and OTF2 (otf2-print).  What-if replay on code nobody here wrote:
# the 4-rank run with computation ignored on vienna.ini (2 ranks per node),
# replayed on modern-100g.ini (all 4 on one node, other links), gives the trace
# files of an online run there, byte for byte (vlpost replay).  On vienna's
# nodes joined by a 100 Mbit/s bus ([topology]): two runs give the same traces,
# the run is predicted longer, and the vienna run replayed there gives the
# online run's traces byte for byte; the same with every message a rendezvous
# (eager_limit = 1 KiB: they share the bus from when their receive is posted).
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
if [ ! -x /usr/bin/lmp ]; then
	ok "skipped: no LAMMPS (apt-get install lammps, or make deps)"
	e2e_summary
	exit 0
fi
cd "$WORK" || exit 2
for np in 2 4; do
	T="$WORK/trace$np"
	timeout 300 "$BUILD/vlrun" -np $np --vmconfig "$HERE/../../vmconfig/vienna.ini" --trace-dir "$T" \
		/usr/bin/lmp -in "$HERE/lammps/in.melt" -log none > "out$np" 2>&1
	assert_eq "$np ranks: exit status" 0 $?
	grep -q "^Loop time of .* on $np procs for 100 steps with 2048 atoms" "out$np"
	assert_eq "$np ranks: LAMMPS reports its loop" 0 $?
	"$BUILD/vlpost" stats --brief --csv "$T" > "s$np.csv" 2> "s$np.err"
	assert_eq "$np ranks: all traces complete" "0 $np 0" \
		"$? $(ls "$T" | grep -c '\.trc$') $(grep -c 'no END' "s$np.err")"
	sr=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 != "all" { s += $c["msgs_sent"]; r += $c["msgs_recv"] } END { print s, r }' "s$np.csv")
	if [ "${sr% *}" = "${sr#* }" ] && [ "${sr% *}" -gt 100 ]; then
		ok "$np ranks: every send has its receive ($sr)"
	else
		fail "$np ranks: sends and receives: $sr"
	fi
	"$BUILD/vlpost" trf -o "t$np.trf" "$T" > /dev/null 2>&1 && "$BUILD/vlpost" check "t$np.trf" > /dev/null 2>&1
	assert_eq "$np ranks: .trf written and checked" 0 $?
	"$BUILD/vlpost" paje -o "t$np.paje" "$T" > /dev/null 2>&1 && pj_dump "t$np.paje" > /dev/null 2>&1
	assert_eq "$np ranks: Pajé read by pj_dump" 0 $?
	"$BUILD/vlpost" otf2 -o "o$np" "$T" > /dev/null 2>&1 && otf2-print "o$np/traces.otf2" > /dev/null 2>&1
	assert_eq "$np ranks: OTF2 read by otf2-print" 0 $?
done

# ---- what-if replay: vienna.ini -> modern-100g.ini, computation ignored ----
for m in vienna modern-100g; do
	sed 's/^compute *=.*/compute = ignore/' "$HERE/../../vmconfig/$m.ini" > "$WORK/$m-ign.ini"
	timeout 300 "$BUILD/vlrun" -np 4 --vmconfig "$WORK/$m-ign.ini" --trace-dir "$WORK/ign-$m" \
		/usr/bin/lmp -in "$HERE/lammps/in.melt" -log none > "ign-$m.out" 2>&1
	assert_eq "computation ignored, $m: exit status" 0 $?
done
"$BUILD/vlpost" replay --vmconfig "$WORK/ign-vienna/vmconfig.ini" "$WORK/ign-vienna" > /dev/null 2> rep0.err
grep -q "every record reproduced" rep0.err && ok "replay on its own VMConfig: every record reproduced" ||
	fail "replay on its own VMConfig: $(cat rep0.err)"
"$BUILD/vlpost" replay --vmconfig "$WORK/modern-100g-ign.ini" -o "$WORK/rep" "$WORK/ign-vienna" \
	> rep.txt 2> rep.err
assert_eq "replay vienna -> modern-100g: exit status" 0 $?
same=0
for f in "$WORK/ign-modern-100g"/vl-*.trc; do
	cmp -s "$f" "$WORK/rep/$(basename "$f")" && same=$((same + 1))
done
assert_eq "replay vienna -> modern-100g: the 4 trace files of an online run there, byte for byte" 4 $same
assert_eq "replay vienna -> modern-100g: the predicted time of the online run" \
	"$("$BUILD/vlpost" stats --brief "$WORK/ign-modern-100g" | tail -1)" "$(tail -1 rep.txt)"
# ---- shared links: vienna's nodes on a 100 Mbit/s bus ([topology], issue 13) ----
# twice NAME NP CONFIG WHAT: two runs of NP ranks on CONFIG (traces in
# $WORK/NAME1 and NAME2): each exits 0, and they give the same trace files
twice() {
	local name=$1 np=$2 cfg=$3 what=$4 i f same=0
	for i in 1 2; do
		timeout 300 "$BUILD/vlrun" -np "$np" --vmconfig "$cfg" --trace-dir "$WORK/$name$i" \
			/usr/bin/lmp -in "$HERE/lammps/in.melt" -log none > "$name$i.out" 2>&1
		assert_eq "$what, run $i: exit status" 0 $?
	done
	for f in "$WORK/${name}1"/vl-*.trc; do
		cmp -s "$f" "$WORK/${name}2/$(basename "$f")" && same=$((same + 1))
	done
	assert_eq "$what: two runs give the same $np trace files" "$np" $same
}
{ cat "$WORK/vienna-ign.ini"; printf '\n[topology]\nkind = bus\nbandwidth = 100Mbit/s\n'; } > "$WORK/bus.ini"
twice bus 4 "$WORK/bus.ini" "on a bus"
tb=$("$BUILD/vlpost" stats --brief "$WORK/bus1" | tail -1 | awk '{ print $(NF - 1) }')
tv=$("$BUILD/vlpost" stats --brief "$WORK/ign-vienna" | tail -1 | awk '{ print $(NF - 1) }')
awk -v b="$tb" -v v="$tv" 'BEGIN { exit !(b > v) }' &&
	ok "the shared bus predicts a longer run ($tb s) than vienna's contention-free links ($tv s)" ||
	fail "bus $tb not longer than contention-free $tv"
"$BUILD/vlpost" replay --vmconfig "$WORK/bus.ini" -o "$WORK/repbus" "$WORK/ign-vienna" > /dev/null 2>&1
same=0
for f in "$WORK/bus1"/vl-*.trc; do
	cmp -s "$f" "$WORK/repbus/$(basename "$f")" && same=$((same + 1))
done
assert_eq "replay vienna -> vienna on a bus: the 4 trace files of an online run there" 4 $same
# the same bus with every message of 1 KiB or more a rendezvous (LAMMPS's are
# about 10 KB): each leaves when its receive is posted and shares the bus from
# then on; two runs the same, and the vienna run replayed there gives them
{ cat "$WORK/bus.ini"; printf '[mpi]\neager_limit = 1KiB\n'; } > "$WORK/rbus.ini"
twice rbus 4 "$WORK/rbus.ini" "rendezvous on a bus"
"$BUILD/vlpost" replay --vmconfig "$WORK/rbus.ini" -o "$WORK/reprbus" "$WORK/ign-vienna" > /dev/null 2>&1
same2=0
for f in "$WORK/rbus1"/vl-*.trc; do
	cmp -s "$f" "$WORK/reprbus/$(basename "$f")" && same2=$((same2 + 1))
done
assert_eq "replay vienna -> the bus with rendezvous: the 4 trace files of an online run there" 4 $same2
tr=$("$BUILD/vlpost" stats --brief "$WORK/rbus1" | tail -1 | awk '{ print $(NF - 1) }')
awk -v r="$tr" -v b="$tb" 'BEGIN { exit !(r != b) }' &&
	ok "rendezvous on the bus predict another time ($tr s) than eager messages there ($tb s)" ||
	fail "rendezvous on the bus: the same time as eager ($tr s)"
# 5 ranks (nodes of 2, 2 and 1 ranks) on a half-duplex star: ranks wait for
# one neighbour while flows to them from another get new estimates (this got
# stuck); two runs the same
{ cat "$WORK/vienna-ign.ini"; printf '\n[topology]\nkind = star\nbandwidth = 100Mbit/s\nduplex = half\n'; } \
	> "$WORK/hstar.ini"
twice hstar 5 "$WORK/hstar.ini" "5 ranks on a half-duplex star"
# the same with its collectives' messages sharing the links with the halo
# exchanges ([topology] collectives = shared): a member whose rank is done
# goes on while the others' messages are on the links (runs differed, then got
# stuck, before it did and before its bound held while a message was
# announced to it)
{ cat "$WORK/hstar.ini"; printf 'collectives = shared\n'; } > "$WORK/hstars.ini"
twice hstars 5 "$WORK/hstars.ini" "5 ranks on a half-duplex star, collectives = shared"
# the same two runs with ranks 1-4 through the board server (as on other real
# hosts: their flows and their collectives' through it): the same trace files,
# and no message timed late; rbus once more with each rendezvous answer paused
# 2 ms of real time between its two steps (VLAYER_TEST_ACK_PAUSE; 1 run in
# about 200 through the board server differed before 2026-11-28, and 2 in 3
# of these: see test_links' two pairs)
for run in "rbus rbus 4" "hstars hstars 5" "rbusp rbus 4"; do
	set -- $run
	name=$1 cfg=$2 np=$3
	pause=
	[ $name = rbusp ] && pause=2000
	VLAYER_TEST_ACK_PAUSE=$pause VLAYER_BOARD_REMOTE=1 timeout 300 "$BUILD/vlrun" -np $np \
		--vmconfig "$WORK/$cfg.ini" --trace-dir "$WORK/${name}r" /usr/bin/lmp \
		-in "$HERE/lammps/in.melt" -log none > "${name}r.out" 2>&1
	assert_eq "$name, ranks 1-$((np - 1)) through the board server: exit status" 0 $?
	same=0
	for f in "$WORK/${cfg}1"/vl-*.trc; do
		cmp -s "$f" "$WORK/${name}r/$(basename "$f")" && same=$((same + 1))
	done
	assert_eq "$name, ranks 1-$((np - 1)) through the board server: the same $np trace files" $np $same
	assert_eq "$name, ranks 1-$((np - 1)) through the board server: messages timed late (warnings)" 0 \
		"$(grep -c 'were timed before' "${name}r.out")"
done
e2e_summary
