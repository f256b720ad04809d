#!/bin/bash
# test_multihost.sh BUILD - virtual order across two real hosts: two network
# namespaces of this machine (each its own network stack, address and host
# name), joined by a veth pair, are the hosts vlha and vlhb; mpirun starts
# ranks on both (its rsh agent enters the namespace).  The ranks of vlhb reach
# the board through the run's board server on vlha (TCP), and the heterogeneous
# farm gives what it gives on one host: the exact event simulation, choice by
# choice.  A deadlock across the hosts is reported, status 4.  On a
# [topology], messages of ranks on both hosts share the links (exact
# closed forms).  Then PVM: one
# virtual machine of both hosts (the second pvmd started through PVM_RSH), the
# PVM farm's workers on both, the same event simulation.  The remote shell is
# multihost/rsh.sh.  Needs root, ip netns and unshare: skipped with a message
# otherwise.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
F="$HERE/farm"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# ranks on two hosts: TCP between them (lib.sh leaves it out)
export OMPI_MCA_btl=self,vader,tcp

skip() {
	ok "skipped: $1"
	e2e_summary
	exit 0
}
[ "$(id -u)" = 0 ] || skip "two real hosts need network namespaces, made as root"
command -v ip > /dev/null || skip "no ip (Debian package iproute2)"
command -v unshare > /dev/null || skip "no unshare (util-linux)"
[ -n "${VL_SANITIZED:-}" ] && skip "not in the sanitizer build"

NA=vlt$$a
NB=vlt$$b
cleanup() {
	ip netns del "$NA" 2> /dev/null
	ip netns del "$NB" 2> /dev/null
	rm -rf "/etc/netns/$NA" "/etc/netns/$NB"
	e2e_cleanup
}
trap cleanup EXIT
if ! ip netns add "$NA" 2> "$WORK/ns.err" || ! ip netns add "$NB" 2>> "$WORK/ns.err" ||
	! ip link add "ve$$a" type veth peer name "ve$$b" 2>> "$WORK/ns.err"; then
	skip "network namespaces cannot be made here ($(head -1 "$WORK/ns.err"))"
fi
ip link set "ve$$a" netns "$NA" && ip link set "ve$$b" netns "$NB" &&
	ip -n "$NA" addr add 10.231.7.1/24 dev "ve$$a" &&
	ip -n "$NB" addr add 10.231.7.2/24 dev "ve$$b" &&
	ip -n "$NA" link set lo up && ip -n "$NB" link set lo up &&
	ip -n "$NA" link set "ve$$a" up && ip -n "$NB" link set "ve$$b" up ||
	skip "the two namespaces cannot be linked"
# each namespace resolves both host names (ip netns exec mounts /etc/netns/NS/hosts)
for ns in "$NA" "$NB"; do
	mkdir -p "/etc/netns/$ns"
	printf '127.0.0.1 localhost\n10.231.7.1 vlha\n10.231.7.2 vlhb\n' > "/etc/netns/$ns/hosts"
done
# the remote shell of mpirun and pvmd: enter the host's namespace
export VL_NS_A="$NA" VL_NS_B="$NB"
RSH="$HERE/multihost/rsh.sh"
printf 'vlha slots=3\nvlhb slots=2\n' > "$WORK/hosts5"
printf 'vlha slots=1\nvlhb slots=1\n' > "$WORK/hosts2"

for p in farm_mpi order_mpi; do
	"$BUILD/vlcc" -mpi -Wall -Wextra -Werror -O1 -I"$HERE/../../include" -o "$WORK/$p" \
		"$F/$p.c" || { fail "build $p.c"; e2e_summary; exit 1; }
done

