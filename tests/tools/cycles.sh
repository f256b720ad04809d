#!/bin/sh
# cycles.sh OBJ... - the file-level dependency graph of a set of objects: an
# edge A -> B when A uses a symbol of the project (vl*, VL*) that B defines.
# Names the layer interposes (time(), pvm_send, MPI_Send ...) are the program's
# entry points, not dependencies between the layer's files, and are left out.  Prints every cycle's files
# (tsort's report) and exits 1 if there is one, 0 if the graph is acyclic.
set -eu
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vlcycles.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for o in "$@"; do
	nm -g --defined-only "$o" 2>/dev/null | awk -v o="$o" 'NF >= 3 && $3 ~ /^(vl|VL)/ { print $3, o }'
done | sort -u > "$tmp/def"
for o in "$@"; do
	nm -u "$o" 2>/dev/null | awk -v o="$o" '$NF ~ /^(vl|VL)/ { print $NF, o }'
done | sort -u > "$tmp/use"
# pairs "definer user" (sorted input: join on the symbol)
join "$tmp/def" "$tmp/use" | awk '$2 != $3 { print $2, $3 }' | sort -u > "$tmp/edges"
n=$(wc -l < "$tmp/edges")
if tsort "$tmp/edges" > /dev/null 2> "$tmp/err"; then
	echo "no cycle among $# files ($n dependencies)"
	exit 0
fi
echo "cycles among $# files:"
sed -n 's/^tsort: //p' "$tmp/err"
exit 1
