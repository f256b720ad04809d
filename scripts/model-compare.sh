#!/bin/bash
# model-compare.sh BUILD [VMCONFIG] [OUTDIR] - the analytic models beside vlayer.
#
# For the samples that the reference papers describe (samples/mpi/), prints the
# prediction of vlayer (the program run under the layer on VMCONFIG, default
# vmconfig/vienna.ini) beside the prediction of the paper's model, whose machine
# parameters come from calibrating the same modelled machine:
#  1. calibration: build/calib_mpi runs under the layer on VMCONFIG (2 ranks on
#     two nodes) and `vlcalib fit --csv` gives the
#     inter-node Hockney bandwidth r_inf (the speed-up model's b_c), the BSP g and
#     L (BSPWB/MPM) and MSGSETUP/ALCBW (the PC-cluster model);
#  2. scalar product and Cannon (002, speed-up model): vlayer's S(p) = T(1)/T(p)
#     beside `vlmodel speedup` with l_peak = #op / T(1) (the rate vlayer measured
#     for one task: the model's l_peak);
#  3. FFT and PSRS (003): `vlmodel bsp --trace` on the run's trace: BSPWB and MPM
#     beside vlayer's predicted time;
#  4. ray-tracing pipeline (004): vlayer's time per frame beside eq. 18 for the
#     display (#MSG x MSGSETUP + DVOL / ALCBW per frame, with MSGSETUP and ALCBW
#     from eqs. 16-17) plus the tracers' computation per frame (from the trace).
#     Eq. 18 adds every message's whole latency; vlayer overlaps the transmission
#     of one message with the sending of the next, so the pipeline runs faster.
# Writes everything into OUTDIR (default model-compare-out/); about 20 s.
# Environment: NP_LIST (default "1 2 4"), QUICK=1 (smaller problems).
set -u
B=$(cd "${1:?usage: model-compare.sh BUILD [VMCONFIG] [OUTDIR]}" && pwd) || exit 2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CFG=${2:-$ROOT/vmconfig/vienna.ini}
OUT=${3:-model-compare-out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
CFG=$(cd "$(dirname "$CFG")" && pwd)/$(basename "$CFG")
NP_LIST=${NP_LIST:-1 2 4}
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
PRE=""
[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload
"$B/vlconfig" "$CFG" > /dev/null || exit 2

die() { echo "model-compare: $*" >&2; exit 1; }
# vrun NAME NP ARGS...: the sample NAME.v under the layer, traces in OUT/NAME-NP
vrun() {
	local name=$1 np=$2
	shift 2
	"$B/vlrun" $PRE -np "$np" --vmconfig "$CFG" --trace-dir "$OUT/$name-$np" \
		"$B/samples/mpi/$name.v" "$@" > "$OUT/$name-$np.out" 2>&1 ||
		die "$name on $np ranks failed: $(tail -3 "$OUT/$name-$np.out")"
	grep -q "check=ok" "$OUT/$name-$np.out" || die "$name on $np ranks: result check failed"
}
# ptime NAME NP: the time= the sample printed (its kernel alone; a trace's elapsed
# time also holds the data's generation and rank 0's sequential check)
ptime() { sed -n 's/^[a-z]*: .* time=\([0-9.e+-]*\) s.*/\1/p' "$OUT/$1-$2.out" | head -1; }
# elapsed DIR: vlayer's predicted elapsed time (s) of a trace directory
elapsed() { "$B/vlpost" stats --brief "$1" | sed -n 's/^predicted elapsed time: \([0-9.e+-]*\) s$/\1/p'; }
# fitval LINK MODEL PARAM: a value of `vlcalib fit --csv`, in SI units (s, B/s, s/B)
fitval() {
	awk -F, -v l="$1" -v m="$2" -v p="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["link"] == l && $c["model"] == m && $c["parameter"] == p {
			u = $c["unit"]; v = $c["value"]
			f = u == "ns" || u == "ns/B" ? 1e-9 : u == "us" || u == "us/B" ? 1e-6 : u == "ms" ? 1e-3 : \
			    u == "KB/s" ? 1e3 : u == "MB/s" ? 1e6 : u == "GB/s" ? 1e9 : 1
			printf "%.10g\n", v * f; exit }' "$OUT/fit.csv"
}

echo "== model-compare: VMConfig $CFG, output in $OUT"

# ---- 1. calibrate the modelled machine ----
# two ranks on two nodes (a copy of the VMConfig with one rank per node): the
# inter-node link, on which the samples' messages mostly travel; every size
# eager (a rendezvous send lasts until its data are in, S + T(n), which the
# fit cannot split: README, Known limits)
{ cat "$CFG"; printf '\n[mpi]\nranks_per_node = 1\neager_limit = 64MiB\n'; } > "$OUT/calib.ini"
"$B/vlrun" $PRE -np 2 --vmconfig "$OUT/calib.ini" --trace-dir "$OUT/calib" "$B/calib_mpi" --quick \
	--ranks-per-node 1 -o "$OUT/calib.csv" > "$OUT/calib.out" 2>&1 ||
	die "calib_mpi under the layer: $(tail -3 "$OUT/calib.out")"
"$B/vlcalib" fit --csv "$OUT/calib.csv" > "$OUT/fit.csv" 2> "$OUT/fit.err" ||
	die "vlcalib fit: $(cat "$OUT/fit.err")"
link=inter
[ -n "$(fitval inter hockney r_inf)" ] || link=intra
bc=$(fitval $link hockney r_inf)
g=$(fitval $link "bsp(eq.11)" g)
L=$(fitval $link "bsp(eq.11)" L)
msgsetup=$(fitval $link "a2a(004)" MSGSETUP)
alcbw=$(fitval $link "a2a(004)" ALCBW)
[ -n "$bc" ] && [ -n "$g" ] && [ -n "$msgsetup" ] || die "calibration gave no $link parameters (see $OUT/fit.csv)"
printf 'calibrated (%s link): b_c = r_inf = %s B/s, BSP g = %s s/B, L = %s s, MSGSETUP = %s s, ALCBW = %s B/s\n' \
	"$link" "$bc" "$g" "$L" "$msgsetup" "$alcbw"

# ---- 2. speed-up model: scalar product and Cannon ----
# speedup NAME KERNEL N OPS ARGS...: the table for one sample
speedup() {
	local name=$1 kernel=$2 n=$3 ops=$4 t1="" p t s
	shift 4
	printf '\n%s (n = %s): vlayer against the speed-up model (002)\n' "$name" "$n"
	printf '%4s %14s %10s %10s\n' p vlayer_s S_vlayer S_model
	for p in $NP_LIST; do
		vrun "$name" "$p" "$@"
		t=$(ptime "$name" "$p")
		[ -n "$t1" ] || t1=$t
		lpeak=$(awk -v o="$ops" -v t="$t1" 'BEGIN { printf "%.6g", o / t }')
		s=$("$B/vlmodel" speedup --kernel "$kernel" --n "$n" --p "$p" --lpeak "$lpeak" \
			--bc "${bc}B/s" --csv | awk -F, '!/^#/ && $1 != "p" { print $3 }')
		printf '%4s %14s %10.3f %10.3f\n' "$p" "$t" "$(awk -v a="$t1" -v b="$t" 'BEGIN { print a / b }')" "$s"
	done
}
if [ -n "${QUICK:-}" ]; then NS=200000 NC=120 NF=16384 NP2=65536; else NS=2000000 NC=240 NF=65536 NP2=262144; fi
speedup scalarprod scalar $NS "$((2 * NS))" -n $NS
cannon_np=""
for p in $NP_LIST; do case $p in 1 | 4 | 9) cannon_np="$cannon_np $p" ;; esac; done
NP_LIST=${cannon_np:-1 4} speedup cannon matmul $NC "$((2 * NC * NC * NC))" -n $NC

