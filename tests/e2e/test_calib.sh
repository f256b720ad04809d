#!/bin/bash
# test_calib.sh BUILD - vlcalib's measurement half on this machine: vlcalib-run
# mpi --quick (4 ranks) and vlcalib-run pvm --quick (3 tasks, under a private
# pvmd), and the raw files they write: the header and columns of "vlcalib raw v1",
# every experiment at the expected sizes and task counts, statistics in order,
# physically plausible values for shared memory (all links intra), the five BSP
# patterns at equal h with message sizes from formula (4) of the BSPWB paper; the
# inter path (--ranks-per-node 2 splits one machine into two "nodes"); the fit
# step (or the note when build/vlcalib is not there); and the error paths.
# MPI also measures sharing (issue 13): the share_* rows at the expected task
# counts and sizes (one task per node), and the [topology] that vlcalib fit
# writes from them loads in vlconfig.
# VL_NO_PVM=1 (or a build without calib_pvm) leaves out the PVM part, which
# starts pvmds.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
RUN=$BUILD/vlcalib-run
SIZES="0 1 8 1024 65536 1048576"
HEADER="experiment,link,procs,bytes,h,reps,min_ns,median_ns,mean_ns,max_ns,stddev_ns"

# q FILE AWK-PROGRAM: run the program over the data rows with the columns named
# as in the header (c["median_ns"] is the median of the current row)
q() {
	awk -F, '
		/^#/ { next }
		!hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
		{ for (k in col) c[k] = $(col[k]) }
		'"$2" "$1"
}
# med FILE EXP BYTES [COLUMN]: the median (or COLUMN) of one intra ping-pong row
med() {
	q "$1" '$1 == "'"$2"'" && c["bytes"] == '"$3"' && c["link"] == "intra" && c["procs"] <= 2 { print c["'"${4:-median_ns}"'"] }'
}

# check_share FILE NP: the share_* rows of a quick MPI run of NP tasks on one
# node: sizes 0 and the powers of 4 among the quick sizes; exchange with 2
# tasks, fan-out and fan-in with 2 .. NP, all-to-all and the fan-out's first
# arrival with 3 .. NP; last in the file
SHARE_SIZES="0 1 1024 65536 1048576"
check_share() {
	local f=$1 np=$2 lib=${3:-mpi} x p want
	for x in share_exchange share_fanout share_fanin share_alltoall share_first; do
		want=""
		for ((p = 2; p <= np; p++)); do
			case $x in share_exchange) [ $p = 2 ] || continue ;; share_alltoall | share_first) [ $p -ge 3 ] || continue ;; esac
			want="$want$p:$SHARE_SIZES;"
		done
		assert_eq "$lib: $x task counts and sizes" "$want" \
			"$(q "$f" '$1 == "'$x'" { p = c["procs"]; b[p] = b[p] sp[p] c["bytes"]; sp[p] = " " }
				END { for (p = 2; p <= 64; p++) if (p in b) printf "%d:%s;", p, b[p] }')"
	done
	assert_eq "$lib: the share rows come last" "share" \
		"$(q "$f" '{ x = $1 } END { sub(/_.*/, "", x); print x }')"
	assert_eq "$lib: the share metadata line" 1 "$(grep -c '^# share: ' "$f")"
}

