# lib.sh - shared by the end-to-end tests: a private pvmd per test, started
# here and always stopped by its pid (also on failure or interruption), and
# value assertions.  Source it; it expects $BUILD (the build directory).
set -u
export PVM_ALLOW_ROOT=1
E2E_PASS=0
E2E_FAIL=0
PVMD_PID=""
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vlayer-e2e.XXXXXX")
export PVM_TMP="$WORK/pvmtmp"

pvmd_stop() {
	if [ -n "$PVMD_PID" ]; then
		kill -TERM "$PVMD_PID" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$PVMD_PID" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$PVMD_PID" 2>/dev/null
		wait "$PVMD_PID" 2>/dev/null
		PVMD_PID=""
	fi
	rm -f "$PVM_TMP"/pvmd.* 2>/dev/null
}

e2e_cleanup() {
	pvmd_stop
	[ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"
}
trap e2e_cleanup EXIT
trap 'exit 130' INT TERM

# pvmd_start EP_DIRS: a pvmd that finds spawned programs in EP_DIRS (colon list)
pvmd_start() {
	pvmd_stop
	mkdir -p "$PVM_TMP"
	rm -f "$PVM_TMP"/pvmd.*
	printf '* ep=%s wd=%s\n' "$1" "$WORK" > "$WORK/hostfile"
	pvmd "$WORK/hostfile" > "$WORK/pvmd.out" 2>&1 &
	PVMD_PID=$!
	for _ in $(seq 1 100); do
		if [ -s "$PVM_TMP/pvmd.$(id -u)" ]; then
			return 0
		fi
		kill -0 "$PVMD_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "e2e: pvmd did not start:" >&2
	cat "$WORK/pvmd.out" >&2
	PVMD_PID=""
	return 1
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
