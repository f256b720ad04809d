#!/bin/bash
# test_otf2.sh BUILD - `vlpost otf2` on real MPI runs, read back with otf2-print
# (Debian packages libopen-trace-format2-dev for the build, otf2-tools for
# otf2-print): build/samples/mpi/ring.v -n 3 and allreduce.v -n 2 -c 16, each
# under vlrun -np 4.  For each run: vlpost otf2 and otf2-print exit 0; 4
# locations; as many MPI_SEND as messages sent and MPI_RECV as messages received
# (vlpost stats --brief --csv); Enter/Leave balanced and properly nested per location;
# timestamps non-decreasing per location; the clock is 1e9 ticks/s, offset 0;
# allreduce: MPI_COLLECTIVE_BEGIN/END pairs with Operation ALLREDUCE; mpi_exact isend:
# MPI_ISEND/MPI_ISEND_COMPLETE and MPI_IRECV_REQUEST/MPI_IRECV pairs by request ID.
# Fails (does not skip) when vlpost was built without OTF2 or otf2-print is missing.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
PRE=""
[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload

if ! command -v otf2-print >/dev/null; then
	echo "test_otf2.sh: FAIL: otf2-print not found (apt-get install otf2-tools)"
	exit 1
fi
"$BUILD/vlpost" otf2 --help >/dev/null 2>"$WORK/help.err"
if grep -q 'built without OTF2' "$WORK/help.err"; then
	echo "test_otf2.sh: FAIL: $BUILD/vlpost was built without OTF2 support" \
		"(apt-get install libopen-trace-format2-dev, then rebuild)"
	exit 1
fi

# column NAME of the CSV of vlpost stats, summed over the tasks
csv_sum() {
	awk -F, -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		{ n += $c } END { print n + 0 }' "$1"
}

# check NAME TRACEDIR MSGS: the assertions above on one run (MSGS: 1 if it
# has point-to-point messages)
check() {
	local name=$1 dir=$2 msgs=$3 a=$WORK/$1.otf2
	if ! "$BUILD/vlpost" otf2 -o "$a" "$dir" 2>"$WORK/$name.err"; then
		fail "$name: vlpost otf2: $(head -3 "$WORK/$name.err")"
		return
	fi
	ok "$name: vlpost otf2"
	if ! otf2-print "$a/traces.otf2" >"$WORK/$name.evt" 2>&1 ||
		! otf2-print -G "$a/traces.otf2" >"$WORK/$name.def" 2>&1; then
		fail "$name: otf2-print: $(tail -3 "$WORK/$name.evt")"
		return
	fi
	ok "$name: otf2-print reads the archive"
	"$BUILD/vlpost" stats --brief --csv "$dir" >"$WORK/$name.csv" 2>/dev/null
	local sent recv
	sent=$(csv_sum "$WORK/$name.csv" msgs_sent)
	recv=$(csv_sum "$WORK/$name.csv" msgs_recv)
	[ "$msgs" = 0 ] || [ "$sent" -gt 0 ] || fail "$name: no messages"
	assert_eq "$name: locations" 4 "$(grep -c '^LOCATION ' "$WORK/$name.def")"
	assert_eq "$name: locations with events" 4 \
		"$(awk 'NF >= 3 && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ { l[$2] } END { print length(l) }' "$WORK/$name.evt")"
	assert_eq "$name: MPI_SEND + MPI_ISEND = messages sent" "$sent" \
		"$(grep -c -e '^MPI_SEND ' -e '^MPI_ISEND ' "$WORK/$name.evt")"
	assert_eq "$name: MPI_RECV + MPI_IRECV = messages received" "$recv" \
		"$(grep -c -e '^MPI_RECV ' -e '^MPI_IRECV ' "$WORK/$name.evt")"
	grep -q 'Ticks per Seconds: 1000000000, Global Offset: 0,' "$WORK/$name.def" &&
		ok "$name: clock 1e9 ticks/s, offset 0" || fail "$name: clock properties"
	local bad
	bad=$(awk '
		NF >= 3 && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ {
			l = $2; t = $3 + 0
			if ((l in last) && t < last[l]) print "location " l ": time goes back to " t
			last[l] = t
			if ($1 == "ENTER" || $1 == "LEAVE") {
				if (!match($0, /<[0-9]+>$/)) { print "no region id: " $0; next }
				r = substr($0, RSTART + 1, RLENGTH - 2)
				if ($1 == "ENTER") st[l, ++d[l]] = r
				else if (d[l] < 1 || st[l, d[l]] != r) print "location " l ": unmatched LEAVE of " r " at " t
				else d[l]--
			}
		}
		END { for (l in last) if (d[l]) print "location " l ": " d[l] " regions never left" }
	' "$WORK/$name.evt" | head -5)
	if [ -z "$bad" ]; then
		ok "$name: Enter/Leave balanced and nested, timestamps non-decreasing per location"
	else
		fail "$name: $bad"
	fi
}

if "$BUILD/vlrun" $PRE -np 4 --vmconfig "$HERE/mpi.ini" --trace-dir "$WORK/ring" \
	"$BUILD/samples/mpi/ring.v" -n 3 >"$WORK/ring.out" 2>&1; then
	check ring "$WORK/ring" 1
else
	fail "ring.v under vlrun: $(tail -3 "$WORK/ring.out")"
fi

if "$BUILD/vlrun" $PRE -np 4 --vmconfig "$HERE/mpi.ini" --trace-dir "$WORK/ar" \
	"$BUILD/samples/mpi/allreduce.v" -n 2 -c 16 >"$WORK/ar.out" 2>&1; then
	check allreduce "$WORK/ar" 0
	b=$(grep -c '^MPI_COLLECTIVE_BEGIN ' "$WORK/allreduce.evt")
	e=$(grep -c '^MPI_COLLECTIVE_END .*Operation: ALLREDUCE' "$WORK/allreduce.evt")
	assert_eq "allreduce: MPI_COLLECTIVE_BEGIN = MPI_COLLECTIVE_END" "$b" \
		"$(grep -c '^MPI_COLLECTIVE_END ' "$WORK/allreduce.evt")"
	[ "$e" -ge 8 ] && ok "allreduce: $e ALLREDUCE collectives (2 per rank at least)" ||
		fail "allreduce: $e MPI_COLLECTIVE_END with Operation ALLREDUCE, expected >= 8"
	grep -q 'Region: "MPI_Allreduce"' "$WORK/allreduce.evt" &&
		ok "allreduce: MPI_Allreduce region" || fail "allreduce: no MPI_Allreduce region"
else
	fail "allreduce.v under vlrun: $(tail -3 "$WORK/ar.out")"
fi

# nonblocking requests (tests/e2e/mpi_exact.c isend: each rank posts 2 Irecv and 2
# Isend and completes them in MPI_Waitall): each request's two events, matched by ID
if "$BUILD/vlrun" $PRE -np 4 --vmconfig "$HERE/mpi.ini" --trace-dir "$WORK/nb" \
	"$BUILD/tests/mpi_exact" isend 10000 >"$WORK/nb.out" 2>&1; then
	check isend "$WORK/nb" 1
	for ev in MPI_ISEND MPI_ISEND_COMPLETE MPI_IRECV_REQUEST MPI_IRECV; do
		assert_eq "isend: $ev events" 8 "$(grep -c "^$ev " "$WORK/isend.evt")"
	done
	assert_eq "isend: every request ID begun is completed (per location)" "" \
		"$(awk '$1 ~ /^MPI_I/ && match($0, /Request: [0-9]+/) {
			id = $2 ":" substr($0, RSTART + 9, RLENGTH - 9)
			if ($1 == "MPI_ISEND" || $1 == "MPI_IRECV_REQUEST") open[id]++; else open[id]--
		} END { for (i in open) if (open[i]) print i }' "$WORK/isend.evt")"
else
	fail "mpi_exact isend under vlrun: $(tail -3 "$WORK/nb.out")"
fi

# an existing archive directory is not overwritten
mkdir -p "$WORK/exists"
if "$BUILD/vlpost" otf2 -o "$WORK/exists" "$WORK/ring" 2>"$WORK/exists.err"; then
	fail "vlpost otf2 -o EXISTING_DIR succeeded"
else
	grep -q 'exists' "$WORK/exists.err" && ok "existing archive directory refused" ||
		fail "existing archive directory: $(cat "$WORK/exists.err")"
fi
e2e_summary
