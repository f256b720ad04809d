#!/bin/bash
# test_semantics.sh BUILD - the virtual-time semantics of the PVM layer, each
# against its closed form (README "Semantics"): spawn delays, multicast with
# contention, nrecv visibility and polling cost, virtual trecv timeouts,
# psend/precv, virtual hosts in pvm_config, vl_compute, vl_set_param,
# virtual gettimeofday/clock_gettime, and the barrier.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
VLCC_CC="${VLCC_CC:-cc}" "$BUILD/vlcc" -Wall -Wextra -Werror -O1 -I"$HERE/../../include" \
	-o "$WORK/semantics" "$HERE/semantics.c" -lm || { fail "build semantics.c"; e2e_summary; exit 1; }
pvmd_start "$WORK:/usr/bin"
VMCONFIG="$HERE/semantics.ini" VLAYER_TRACE_DIR="$WORK/trace" timeout 120 "$WORK/semantics" > "$WORK/out"
assert_eq "semantics program exit status" 0 $?
v() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/out"; }
kib() { echo $(($1 * 1000000 / 1024000)); } # intra: 1 us per KiB, in ns

# spawn: the parent pays the host's init delay, the child starts at call + delay
assert_eq "after spawn on a" 1000000 "$(v after_spawn_a)"
assert_eq "after spawn on b" 3000000 "$(v after_spawn_b)"
assert_eq "after spawn on c" 6000000 "$(v after_spawn_c)"
assert_eq "start of the child on a" 1000000 "$(v start_a)"
assert_eq "start of the child on b" 3000000 "$(v start_b)"
assert_eq "start of the child on c" 6000000 "$(v start_c)"
# multicast to 2 tasks on other nodes: each send costs 5us x 1.5
m=$(v before_mcast)
assert_eq "sender after multicast to 2" $((m + 15000)) "$(v after_mcast)"
assert_eq "b receives the multicast" $((m + 7500 + 100000 + 4000)) "$(v mcast_recv_b)"
assert_eq "c receives the multicast" $((m + 15000 + 100000 + 4000)) "$(v mcast_recv_c)"
assert_eq "pvm_recvf's matching function is honoured" "recvf_order 52 51" "$(grep '^recvf_order' "$WORK/out")"
# nrecv: the 1 MiB message is invisible until its virtual arrival; each poll costs 2us
bb=$(v before_big)
arr=$((bb + 3000 + 10000 + $(kib 1048576)))
pb=$((bb + 3000 + 3000 + 10000 + 2000))
assert_eq "receive of the trigger" "$pb" "$(v poll_begin)"
polls=$(((arr - pb + 1999) / 2000))
assert_eq "failed nrecv polls before the arrival" "$polls" "$(v polls)"
assert_eq "nrecv succeeds at arrival" $((pb + 2000 * polls + 2000)) "$(v poll_end)"
# trecv: a virtual 100 us timeout, then a message well inside a 10 s timeout
tb=$(v trecv_timeout_begin)
assert_eq "trecv timeout is virtual" $((tb + 100000 + 2000)) "$(v trecv_timeout_end)"
ob=$(v trecv_ok_begin)
late=$(($(v before_late) + 3000 + 10000))
[ $late -gt $ob ] || late=$ob
assert_eq "trecv delivers at the arrival" $((late + 2000)) "$(v trecv_ok_end)"
assert_eq "probe, then bufinfo of its buffer: native length, tag, source" "probe_bufinfo 1 77 1" \
	"$(grep '^probe_bufinfo' "$WORK/out")"
