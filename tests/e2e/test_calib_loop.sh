#!/bin/bash
# test_calib_loop.sh BUILD - calibration closes the loop: calib_mpi, run under the
# layer on a modelled machine (computation ignored), measures that machine, and
# `vlcalib fit` recovers the VMConfig it was given:
#  1. tests/e2e/mpi.ini (S = 10 us, R = 20 us, T(b) = 30 us + b * 8 us/KiB, eager
#     limit 4 KiB: larger sends last until their data are in, found by the fit): constant
#     send model 10 us, recv_delay 20 us, trans 30 us at 0 B and 8222 us at 1 MiB;
#  2. piecewise models with breakpoints at 4 KiB (send) and 64 KiB (transmission):
#     with a small penalty both breakpoints and all point values come back (to the
#     rounding of virtual times to whole ns); with the default penalty the fit may
#     merge the two nearly collinear transmission segments, but stays within 2 %;
#  3. the fitted fragment, with the [hosts] of the original, predicts the same
#     ping-pong times as the original;
#  4. a [topology] star of 4 hosts (30 us, 100 MB/s, every message eager): the
#     share_* experiments under the layer (messages of separate calls share the
#     links online) give back the star, its duplex and its bandwidth - exactly for
#     full duplex; half duplex within 2 % (the experiments' own start and reply
#     messages share the one link too).
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
PRE=""
[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload

# measure CONFIG RAW ARGS...: calib_mpi on the modelled machine CONFIG
measure() {
	local cfg=$1 raw=$2
	shift 2
	if "$BUILD/vlrun" $PRE -np 2 --vmconfig "$cfg" --trace-dir "$WORK/tr" \
		"$BUILD/calib_mpi" --only rtt,oneway,send,recv "$@" -o "$raw" > "$WORK/m.out" 2>&1; then
		ok "calib_mpi under the layer on $(basename "$cfg")"
	else
		fail "calib_mpi under the layer on $(basename "$cfg"): $(tail -3 "$WORK/m.out")"
	fi
}
# key FILE KEY: the value of KEY in a fragment
key() { sed -n "s/^$2 *= *//p" "$1"; }
# near A B TOL: |A - B| <= TOL (numbers)
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(d <= t && -d <= t) }'; }
# ns TIME: a fragment's time (ns, us, ms) in ns
ns() { awk -v v="$1" 'BEGIN { u = v; sub(/^[0-9.]+/, "", u); n = v + 0
	print (u == "us" ? n * 1e3 : u == "ms" ? n * 1e6 : u == "s" ? n * 1e9 : n) }'; }
# point MODEL I: "SIZE TIME_NS" of point I (1-based) of a model value
point() { echo "$1" | tr ',' '\n' | sed -n "${2}p" | tr -d ' ' | awk -F: '{ print $1, $2 }'; }

# ---- 1. constant delays; the eager limit 4 KiB: the sends of 64 KiB and 1 MiB
# last until their data are in (S + T(n)); the fit finds them, fits the send
# model below them and writes [mpi] eager_limit = 64KiB (the first such size
# measured: --quick measures 1 KiB, then 64 KiB) ----
measure "$HERE/mpi.ini" "$WORK/c.csv" --quick
"$BUILD/vlcalib" fit "$WORK/c.csv" -o "$WORK/c.ini" > "$WORK/c.out" 2>&1
assert_eq "vlcalib fit (constant model) exits" 0 $?
assert_eq "send_model recovered (below the rendezvous sizes)" "0:10us, 1KiB:10us" \
	"$(key "$WORK/c.ini" send_model)"
assert_eq "the rendezvous sizes found: eager_limit" "64KiB" "$(key "$WORK/c.ini" eager_limit)"
# the same machine all eager: the send model reaches 1 MiB, no [mpi] section
sed 's/^eager_limit = .*/eager_limit = 64MiB/' "$HERE/mpi.ini" > "$WORK/mpi-eager.ini"
measure "$WORK/mpi-eager.ini" "$WORK/ce.csv" --quick
"$BUILD/vlcalib" fit "$WORK/ce.csv" -o "$WORK/ce.ini" > /dev/null 2>&1
assert_eq "all eager: send_model to 1 MiB, no eager_limit" "0:10us, 1MiB:10us|" \
	"$(key "$WORK/ce.ini" send_model)|$(key "$WORK/ce.ini" eager_limit)"
assert_eq "recv_delay recovered" "20us" "$(key "$WORK/c.ini" recv_delay)"
tm=$(key "$WORK/c.ini" trans_model)
set -- $(point "$tm" 1)
assert_eq "trans_model at 0 B" "0 30us" "$1 $2"
set -- $(point "$tm" 2)
assert_eq "trans_model: second point at 1 MiB" "1MiB" "$1"
near "$(ns "$2")" 8222000 10 && ok "trans_model at 1 MiB = 30 us + 1024 * 8 us (+-10 ns): $2" ||
	fail "trans_model at 1 MiB: $2, expected 8222000ns"

