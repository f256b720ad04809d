#!/bin/sh
# run-svg.sh BUILDDIR - golden tests of `vlpost svg`.
#
# Builds nothing: BUILDDIR must hold vlpost and tests/mktrace.  Every directory
# tests/golden/svg/<case>/ holds
#   input.txt       the traces as text (tests/tools/mktrace.c)
#   args            optional: extra options for `vlpost svg` (e.g. --partial)
#   expected.svg   the SVG file to write; absent: no .svg (nor .tmp) may be left
#   expected.err    stderr, with the trace directory written as TRACEDIR;
#                   absent: stderr must be empty
#   expected.rc     optional exit status (default 0)
# stdout must be empty.  Every .svg written must be well-formed XML: checked with
# xmllint --noout (Debian package libxml2-utils), else with python3's
# xml.dom.minidom, else not checked (a note says so).
# Prints "N passed, M failed"; exits 1 if a case failed.
# UPDATE=1 rewrites the expected files from the current output (review the diff).

B=${1:?usage: run-svg.sh BUILDDIR}
B=$(cd "$B" && pwd) || exit 2
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
golden_start
# wellformed FILE: 0 if FILE is well-formed XML (or nothing can check it)
if command -v xmllint >/dev/null; then
	wellformed() { xmllint --noout "$1"; }
elif command -v python3 >/dev/null; then
	wellformed() { python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1"; }
else
	echo "run-svg.sh: neither xmllint (apt-get install libxml2-utils) nor python3: not checking well-formedness"
	wellformed() { :; }
fi
golden_work golden

# xml_ok FILE: FILE is well-formed (else a note)
xml_ok() {
	wellformed "$1" >"$t/xml" 2>&1 && return 0
	echo "  not well-formed XML:"; tail -5 "$t/xml" | sed 's/^/    /'
	return 1
}

# run_case DIR: 0 if the case passes
run_case() {
	golden_file_case "$1" svg svg xml_ok
}

golden_loop svg input.txt
