#!/bin/sh
# rsh.sh [OPTIONS] HOST [OPTIONS] COMMAND... - the "remote shell" of
# test_multihost.sh and bench/cluster.sh, for mpirun (plm_rsh_agent) and pvmd
# (PVM_RSH): runs COMMAND in the network namespace of HOST (vlha: $VL_NS_A,
# vlhb: $VL_NS_B, vlcN: ${VL_CL_NS}N) under that host name.  With $VL_PVM_TMP set, COMMAND gets
# PVM_TMP=$VL_PVM_TMP.HOST (each pvmd its own); with $VL_PIDS set, the pid of
# COMMAND is added to that file (the test stops what it started).
h=
while [ $# -gt 0 ]; do
	case $1 in
	-l) shift 2 ;;
	-*) shift ;;
	*) if [ -z "$h" ]; then h=$1; shift; else break; fi ;;
	esac
done
case $h in
vlha) ns=$VL_NS_A ;;
vlhb) ns=$VL_NS_B ;;
vlc[0-9]*) ns=$VL_CL_NS${h#vlc} ;;
*) echo "rsh.sh: unknown host $h" >&2; exit 1 ;;
esac
if [ -n "${VL_PVM_TMP:-}" ]; then
	PVM_TMP=$VL_PVM_TMP.$h
	export PVM_TMP
	mkdir -p "$PVM_TMP"
fi
[ -n "${VL_PIDS:-}" ] && echo $$ >> "$VL_PIDS"
exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$1"; shift; exec sh -c "$*"' sh "$h" "$*"
