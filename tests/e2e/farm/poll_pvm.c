/* poll_pvm.c - polling under virtual order: the child computes 1 ms of
 * modelled time (vl_compute) after sleeping 200 ms of real time (past the
 * layer), then sends; the parent polls with pvm_nrecv (or pvm_probe with
 * -p) from the start.  Under virtual order the number of failed polls
 * depends on the virtual arrival only; the parent prints it with its times. */
#include <pvm3.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "vlayer.h"

int main(int argc, char **argv)
{
	int child, x = 42, polls = 0, b;
	char *cargv[] = { "-child", NULL };
	long long t_spawn;
	int probe = argc > 1 && !strcmp(argv[1], "-p");

	pvm_mytid();
	if (argc > 1 && !strcmp(argv[1], "-child")) {
		struct timespec ts = { 0, 200000000 };
		syscall(SYS_nanosleep, &ts, NULL); /* real time, not virtual */
		vl_compute(1e-3);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&x, 1, 1);
		pvm_send(pvm_parent(), 5);
		pvm_exit();
		return 0;
	}
	if (pvm_spawn(argv[0], cargv, PvmTaskDefault, "", 1, &child) != 1)
		return 1;
	t_spawn = (long long)vl_time_ns();
	for (;;) {
		b = probe ? pvm_probe(-1, 5) : pvm_nrecv(-1, 5);
		if (b > 0)
			break;
		polls++;
	}
	if (probe)
		pvm_recv(-1, 5);
	x = 0;
	pvm_upkint(&x, 1, 1);
	printf("spawn %lld\npolls %d\nend %lld\nvalue %d\n", t_spawn, polls, (long long)vl_time_ns(), x);
	pvm_exit();
	return 0;
}
