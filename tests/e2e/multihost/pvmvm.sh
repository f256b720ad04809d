# pvmvm.sh - sourced by test_multihost.sh and emucluster.sh: halting a PVM
# virtual machine of several hosts (namespaces) started through rsh.sh.
# mh_pvm_halt RUNNER DIR: "halt" through the console run by the function
# RUNNER (on the master's host), then the pvmds listed in DIR/pvmd.pids (each
# wrote its own pid there), then any pvmd whose PVM_TMP lies in DIR that the
# list missed (one clean-clone run left a master pvmd behind).
mh_pvm_halt() {
	local e p
	echo halt | "$1" timeout 10 pvm > /dev/null 2>&1
	sleep 0.5
	if [ -s "$2/pvmd.pids" ]; then
		kill $(cat "$2/pvmd.pids") 2> /dev/null
		sleep 0.2
		kill -9 $(cat "$2/pvmd.pids") 2> /dev/null
	fi
	rm -f "$2/pvmd.pids"
	for e in $(grep -lsaz "^PVM_TMP=$2/" /proc/[0-9]*/environ); do
		p=${e#/proc/}
		p=${p%/environ}
		[ "$(cat "/proc/$p/comm" 2> /dev/null)" = pvmd ] && kill -9 "$p" 2> /dev/null
	done
}