assert_eq "bufinfo: native length, tag, source" "bufinfo 1 77 1" "$(grep '^bufinfo' "$WORK/out")"
assert_eq "getminfo: length, tag, source, context" "getminfo 1 77 1 1" "$(grep '^getminfo' "$WORK/out")"
assert_eq "unpacking the user's message" "unpacked 1 2 3 2.5 vlayer" "$(grep '^unpacked' "$WORK/out")"
assert_eq "placement with no host (fill)" "placement a b c a" "$(grep '^placement' "$WORK/out")"
assert_eq "precv data" 1 "$(v precv_ok)"
assert_eq "precv length: 40 bytes for 10 ints, as native libpvm returns" 40 "$(v precv_len)"
assert_eq "precv source" 1 "$(v precv_from_a)"
assert_eq "pvm_config lists the virtual hosts" "config_hosts 3 a b c" "$(grep '^config_hosts' "$WORK/out")"
assert_eq "pvm_tasks: virtual hosts of a, b, c" "tasks_vhosts 1 2 3" "$(grep '^tasks_vhosts' "$WORK/out")"
assert_eq "pvm_tasks(b's host): b there, no task of another host" "tasks_on_b 1 0" "$(grep '^tasks_on_b' "$WORK/out")"
assert_eq "pvm_tidtohost of b" 2 "$(v tidtohost_b)"
assert_eq "vl_compute(0.25)" 250000000 "$(v compute_quarter)"
assert_eq "send after vl_set_param send_delay=50us" 50000 "$(v send_after_setparam)"
assert_eq "gettimeofday = epoch + virtual time (us)" 0 "$(v gettimeofday_us_minus_virtual)"
assert_eq "CLOCK_MONOTONIC = virtual time" 0 "$(v monotonic_minus_virtual)"
assert_eq "time() = epoch + virtual time (s)" 0 "$(v time_minus_virtual)"
# barrier of 4 on 3 nodes: timed like an MPI_Barrier, by the engine's simulation of
# the [collectives] barrier algorithm (default dissemination) over the members in
# instance order, from their entry times; each member leaves at the time the
# simulation gives it (tests/tools/collsim computes the same).  The master changed its
# own inter-node send delay to 50 us, so it simulates with that.
hosts=""
entries=""
for inst in 0 1 2 3; do
	for w in master a b c; do
		[ "$(v barrier_inst_$w)" = $inst ] || continue
		h=$w
		[ $w = master ] && h=a
		hosts="$hosts${hosts:+,}$h"
		entries="$entries${entries:+,}$(v barrier_in_$w)"
		who[$inst]=$w
	done
done
assert_eq "barrier: the four members have instances 0..3" "4" "$(echo "$hosts" | tr ',' '\n' | grep -c .)"
{ cat "$HERE/semantics.ini"; printf '\n[network inter]\nsend_delay = 50us\n'; } > "$WORK/master.ini"
for inst in 0 1 2 3; do
	w=${who[$inst]:-none}
	cfg=$HERE/semantics.ini
	[ "$w" = master ] && cfg=$WORK/master.ini
	want=$("$BUILD/tests/collsim" "$cfg" barrier default 4 0 0 "$hosts" "$entries" |
		awk -v r=$inst '$1 == r { print $2 }')
	assert_eq "barrier exit of $w (instance $inst, as simulated)" "$want" "$(v barrier_out_$w)"
done
# and it is a real synchronisation in virtual time: nobody leaves before the last entry
max=0
for w in master a b c; do
	i=$(v barrier_in_$w)
	[ "$i" -gt $max ] && max=$i
done
for w in master a b c; do
	[ "$(v barrier_out_$w)" -gt $max ] && ok "barrier: $w leaves after the last entry" ||
		fail "barrier: $w leaves at $(v barrier_out_$w), before the last entry $max"
done
assert_eq "send to a task known only by a message: intra-node send time" 3000 \
	"$(v send_to_learned_tid)"
# the traces: 9 tasks, all complete
"$BUILD/vlpost" stats "$WORK/trace" > "$WORK/stats" 2>&1
assert_eq "vlpost stats on the traces" 0 $?
assert_eq "trace files" 9 "$(ls "$WORK/trace" | grep -c '\.trc$')"
"$BUILD/vlpost" trf -o "$WORK/run.trf" "$WORK/trace" > /dev/null 2>&1
assert_eq "vlpost trf on the traces" 0 $?
assert_eq "vlpost check on the .trf" "$WORK/run.trf: ok" "$("$BUILD/vlpost" check "$WORK/run.trf" | sed 's/ (.*//')"
e2e_summary
