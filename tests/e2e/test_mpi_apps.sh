#!/bin/bash
# test_mpi_apps.sh BUILD - MPI programs nobody here wrote, unmodified, run to
# completion under vlrun (the layer by LD_PRELOAD): NetPIPE (Debian
# netpipe-openmpi) and the HPC Challenge suite (Debian hpcc).  NetPIPE's own
# measurement (MPI_Wtime, virtual) must equal the model: with computation
# ignored and each rank on its own host (tests/e2e/mpi.ini), one-way time =
# S + T(n) + R = 10 us + 30 us + n * 8 us / KiB + 20 us.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP_DIR=$(cd "$HERE/../.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
cd "$WORK" || exit 1

if command -v NPopenmpi > /dev/null; then
	"$BUILD/vlrun" --vmconfig "$HERE/mpi.ini" --trace-dir "$WORK/np" -np 2 \
		NPopenmpi -u 8192 -o np.out > np.log 2>&1
	assert_eq "NetPIPE under vlrun exits" 0 $?
	for n in 1 1024 4093 8192; do
		exp=$(awk -v n=$n 'BEGIN { printf "%.8f", (10000 + 30000 + int(n * 8000000 / 1024000) + 20000) / 1e9 }')
		assert_eq "NetPIPE one-way time of $n B (s)" "$exp" "$(awk -v n=$n '$1 == n { print $3 }' np.out)"
	done
	assert_eq "NetPIPE: a trace per rank" 2 "$(ls np/*.trc 2> /dev/null | wc -l)"
else
	fail "NPopenmpi not installed (Debian netpipe-openmpi)"
fi

if command -v hpcc > /dev/null; then
	# the example input with N = 400 on a 2 x 2 grid, on the Vienna cluster
	sed '6s/^1000 /400  /' /usr/share/doc/hpcc/examples/_hpccinf.txt > hpccinf.txt
	"$BUILD/vlrun" --vmconfig "$TOP_DIR/vmconfig/vienna.ini" --trace-dir "$WORK/hpcc" -np 4 hpcc \
		> hpcc.log 2>&1
	assert_eq "hpcc under vlrun exits" 0 $?
	assert_eq "hpcc: HPL residual check passed" "Success=1" "$(grep -m1 '^Success=' hpccoutf.txt)"
	assert_eq "hpcc: every section ended" 17 "$(grep -c '^End of .* section\.' hpccoutf.txt)"
	assert_eq "hpcc: a trace per rank" 4 "$(ls hpcc/*.trc 2> /dev/null | wc -l)"
	"$BUILD/vlpost" trf -o hpcc.trf hpcc > stats.txt 2>&1
	assert_eq "hpcc traces convert to .trf" 0 $?
	"$BUILD/vlpost" check hpcc.trf > /dev/null 2>&1
	assert_eq "the .trf of hpcc is valid" 0 $?
	p=$(awk '/^predicted elapsed time:/ { print ($4 > 0) }' stats.txt)
	assert_eq "hpcc: a positive predicted time" 1 "$p"
	# the same on its nodes joined by a 100 Mbit/s bus: every message between
	# nodes shares it (LatencyBandwidth's rings used to get stuck there)
	{ cat "$TOP_DIR/vmconfig/vienna.ini"; printf '[topology]\nkind = bus\nbandwidth = 100Mbit/s\n'; } \
		> vienna-bus.ini
	rm -f hpccoutf.txt
	timeout 300 "$BUILD/vlrun" --vmconfig vienna-bus.ini --trace-dir "$WORK/hpcc-bus" -np 4 hpcc \
		> hpcc-bus.log 2>&1
	assert_eq "hpcc on a bus under vlrun exits" 0 $?
	assert_eq "hpcc on a bus: HPL residual check passed" "Success=1" "$(grep -m1 '^Success=' hpccoutf.txt)"
	assert_eq "hpcc on a bus: every section ended" 17 "$(grep -c '^End of .* section\.' hpccoutf.txt)"
else
	fail "hpcc not installed (Debian hpcc)"
fi
e2e_summary
