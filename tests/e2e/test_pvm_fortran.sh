#!/bin/bash
# test_pvm_fortran.sh BUILD - Fortran PVM (libfpvm3) through the layer: the
# Fortran examples of Debian's pvm-examples (master1.f + slave1.f, gexample.f)
# build unchanged with `vlcc -pvmf77`, the binaries load libvlayer-pvm before
# libpvm3, and under a real pvmd each prints what the native binary prints
# (one virtual host: onehost.ini) and leaves a complete trace per task.  On
# vienna.ini master1 sees the 5 virtual hosts (pvmfconfig) and spawns 15
# slaves: 16 traces that vlpost reads; gexample starts 10 tasks whose group
# reductions (libgpvm3's, in the group context) give the right 1-norm and
# product.  gexample.f used to stall under virtual order in 4 runs of 5: its
# root waited in pvmfreduce for real without saying so on the board, and a
# member's wildcard receive waited for the root's clock for ever.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
TARBALL=/usr/share/doc/pvm-examples/examples.tar.gz
if [ ! -f "$TARBALL" ] || ! command -v gfortran > /dev/null ||
	! ls /usr/lib/*/libfpvm3.a > /dev/null 2>&1; then
	ok "skipped: needs pvm-examples, gfortran and libfpvm3 (pvm-dev)"
	e2e_summary
	exit 0
fi
mkdir -p "$WORK/src" "$WORK/native" "$WORK/virtual"
tar xzf "$TARBALL" -C "$WORK/src"
SRC="$WORK/src/examples"
# the examples include '../include/fpvm3.h' (relative to PVM_ROOT/examples):
# -I/usr/include finds it; gfortran 10 and later need -fallow-argument-mismatch
# for their untyped buffers (both builds)
for p in master1:fmaster1 slave1:fslave1 gexample:fgexample; do
	src=${p%%:*} bin=${p#*:}
	gfortran -w -O1 -fallow-argument-mismatch -I/usr/include "$SRC/$src.f" -o "$WORK/native/$bin" -lfpvm3 -lgpvm3 -lpvm3 ||
		fail "native build of $src.f"
	if "$BUILD/vlcc" -pvmf77 -w -O1 -fallow-argument-mismatch -I/usr/include "$SRC/$src.f" -o "$WORK/virtual/$bin"; then
		ok "vlcc -pvmf77 builds $src.f unchanged"
	else
		fail "vlcc -pvmf77 build of $src.f"
	fi
done
assert_eq "the binary loads libvlayer-pvm before libpvm3" "vlayer pvm3" \
	"$(ldd "$WORK/virtual/fmaster1" | sed -n 's/.*lib\(vlayer\)-pvm.so.*/\1/p; s/.*lib\(pvm3\).so.*/\1/p' | tr '\n' ' ' | sed 's/ $//')"

# what legitimately differs between two runs: task ids, the order of lines
norm() { sed -E -e 's/^\[[^]]*\] ?//' -e 's/t[0-9a-f]{5,8}/tTID/g' "$@" | sort; }

echo > "$WORK/stdin.master1"
export VMCONFIG="$HERE/onehost.ini"
printf '\n' > "$WORK/stdin.gexample"
for t in master1:fmaster1:4 gexample:fgexample:2; do
	IFS=: read -r name bin ntasks <<< "$t"
	pvm_example_run native "$name" "$WORK/native/$bin"
	VLAYER_TRACE_DIR="$WORK/trace.$name" pvm_example_run virtual "$name" "$WORK/virtual/$bin"
	assert_eq "$name.f: the same output as native (task ids and line order aside)" \
		"$(norm "$WORK/native.$name.out")" "$(norm "$WORK/virtual.$name.out")"
	set -- "$WORK/trace.$name"/vl-*.trc
	assert_eq "$name.f: one trace per task" "$ntasks" "$#"
	"$BUILD/vlpost" stats --brief "$WORK/trace.$name" > /dev/null 2>&1
	assert_eq "$name.f: vlpost stats reads the traces" 0 $?
done
grep -q "I got" "$WORK/virtual.master1.out" || fail "master1.f printed no result: $(head -5 "$WORK/virtual.master1.out")"
assert_eq "gexample.f: the 1-norm and the product of column 1" "5050 9.3326215443944127E+157" \
	"$(awk '/1-Norm is/ { n = $NF } /product of column 1 is/ { p = $NF } END { print n, p }' "$WORK/virtual.gexample.out")"