# ---- 3. BSPWB and MPM: FFT and PSRS ----
printf '\nBSPWB / MPM (003) from the traces, g and L calibrated, beside vlayer (4 ranks)\n'
for s in "fft -n $NF" "psrs -n $NP2"; do
	set -- $s
	name=$1
	shift
	vrun "$name" 4 "$@"
	"$B/vlmodel" bsp --trace "$OUT/$name-4" --g "${g}s/B" --L "${L}s" --terms > "$OUT/$name-bsp.txt" 2>&1 ||
		die "vlmodel bsp on $name: $(tail -3 "$OUT/$name-bsp.txt")"
	echo "-- $name"
	sed -n '/^step /,$p' "$OUT/$name-bsp.txt"
done

# ---- 4. the ray-tracing pipeline and the PC-cluster model ----
frames=10
vrun raytrace 4 -f $frames
t=$(elapsed "$OUT/raytrace-4")
# the display (rank 0) receives 256 columns of 256 bytes per frame (samples/mpi/raytrace.c)
comm=$(awk -v s="$msgsetup" -v a="$alcbw" 'BEGIN { printf "%.6g", 256 * (s + 256 / a) }')
comp=$("$B/vlpost" stats --brief --csv "$OUT/raytrace-4" | awk -F, -v f=$frames 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["proc"] >= 2 && $c["comp_us"] > m { m = $c["comp_us"] } END { printf "%.6g", m / 1e6 / f }')
printf '\nray-tracing pipeline (4 ranks, %d frames): per frame vlayer %.6g s; model (004 eq. 18):\n' \
	$frames "$(awk -v t="$t" -v f=$frames 'BEGIN { print t / f }')"
printf '  display 256 x MSGSETUP + 65536 B / ALCBW = %s s + tracer computation %s s = %.6g s\n' \
	"$comm" "$comp" "$(awk -v a="$comm" -v b="$comp" 'BEGIN { print a + b }')"
echo "== done: $OUT"