# on2 NAME HOSTFILE NP ARGS...: vlrun on host vlha with ranks on both hosts
on2() {
	local n=$1 hf=$2 np=$3
	shift 3
	timeout 120 ip netns exec "$NA" unshare --uts sh -c 'hostname vlha; exec "$@"' sh \
		"$BUILD/vlrun" --no-preload --vmconfig "${CFG:-$F/farm.ini}" --trace-dir "$WORK/trace.$n" \
		--mca plm_rsh_agent "$RSH" --hostfile "$WORK/$hf" -np "$np" "$@" \
		> "$WORK/$n.out" 2> "$WORK/$n.err"
	echo "exit $?" >> "$WORK/$n.out"
}

python3 "$F/farm_sim.py" --jobs 40 --flops 1e6 --rates 1e9,2e9,4e9,8e9 --send 5000 \
	--recv 5000 --trans 50000 --ps-per-kib 8000000 --bytes 4 > "$WORK/expected"
echo "exit 0" >> "$WORK/expected"

# 1. ranks 0-2 on vlha, 3-4 on vlhb: the farm equals the event simulation
on2 farm hosts5 5 "$WORK/farm_mpi" -j 40 -f 1e6 -d
assert_eq "farm over two real hosts (ranks 3, 4 on the other) = event simulation" \
	"$(cat "$WORK/expected")" "$(cat "$WORK/farm.out")"
on2 where hosts5 5 hostname
assert_eq "the same mapping puts ranks on both hosts" "vlha vlhb" \
	"$(grep '^vlh' "$WORK/where.out" | sort -u | tr '\n' ' ' | sed 's/ $//')"
assert_eq "no warning about real order" 0 "$(grep -c 'real arrival\|real order' "$WORK/farm.err")"
on2 waitany hosts5 5 "$WORK/farm_mpi" -j 40 -f 1e6 -d -r waitany
assert_eq "MPI_Irecv per worker + MPI_Waitany over two hosts = event simulation" \
	"$(cat "$WORK/expected")" "$(cat "$WORK/waitany.out")"
on2 reduce hosts5 5 "$WORK/farm_mpi" -j 40 -f 1e6 -e
assert_eq "workers waiting in MPI_Reduce over two hosts: all 40 jobs, no hang" "exit 0 40" \
	"$(tail -1 "$WORK/reduce.out") $(awk '$1 == "count" { s += $3 } END { print s }' "$WORK/reduce.out")"

# 2. ordering = real over the same two hosts is not the modelled machine
sed 's/^compute = ignore/compute = ignore\nordering = real/' "$F/farm.ini" > "$WORK/real.ini"
CFG="$WORK/real.ini" on2 real hosts5 5 "$WORK/farm_mpi" -j 40 -f 1e6 -d
assert_eq "ordering = real over two hosts: ends, all 40 jobs" "exit 0 40" \
	"$(tail -1 "$WORK/real.out") $(awk '$1 == "count" { s += $3 } END { print s }' "$WORK/real.out")"

# 3. a deadlock of a rank on each host: reported with both waits, status 4
on2 dl hosts2 2 "$WORK/order_mpi" deadlock
assert_eq "deadlock across two hosts: a non-zero exit" yes \
	"$(tail -1 "$WORK/dl.out" | awk '{ print ($2 != 0 && $2 != 124) ? "yes" : "no: " $0 }')"
assert_eq "deadlock across two hosts: the report lists both waits, one on the other host" \
	"2 1" "$(grep -c 'waits in MPI_Recv' "$WORK/dl.err") $(grep -c 'on another real host' "$WORK/dl.err")"

# 4. a [topology] over the two hosts: the ranks of vlhb add and read their
# messages' flows through the board server, so they share the links as on
# one host (L = 10 us, m / B = 655360 ns; rendezvous from 1 KiB)
"$BUILD/vlcc" -mpi -Wall -Wextra -Werror -O1 -I"$HERE/../../include" -o "$WORK/pattern" \
	"$HERE/simgrid/pattern.c" || fail "build pattern.c"
