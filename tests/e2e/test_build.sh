#!/bin/bash
# test_build.sh BUILD - the build itself, on a fresh copy of the sources:
# plain `make` builds everything (libraries, tools, samples); the MPI half
# builds without the PVM half and the reverse, saying what it skipped; a
# header change rebuilds what includes it; no two files of the engine, a
# front end, post-processing or a tool need each other (tests/tools/cycles.sh).
# BUILD is not used: everything is built in a copy, at -O0 (CFLAGS, as a user
# may set it: what is tested is the build's rules; the build step of `make
# check` compiled the same files at -O2 with the same -Werror already).
. "$(dirname "$0")/lib.sh"
export CFLAGS="-O0"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SRC="$WORK/src"
mkdir -p "$SRC"
# the tracked files as they are now (committed or not), never a build directory
(cd "$TOP" && git ls-files -co --exclude-standard | grep -v '^build' |
	while read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done | tar -cf - -T -) | tar -xf - -C "$SRC"

# the fragments of mk/ may be read in any order: the same commands on the same files
make -C "$SRC" -n all 2>&1 | tr ' ' '\n' | sort > "$WORK/order1"
make -C "$SRC" -n all MK_FRAGMENTS="$(cd "$SRC" && ls -r mk/*.mk | tr '\n' ' ')" 2>&1 | tr ' ' '\n' | sort > "$WORK/order2"
if [ -s "$WORK/order1" ] && cmp -s "$WORK/order1" "$WORK/order2"; then
	ok "mk/ fragments read in reverse order: the same build"
else
	fail "mk/ fragments read in reverse order: another build ($(diff "$WORK/order1" "$WORK/order2" | head -n 3))"
fi

make -C "$SRC" -j2 > "$WORK/make.log" 2>&1
assert_eq "plain make: exit status" 0 $?
goal=$(make -C "$SRC" -np 2>/dev/null | sed -n 's/^\.DEFAULT_GOAL := //p' | tail -n 1)
assert_eq "plain make: default goal" all "$goal"
for f in vlcc vlrun vlpost vlcalib vlcalib-run vlmodel vlconfig calib_mpi calib_pvm \
	libvlayer-core.a libvlayer-pvm.so libvlayer-pvm.a libvlayer-mpi.so libvlayer-mpi.a \
	samples/pingpong samples/pingpong.v samples/mpi/ring samples/mpi/ring.v; do
	if [ -e "$SRC/build/$f" ]; then ok "plain make built build/$f"; else fail "plain make: no build/$f"; fi
done
if grep -q 'skipped' "$WORK/make.log"; then fail "plain make skipped something: $(grep skipped "$WORK/make.log")"; else ok "plain make skipped nothing"; fi
make -C "$SRC" -q all > /dev/null 2>&1
assert_eq "make twice: nothing left to do" 0 $?

# a build directory given as an absolute path (B=/dir): the scripts find it
# there (they pointed at $SRC//dir before 2026-11-28)
make -C "$SRC" B="$WORK/absb" "$WORK/absb/vlcc" "$WORK/absb/vlrun" > /dev/null 2>&1
assert_eq "B=/absolute/dir: vlcc's and vlrun's library directory" \
	"LIBDIR=\"$WORK/absb\" LIBDIR=\"$WORK/absb\"" \
	"$(grep -h '^LIBDIR=' "$WORK/absb/vlcc" "$WORK/absb/vlrun" | tr '\n' ' ' | sed 's/ $//')"

# -MMD: a header change rebuilds what includes it, and only that
touch "$SRC/include/vltrace.h"
make -C "$SRC" -q build/postproc/trf.o > /dev/null 2>&1
assert_eq "vltrace.h changed: trf.o out of date" 1 $?
make -C "$SRC" -q build/util/lsq.o > /dev/null 2>&1
assert_eq "vltrace.h changed: lsq.o, which does not include it, up to date" 0 $?
touch "$SRC/vlayer/coll/sched.h"
make -C "$SRC" -q build/vlayer/coll/alg/bcast_linear.o > /dev/null 2>&1
assert_eq "sched.h changed: bcast_linear.o out of date" 1 $?
touch "$SRC/tools/vlcalib/calib_common.h"
make -C "$SRC" -q build/calib_mpi > /dev/null 2>&1
assert_eq "calib_common.h changed: calib_mpi out of date" 1 $?

