/* deadlock_pvm.c - a real deadlock for the virtual-order tests: the parent
 * and its child both receive from each other before sending.  vlayer must
 * report who waits for what and stop both with a non-zero status. */
#include <pvm3.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int other, x = 1;
	char *cargv[] = { "-child", NULL };

	pvm_mytid();
	if (argc > 1 && !strcmp(argv[1], "-child"))
		other = pvm_parent();
	else if (pvm_spawn(argv[0], cargv, PvmTaskDefault, "", 1, &other) != 1)
		return 1;
	pvm_recv(other, 7); /* never comes */
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&x, 1, 1);
	pvm_send(other, 7);
	pvm_exit();
	printf("no deadlock?\n");
	return 0;
}
