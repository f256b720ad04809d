#!/bin/bash
# test_svg.sh BUILD - `vlpost svg` on a real MPI run (build/samples/mpi/ring.v -n 3
# under vlrun -np 4), rendered by headless Chromium (Debian package chromium).
# Checks: vlpost svg exits 0; the SVG is well-formed XML (xmllint if installed);
# one row per task (4); exactly as many message lines as messages received
# (vlpost stats --brief --csv, column msgs_recv); Chromium renders it to a PNG clearly
# larger than the PNG of a blank page rendered the same way (a blank picture
# compresses to almost nothing).  Without chromium the test fails.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
PRE=""
[ -n "${VL_SANITIZED:-}" ] && PRE=--no-preload
CHROMIUM=$(command -v chromium || command -v chromium-browser)
if [ -z "$CHROMIUM" ]; then
	echo "test_svg.sh: chromium not found (apt-get install chromium)"
	exit 1
fi

# shot SVG_OR_HTML PNG: render with headless Chromium, 1200x800
shot() {
	"$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$WORK/chromium" --screenshot="$2" --window-size=1200,800 \
		"file://$1" >"$WORK/chromium.log" 2>&1
}

if ! "$BUILD/vlrun" $PRE -np 4 --vmconfig "$HERE/mpi.ini" --trace-dir "$WORK/ring" \
	"$BUILD/samples/mpi/ring.v" -n 3 >"$WORK/ring.out" 2>&1; then
	fail "ring.v under vlrun: $(tail -3 "$WORK/ring.out")"
	e2e_summary
	exit
fi
if ! "$BUILD/vlpost" svg -o "$WORK/ring.svg" "$WORK/ring" 2>"$WORK/svg.err"; then
	fail "vlpost svg: $(head -3 "$WORK/svg.err")"
	e2e_summary
	exit
fi
ok "vlpost svg"
if command -v xmllint >/dev/null; then
	xmllint --noout "$WORK/ring.svg" 2>"$WORK/xml.err" && ok "well-formed XML" ||
		fail "not well-formed: $(head -3 "$WORK/xml.err")"
fi

"$BUILD/vlpost" stats --brief --csv "$WORK/ring" >"$WORK/ring.csv" 2>/dev/null
msgs=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "msgs_recv") c = i; next }
	{ n += $c } END { print n + 0 }' "$WORK/ring.csv")
[ "$msgs" -gt 0 ] || fail "no messages in the run"
assert_eq "message lines = messages received" "$msgs" "$(grep -c '<line class="m" ' "$WORK/ring.svg")"
assert_eq "rows" 4 "$(grep -c '<rect class="row" x="[0-9.]*" y="[0-9]*" width="[0-9.]*" height="[0-9]*"><title>' "$WORK/ring.svg")"

printf '<!DOCTYPE html>\n<html><body style="background:#fff"></body></html>\n' >"$WORK/blank.html"
t0=$(date +%s)
if shot "$WORK/ring.svg" "$WORK/ring.png" && [ -s "$WORK/ring.png" ]; then
	ok "chromium renders the SVG ($(($(date +%s) - t0)) s)"
	if shot "$WORK/blank.html" "$WORK/blank.png" && [ -s "$WORK/blank.png" ]; then
		full=$(wc -c <"$WORK/ring.png")
		blank=$(wc -c <"$WORK/blank.png")
		if [ "$full" -gt $((blank * 4 + 4000)) ]; then
			ok "the picture is not empty ($full bytes, blank page $blank bytes)"
		else
			fail "the picture looks empty: $full bytes, blank page $blank bytes"
		fi
	else
		fail "chromium could not render a blank page: $(tail -3 "$WORK/chromium.log")"
	fi
else
	fail "chromium: $(tail -3 "$WORK/chromium.log")"
fi
e2e_summary