# the virtual hosts are what the program sees: 5 on vienna.ini, so 15 slaves
echo > "$WORK/stdin.master1v"
VMCONFIG="$HERE/../../vmconfig/vienna.ini" VLAYER_TRACE_DIR="$WORK/trace.vienna" \
	pvm_example_run virtual master1v "$WORK/virtual/fmaster1"
set -- "$WORK/trace.vienna"/vl-*.trc
assert_eq "master1.f on vienna.ini: spawns 3 slaves per virtual host (16 traces)" 16 "$#"
assert_eq "master1.f on vienna.ini: every slave's result is right" 15 \
	"$(awk '$1 == "I" && $2 == "got" && $3 == $7 { n++ } END { print n + 0 }' "$WORK/virtual.master1v.out")"
echo > "$WORK/stdin.gexamplev"
VMCONFIG="$HERE/../../vmconfig/vienna.ini" VLAYER_TRACE_DIR="$WORK/trace.gvienna" \
	pvm_example_run virtual gexamplev "$WORK/virtual/fgexample"
set -- "$WORK/trace.gvienna"/vl-*.trc
assert_eq "gexample.f on vienna.ini: 2 tasks per virtual host (10 traces)" 10 "$#"
# (5 hosts: the partial products combine in another order than on one host,
# so the last digits of 100! may differ)
assert_eq "gexample.f on vienna.ini: exit status, 1-norm, product = 100! to 1e-12" "0 5050 1" \
	"$(awk '/^exit/ { e = $2 } /1-Norm is/ { n = $NF } /product of column 1 is/ { p = $NF }
		END { r = p / 9.33262154439441e157 - 1; print e, n, (r < 1e-12 && r > -1e-12) }' "$WORK/virtual.gexamplev.out")"
"$BUILD/vlpost" trf -o "$WORK/gvienna.trf" "$WORK/trace.gvienna" > /dev/null 2>&1 &&
	"$BUILD/vlpost" check "$WORK/gvienna.trf" > /dev/null 2>&1
assert_eq "gexample.f on vienna.ini: vlpost check accepts its .trf" 0 $?

# libgpvm3's reductions receive the members' data in the group context, with
# wildcard sources: under virtual order they choose in virtual time too, so
# with computation ignored three runs (the third beside two busy loops) give
# the same traces, byte for byte (they once differed in every file: the
# group context kept real order)
sed 's/^compute *=.*/compute = ignore/' "$HERE/../../vmconfig/vienna.ini" > "$WORK/vienna-ignore.ini"
HOG_PIDS=""
stop_hogs() { [ -z "$HOG_PIDS" ] || kill $HOG_PIDS 2>/dev/null; wait $HOG_PIDS 2>/dev/null; HOG_PIDS=""; }
trap 'stop_hogs; e2e_cleanup' EXIT
for r in 1 2 3; do
	if [ $r = 3 ]; then
		for _ in 1 2; do
			(while :; do :; done) &
			HOG_PIDS="$HOG_PIDS $!"
		done
	fi
	cp "$WORK/stdin.gexamplev" "$WORK/stdin.gign$r"
	VMCONFIG="$WORK/vienna-ignore.ini" VLAYER_TRACE_DIR="$WORK/trace.gign$r" \
		pvm_example_run virtual "gign$r" "$WORK/virtual/fgexample"
	stop_hogs
	(cd "$WORK/trace.gign$r" && md5sum vl-*.trc) > "$WORK/gign$r.md5"
done
assert_eq "gexample.f, vienna.ini, compute = ignore: 10 traces" 10 "$(wc -l < "$WORK/gign1.md5")"
assert_eq "gexample.f, compute = ignore: run 2 gives the same trace files as run 1" \
	"$(cat "$WORK/gign1.md5")" "$(cat "$WORK/gign2.md5")"
assert_eq "gexample.f, compute = ignore: beside a CPU hog, the same trace files" \
	"$(cat "$WORK/gign1.md5")" "$(cat "$WORK/gign3.md5")"
assert_eq "gexample.f, compute = ignore: the same output in the three runs" \
	"$(norm "$WORK/virtual.gign1.out")" "$(norm "$WORK/virtual.gign3.out")"
e2e_summary