for k in star bus; do
	printf '[simulation]\ncompute = ignore\n[network inter]\ntrans_delay = 10us\n%s\n' \
		'bandwidth = 100MB/s' > "$WORK/r$k.ini"
	printf '[mpi]\neager_limit = 1KiB\nranks_per_node = 1\n[hosts n]\ncount = 4\n' >> "$WORK/r$k.ini"
	printf '[topology]\nkind = %s\n' $k >> "$WORK/r$k.ini"
done
printf 'vlha slots=2\nvlhb slots=2\n' > "$WORK/hosts4"
ends4() { awk '$1 == "T" && $3 == "end" { print $2, $4 }' "$WORK/$1.out" | sort -n | awk '{ print $2 }' | paste -sd' '; }
CFG="$WORK/rstar.ini" on2 fan hosts4 4 "$WORK/pattern" fanout 65536
assert_eq "star over two real hosts: rank 0's three rendezvous Isends share its link, L + 3 m/B" \
	"1976080 1976080 1976080 1976080 exit 0" "$(ends4 fan) $(tail -1 "$WORK/fan.out")"
CFG="$WORK/rbus.ini" on2 ring hosts4 4 "$WORK/pattern" ring 65536
assert_eq "bus over two real hosts: a ring of Sendrecvs, 4 messages on it at once, L + 4 m/B" \
	"2631440 2631440 2631440 2631440 exit 0" "$(ends4 ring) $(tail -1 "$WORK/ring.out")"
CFG="$WORK/rbus.ini" on2 wild hosts4 4 "$WORK/pattern" wildrdv 65536
assert_eq "bus over two real hosts: a wildcard's rendezvous (ranks 0, 1 on vlha) beside 2 -> 3 (on vlhb), L + 2 m/B" \
	"1320720 1320720 1320720 1320720 exit 0" "$(ends4 wild) $(tail -1 "$WORK/wild.out")"
# the farm on a slow bus (its small messages meet on it): the PVM farm below
# must give the same
{ cat "$F/farm.ini"; printf '[topology]\nkind = bus\nbandwidth = 10KB/s\n'; } > "$WORK/farmbus.ini"
printf 'vlha slots=5\n' > "$WORK/hosts1"
CFG="$WORK/farmbus.ini" on2 farmbus1 hosts1 5 "$WORK/farm_mpi" -j 40 -f 1e6 -d
CFG="$WORK/farmbus.ini" on2 farmbus hosts5 5 "$WORK/farm_mpi" -j 40 -f 1e6 -d
assert_eq "farm on a bus over two real hosts: ends, and not at the contention-free time" "exit 0 yes" \
	"$(tail -1 "$WORK/farmbus.out") $(cmp -s "$WORK/farmbus.out" "$WORK/expected" && echo no || echo yes)"
assert_eq "farm on a bus over two real hosts = on one" "$(cat "$WORK/farmbus1.out")" \
	"$(cat "$WORK/farmbus.out")"