# check_raw FILE LIB NP: everything a quick raw file must satisfy
check_raw() {
	local f=$1 lib=$2 np=$3 e n p
	assert_eq "$lib: first line" "# vlcalib raw v1" "$(head -1 "$f")"
	assert_eq "$lib: library metadata" "# library: $lib" "$(grep '^# library:' "$f")"
	assert_eq "$lib: header row" "$HEADER" "$(grep -v '^#' "$f" | head -1)"
	assert_eq "$lib: command metadata" 1 "$(grep -c "^# command: vlcalib-run $lib" "$f")"
	assert_eq "$lib: a clock offset line (intra)" 1 "$(grep -c '^# clock_offset_ns: .*(intra' "$f")"
	assert_eq "$lib: 11 columns in every row" "" "$(grep -v '^#' "$f" | awk -F, 'NF != 11' | head -3)"
	assert_eq "$lib: every link is intra on one machine" "intra" \
		"$(q "$f" '{ print c["link"] }' | sort -u | tr '\n' ' ' | sed 's/ $//')"
	for e in rtt oneway send recv gap; do
		assert_eq "$lib: $e sizes" "$SIZES" \
			"$(q "$f" '$1 == "'$e'" && c["procs"] == 2 { printf "%s%s", s, c["bytes"]; s = " " }')"
	done
	if [ "$lib" = pvm ]; then
		assert_eq "pvm: pack sizes (1 task)" "$SIZES" \
			"$(q "$f" '$1 == "pack" && c["procs"] == 1 { printf "%s%s", s, c["bytes"]; s = " " }')"
		assert_eq "pvm: no share rows (only with --only share)" 0 "$(q "$f" '$1 ~ /^share_/' | wc -l)"
	else
		assert_eq "mpi: no pack rows" 0 "$(q "$f" '$1 == "pack"' | wc -l)"
		check_share "$f" "$np"
	fi
	for ((p = 2; p <= np; p++)); do
		assert_eq "$lib: contention to $((p - 1)) receivers: sizes" "$SIZES" \
			"$(q "$f" '$1 == "contention" && c["procs"] == '$p' { printf "%s%s", s, c["bytes"]; s = " " }')"
	done
	assert_eq "$lib: statistics ordered, times > 0, h = 0 outside BSP, 5..20 reps" "" \
		"$(q "$f" '!(c["min_ns"] > 0 && c["min_ns"] <= c["median_ns"] && c["median_ns"] <= c["max_ns"] &&
			c["min_ns"] <= c["mean_ns"] && c["mean_ns"] <= c["max_ns"] && c["stddev_ns"] >= 0 &&
			c["reps"] >= 5 && c["reps"] <= 20 && ($1 ~ /^bsp_/ || c["h"] == 0)) { print; exit }')"
	# physics: more bytes take longer; a one-way trip is shorter than the round trip
	for e in rtt oneway send gap; do
		a=$(med "$f" $e 1)
		b=$(med "$f" $e 1048576)
		if awk "BEGIN { exit !($b > $a) }"; then ok "$lib: median $e(1 MiB) $b ns > $e(1 B) $a ns"
		else fail "$lib: median $e(1 MiB) $b ns <= $e(1 B) $a ns"; fi
	done
	# (the minima: on a loaded machine the medians of a few PVM trips through the
	# pvmd scatter by more than a factor of 2.  The one-way time rests on a clock
	# offset taken from the smallest round trip, good to half of it, and its own
	# few samples see other load than the round trips': under load its minimum
	# has come out 1-6 % above the round trip's.  Half a round trip of slack
	# still fails an offset of the wrong sign, or one-way = round trip twice.
	# The bound is the round trip's median: one lucky empty PVM round trip once
	# came out at half the others (35 us against 71 us for 1 B), below every
	# one-way time.)
	for n in $SIZES; do
		a=$(med "$f" oneway "$n" min_ns)
		b=$(med "$f" rtt "$n" median_ns)
		if awk "BEGIN { exit !($a <= 1.5 * $b) }"; then ok "$lib: min oneway($n) $a ns <= 1.5 median rtt($n) $b ns"
		else fail "$lib: min oneway($n) $a ns > 1.5 median rtt($n) $b ns"; fi
	done
	a=$(med "$f" rtt 8)
	if awk "BEGIN { exit !($a >= 100 && $a <= 1000000) }"; then ok "$lib: rtt(8 B) = $a ns, between 100 ns and 1 ms"
	else fail "$lib: rtt(8 B) = $a ns, not between 100 ns and 1 ms (shared memory)"; fi
	# BSP at P tasks: 3 h values, the five patterns at each, bytes from formula (4):
	# h = m_PP = 2 m_E = (p-1) m_OA = (p-1) m_AO = 2 (p-1) m_AA
	assert_eq "$lib: BSP task counts" "$np" "$(q "$f" '$1 ~ /^bsp_/ { print c["procs"] }' | sort -u)"
	assert_eq "$lib: BSP h values" 3 "$(q "$f" '$1 ~ /^bsp_/ && $1 != "bsp_barrier" { print c["h"] }' | sort -u | wc -l)"
	assert_eq "$lib: five patterns at every h" "5 5 5" \
		"$(q "$f" '$1 ~ /^bsp_/ && $1 != "bsp_barrier" { n[c["h"]]++ } END { for (h in n) printf "%d\n", n[h] }' | tr '\n' ' ' | sed 's/ $//')"
	assert_eq "$lib: BSP message sizes give the same h (formula 4)" "" \
		"$(q "$f" 'BEGIN { f["bsp_pingpong"] = 1; f["bsp_exchange"] = 2; f["bsp_onetoall"] = '$((np - 1))';
			f["bsp_alltoone"] = '$((np - 1))'; f["bsp_alltoall"] = '$((2 * (np - 1)))' }
			($1 in f) && c["bytes"] * f[$1] != c["h"] { print }')"
	assert_eq "$lib: bsp_barrier row" "bsp_barrier,intra,$np,0,0" \
		"$(q "$f" '$1 == "bsp_barrier" { print $1 "," c["link"] "," c["procs"] "," c["bytes"] "," c["h"] }')"
}

