/* poll_pvm.c - polling under virtual order: the child computes 1 ms of
 * modelled time (vl_compute) after sleeping 200 ms of real time (past the
 * layer), then sends; the parent polls with pvm_nrecv (or pvm_probe with
 * -p) from the start.  Under virtual order the number of failed polls
 * depends on the virtual arrival only; the parent prints it with its times.
 *
 * With -s FILE: the child computes 1 ms (vl_compute), sends, then waits for
 * real until FILE exists (at most 10 s) and sends whether it saw it; the
 * parent takes both with pvm_recv(-1, 5) and makes FILE after the first.
 * It prints what the child saw - 1 only if the wildcard receive did not wait
 * for the candidate's sender - and the virtual time between the two. */
#include <pvm3.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "vlayer.h"

static double real_s(void)
{
	struct timespec ts;
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts); /* real, past the layer */
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int child, x = 42, polls = 0, b;
	char *cargv[] = { "-child", NULL };
	long long t_spawn;
	int probe = argc > 1 && !strcmp(argv[1], "-p");

	pvm_mytid();
	if (argc > 2 && !strcmp(argv[1], "-schild")) {
		double t0 = real_s();
		vl_compute(1e-3);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&x, 1, 1);
		pvm_send(pvm_parent(), 5);
		while (!(x = access(argv[2], F_OK) == 0) && real_s() - t0 < 10.0) {
			struct timespec ts = { 0, 1000000 };
			syscall(SYS_nanosleep, &ts, NULL);
		}
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&x, 1, 1);
		pvm_send(pvm_parent(), 5);
		pvm_exit();
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "-s")) {
		char *sargv[] = { "-schild", argv[2], NULL };
		long long t1;
		FILE *f;
		if (pvm_spawn(argv[0], sargv, PvmTaskDefault, "", 1, &child) != 1)
			return 1;
		pvm_recv(-1, 5);
		t1 = (long long)vl_time_ns();
		if ((f = fopen(argv[2], "w")))
			fclose(f);
		pvm_recv(-1, 5);
		pvm_upkint(&x, 1, 1);
		printf("sender saw %d after %lld\n", x, (long long)vl_time_ns() - t1);
		pvm_exit();
		return 0;
	}
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
