#!/bin/bash
# test_model_samples.sh BUILD - the samples the analytic models describe
# (samples/mpi/{scalarprod,cannon,fft,psrs,raytrace}.c), natively under mpirun
# and linked with the layer (.v) under vlrun:
#  - each at p = 1, 2, 4 (the ray tracer at 3 and 4: it needs a display, a
#    terrain server and a tracer) on the Vienna cluster (vmconfig/vienna.ini):
#    the sample's own correctness check passes natively and virtually, its
#    result or checksum is the same native and virtual and for every p, the
#    traces are complete (vlpost stats) and convert to a valid .trf (vlpost
#    check), and the point-to-point messages and bytes in the traces (vlpost
#    stats --brief --csv) are what the sample's model formula says (its head comment);
#  - with computation ignored (tests/e2e/model_exact.ini: every rank on its own
#    host, every message eager, one-way time S + T(b) + R) the virtual time a
#    sample prints equals its closed form to the nanosecond: the scalar product
#    (binomial tree of sends, MPI_Reduce and MPI_Allreduce with their default
#    algorithms), Cannon and the FFT; the FFT also as an unmodified native
#    binary under vlrun (LD_PRELOAD);
#  - issue 15 (why the models and vlayer differ): the scalar product with its
#    computation charged at the hosts' flops (scalarprod -f, 1 GFlop/s) takes
#    exactly 2N/(p l_peak) + log2(p) (S + T(8) + R), and the speed-up model with
#    the latency term it lacks (vlmodel speedup --t0 60us) gives vlayer's speed-up
#    to 0.1 % (without it: above by more than 5 %); `scripts/demo.sh BUILD
#    --models` (QUICK) prints each disagreement's differing assumption with its
#    numbers, and its corrected models agree with vlayer: scalar product to
#    0.5 %, PSRS (one rank per node, h = out) and the ray-tracing pipeline (eq.
#    18 with each message at its sender's busy time) to 10 %; the BSP step tables
#    give g h and L per step (gh_s = g max h, bspwb_step_s = max w + g h + L).
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP_DIR=$(cd "$HERE/../.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
SMP=$BUILD/samples/mpi
VIENNA=$TOP_DIR/vmconfig/vienna.ini
EXACT=$HERE/model_exact.ini
# the .v programs are linked with the layer; preloading it as well is what users
# do with unmodified binaries, but not under ASan (its runtime must come first)
PRE=""
[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload

# run LABEL CMD...: sets $out; a failed exit status, a sanitizer report or a
# failed self-check is a failure
run() {
	local label=$1 rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc != 0 ]; then
		fail "$label: exit status $rc"
		echo "$out" | tail -15
	fi
	if echo "$out" | grep -q -e "ERROR: AddressSanitizer" -e "runtime error:"; then
		fail "$label: sanitizer report"
		echo "$out" | grep -A8 -e "ERROR: AddressSanitizer" -e "runtime error:" | head -20
	fi
}
# the value of KEY=VALUE in the sample's result line
field() { echo "$out" | sed -n "s/^[a-z]*: .* $1=\([^ ]*\).*/\1/p" | head -1; }
native() { run "$1 p=$2 native" mpirun -np "$2" "$SMP/$1" "${@:3}"; }
# virtual NAME P CONFIG TRACEDIR ARGS...
virtual() { run "$1 p=$2 virtual" "$BUILD/vlrun" $PRE -np "$2" --vmconfig "$3" --trace-dir "$4" "$SMP/$1.v" "${@:5}"; }
# sum of a column of vlpost stats --brief --csv (the tasks), found by its header
csvsum() {
	"$BUILD/vlpost" stats --brief --csv "$1" | awk -F, -v k="$2" \
		'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next } { s += $c } END { print s + 0 }'
}
# traces in DIR of NP tasks: complete, valid .trf
traces_ok() {
	local label=$1 dir=$2 np=$3
	assert_eq "$label: trace files" "$np" "$(ls "$dir" 2> /dev/null | grep -c '\.trc$')"
	if "$BUILD/vlpost" stats "$dir" > "$dir.stats" 2>&1 && ! grep -qi "no END\|truncated" "$dir.stats"; then
		ok "$label: traces complete (vlpost stats)"
	else
		fail "$label: traces incomplete"
		head -5 "$dir.stats"
	fi
	if "$BUILD/vlpost" trf -o "$dir.trf" "$dir" > /dev/null 2>&1 && "$BUILD/vlpost" check "$dir.trf" > /dev/null 2>&1; then
		ok "$label: .trf valid (vlpost check)"
	else
		fail "$label: .trf conversion or check"
		"$BUILD/vlpost" check "$dir.trf" 2>&1 | head -3
	fi
}
isqrt() { local q=1; while [ $(((q + 1) * (q + 1))) -le $1 ]; do q=$((q + 1)); done; echo $q; }
pow2le() { local k=1; while [ $((2 * k)) -le $1 ]; do k=$((2 * k)); done; echo $k; }
log2() { local p=$1 k=0; while [ $((1 << k)) -lt $p ]; do k=$((k + 1)); done; echo $k; }

# the model's point-to-point messages and bytes of SAMPLE at P ranks (default sizes)
N_SP=1000000
N_CANNON=240
N_FFT=65536
expect_msgs() {
	local q p2
	case $1 in
	scalarprod) echo $(($2 - 1)) ;;
	cannon) q=$(isqrt $2); echo $((2 * q * q * (q - 1))) ;;
	fft) p2=$(pow2le $2); echo $((p2 - 1)) ;;
	psrs) echo 0 ;;
	esac
}
expect_bytes() {
	local q p2
	case $1 in
	scalarprod) echo $((8 * ($2 - 1))) ;;
	cannon) q=$(isqrt $2); echo $((2 * N_CANNON * N_CANNON * (q - 1) * 8)) ;;
	fft) p2=$(pow2le $2); echo $((16 * N_FFT / 2 * $(log2 $p2))) ;;
	psrs) echo 0 ;;
	esac
}
key_of() { case $1 in scalarprod) echo result ;; *) echo checksum ;; esac; }

