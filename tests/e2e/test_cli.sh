#!/bin/bash
# test_cli.sh BUILD - the command-line wrappers, and a sample asked for the
# impossible (ring on one rank: an error, not a hang).  vlrun without arguments
# shows its usage (not mpirun's error).  vlcc passes every argument to the
# compiler unchanged, as mpicc does: a define with spaces and quotes, a '*' that must not glob, file
# names with spaces; -c compiles only; -show prints a command that a shell
# reads back to the same arguments.  PVM, MPI C and MPI Fortran.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
out=$("$BUILD/vlrun" 2>&1)
assert_eq "vlrun without arguments: exit status" 2 $?
case "$out" in
"vlrun: no program to run (try --help)"*"vlrun [--vmconfig FILE]"*) ok "vlrun without arguments: its usage" ;;
*) fail "vlrun without arguments: $out" ;;
esac
D="$WORK/a dir"
mkdir -p "$D"
touch "$D/x1.c" "$D/x2.c" # what an unquoted '*' would glob to
cat > "$D/my prog.c" <<'C'
#include <stdio.h>
int main(void)
{
	printf("[%s] [%s] [%d]\n", MSG, PAT, 6 * 7);
	return 0;
}
C
args=('-DMSG="hello  world"' "-DPAT=\"$D/*.c\"")
want="[hello  world] [$D/*.c] [42]"
for mode in pvm mpi; do
	flag=""
	[ $mode = mpi ] && flag=-mpi
	rm -f "$D/a b"
	"$BUILD/vlcc" $flag "${args[@]}" "$D/my prog.c" -o "$D/a b" 2> "$WORK/cc.err"
	assert_eq "$mode: vlcc with spaces, quotes and '*' builds" 0 $?
	assert_eq "$mode: the program sees the arguments unchanged" "$want" "$("$D/a b")"
	# -show: a shell reading the command back gets the same arguments
	show=$("$BUILD/vlcc" $flag -show "${args[@]}" "$D/my prog.c" -o "$D/a b")
	eval "set -- $show"
	got=0
	for a in "$@"; do
		case "$a" in "${args[0]}" | "${args[1]}" | "$D/my prog.c" | "$D/a b") got=$((got + 1)) ;; esac
	done
	assert_eq "$mode: -show quotes so that the shell reads back every argument" 4 $got
	rm -f "$D/my prog.o"
	(cd "$D" && "$BUILD/vlcc" $flag -c "${args[@]}" "my prog.c")
	assert_eq "$mode: -c compiles only" yes "$([ -f "$D/my prog.o" ] && echo yes)"
done
# Fortran: a file name with a space
cat > "$D/f prog.f90" <<'F'
program p
  print '(a)', 'fortran ok'
end program p
F
"$BUILD/vlcc" -mpifort "$D/f prog.f90" -o "$D/f b" 2> "$WORK/fc.err"
assert_eq "mpifort: a file name with a space builds" 0 $?
assert_eq "mpifort: runs" "fortran ok" "$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$D/f b" 2>/dev/null)"
# a sample asked for what it cannot do says so instead of hanging
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(timeout 60 mpirun --oversubscribe -np 1 "$BUILD/samples/mpi/ring" 2>&1)
assert_eq "ring on 1 rank: exit status (not a hang: 124)" 2 $?
case "$out" in *"ring: needs 2 or more ranks"*) ok "ring on 1 rank: says why" ;; *) fail "ring on 1 rank: $out" ;; esac
out=$(timeout 60 "$BUILD/samples/mpi/ring" -h 2>&1)
assert_eq "ring -h: exit status" 0 $?
assert_eq "ring -h: usage" "usage: mpirun -np N ring [-n LAPS] [-s SIZE]   (N >= 2)" "$out"
e2e_summary
