#!/bin/bash
# test_mpi4py.sh BUILD - mpi4py (Debian python3-mpi4py, /usr/bin/python3) under
# vlrun, computation ignored: the buffer receive at its closed-form time
# S + T(1 KiB) + R; the pickled receives (matched probes) complete and every
# send has its receive in the traces; bcast and allreduce give their results;
# the traces convert (vlpost trf + check).
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
if ! /usr/bin/python3 -c 'import mpi4py' 2> /dev/null; then
	ok "skipped: no mpi4py (apt-get install python3-mpi4py, or make deps)"
	e2e_summary
	exit 0
fi
for np in 2 4; do
	T="$WORK/trace$np"
	out=$(timeout 120 "$BUILD/vlrun" -np $np --vmconfig "$HERE/mpi.ini" --trace-dir "$T" \
		/usr/bin/python3 "$HERE/mpi4py_prog.py" 2>&1)
	assert_eq "$np ranks: exit status" 0 $?
	# mpirun forwards each rank's output in chunks, not lines: one rank's
	# line can land inside another's, so each result is found by its text
	# inter-node link of mpi.ini: S = 10 us, T = 30 us + 8 us per KiB, R = 20 us
	assert_eq "$np ranks: buffer receive at S + T(1 KiB) + R" \
		"buffer received at 0.000068000" "$(echo "$out" | grep -o 'buffer received at [0-9.]*')"
	assert_eq "$np ranks: pickled receives" "pickled received: {'step': 1} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]" \
		"$(echo "$out" | grep -o "pickled received: {[^}]*} \\[[^]]*\\]")"
	assert_eq "$np ranks: bcast and allreduce" "bcast {'root': 0} allreduce $((np * (np + 1) / 2))" \
		"$(echo "$out" | grep -o "bcast {[^}]*} allreduce [0-9]*")"
	"$BUILD/vlpost" stats --brief --csv "$T" > "$WORK/s$np.csv" 2> "$WORK/s$np.err"
	assert_eq "$np ranks: vlpost stats reads all traces" "0 $np" "$? $(ls "$T" | grep -c '\.trc$')"
	# 3 point-to-point messages, plus those the collectives' algorithms count
	sr=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 != "all" { s += $c["msgs_sent"]; r += $c["msgs_recv"] } END { print s, r }' "$WORK/s$np.csv")
	if [ "${sr% *}" = "${sr#* }" ] && [ "${sr% *}" -ge 3 ]; then
		ok "$np ranks: every send has its receive ($sr)"
	else
		fail "$np ranks: sends and receives: $sr"
	fi
	"$BUILD/vlpost" trf -o "$WORK/t$np.trf" "$T" > /dev/null 2>&1 && "$BUILD/vlpost" check "$WORK/t$np.trf" > /dev/null 2>&1
	assert_eq "$np ranks: .trf written and checked" 0 $?
done
e2e_summary
