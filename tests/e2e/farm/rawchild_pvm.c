/* rawchild_pvm.c - a task that does not use vlayer among ones that do: the
 * master (built with vlcc) spawns CHILD (this file built natively, without
 * the layer), which sends it one int after 300 ms of real time; the master
 * takes it with a wildcard receive, after a 10 ms virtual timeout (pvm_trecv
 * on a tag nobody sends) that the child could interrupt.  Under virtual order
 * the master must not wait for the child for ever, nor take the run for
 * deadlocked.
 *
 *   rawchild_pvm CHILD        (master)
 *   rawchild_pvm -child       (the child, built natively)
 */
#include <pvm3.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int child, x = 7;

	pvm_mytid();
	if (argc > 1 && !strcmp(argv[1], "-child")) {
		usleep(300000);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&x, 1, 1);
		pvm_send(pvm_parent(), 9);
		pvm_recv(pvm_parent(), 10); /* alive until the master is done */
		pvm_exit();
		return 0;
	}
	if (argc < 2)
		return 2;
	{
		char *cargv[] = { "-child", NULL };
		if (pvm_spawn(argv[1], cargv, PvmTaskDefault, "", 1, &child) != 1)
			return 1;
	}
	{
		struct timeval tv = { 0, 10000 };
		if (pvm_trecv(-1, 99, &tv) != 0)
			return 1;
	}
	x = 0;
	pvm_recv(-1, 9);
	pvm_upkint(&x, 1, 1);
	printf("value %d\n", x);
	pvm_initsend(PvmDataDefault);
	pvm_send(child, 10);
	pvm_exit();
	return 0;
}