# ---- every sample at p = 1, 2, 4, native and on the Vienna cluster ----
for s in scalarprod cannon fft psrs; do
	key=$(key_of $s)
	first=""
	for p in 1 2 4; do
		native $s $p
		assert_eq "$s p=$p native: check" ok "$(field check)"
		nres=$(field $key)
		ntime=$(field time)
		td=$WORK/$s-$p
		virtual $s $p "$VIENNA" "$td"
		assert_eq "$s p=$p virtual: check" ok "$(field check)"
		assert_eq "$s p=$p: $key native = virtual" "$nres" "$(field $key)"
		[ -n "$first" ] || first=$nres
		assert_eq "$s p=$p: $key as at p=1" "$first" "$(field $key)"
		echo "info: $s p=$p time native ${ntime} s, virtual (vienna.ini) $(field time) s"
		traces_ok "$s p=$p" "$td" $p
		assert_eq "$s p=$p: messages in the traces = model" "$(expect_msgs $s $p)" "$(csvsum "$td" msgs_sent)"
		assert_eq "$s p=$p: bytes in the traces = model" "$(expect_bytes $s $p)" "$(csvsum "$td" bytes_sent)"
	done
done
# PSRS with collectives: a barrier and one collective per M-step on every rank
# (the begin records of the .trf, -3 and a code other than -901 task start)
for r in 0 1 2 3; do
	assert_eq "psrs p=4 coll: collective operations of rank $r" 8 \
		"$(awk -v r=$r '$1 == -3 && $2 != -901 && $4 == r' "$WORK/psrs-4.trf" | wc -l)"
done
# PSRS with the same M-steps as messages: (P-1)(2P+5)
virtual psrs 4 "$VIENNA" "$WORK/psrs-p2p" -c p2p
assert_eq "psrs p=4 p2p: check" ok "$(field check)"
assert_eq "psrs p=4 p2p: checksum as with collectives" "$first" "$(field checksum)"
assert_eq "psrs p=4 p2p: messages in the traces = (P-1)(2P+5)" 39 "$(csvsum "$WORK/psrs-p2p" msgs_sent)"

