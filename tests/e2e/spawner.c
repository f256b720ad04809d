/* spawner.c - spawn N copies of a PVM program and wait until all have exited
 * (for SPMD programs such as pvm-examples' spmd, which must be spawned).
 *   spawner N PROGRAM
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int n, tids[64], got, i;

	if (argc != 3 || (n = atoi(argv[1])) < 1 || n > 64) {
		fprintf(stderr, "usage: spawner N PROGRAM\n");
		return 2;
	}
	pvm_mytid();
	got = pvm_spawn(argv[2], NULL, PvmTaskDefault, "", n, tids);
	if (got != n) {
		fprintf(stderr, "spawner: spawned %d of %d\n", got, n);
		pvm_exit();
		return 1;
	}
	pvm_notify(PvmTaskExit, 99, n, tids);
	for (i = 0; i < n; i++)
		pvm_recv(-1, 99);
	pvm_exit();
	return 0;
}
