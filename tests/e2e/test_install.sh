#!/bin/bash
# test_install.sh BUILD - make install PREFIX=... gives headers, libraries,
# tools, the VMConfigs and a pkg-config file that builds a virtualised program.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
P="$WORK/prefix"
make -s -C "$TOP" B="${BUILD#$TOP/}" install PREFIX="$P" > "$WORK/install.log" 2>&1
assert_eq "make install exit status" 0 $?
for f in include/vlayer.h include/vltrace.h include/pvm3V.h include/mpiV.h lib/libvlayer-pvm.so lib/libvlayer-pvm.a \
	lib/libvlayer-mpi.so lib/libvlayer-mpi.a bin/vlcc bin/vlrun bin/vlpost bin/vlconfig bin/vlcalib bin/vlcalib-run bin/vlmodel \
	bin/calib_mpi bin/calib_pvm bin/vltracedir \
	lib/pkgconfig/vlayer.pc share/vlayer/vmconfig/vienna.ini; do
	if [ -e "$P/$f" ]; then ok "installed $f"; else fail "missing $f"; fi
done
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
cc $(pkg-config --cflags vlayer) "$TOP/samples/pvm/tokenring.c" -o "$WORK/tr" $(pkg-config --libs vlayer)
assert_eq "build with pkg-config" 0 $?
assert_eq "linked to the installed layer" "$P/lib/libvlayer-pvm.so" \
	"$(ldd "$WORK/tr" | awk '/libvlayer-pvm/ { print $3 }')"
show=$("$P/bin/vlcc" -show prog.c -o prog)
case "$show" in
*"-include pvm3V.h"*"-lvlayer-pvm prog.c -o prog -lgpvm3 -lpvm3") ok "vlcc -show: $show" ;;
*) fail "vlcc -show: $show" ;;
esac
"$P/bin/vlconfig" "$P/share/vlayer/vmconfig/aachen.ini" > /dev/null
assert_eq "installed vlconfig checks an installed VMConfig" 0 $?
"$P/bin/vlcalib" run --help > "$WORK/calib-run.help" 2>&1
assert_eq "installed vlcalib finds the installed vlcalib-run" 0 $?
grep -q "$P/bin" "$P/bin/vlcalib-run"
assert_eq "installed vlcalib-run looks for calib_mpi/calib_pvm in the installed bin" 0 $?
"$P/bin/vlmodel" --help > /dev/null
assert_eq "installed vlmodel runs" 0 $?
# MPI: the installed vlcc -mpi links the installed layer, the installed vlrun runs it
"$P/bin/vlcc" -mpi "$TOP/samples/mpi/ring.c" -o "$WORK/ring"
assert_eq "vlcc -mpi builds" 0 $?
assert_eq "linked to the installed MPI layer" "$P/lib/libvlayer-mpi.so" \
	"$(ldd "$WORK/ring" | awk '/libvlayer-mpi/ { print $3 }')"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
out=$(cd "$WORK" && "$P/bin/vlrun" -np 3 --vmconfig "$P/share/vlayer/vmconfig/vienna.ini" ./ring -n 2 2>&1)
case "$out" in
*"token intact"*) ok "installed vlrun runs an MPI program" ;;
*) fail "installed vlrun: $out" ;;
esac
assert_eq "traces of the installed vlrun" 3 "$(ls "$WORK/vltrace" | grep -c '\.trc$')"
"$P/bin/vlrun" -np 2 --vmconfig /nonexistent.ini ./ring > "$WORK/bad.out" 2>&1
assert_eq "vlrun with a missing VMConfig exits" 2 $?
grep -q "/nonexistent.ini" "$WORK/bad.out"
assert_eq "vlrun names the missing VMConfig" 0 $?
e2e_summary