# ---- PVM: one virtual machine of the two hosts ----
# pvmd on vlha starts the pvmd of vlhb through PVM_RSH (each its own
# PVM_TMP); the farm's master runs on vlha, pvmd places its workers on both
# hosts, and those of vlhb reach the board through the board server that the
# master starts (its virtual machine has two hosts).
if command -v pvmd > /dev/null; then
	export VL_PVM_TMP="$WORK/pvm" VL_PIDS="$WORK/pvmd.pids"
	mkdir -p "$WORK/ep" "$WORK/pvm.vlha"
	"$BUILD/vlcc" -O1 -I"$HERE/../../include" -o "$WORK/ep/farm_pvm" "$F/farm_pvm.c" ||
		fail "vlcc build of farm_pvm.c"
	printf '* ep=%s:/usr/bin wd=%s\nvlhb\n' "$WORK/ep" "$WORK" > "$WORK/pvm.hosts"
	# ona CMD...: CMD on host vlha, in the virtual machine of its pvmd
	ona() {
		PVM_TMP="$WORK/pvm.vlha" PVM_ALLOW_ROOT=1 PVM_RSH="$RSH" \
			ip netns exec "$NA" unshare --uts sh -c 'hostname vlha; exec "$@"' sh "$@"
	}
	. "$HERE/multihost/pvmvm.sh"
	pvm_halt() { mh_pvm_halt ona "$WORK"; }
	trap 'pvm_halt; cleanup' EXIT
	# (pvmd writes its own pid: $! would be the shell's, not pvmd's)
	ona sh -c 'echo $$ >> "$1"; exec pvmd "$2"' sh "$WORK/pvmd.pids" "$WORK/pvm.hosts" \
		> "$WORK/pvmd.out" 2>&1 &
	nh=0
	for _ in $(seq 1 100); do
		nh=$(echo conf | ona timeout 10 pvm 2> /dev/null | awk '/ hosts?, / { print $1; exit }')
		[ "$nh" = 2 ] && break
		sleep 0.2
	done
	assert_eq "PVM: the virtual machine has both hosts" 2 "$nh"
	ona env VMCONFIG="$F/farm.ini" VLAYER_TRACE_DIR="$WORK/trace.pvm" timeout 120 \
		"$WORK/ep/farm_pvm" -w 4 -j 40 -f 1e6 -d > "$WORK/pvm.out" 2> "$WORK/pvm.err"
	echo "exit $?" >> "$WORK/pvm.out"
	assert_eq "PVM farm over two real hosts = event simulation" \
		"$(cat "$WORK/expected")" "$(cat "$WORK/pvm.out")"
	assert_eq "PVM: tasks ran on both hosts (traces of tasks of pvmds 4 and 8)" "4 8" \
		"$(ls "$WORK/trace.pvm" | sed -n 's/^vl-000\([48]\).*/\1/p' | sort -u | tr '\n' ' ' | sed 's/ $//')"
	assert_eq "PVM: no warning about real order" 0 "$(grep -c 'real arrival' "$WORK/pvm.err")"
	ona env VMCONFIG="$WORK/farmbus.ini" VLAYER_TRACE_DIR="$WORK/trace.pvmbus" timeout 120 \
		"$WORK/ep/farm_pvm" -w 4 -j 40 -f 1e6 -d > "$WORK/pvmbus.out" 2> "$WORK/pvmbus.err"
	echo "exit $?" >> "$WORK/pvmbus.out"
	assert_eq "PVM farm on a bus over two real hosts = the MPI farm there" \
		"$(cat "$WORK/farmbus.out")" "$(cat "$WORK/pvmbus.out")"
	# group joins: 4 children on both hosts, child i joins after (4 - i) ms of
	# modelled time but i * 40 ms of real time: the instance numbers follow
	# virtual time (child 3 first), not real time
	"$BUILD/vlcc" -O1 -I"$HERE/../../include" -o "$WORK/ep/join_pvm" "$HERE/multihost/join_pvm.c" ||
		fail "vlcc build of join_pvm.c"
	ona env VMCONFIG="$F/farm.ini" VLAYER_TRACE_DIR="$WORK/trace.join" timeout 120 \
		"$WORK/ep/join_pvm" 4 > "$WORK/join.out" 2> "$WORK/join.err"
	echo "exit $?" >> "$WORK/join.out"
	assert_eq "PVM: pvm_joingroup over two real hosts numbers the members in virtual time" \
		"$(printf 'child 0 inst 3\nchild 1 inst 2\nchild 2 inst 1\nchild 3 inst 0\nexit 0')" \
		"$(cat "$WORK/join.out")"
	assert_eq "PVM: the joining tasks ran on both hosts" "4 8" \
		"$(ls "$WORK/trace.join" | sed -n 's/^vl-000\([48]\).*/\1/p' | sort -u | tr '\n' ' ' | sed 's/ $//')"
	pvm_halt
	trap cleanup EXIT
else
	ok "skipped the PVM part: no pvmd"
fi
e2e_summary
