#!/bin/sh
# cluster_rsh.sh [OPTIONS] HOST [OPTIONS] COMMAND... - the "remote shell" of
# bench/cluster.sh for mpirun (plm_rsh_agent): runs COMMAND in the network
# namespace of HOST (vlcN: ${VL_CL_NS}N) under that host name.
h=
while [ $# -gt 0 ]; do
	case $1 in
	-l) shift 2 ;;
	-*) shift ;;
	*) if [ -z "$h" ]; then h=$1; shift; else break; fi ;;
	esac
done
case $h in
vlc[0-9]*) ns=$VL_CL_NS${h#vlc} ;;
*) echo "cluster_rsh.sh: unknown host $h" >&2; exit 1 ;;
esac
exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$1"; shift; exec sh -c "$*"' sh "$h" "$*"