# one half without the other: the objects are compiled with the same flags
# either way, so each half starts from the plain build's objects (and the
# generated wrappers), with their times; make then links what that half
# builds and must not link the other half's libraries, tools or samples
seed() {
	mkdir -p "$SRC/$1"
	(cd "$SRC/build" && find . \( -name '*.o' -o -name '*.d' -o -path './gen/*' \) -type f |
		tar -cf - -T -) | tar -xf - -C "$SRC/$1"
}
seed build-nopvm
seed build-nompi
make -C "$SRC" -j2 B=build-nopvm WITH_PVM=0 > "$WORK/nopvm.log" 2>&1
assert_eq "WITH_PVM=0: exit status" 0 $?
for f in libvlayer-mpi.so vlpost vlcalib calib_mpi samples/mpi/ring.v; do
	if [ -e "$SRC/build-nopvm/$f" ]; then ok "WITH_PVM=0 built $f"; else fail "WITH_PVM=0: no $f"; fi
done
for f in libvlayer-pvm.so calib_pvm samples/pingpong.v; do
	if [ -e "$SRC/build-nopvm/$f" ]; then fail "WITH_PVM=0 built $f"; else ok "WITH_PVM=0: no $f"; fi
done
assert_eq "WITH_PVM=0: no object compiled again" 0 "$(grep -c -e ' -c [^ ]*\.c ' "$WORK/nopvm.log")"
if grep -q '^vlayer: skipped: PVM front end' "$WORK/nopvm.log"; then ok "WITH_PVM=0 says what it skipped"; else fail "WITH_PVM=0: no message: $(tail -n 2 "$WORK/nopvm.log")"; fi
make -C "$SRC" -j2 B=build-nompi WITH_MPI=0 > "$WORK/nompi.log" 2>&1
assert_eq "WITH_MPI=0: exit status" 0 $?
for f in libvlayer-pvm.so vlpost vlmodel calib_pvm samples/pingpong.v; do
	if [ -e "$SRC/build-nompi/$f" ]; then ok "WITH_MPI=0 built $f"; else fail "WITH_MPI=0: no $f"; fi
done
for f in libvlayer-mpi.so calib_mpi samples/mpi/ring.v; do
	if [ -e "$SRC/build-nompi/$f" ]; then fail "WITH_MPI=0 built $f"; else ok "WITH_MPI=0: no $f"; fi
done
assert_eq "WITH_MPI=0: no object compiled again" 0 "$(grep -c -e ' -c [^ ]*\.c ' "$WORK/nompi.log")"
if grep -q '^vlayer: skipped: MPI front end' "$WORK/nompi.log"; then ok "WITH_MPI=0 says what it skipped"; else fail "WITH_MPI=0: no message: $(tail -n 2 "$WORK/nompi.log")"; fi

# no file-level cycles: within each part, and across the parts a program links
B="$SRC/build"
objs() { find "$@" -name '*.o' | sort; }
core=$(objs "$B/vlayer/core" "$B/vlayer/coll" | grep -v time_wrap)
for part in "engine and collectives:$core" \
	"PVM front end:$core $(objs "$B/vlayer/pvm") $B/gen/pvm_wrap_gen.o $B/vlayer/core/time_wrap.o" \
	"MPI front end:$core $(objs "$B/vlayer/mpi") $(objs "$B/gen" | grep mpi_) $B/vlayer/core/time_wrap.o" \
	"post-processing:$(objs "$B/postproc" "$B/util" | grep -v otf2_lib)" \
	"vlcalib:$core $(objs "$B/tools/vlcalib" "$B/util" | grep -v 'calib_mpi\|calib_pvm')" \
	"vlmodel:$core $(objs "$B/tools/vlmodel" "$B/util" "$B/postproc" | grep -v 'otf2_lib\|vlpost\.o')"; do
	name=${part%%:*}
	out=$("$TOP/tests/tools/cycles.sh" ${part#*:} 2>&1)
	if [ $? = 0 ]; then ok "$name: $out"; else fail "$name: $out"; fi
done
# ... and it finds one: two files that use each other
printf 'void vlcyc_b(void);\nvoid vlcyc_a(void) { vlcyc_b(); }\n' > "$WORK/cyc_a.c"
printf 'void vlcyc_a(void);\nvoid vlcyc_b(void) { vlcyc_a(); }\n' > "$WORK/cyc_b.c"
cc -c -o "$WORK/cyc_a.o" "$WORK/cyc_a.c" && cc -c -o "$WORK/cyc_b.o" "$WORK/cyc_b.c"
out=$("$TOP/tests/tools/cycles.sh" "$WORK/cyc_a.o" "$WORK/cyc_b.o" 2>&1)
assert_eq "cycles.sh: two files using each other: exit status" 1 $?
case $out in
*cyc_a.o*cyc_b.o* | *cyc_b.o*cyc_a.o*) ok "cycles.sh names both files" ;;
*) fail "cycles.sh: $out" ;;
esac
e2e_summary
