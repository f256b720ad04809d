#!/bin/bash
# test_examples.sh BUILD - acceptance with code nobody here wrote: the C
# examples of Debian's pvm-examples build unchanged with vlcc, print the same
# output as native runs under a real pvmd, and leave complete traces.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
TARBALL=/usr/share/doc/pvm-examples/examples.tar.gz
PROGS="hello hello_other master1 slave1 spmd timing timing_slave gexample"

mkdir -p "$WORK/src" "$WORK/native" "$WORK/virtual"
tar xzf "$TARBALL" -C "$WORK/src"
SRC="$WORK/src/examples"
for p in $PROGS; do
	# 1990s K&R code: its own warnings are not ours (-w); the source is not touched
	cc -w -O1 "$SRC/$p.c" -o "$WORK/native/$p" -lgpvm3 -lpvm3 || fail "native build of $p"
	if VLCC_CC=cc "$BUILD/vlcc" -w -O1 "$SRC/$p.c" -o "$WORK/virtual/$p" -lgpvm3 -lpvm3; then
		ok "vlcc builds $p unchanged"
	else
		fail "vlcc build of $p"
	fi
done
for m in native virtual; do
	cc -O1 "$HERE/spawner.c" -o "$WORK/$m/spawner.n" -lpvm3
done
VLCC_CC=cc "$BUILD/vlcc" -O1 "$HERE/spawner.c" -o "$WORK/virtual/spawner" -lpvm3
cp "$WORK/native/spawner.n" "$WORK/native/spawner"

# normalise what legitimately differs between two runs: task ids, times
norm() {
	sed -E -e 's/^\[[^]]*\] ?//' -e 's/t[0-9a-f]{5,8}/tTID/g' -e 's/-?[0-9]+(\.[0-9]+)?/N/g' \
		-e 's/ +/ /g' "$@" | sort
}
# for the programs whose numbers are results, compare them too
norm_keep() {
	sed -E -e 's/t[0-9a-f]{5,8}/tTID/g' -e 's/\b[0-9]{6,}\b/NUM/g' -e 's/^\[[^]]*\] ?//' "$@" | sort
}


echo > "$WORK/stdin.hello"
echo > "$WORK/stdin.master1"
echo > "$WORK/stdin.timing"
echo > "$WORK/stdin.spmd"
printf '10\n4\n' > "$WORK/stdin.gexample"
export VMCONFIG="$HERE/onehost.ini"
for t in "hello 2 hello" "master1 4 master1" "timing 2 timing" "gexample 4 gexample" "spmd 5 spawner 4 spmd"; do
	set -- $t
	name=$1 ntasks=$2
	shift 2
	prog=$1
	shift
	pvm_example_run native "$name" "$WORK/native/$prog" "$@"
	export VLAYER_TRACE_DIR="$WORK/trace.$name"
	pvm_example_run virtual "$name" "$WORK/virtual/$prog" "$@"
	unset VLAYER_TRACE_DIR
	if [ "$name" = timing ]; then
		a=$(norm "$WORK/native.$name.out")
		b=$(norm "$WORK/virtual.$name.out")
	else
		a=$(norm_keep "$WORK/native.$name.out")
		b=$(norm_keep "$WORK/virtual.$name.out")
	fi
	assert_eq "$name: exit status as native" "$(grep '^exit' "$WORK/native.$name.out")" \
		"$(grep '^exit' "$WORK/virtual.$name.out")"
	if [ "$a" = "$b" ]; then
		ok "$name: same output as native"
	else
		fail "$name: output differs from native"
		diff <(echo "$a") <(echo "$b") | head -20
	fi
	n=$(ls "$WORK/trace.$name" 2>/dev/null | grep -c '\.trc$')
	assert_eq "$name: trace files" "$ntasks" "$n"
	if "$BUILD/vlpost" stats "$WORK/trace.$name" > "$WORK/stats.$name" 2>&1 &&
		! grep -qi "no END\|truncated" "$WORK/stats.$name"; then
		ok "$name: traces complete (vlpost stats)"
	else
		fail "$name: traces incomplete"
		cat "$WORK/stats.$name"
	fi
	trf_checks "$name" "$WORK/trace.$name"
done
# the native gexample binary (groups) with the layer given by LD_PRELOAD: the
# group server inherits LD_PRELOAD and must be left alone
if [ -z "${VL_SANITIZED:-}" ]; then
	pvmd_start "$WORK/native:/usr/bin"
	(cd "$WORK" && VLAYER_TRACE_DIR="$WORK/trace.preload" LD_PRELOAD="$BUILD/libvlayer-pvm.so" \
		timeout 60 "$WORK/native/gexample" < "$WORK/stdin.gexample" > "$WORK/preload.out" 2>&1)
	assert_eq "gexample with LD_PRELOAD: exit status" 0 $?
	pvmd_stop
	assert_eq "gexample with LD_PRELOAD: results as native" \
		"$(grep -E '1-Norm|product' "$WORK/native.gexample.out" | sort | tr '\n' ' ')" \
		"$(grep -E '1-Norm|product' "$WORK/preload.out" | sort | tr '\n' ' ')"
	assert_eq "gexample with LD_PRELOAD: trace files" 4 "$(ls "$WORK/trace.preload" | grep -c '\.trc$')"
fi
e2e_summary
