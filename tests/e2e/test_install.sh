#!/bin/bash
# test_install.sh BUILD - make install PREFIX=... gives headers, libraries,
# tools, the VMConfigs and a pkg-config file that builds a virtualised program.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
P="$WORK/prefix"
make -s -C "$TOP" B="${BUILD#$TOP/}" install PREFIX="$P" > "$WORK/install.log" 2>&1
assert_eq "make install exit status" 0 $?
for f in include/vlayer.h include/pvm3V.h lib/libvlayer-pvm.so lib/libvlayer-pvm.a bin/vlcc \
	bin/vlpost bin/vlconfig lib/pkgconfig/vlayer.pc share/vlayer/vmconfig/vienna.ini; do
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
e2e_summary