# ---- MPI, 4 ranks on this machine; the fit step or its note ----
t0=$(date +%s)
out=$(cd "$WORK" && "$RUN" mpi -np 4 --quick -o "$WORK/mpi.csv" --ini "$WORK/mpi.ini" 2>&1)
rc=$?
assert_eq "vlcalib-run mpi --quick: exit status" 0 $rc
[ $rc = 0 ] || echo "$out" | tail -20
if [ -x "$BUILD/vlcalib" ]; then
	assert_eq "vlcalib-run mpi: fitted (vlcalib fit ran)" 0 "$(echo "$out" | grep -c 'is not built')"
else
	assert_eq "vlcalib-run mpi: without build/vlcalib it names the raw file" 1 \
		"$(echo "$out" | grep -c "not built: fit later with: vlcalib fit $WORK/mpi.csv")"
fi
check_raw "$WORK/mpi.csv" mpi 4
echo "(mpi quick: $(($(date +%s) - t0)) s)"

# ---- the [topology] fitted from the share_* rows: written, loaded by the
# VMConfig loader as written (vlconfig --dump), an error per experiment ----
# key FILE KEY: the value of KEY in the [topology] section of FILE
tkey() { awk -v k="$2" '/^\[/ { on = $0 == "[topology]" } on && $1 == k { print $3 }' "$1"; }
if [ -x "$BUILD/vlcalib" ]; then
	f=$WORK/mpi.ini
	assert_eq "fit: one [topology] section" 1 "$(grep -c '^\[topology\]$' "$f")"
	kind=$(tkey "$f" kind)
	case "$kind/$(tkey "$f" duplex)/$(tkey "$f" backplane)" in
	star/full/ | star/half/ | switch/full/?* | switch/half/?*) ok "fit: kind $kind, duplex $(tkey "$f" duplex)" ;;
	*) fail "fit: kind '$kind', duplex '$(tkey "$f" duplex)', backplane '$(tkey "$f" backplane)'" ;;
	esac
	bw=$(tkey "$f" bandwidth)
	lat=$(tkey "$f" latency)
	{ cat "$f"; printf '\n[hosts n]\ncount = 4\n'; } > "$WORK/full.ini"
	assert_eq "vlconfig accepts the fragment with 4 hosts" "$WORK/full.ini: ok, 4 hosts" \
		"$("$BUILD/vlconfig" "$WORK/full.ini" 2>&1)"
	dump=$("$BUILD/vlconfig" --dump "$WORK/full.ini" | awk '/^\[/ { on = $0 == "[topology]" } on && NF == 3 { print $1 "=" $3 }')
	assert_eq "vlconfig --dump: kind and duplex as written" "kind=$kind duplex=$(tkey "$f" duplex)" \
		"$(echo "$dump" | grep -e '^kind=' -e '^duplex=' | tr '\n' ' ' | sed 's/ $//')"
	dump_bw=$(echo "$dump" | sed -n 's/^bandwidth=\([0-9.e+]*\)B\/s$/\1/p')
	lat_ns=$(echo "$dump" | sed -n 's/^latency=\([0-9]*\)ns$/\1/p')
	if awk -v r="$bw" -v b="$dump_bw" -v l="$lat_ns" 'BEGIN { sub(/MB\/s$/, "", r)
		exit !(b != "" && l != "" && b / (r * 1e6) > 1 - 1e-9 && b / (r * 1e6) < 1 + 1e-9 &&
			b >= 1e6 && b <= 1e13 && l < 1e6) }'; then
		ok "fit: bandwidth $bw (loaded as $dump_bw B/s; 1 MB/s .. 10 TB/s), latency $lat (< 1 ms): shared memory"
	else
		fail "fit: bandwidth '$bw' (loaded as '$dump_bw' B/s), latency '$lat' ('$lat_ns' ns)"
	fi
	"$BUILD/vlcalib" fit --csv "$WORK/mpi.csv" > "$WORK/fit.csv"
	assert_eq "fit --csv: an rms and a max error for each of the 11 experiments" "22" \
		"$(grep -c '^intra,share_[a-z]*\(([kp]=[0-9])\)\{0,1\},\(rms\|max\)_error,[0-9.]*,%$' "$WORK/fit.csv")"
	assert_eq "fit --csv: the duplex's and the sharing's slope errors" 4 \
		"$(grep -c '^intra,topology,slope_error(\(full\|half\|fair\|fifo\)),[0-9.]*,%$' "$WORK/fit.csv")"
	assert_eq "fit --csv: the sharing chosen" 1 \
		"$(grep -c '^intra,topology,sharing,\(fair\|fifo\),' "$WORK/fit.csv")"