# ---- the ray-tracing pipeline: display, terrain server, P-2 tracers ----
first=""
for p in 3 4; do
	native raytrace $p
	assert_eq "raytrace p=$p native: check" ok "$(field check)"
	nres=$(field checksum)
	ntime=$(field time)
	td=$WORK/raytrace-$p
	virtual raytrace $p "$VIENNA" "$td"
	assert_eq "raytrace p=$p virtual: check" ok "$(field check)"
	assert_eq "raytrace p=$p: checksum native = virtual" "$nres" "$(field checksum)"
	[ -n "$first" ] || first=$nres
	assert_eq "raytrace p=$p: checksum as at p=3" "$first" "$(field checksum)"
	echo "info: raytrace p=$p time native ${ntime} s, virtual (vienna.ini) $(field time) s"
	traces_ok "raytrace p=$p" "$td" $p
	# 2 terrain updates of 256 blocks of 1 KiB to each tracer, 10 frames of 256 columns
	t=$((p - 2))
	assert_eq "raytrace p=$p: messages = 2 T 256 + 10 x 256" $((2 * t * 256 + 2560)) "$(csvsum "$td" msgs_sent)"
	assert_eq "raytrace p=$p: bytes = 2 T 512^2 + 10 x 256^2" $((2 * t * 262144 + 655360)) "$(csvsum "$td" bytes_sent)"
done
assert_eq "raytrace on 2 ranks: usage error" 2 "$(mpirun -np 2 "$SMP/raytrace" > /dev/null 2>&1; echo $?)"

# ---- exact virtual times, computation ignored: S + T(b) + R per message ----
S=10000
R=20000
T() { echo $((30000 + $1 * 8000000 / 1024000)); }
sec() { awk -v ns="$1" 'BEGIN { printf "%.9f", ns / 1e9 }'; }
X8=$((S + $(T 8) + R))
for p in 2 4; do
	virtual scalarprod $p "$EXACT" "$WORK/x-sp"
	assert_eq "scalarprod tree p=$p: time = log2(p) (S + T(8) + R)" "$(sec $(($(log2 $p) * X8)))" "$(field time)"
done
for alg in reduce allreduce; do
	virtual scalarprod 4 "$EXACT" "$WORK/x-sp" -r $alg
	assert_eq "scalarprod $alg p=4 (binomial / recursive doubling): time = 2 (S + T(8) + R)" \
		"$(sec $((2 * X8)))" "$(field time)"
	assert_eq "scalarprod $alg p=4: no point-to-point messages" 0 "$(csvsum "$WORK/x-sp" msgs_sent)"
done
for p in 4 9; do
	q=$(isqrt $p)
	m=$((N_CANNON / q))
	virtual cannon $p "$EXACT" "$WORK/x-cannon"
	assert_eq "cannon p=$p: time = 2 (q-1) (S + T(8 (n/q)^2) + R)" \
		"$(sec $((2 * (q - 1) * (S + $(T $((8 * m * m))) + R))))" "$(field time)"
	assert_eq "cannon p=$p: messages = 2 q^2 (q-1)" $((2 * q * q * (q - 1))) "$(csvsum "$WORK/x-cannon" msgs_sent)"
done
virtual cannon 4 "$EXACT" "$WORK/x-cannon" -a
assert_eq "cannon -a p=4: check" ok "$(field check)"
assert_eq "cannon -a p=4: messages = 2 q^2 (q-1) + 2 q (q-1)" 12 "$(csvsum "$WORK/x-cannon" msgs_sent)"
fft_time() {
	local p=$1 i e=0
	for ((i = 0; (1 << i) < p; i++)); do
		e=$((e + S + $(T $((16 * N_FFT * (1 << i) / p))) + R))
	done
	sec $e
}
for p in 2 4; do
	virtual fft $p "$EXACT" "$WORK/x-fft"
	assert_eq "fft p=$p: time = sum over i of (S + T(16 N 2^i / p) + R)" "$(fft_time $p)" "$(field time)"
