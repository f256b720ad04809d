#!/bin/bash
# test_pvm_encodings.sh BUILD - under the layer a message carries what native
# PVM gives the program, for every encoding (PvmDataDefault, PvmDataRaw,
# PvmDataInPlace: read at the send, not at packing) x route (default,
# PvmRouteDirect) x pack type (byte ... ulong), with pvm_send, pvm_psend /
# pvm_precv and pvm_mcast: encodings.c prints the same data lines natively
# and relinked (and preloaded), and every virtual time equals its closed form
# under encodings.ini.  A task that receives a layer message it cannot decode
# stops and names the receiver, the source and the tag.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
cc -Wall -Wextra -Werror -O1 -o "$WORK/encodings" "$HERE/encodings.c" -lpvm3 ||
	{ fail "native build of encodings.c"; e2e_summary; exit 1; }
VLCC_CC="${VLCC_CC:-cc}" "$BUILD/vlcc" -Wall -Wextra -Werror -O1 -o "$WORK/encodings.v" \
	"$HERE/encodings.c" -lgpvm3 -lpvm3 || { fail "build of encodings.c with vlcc"; e2e_summary; exit 1; }
pvmd_start "$WORK"
export VMCONFIG="$HERE/encodings.ini"

# run NAME CMD...: encodings.c's output in $WORK/NAME.out, its stderr in NAME.err
run() {
	local name=$1
	shift
	VLAYER_TRACE_DIR="$WORK/trace-$name" timeout 60 "$@" > "$WORK/$name.out" 2> "$WORK/$name.err"
	assert_eq "$name run: exit status" 0 $?
	grep -v '^dt ' "$WORK/$name.out" > "$WORK/$name.data"
}
run native "$WORK/encodings"
run layer "$WORK/encodings.v"
# per route: 12 types x 3 encodings, 3 big messages, 2 x 36 multicast receipts, 12 psends
assert_eq "data lines of the native run" 246 "$(wc -l < "$WORK/native.data")"

# check_lines WHAT WANT GOT: the files agree line by line; one assertion per
# group of lines (kind, route, encoding), the differing lines on failure
check_lines() {
	local g w got
	while read -r g; do
		w=$(grep "^$g " "$2")
		got=$(grep "^$g " "$3")
		if [ "$w" = "$got" ]; then
			ok "$1: $g: $(echo "$w" | wc -l) line(s)"
		else
			fail "$1: $g: expected < > got:"
			diff <(echo "$w") <(echo "$got") | head -20
		fi
	done < <(awk '{ print ($1 == "psend" ? $1 " " $2 : $1 " " $2 " " $3) }' "$2" | uniq)
	assert_eq "$1: number of lines" "$(wc -l < "$2")" "$(wc -l < "$3")"
}
check_lines "relinked as native" "$WORK/native.data" "$WORK/layer.data"
# the point of in-place: the values of the send, not of the packing (str cannot be packed in place)
assert_eq "in place, pvm_send: the values at the send (11 types x 2 routes)" 22 \
	"$(grep -c '^case [a-z]* inplace .* ok 1 ' "$WORK/layer.data")"
assert_eq "in place, pvm_mcast: the values at the send (11 types x 2 routes x 2 children)" 44 \
	"$(grep -c '^mcast [a-z]* inplace .* ok 1 ' "$WORK/layer.data")"
assert_eq "in place, 361001 bytes in 3 pieces (2 routes)" 2 \
	"$(grep -c '^big [a-z]* inplace len 361001 enc native cc 0 ok 1$' "$WORK/layer.data")"
assert_eq "pvm_precv: length in bytes, data, receive buffer kept (11 types x 2 routes)" 22 \
	"$(grep -c '^psend .* cc 0 rlen [0-9]* rtag 5 from_child 1 keeps_rbuf 1 ok 1 ' "$WORK/layer.data")"

# the virtual times (ns), from the lengths the runs print (which are native):
# the parent on a, its first child on b (inter link), the second on a (intra).
# case, big, psend: a request of 3 XDR ints (12 bytes) to the child on b and
# its answer of n bytes back, 2 (S + T + R); mcast: the sender pays S to b then
# S to a, each copy arrives T after its own send, the child's clock is then + R
sed -n 's/^dt //p' "$WORK/layer.out" > "$WORK/times"
awk 'function Tb(n) { return 100000 + n }       # 100 us + 1 ns per byte (1 GB/s)
	function Ta(n) { return 10000 + int(n / 2) } # 10 us + 0.5 ns per byte (2 GB/s), truncated
	function ex(n) { return Sb + Tb(12) + Rb + Sb + Tb(n) + Rb }
	BEGIN { Sb = 5000; Rb = 4000; Sa = 3000; Ra = 2000 }
	$1 == "case" { $6 = ex($5) }
	$1 == "big" || $1 == "psend" { $5 = ex($4) }
	$1 == "mcast" { $6 = Sb + Sa; $7 = Sb + Tb($5) + Rb; $8 = Sb + Sa + Ta($5) + Ra }
	{ print }' "$WORK/times" > "$WORK/model"
check_lines "virtual times = model" "$WORK/model" "$WORK/times"
assert_eq "time lines" 172 "$(wc -l < "$WORK/times")"

# the native binary with the layer preloaded (not in the sanitizer build)
if [ -z "${VL_SANITIZED:-}" ]; then
	run preload env LD_PRELOAD="$BUILD/libvlayer-pvm.so" "$WORK/encodings"
	check_lines "preloaded as native" "$WORK/native.data" "$WORK/preload.data"
	sed -n 's/^dt //p' "$WORK/preload.out" > "$WORK/times.preload"
	check_lines "preloaded: virtual times as relinked" "$WORK/times" "$WORK/times.preload"
fi

# a layer message the receiver cannot decode: it says so and stops (status 2)
for m in "inplace:was packed with PvmDataInPlace and sent without its data" \
	"trunc:is incomplete" "header:header is damaged"; do
	mode=${m%%:*}
	VLAYER_TRACE_DIR="$WORK/trace-forge-$mode" timeout 60 "$WORK/encodings.v" forge "$mode" \
		"$WORK/encodings" > "$WORK/forge.out" 2> "$WORK/forge.err"
	assert_eq "damaged message ($mode): exit status" 2 $?
	assert_eq "damaged message ($mode): nothing handed to the program" "" "$(cat "$WORK/forge.out")"
	named="^vlayer: t[0-9a-f]+ cannot decode the message from t[0-9a-f]+ \(tag 8, context [0-9]+\): "
	if grep -Eq "$named.*${m#*:}" "$WORK/forge.err"; then
		ok "damaged message ($mode): named: $(grep '^vlayer:' "$WORK/forge.err")"
	else
		fail "damaged message ($mode): no vlayer message naming it: $(cat "$WORK/forge.err")"
	fi
done
e2e_summary
