#!/bin/sh
# run-paje.sh BUILDDIR - golden tests of `vlpost paje`.
#
# Builds nothing: BUILDDIR must hold vlpost and tests/mktrace.  Every directory
# tests/golden/paje/<case>/ holds
#   input.txt       the traces as text (tests/tools/mktrace.c)
#   args            optional: extra options for `vlpost paje` (e.g. --partial)
#   expected.paje   the Pajé file to write; absent: no .paje (nor .tmp) may be left
#   expected.err    stderr, with the trace directory written as TRACEDIR;
#                   absent: stderr must be empty
#   expected.rc     optional exit status (default 0)
# stdout must be empty.  Every .paje written is also read with pj_dump (Debian
# package pajeng), which must exit 0; without pj_dump that check is skipped.
# Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-paje.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
golden_start
PJDUMP=$(command -v pj_dump)
[ -n "$PJDUMP" ] || echo "run-paje.sh: pj_dump not found (apt-get install pajeng): not checking with it"
golden_work golden

# pj_ok FILE: pj_dump reads FILE (or is not installed)
pj_ok() {
	[ -z "$PJDUMP" ] || "$PJDUMP" "$1" >"$t/dump" 2>&1 && return 0
	echo "  pj_dump failed:"; tail -5 "$t/dump" | sed 's/^/    /'
	return 1
}

# run_case DIR: 0 if the case passes
run_case() {
	golden_file_case "$1" paje paje pj_ok
}

golden_loop paje input.txt
