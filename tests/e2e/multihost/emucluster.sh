# emucluster.sh - an emulated cluster of 4 hosts (vlc1..vlc4) on this
# machine, sourced by bench/cluster.sh and tests/e2e/test_cluster.sh.  Each
# host is a network namespace joined to a bridge (its own namespace) by a veth
# pair whose two ends are rate-limited by tbf: a star of full-duplex links.
# Set before sourcing: EC_W (a work folder), EC_RATE (100mbit), EC_BURST
# (tbf's burst, 3kb: two full frames; a larger one lets the start of every
# message through at once), EC_QUEUE (how long a packet may wait in tbf, 1s).
# tbf is one FIFO queue per link end: what a host sends leaves in the order it
# was handed to the kernel.
#   ec_up           make it (EC_WHY says why not, status 1); ec_down removes it
#   ec_mpi CMD...   CMD under mpirun, one rank per host, Open MPI over TCP
#   ec_pvm_up       one PVM virtual machine of the 4 hosts (pvmd on vlc1
#                   starts the others through multihost/rsh.sh), its ep EC_W
#   ec_pvm CMD...   CMD on vlc1 in that virtual machine; ec_pvm_down halts it
EC_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$EC_HERE/pvmvm.sh"
EC_RATE=${EC_RATE:-100mbit}
EC_BURST=${EC_BURST:-3kb}
EC_QUEUE=${EC_QUEUE:-1s}
EC_NS=vlc$$n
EC_WHY=
export VL_CL_NS=$EC_NS OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

ec_down() {
	ec_pvm_down
	local i
	for i in 1 2 3 4 br; do
		ip netns del "$EC_NS$i" 2> /dev/null
		rm -rf "/etc/netns/$EC_NS$i"
	done
}

ec_up() {
	local i j
	[ "$(id -u)" = 0 ] || { EC_WHY="the namespaces are made as root"; return 1; }
	for i in ip tc unshare; do
		command -v $i > /dev/null || { EC_WHY="no $i (Debian: iproute2, util-linux)"; return 1; }
	done
	if ! ip netns add "${EC_NS}br" 2> "$EC_W/ec.err"; then
		EC_WHY="no network namespaces here ($(head -1 "$EC_W/ec.err"))"
		return 1
	fi
	ip -n "${EC_NS}br" link add br0 type bridge 2> "$EC_W/ec.err" &&
		ip -n "${EC_NS}br" link set br0 up ||
		{ EC_WHY="no bridge ($(head -1 "$EC_W/ec.err"))"; return 1; }
	for i in 1 2 3 4; do
		ip netns add "$EC_NS$i" &&
			ip link add "vc$$$i" type veth peer name "vb$$$i" &&
			ip link set "vc$$$i" netns "$EC_NS$i" && ip link set "vb$$$i" netns "${EC_NS}br" &&
			ip -n "${EC_NS}br" link set "vb$$$i" master br0 &&
			ip -n "${EC_NS}br" link set "vb$$$i" up &&
			ip -n "$EC_NS$i" addr add "10.234.0.$i/24" dev "vc$$$i" &&
			ip -n "$EC_NS$i" link set "vc$$$i" up && ip -n "$EC_NS$i" link set lo up &&
			ip netns exec "$EC_NS$i" tc qdisc add dev "vc$$$i" root tbf rate "$EC_RATE" \
				burst "$EC_BURST" latency "$EC_QUEUE" &&
			ip netns exec "${EC_NS}br" tc qdisc add dev "vb$$$i" root tbf rate "$EC_RATE" \
				burst "$EC_BURST" latency "$EC_QUEUE" 2> "$EC_W/ec.err" ||
			{ EC_WHY="host vlc$i cannot be made (veth, bridge or tbf: $(head -1 "$EC_W/ec.err"))"; return 1; }
		mkdir -p "/etc/netns/$EC_NS$i"
		{
			echo "127.0.0.1 localhost"
			for j in 1 2 3 4; do echo "10.234.0.$j vlc$j"; done
		} > "/etc/netns/$EC_NS$i/hosts"
	done
	printf 'vlc1 slots=1\nvlc2 slots=1\nvlc3 slots=1\nvlc4 slots=1\n' > "$EC_W/hosts"
}

# ec_on1 CMD...: CMD in host vlc1's namespace under its host name
ec_on1() {
	ip netns exec "${EC_NS}1" unshare --uts sh -c 'hostname vlc1; exec "$@"' sh "$@"
}

ec_mpi() {
	ec_on1 timeout 900 mpirun --mca plm_rsh_agent "$EC_HERE/rsh.sh" --hostfile "$EC_W/hosts" \
		-np 4 --map-by node --mca btl tcp,self --mca btl_tcp_if_include 10.234.0.0/24 \
		--mca oob_tcp_if_include 10.234.0.0/24 --mca mpi_yield_when_idle 1 "$@"
}

ec_pvm() {
	PVM_TMP="$EC_W/pvm.vlc1" PVM_ALLOW_ROOT=1 PVM_RSH="$EC_HERE/rsh.sh" ec_on1 "$@"
}

ec_pvm_up() {
	local nh=0
	export VL_PVM_TMP="$EC_W/pvm" VL_PIDS="$EC_W/pvmd.pids"
	mkdir -p "$EC_W/pvm.vlc1"
	printf '* ep=%s:/usr/bin wd=%s\nvlc2\nvlc3\nvlc4\n' "$EC_W" "$EC_W" > "$EC_W/pvm.hosts"
	# (pvmd writes its own pid: $! would be the shell's, not pvmd's)
	ec_pvm sh -c 'echo $$ >> "$1"; exec pvmd "$2"' sh "$EC_W/pvmd.pids" "$EC_W/pvm.hosts" \
		> "$EC_W/pvmd.out" 2>&1 &
	disown $! # halted by ec_pvm_down; no "Terminated" from this shell
	for _ in $(seq 1 100); do
		nh=$(echo conf | ec_pvm timeout 10 pvm 2> /dev/null | awk '/ hosts?, / { print $1; exit }')
		[ "$nh" = 4 ] && return 0
		sleep 0.2
	done
	EC_WHY="the PVM virtual machine has $nh of 4 hosts ($(tail -1 "$EC_W/pvmd.out"))"
	return 1
}

ec_pvm_down() {
	[ -d "$EC_W/pvm.vlc1" ] || return 0
	mh_pvm_halt ec_pvm "$EC_W"
	rm -rf "$EC_W/pvm.vlc1"
}