done
# the native binary, unmodified, with the layer by LD_PRELOAD
if [ -z "${VL_SANITIZED:-}" ]; then
	run "fft p=4 native binary under vlrun" "$BUILD/vlrun" -np 4 --vmconfig "$EXACT" --trace-dir "$WORK/x-pre" "$SMP/fft"
	assert_eq "fft p=4 native binary under vlrun: time" "$(fft_time 4)" "$(field time)"
	assert_eq "fft p=4 native binary under vlrun: messages" 3 "$(csvsum "$WORK/x-pre" msgs_sent)"
fi
# ---- issue 15: the speed-up model's missing latency term (scalarprod -f) ----
FL=$WORK/exact-flops.ini
sed 's/^processors = 1$/processors = 1\nflops = 1e9/' "$EXACT" > "$FL"
declare -A SPT
for p in 1 2 4; do
	virtual scalarprod $p "$FL" "$WORK/x-spf" -f
	assert_eq "scalarprod -f p=$p: check" ok "$(field check)"
	assert_eq "scalarprod -f p=$p: time = 2N/(p 1e9) + log2(p) (S + T(8) + R)" \
		"$(sec $((2 * N_SP / p + $(log2 $p) * X8)))" "$(field time)"
	SPT[$p]=$(field time)
done
assert_eq "scalarprod -f natively: usage error" 2 "$(mpirun -np 1 "$SMP/scalarprod" -f > /dev/null 2>&1; echo $?)"
# t0 = S + T(0) + R = 60 us, b_c = 1 KiB / 8 us = 128 MB/s (model_exact.ini)
su=$("$BUILD/vlmodel" speedup --kernel scalar --n $N_SP --p 1,2,4 --lpeak 1e9 --bc 128000000B/s --t0 60us --csv)
for p in 2 4; do
	row=$(echo "$su" | awk -F, -v p=$p '!/^#/ && $1 == p')
	sv=$(awk -v a="${SPT[1]}" -v b="${SPT[$p]}" 'BEGIN { printf "%.6f", a / b }')
	st0=$(echo "$row" | cut -d, -f7)
	s002=$(echo "$row" | cut -d, -f3)
	awk -v a="$sv" -v b="$st0" 'BEGIN { exit !(b > 0 && (a - b) / b < 1e-3 && (b - a) / b < 1e-3) }' &&
		ok "speed-up p=$p: model with t0 ($st0) = vlayer ($sv) to 0.1 %" ||
		fail "speed-up p=$p: model with t0 '$st0', vlayer '$sv'"
	awk -v a="$sv" -v b="$s002" 'BEGIN { exit !(b > 1.05 * a) }' &&
		ok "speed-up p=$p: the 002 model without t0 ($s002) is above vlayer ($sv) by > 5 %" ||
		fail "speed-up p=$p: 002 model '$s002', vlayer '$sv'"
done

