# pvmd.sh - start and stop a private pvmd (sourced by scripts/demo.sh, bench/run.sh and
# tests/e2e/lib.sh).
# A private PVM_TMP keeps it apart from any other pvmd on the machine; it is
# stopped by its pid, also on failure or interruption.
export PVM_ALLOW_ROOT=1
VL_PVMD_PID=""
VL_PVMD_DIR=$(mktemp -d "${TMPDIR:-/tmp}/vlayer-pvmd.XXXXXX")
export PVM_TMP="$VL_PVMD_DIR/tmp"

vl_pvmd_stop() {
	if [ -n "$VL_PVMD_PID" ]; then
		kill -TERM "$VL_PVMD_PID" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$VL_PVMD_PID" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$VL_PVMD_PID" 2>/dev/null
		wait "$VL_PVMD_PID" 2>/dev/null
		VL_PVMD_PID=""
	fi
	rm -f "$PVM_TMP"/pvmd.* 2>/dev/null
}

# stop it and remove its directory (logs included)
vl_pvmd_cleanup() {
	vl_pvmd_stop
	rm -rf "$VL_PVMD_DIR"
}

# vl_pvmd_start EP_DIRS WORKDIR
vl_pvmd_start() {
	vl_pvmd_stop
	mkdir -p "$PVM_TMP"
	rm -f "$PVM_TMP"/pvmd.* "$PVM_TMP"/pvml.*
	printf '* ep=%s wd=%s\n' "$1" "$2" > "$VL_PVMD_DIR/hostfile"
	# VL_PVMD_WRAP: a command to run pvmd under (e.g. "taskset -c 0")
	${VL_PVMD_WRAP:-} pvmd "$VL_PVMD_DIR/hostfile" > "$VL_PVMD_DIR/pvmd.out" 2>&1 &
	VL_PVMD_PID=$!
	for _ in $(seq 1 100); do
		[ -s "$PVM_TMP/pvmd.$(id -u)" ] && return 0
		kill -0 "$VL_PVMD_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "vlayer: pvmd did not start:" >&2
	cat "$VL_PVMD_DIR/pvmd.out" >&2
	return 1
}