# ---- 2. piecewise models ----
cat > "$WORK/pw.ini" << 'INI'
[simulation]
compute = ignore
[network]
send_model  = 0B:5us, 4KiB:9us, 1MiB:300us
trans_model = 0B:20us, 64KiB:600us, 1MiB:9ms
recv_delay  = 15us
[mpi]
eager_limit = 64MiB
ranks_per_node = 1
[hosts n]
count = 2
INI
measure "$WORK/pw.ini" "$WORK/pw.csv" --sizes 0:1MiB --min-time 1ms --max-reps 10
"$BUILD/vlcalib" fit "$WORK/pw.csv" --penalty 1e-6 -o "$WORK/pw1.ini" > /dev/null 2>&1
assert_eq "vlcalib fit --penalty 1e-6 exits" 0 $?
# check_model NAME VALUE "SIZE:TIME_NS ..." SIZE_TOL TIME_TOL
check_model() {
	local name=$1 val=$2 want=($3) stol=$4 ttol=$5 i=1 got
	got=$(echo "$val" | tr ',' '\n' | grep -c .)
	assert_eq "$name: points" "${#want[@]}" "$got"
	for w in "${want[@]}"; do
		set -- $(point "$val" $i)
		local s=$1 t=$2
		s=$(awk -v v="$s" 'BEGIN { n = v + 0; print v ~ /KiB$/ ? n * 1024 : v ~ /MiB$/ ? n * 1048576 : n }')
		if near "$s" "${w%%:*}" "$stol" && near "$(ns "$t")" "${w##*:}" "$ttol"; then
			ok "$name point $i: $s B, $t"
		else
			fail "$name point $i: got $s B, $t; expected ${w%%:*} B, ${w##*:} ns"
		fi
		i=$((i + 1))
	done
}
check_model "send_model (small penalty)" "$(key "$WORK/pw1.ini" send_model)" \
	"0:5000 4096:9000 1048576:300000" 4 2
check_model "trans_model (small penalty)" "$(key "$WORK/pw1.ini" trans_model)" \
	"0:20000 65536:600000 1048576:9000000" 8 60
assert_eq "recv_delay (piecewise machine)" "15us" "$(key "$WORK/pw1.ini" recv_delay)"
"$BUILD/vlcalib" fit "$WORK/pw.csv" -o "$WORK/pw2.ini" > "$WORK/pw2.out" 2>&1
maxerr=$(awk '$2 ~ /^trans_model/ && $3 == "max_error" { print $4 }' "$WORK/pw2.out")
near "$maxerr" 0 2 && ok "default penalty: one-way error within 2 % ($maxerr %)" ||
	fail "default penalty: one-way max error $maxerr %"

# ---- 3. the fitted machine predicts what the original does ----
{ cat "$WORK/pw1.ini"; printf '[simulation]\ncompute = ignore\n[mpi]\neager_limit = 64MiB\nranks_per_node = 1\n[hosts n]\ncount = 2\n'; } |
	sed 's/^\[network intra\]/[network]/' > "$WORK/fitted.ini"
if "$BUILD/vlconfig" "$WORK/fitted.ini" > /dev/null 2>&1; then ok "fitted fragment + hosts: vlconfig accepts it"; else
	fail "vlconfig rejects the fitted fragment: $("$BUILD/vlconfig" "$WORK/fitted.ini" 2>&1)"; fi
for cfg in pw fitted; do
	"$BUILD/vlrun" $PRE -np 2 --vmconfig "$WORK/$cfg.ini" --trace-dir "$WORK/tr" \
		"$BUILD/samples/mpi/pingpong.v" -n 2 100 10000 500000 > "$WORK/$cfg.pp" 2>&1 ||
		fail "pingpong on $cfg.ini: $(tail -3 "$WORK/$cfg.pp")"
done
if paste "$WORK/pw.pp" "$WORK/fitted.pp" | awk '{ for (i = 1; i <= NF / 2; i++) {
	a = $i + 0; b = $(i + NF / 2) + 0
	if ($i ~ /^[0-9.e+-]+$/ && a > 0 && (a - b > a * 1e-4 || b - a > a * 1e-4)) bad = 1 } }
	END { exit bad }'; then
	ok "ping-pong on the fitted VMConfig = on the original (within 0.01 %)"
else
	fail "ping-pong differs: $(paste "$WORK/pw.pp" "$WORK/fitted.pp" | head -5)"
fi

# ---- 4. a star's links: vlcalib's sharing experiments under the layer ----
for d in full half; do
	printf '[simulation]\ncompute = ignore\n[network inter]\ntrans_delay = 30us\nbandwidth = 100MB/s\n[network intra]\ntrans_delay = 1us\n[mpi]\neager_limit = 64MiB\nranks_per_node = 1\n[hosts n]\ncount = 4\n[topology]\nkind = star\nduplex = %s\n' \
		"$d" > "$WORK/star-$d.ini"
	if "$BUILD/vlrun" $PRE -np 4 --vmconfig "$WORK/star-$d.ini" --trace-dir "$WORK/tr" \
		"$BUILD/calib_mpi" --only rtt,oneway,send,recv,share --quick -o "$WORK/s$d.csv" \
		> "$WORK/s$d.out" 2>&1; then
		ok "calib_mpi -np 4 with the sharing experiments under the layer on a $d-duplex star"
	else
		fail "calib_mpi on star-$d.ini: $(tail -3 "$WORK/s$d.out")"
	fi
	"$BUILD/vlcalib" fit "$WORK/s$d.csv" -o "$WORK/s$d.ini" > /dev/null 2>&1
	assert_eq "$d-duplex star: [topology] kind and duplex recovered" "star $d" \
		"$(key "$WORK/s$d.ini" kind) $(key "$WORK/s$d.ini" duplex)"
done
assert_eq "full-duplex star: bandwidth and latency recovered exactly" "100MB/s 30us" \
	"$(key "$WORK/sfull.ini" bandwidth) $(key "$WORK/sfull.ini" latency)"
bw=$(key "$WORK/shalf.ini" bandwidth)
near "${bw%MB/s}" 100 2 && ok "half-duplex star: bandwidth within 2 % ($bw)" ||
	fail "half-duplex star: bandwidth $bw, not 100MB/s"
e2e_summary