# ---- issue 15: the demo's explanations (scripts/demo.sh --models) ----
# (under the sanitizers vlrun cannot preload the layer: the demo calibrates the
# modelled machine with calib_mpi under LD_PRELOAD, so it is checked in the
# plain build only)
if [ -z "${VL_SANITIZED:-}" ]; then
	dm=$(QUICK=1 "$TOP_DIR/scripts/demo.sh" "$BUILD" --models "$WORK/dm" 2>&1)
	rc=$?
	assert_eq "demo.sh --models: exit status" 0 $rc
	[ $rc = 0 ] || echo "$dm" | tail -10
	t0=$(echo "$dm" | sed -n "s/.*the 002 model has no per-message latency; vienna.ini's t0 = \([0-9.]*\) us x log2(p).*/\1/p")
	awk -v t="$t0" 'BEGIN { exit !(t >= 560 && t <= 580) }' &&
		ok "demo: the 002 model's missing latency named, t0 = $t0 us (vienna.ini inter: 80 + 470 + 20 us)" ||
		fail "demo: latency line (t0 '$t0')"
	echo "$dm" | grep -q "at p = 1 the product (time=) is .* ms of .* ms,$" &&
		ok "demo: the whole run's elapsed time vs the product's named" || fail "demo: no line on the elapsed time"
	rows=$(echo "$dm" | awk '/corrected \(computation at the hosts/ { f = 1; next } f && $1 == "p" { next } f && $1 ~ /^[0-9]+$/ { print; next } f { exit }')
	assert_eq "demo: corrected speed-up table rows" "1 2 4" "$(echo "$rows" | awk '{ printf "%s%s", s, $1; s = " " }')"
	echo "$rows" | awk '$1 > 1 { d = ($3 - $5) / $5; if (d < -0.005 || d > 0.005 || $4 < 1.1 * $3) bad = 1 } END { exit bad }' &&
		ok "demo: S_002+t0 = S_vlayer to 0.5 %, S_002 > 1.1 S_vlayer" || fail "demo: corrected speed-up: $rows"
	echo "$dm" | grep -q "no bandwidth$" && echo "$dm" | grep -q "^    limit at a receiver: the 3 blocks travel at once" &&
		ok "demo: PSRS gather: vlayer's missing receiver limit named" || fail "demo: PSRS gather line"
	err=$(echo "$dm" | sed -n 's/^    vlayer [0-9.e-]* s (error \([-0-9.]*\) %; with h = in + out.*/\1/p')
	awk -v e="$err" 'BEGIN { exit !(e != "" && e > -10 && e < 10) }' &&
		ok "demo: PSRS corrected BSPWB (one rank per node, h = out) within 10 % ($err %)" || fail "demo: PSRS corrected '$err'"
	# the step table with its terms: 9 M-steps, gh_s = g max_h, bspwb_step_s = max_w + gh + L
	tc=$WORK/dm/psrs-terms.csv
	assert_eq "demo: PSRS terms table steps" "1 2 3 4 5 6 7 8 9" \
		"$(awk -F, '!/^#/ && $1 != "step" { printf "%s%s", s, $1; s = " " }' "$tc")"
	awk -F, '/^# g:/ { g = $0; sub(/.*: /, "", g); g += 0 } /^# L:/ { L = $0; sub(/.*: /, "", L); L += 0 } /^#/ || $1 == "step" { next }
		{ c = $4 > 0 || $2 != "end"; e = c ? g * $4 : 0; l = c ? L : 0
		  if ((e == 0 ? $5 != 0 : ($5 - e) / e > 1e-6 || (e - $5) / e > 1e-6) || $6 + 0 != l ||
		      ($7 - ($3 + $5 + $6) > 1e-9 || ($3 + $5 + $6) - $7 > 1e-9)) bad = 1 } END { exit bad }' "$tc" &&
		ok "demo: PSRS terms: gh_s = g max_h, L_s = L, bspwb_step_s = max_w + gh_s + L_s" || fail "demo: PSRS terms table"
	assert_eq "demo: FFT M-steps by phase" "1 2 3 4" \
		"$(echo "$dm" | awk '/^-- FFT/ { f = 1; next } /^-- / { f = 0 } f && $1 ~ /^[0-9]+$/ { printf "%s%s", s, $1; s = " " }')"
	ms=$(echo "$dm" | sed -n 's/.*charges each of the display.s 256 columns the whole MSGSETUP = \([0-9]*\) us.*/\1/p')
	awk -v t="$ms" 'BEGIN { exit !(t >= 550 && t <= 590) }' &&
		ok "demo: eq. 18's whole MSGSETUP per message named ($ms us)" || fail "demo: MSGSETUP line '$ms'"
	err=$(echo "$dm" | sed -n 's/^    vlayer [0-9.e-]* s per frame (the sample.s time=; error \([-0-9.]*\) %)$/\1/p')
	awk -v e="$err" 'BEGIN { exit !(e != "" && e > -10 && e < 10) }' &&
		ok "demo: ray tracer corrected eq. 18 within 10 % ($err %)" || fail "demo: ray tracer corrected '$err'"
else
	echo "skipped under the sanitizers: the demo's explanations (its calibration needs LD_PRELOAD)"
fi
e2e_summary
