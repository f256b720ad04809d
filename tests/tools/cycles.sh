#!/bin/sh
# cycles.sh OBJ... - the file-level dependency graph of a set of objects: an
# edge A -> B when A uses a symbol of the project (vl*, VL*) that B defines.
# Names the layer interposes (time(), pvm_send, MPI_Send ...) are the program's
# entry points, not dependencies between the layer's files, and are left out.  Prints every cycle's files
# (tsort's report) and exits 1 if there is one, 0 if the graph is acyclic.
set -eu
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vlcycles.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# one nm for all the objects (-A: each line starts with "OBJ:")
syms() {
	nm -A "$@" 2>/dev/null | awk '{ o = $1; sub(/:[^:]*$/, "", o) }
		NF >= 3 && $NF ~ /^(vl|VL)/ { print $NF, o }' | sort -u
}
syms -g --defined-only "$@" > "$tmp/def"
syms -u "$@" > "$tmp/use"
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