fi

# ---- MPI: two "nodes" of 2 ranks: rank 0 measures intra against 1, inter against 2 ----
"$RUN" mpi -np 4 --quick --no-fit --ranks-per-node 2 --only rtt,oneway,contention -o "$WORK/two.csv" > /dev/null 2>&1
assert_eq "two nodes: exit status" 0 $?
assert_eq "two nodes: rtt rows per link" "inter 6 intra 6" \
	"$(q "$WORK/two.csv" '$1 == "rtt" { n[c["link"]]++ } END { for (l in n) print l, n[l] }' | sort | tr '\n' ' ' | sed 's/ $//')"
assert_eq "two nodes: contention task counts per link" "inter 2,inter 3,intra 2" \
	"$(q "$WORK/two.csv" '$1 == "contention" { print c["link"] " " c["procs"] }' | sort -u | tr '\n' ',' | sed 's/,$//')"
assert_eq "two nodes: clock offset lines" 2 "$(grep -c '^# clock_offset_ns:' "$WORK/two.csv")"
assert_eq "two nodes: no other experiments" "contention oneway rtt" \
	"$(q "$WORK/two.csv" '{ print $1 }' | sort -u | tr '\n' ' ' | sed 's/ $//')"
# sharing between the two "nodes": one task per node (ranks 0 and 2), so 2
# tasks in every inter experiment; the topology comes from link inter
"$RUN" mpi -np 4 --quick --ranks-per-node 2 --only send,oneway,share -o "$WORK/two-share.csv" \
	--ini "$WORK/two-share.ini" > /dev/null 2>&1
