#!/bin/bash
# test_model_compare.sh BUILD - scripts/model-compare.sh (the analytic models beside
# vlayer on the samples, machine parameters from calibrating the modelled machine)
# on vmconfig/vienna.ini with small problems: it ends; the calibrated inter-node
# bandwidth is Vienna's (the one-way model's slope above 64 KiB: 983040 B in
# 109.2 ms = 9.0 MB/s, within 2 %); the speed-up model's S(1) = vlayer's S(1) = 1
# and S(4) <= 4; BSPWB for the FFT, whose M-steps are taken from the same trace,
# within 10 % of vlayer's prediction.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
out=$(QUICK=1 NP_LIST="1 4" "$ROOT/scripts/model-compare.sh" "$BUILD" "$ROOT/vmconfig/vienna.ini" "$WORK/mc" 2>&1)
rc=$?
assert_eq "model-compare.sh exits" 0 $rc
[ $rc = 0 ] || echo "$out" | tail -10
echo "$out" | grep -q "^== done" && ok "model-compare.sh ran to the end" || fail "no '== done' line"
bc=$(echo "$out" | sed -n 's/^calibrated (inter link): b_c = r_inf = \([0-9.e+]*\) B\/s.*/\1/p')
awk -v b="$bc" 'BEGIN { exit !(b > 0.98 * 983040 / 0.1092 && b < 1.02 * 983040 / 0.1092) }' &&
	ok "calibrated b_c = Vienna's inter-node bandwidth ($bc B/s)" || fail "calibrated b_c '$bc'"
# the rows "p vlayer_s S_vlayer S_model" of the two speed-up tables
rows=$(echo "$out" | awk '/against the speed-up model/ { t = 1; next } t && $1 ~ /^[0-9]+$/ && NF == 4 { print $1, $3, $4 }')
assert_eq "speed-up tables: rows p = 1 and 4, twice" "1 4 1 4" "$(echo "$rows" | awk '{ printf "%s%s", s, $1; s = " " }')"
assert_eq "S(1) = 1 for vlayer and model" "1.000 1.000 1.000 1.000" \
	"$(echo "$rows" | awk '$1 == 1 { printf "%s%s %s", s, $2, $3; s = " " }')"
echo "$rows" | awk '$1 == 4 && ($2 <= 0 || $2 > 4.001 || $3 <= 0 || $3 > 4.001) { bad = 1 } END { exit bad }' &&
	ok "S(4) in (0, 4] for vlayer and model" || fail "S(4): $rows"
err=$(echo "$out" | awk '/^-- fft/ { f = 1 } f && /^vlayer:/ { sub(/.*BSPWB /, ""); sub(/ %.*/, ""); print; exit }')
awk -v e="$err" 'BEGIN { exit !(e != "" && e > -10 && e < 10) }' &&
	ok "FFT: BSPWB within 10 % of vlayer ($err %)" || fail "FFT: BSPWB error '$err' %"
# the BSP tables print their rows: FFT 2 M-steps, PSRS 9 (barrier, scatter, ..., end)
assert_eq "FFT: the table's M-steps" "1 2" \
	"$(echo "$out" | awk '/^-- fft/ { f = 1; next } /^-- / { f = 0 } f && $1 ~ /^[0-9]+$/ { printf "%s%s", s, $1; s = " " }')"
assert_eq "PSRS: the table's M-steps" "1 2 3 4 5 6 7 8 9" \
	"$(echo "$out" | awk '/^-- psrs/ { f = 1; next } /^-- |^$/ && f > 1 { f = 0 } f && $1 ~ /^[0-9]+$/ { f = 2; printf "%s%s", s, $1; s = " " }')"
echo "$out" | grep -q "^  display .* = [0-9.e-]* s$" && ok "ray tracer: the eq. 18 estimate is printed" ||
	fail "ray tracer line missing"
e2e_summary
