# lib.sh - shared by the end-to-end tests: a private pvmd per test, started
# here and always stopped by its pid (also on failure or interruption), and
# value assertions.  Source it; it expects $BUILD (the build directory).
set -u
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/pvmd.sh"
E2E_PASS=0
E2E_FAIL=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vlayer-e2e.XXXXXX")

# Open MPI's start-up, the larger part of a small test run's time (8 ranks on
# 2 CPUs: 0.9 s, with these 0.65 s): the components a run on this one host
# uses anyway (ob1 over shared memory; UCX and TCP are not tried), PMIx's
# plain key store.  Neither changes a virtual time.  A test's own --mca (the
# emulated cluster: btl tcp) wins.
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1} OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
export PMIX_MCA_gds=${PMIX_MCA_gds:-hash}
# The collective components Open MPI 4.1 selects anyway (tuned, libnbc, basic,
# self, inter: han, adapt, sm, sync and monitoring have priority 0 or are off)
# and the modex fetched on demand rather than exchanged at MPI_Init: an 8-rank
# hello 1.12 to 0.95 CPU-s, 0.62 to 0.55 s (2026-11-28).  No virtual time
# changes (the layer simulates collectives itself; tuned moves the data).
export OMPI_MCA_coll=${OMPI_MCA_coll:-self,basic,libnbc,tuned,inter}
export OMPI_MCA_pmix_base_async_modex=${OMPI_MCA_pmix_base_async_modex:-1}
export OMPI_MCA_pmix_base_collect_data=${OMPI_MCA_pmix_base_collect_data:-0}
# hwloc's topology without PCI devices: every rank and mpirun read the PCI
# configuration space for it, which a virtual machine traps (perf: 12 % of a
# 4-rank start-up); 0.41 s to 0.34 s of real time per 4-rank mpirun, 0.65 s
# to 0.53 s of CPU time.  Open MPI on one host does not use them.
export HWLOC_COMPONENTS=${HWLOC_COMPONENTS:--pci,-linuxio}

# mpi_env: what every MPI test needs - mpirun as root and oversubscribed; PRE
# is vlrun's option for the program: it is linked with the layer, and
# preloading the layer as well (what users do with unmodified binaries) is
# left out under ASan (its runtime must come first)
mpi_env() {
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1
	PRE=""
	[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload
}

pvmd_stop() {
	vl_pvmd_stop
}

e2e_cleanup() {
	vl_pvmd_cleanup
	[ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"
}
trap e2e_cleanup EXIT
trap 'exit 130' INT TERM

# pvmd_start EP_DIRS: a pvmd that finds spawned programs in EP_DIRS (colon list)
pvmd_start() {
	vl_pvmd_start "$1" "$WORK"
}

# pvm_example_run MODE NAME CMD...: CMD under a fresh pvmd whose ep is $WORK/MODE (then
# /usr/bin), stdin from $WORK/stdin.NAME; its output, its exit status and the
# spawned tasks' output in $WORK/MODE.NAME.out
pvm_example_run() {
	local mode=$1 name=$2
	shift 2
	pvmd_start "$WORK/$mode:/usr/bin"
	(cd "$WORK" && timeout 60 "$@" < "$WORK/stdin.$name" > "$WORK/$mode.$name.out" 2>&1)
	echo "exit $?" >> "$WORK/$mode.$name.out"
	sleep 0.3
	# the spawned tasks' output: pvmd 3.4.6 logs each of their lines as
	# "[t80040000] DATE TIME [tTID] text" (pvmd's own lines are left out; so
	# is libpvm's race of two tasks starting the group server at once, which
	# it may write in two pieces).  (This once kept no line at all.)
	pvmd_log | sed -n 's/^\[t80[0-9a-f]*\] [0-9/]* [0-9:]* \(\[t[0-9a-f]*\] .*\)$/\1/p' |
		grep -v -e 'Group Server already running' -e '^\[t[0-9a-f]*\] libpvm \[t[0-9a-f]*\]: $' \
		>> "$WORK/$mode.$name.out"
	pvmd_stop
}

# trf_checks NAME TRACEDIR: the traces convert (vlpost trf) and vlpost check
# accepts the .trf
trf_checks() {
	if "$BUILD/vlpost" trf -o "$WORK/$1.trf" "$2" > /dev/null 2>&1 &&
		"$BUILD/vlpost" check "$WORK/$1.trf" > /dev/null 2>&1; then
		ok "$1: vlpost trf, and vlpost check accepts the .trf"
	else
		fail "$1: vlpost trf or vlpost check"
		"$BUILD/vlpost" check "$WORK/$1.trf" 2>&1 | head -3
	fi
}

# the log of spawned tasks' output
pvmd_log() {
	cat "$PVM_TMP/pvml.$(id -u)"
}

ok() {
	E2E_PASS=$((E2E_PASS + 1))
	echo "ok: $*"
}

fail() {
	E2E_FAIL=$((E2E_FAIL + 1))
	echo "FAIL: $*"
}

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() {
	if [ "$2" = "$3" ]; then ok "$1 = $2"; else fail "$1: expected '$2', got '$3'"; fi
}

e2e_summary() {
	# spawned tasks write to the pvmd log: a sanitizer report there is a failure
	if cat "$PVM_TMP"/pvml.* 2>/dev/null | grep -q -e "ERROR: AddressSanitizer" -e "runtime error:"; then
		fail "sanitizer report in a spawned task:"
		cat "$PVM_TMP"/pvml.* | grep -A5 -e "ERROR: AddressSanitizer" -e "runtime error:" | head -30
	fi
	echo "$E2E_PASS passed, $E2E_FAIL failed"
	[ "$E2E_FAIL" = 0 ]
}