assert_eq "two nodes, share: exit status" 0 $?
assert_eq "two nodes, share: experiments and task counts per link" \
	"inter share_exchange 2,inter share_fanin 2,inter share_fanout 2,intra share_exchange 2,intra share_fanin 2,intra share_fanout 2" \
	"$(q "$WORK/two-share.csv" '$1 ~ /^share_/ { print c["link"] " " $1 " " c["procs"] }' | sort -u | tr '\n' ',' | sed 's/,$//')"
if [ -x "$BUILD/vlcalib" ]; then
	assert_eq "two nodes, share: the topology of link inter" 1 \
		"$(grep -c '^; from the share_\* rows of link inter ' "$WORK/two-share.ini")"
fi

# ---- MPI: the row budget (issue 15: a 100 Mbit/s link took 230 s for the gap
# rows of 1-4 MiB).  With 1 us per row every row of 1-4 MiB is cut to 1 warm-up
# and 3 samples, and says so on stderr ----
out=$("$RUN" mpi -np 2 --no-fit --sizes 1MiB:4MiB --only gap,rtt --row-budget 1us \
	-o "$WORK/budget.csv" 2>&1)
assert_eq "row budget: exit status" 0 $?
assert_eq "row budget: every row has 3 samples" "3" \
	"$(q "$WORK/budget.csv" '{ print c["reps"] }' | sort -u | tr '\n' ' ' | sed 's/ $//')"
assert_eq "row budget: rows (2 experiments x 5 sizes)" 10 "$(q "$WORK/budget.csv" '{ print }' | wc -l)"
assert_eq "row budget: a line on stderr per cut row" 10 \
	"$(echo "$out" | grep -c '^calib_mpi: \(gap\|rtt\) intra [0-9]* B: 1 warm-up and 3 samples of .* (the row.s budget: --row-budget 0.001ms)$')"
assert_eq "row budget: recorded in the raw file" 1 "$(grep -c '^# row budget: 1e-06 s' "$WORK/budget.csv")"
# the sharing rows (1 and 4 MiB: the powers of 4) under the same budget
out=$("$RUN" mpi -np 2 --no-fit --sizes 1MiB:4MiB --only share --row-budget 1us \
	-o "$WORK/budget-share.csv" 2>&1)
assert_eq "row budget, share: exit status" 0 $?
assert_eq "row budget, share: rows (exchange, fan-out, fan-in x 2 sizes), 3 samples each" "6 3" \
	"$(q "$WORK/budget-share.csv" '{ n++; r[c["reps"]] } END { for (x in r) printf "%d %s", n, x }')"
assert_eq "row budget, share: a line on stderr per cut row" 6 \
	"$(echo "$out" | grep -c '^calib_mpi: share_\(exchange\|fanout\|fanin\) intra [14][0-9]* B: 1 warm-up and 3 samples of ')"

# ---- PVM, 3 tasks (an odd count: one task idles in Exchange and PingPong) under
# a private pvmd started here, which vlcalib-run uses ----
pvm_part() {
	t0=$(date +%s)
	"$RUN" pvm -np 3 --quick --no-fit --hosts nohost -o "$WORK/x.csv" > "$WORK/nopvmd.out" 2>&1
	assert_eq "pvm --hosts without a pvmd: exit status" 2 $?
	assert_eq "pvm --hosts without a pvmd: says how to start one" 1 "$(grep -c 'no pvmd is running' "$WORK/nopvmd.out")"
	pvmd_start "$BUILD"
	out=$("$RUN" pvm -np 3 --quick --no-fit -o "$WORK/pvm.csv" 2>&1)
	rc=$?
	assert_eq "vlcalib-run pvm --quick: exit status" 0 $rc
	[ $rc = 0 ] || echo "$out" | tail -20
	assert_eq "vlcalib-run pvm: used the running pvmd" 0 "$(echo "$out" | grep -c 'starting a private')"
	check_raw "$WORK/pvm.csv" pvm 3
	# the sharing experiments when asked for, as calib_mpi's
	out=$("$RUN" pvm -np 3 --quick --no-fit --only share -o "$WORK/pvm-share.csv" 2>&1)
	assert_eq "vlcalib-run pvm --only share: exit status" 0 $?
	check_share "$WORK/pvm-share.csv" 3 pvm
	pvmd_stop
	echo "(pvm quick: $(($(date +%s) - t0)) s)"
	# no pvmd at all: vlcalib-run starts (and stops) a private one
	out=$("$RUN" pvm -np 2 --quick --no-fit --only rtt -o "$WORK/priv.csv" 2>&1)
	assert_eq "pvm without a pvmd: exit status" 0 $?
	assert_eq "pvm without a pvmd: a private one was started" 1 "$(echo "$out" | grep -c 'starting a private one')"
	assert_eq "pvm without a pvmd: rtt rows" 6 "$(q "$WORK/priv.csv" '$1 == "rtt"' | wc -l)"
}
if [ -n "${VL_NO_PVM:-}" ] || [ ! -x "$BUILD/calib_pvm" ]; then
	echo "(PVM part left out: VL_NO_PVM is set, or there is no $BUILD/calib_pvm)"
else
	pvm_part
fi

# ---- error paths: exit status 2 and a message naming the problem ----
err() { # err WHAT EXPECTED-MESSAGE ARGS...
	local what=$1 msg=$2
	shift 2
	out=$("$RUN" "$@" 2>&1)
	assert_eq "$what: exit status" 2 $?
	if echo "$out" | grep -q -e "$msg"; then ok "$what: says '$msg'"; else fail "$what: no '$msg' in: $out"; fi
}
err "no arguments" "usage: vlcalib-run mpi|pvm"
err "unknown library" "first argument: mpi or pvm" shmem
err "unknown option" "unknown option '--bogus'" mpi --bogus
err "bad --sizes" "sizes 8:1: expected MIN:MAX" mpi --sizes 8:1
err "bad --only" "only rtt,nope: unknown experiment" mpi --only rtt,nope
err "pack under MPI" "only PVM packs messages" mpi --only pack
err "-np 1" "np 1: expected a number of tasks" mpi -np 1
err "option without value" "o needs a value" pvm -o
err "--hostfile for pvm" "hostfile is for mpi" pvm --hostfile /etc/hosts
err "--bsp-procs above -np" "bsp-procs 8: only 2 tasks run" mpi -np 2 --quick --no-fit --only bsp --bsp-procs 8 -o "$WORK/e.csv"
# a sharing fit that fails (one size of a fan-out) says why on stderr and
# writes the rest of the fragment, without a [topology]
{ printf '# vlcalib raw v1\n%s\n' "$HEADER"
  for n in 0 1024 65536; do
	echo "send,intra,2,$n,0,9,$((400 + n / 5)),$((400 + n / 5)),1,1,0"
	echo "oneway,intra,2,$n,0,9,$((1200 + n / 2)),$((1200 + n / 2)),1,1,0"
	echo "share_exchange,intra,2,$n,0,9,$((2000 + n)),$((2000 + n)),1,1,0"
  done
  echo "share_fanout,intra,3,0,0,9,3000,3000,1,1,0"; } > "$WORK/few.csv"
if [ -x "$BUILD/vlcalib" ]; then
	"$BUILD/vlcalib" fit "$WORK/few.csv" -o "$WORK/few.ini" > /dev/null 2> "$WORK/few.err"
	assert_eq "share fit with one size: exit status 0, the rest written" "0 1 0" \
		"$? $(grep -c '^send_model' "$WORK/few.ini") $(grep -c '^\[topology\]' "$WORK/few.ini")"
	assert_eq "share fit with one size: the warning" \
		"vlcalib: warning: $WORK/few.csv:12: share_fanout (link intra, 3 tasks): too few sizes for a fit (1 size): no [topology] written" \
		"$(cat "$WORK/few.err")"
fi
assert_eq "calib_mpi --help: exit status 0 and the options" 1 \
	"$("$BUILD/calib_mpi" --check-options --help | grep -c -e '--min-time T')"
e2e_summary
