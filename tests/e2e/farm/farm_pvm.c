/* farm_pvm.c - a PVM task farm for the virtual-order tests: the master hands
 * JOBS jobs to WORKERS workers one at a time; a worker that returns a result
 * (pvm_recv(-1, TAG_RESULT)) gets the next job.  Every job is FLOPS of
 * modelled computation (vl_compute_flops, at the worker's host rate), or,
 * with -m, the same real loop measured.  Prints, for the test's own event
 * simulation to compare with: per worker its tid order and job count, the
 * order results came in, and the master's virtual time at the end.
 *
 * With -k K, worker K is sent job -2 first, on which it kills itself
 * (SIGKILL): the master learns it from pvm_notify and goes on without it.
 *
 * With -d, every worker first sleeps a real random time (up to 50 ms, not
 * virtualised), so that the workers start in a different real order.
 *
 *   farm_pvm [-w WORKERS] [-j JOBS] [-f FLOPS] [-m ITERS] [-k K] [-d]
 */
#include <pvm3.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "vlayer.h"
#include "spin.h"

#define TAG_JOB 21
#define TAG_RESULT 22
#define TAG_EXIT 23
#define TAG_BYE 24

static double flops = 1e6;
static long iters;


static void worker(void)
{
	int parent = pvm_parent(), job;

	for (;;) {
		pvm_recv(parent, TAG_JOB);
		pvm_upkint(&job, 1, 1);
		if (job == -2)
			raise(SIGKILL);
		if (job < 0) {
			pvm_initsend(PvmDataDefault); /* the master waits for every worker */
			pvm_send(parent, TAG_BYE);
			break;
		}
		if (iters)
			spin(iters);
		else
			vl_compute_flops(flops);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&job, 1, 1);
		pvm_send(parent, TAG_RESULT);
	}
}

static void give(int tid, int job)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&job, 1, 1);
	pvm_send(tid, TAG_JOB);
}

int main(int argc, char **argv)
{
	int nw = 4, jobs = 40, opt, kill_k = -1, delay = 0, tag, dead = -1, tids[256], count[256], i, next = 0, done = 0, job, src, b;
	char self[4096], *cargv[] = { "-worker", NULL }, order[65536] = "";
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "-worker")) {
		if (argc > 2)
			flops = atof(argv[2]);
		if (argc > 3)
			iters = atol(argv[3]);
		if (argc > 4 && atoi(argv[4])) {
			struct timespec ts = { 0, (long)(getpid() * 7919L % 50) * 1000000L };
			syscall(SYS_nanosleep, &ts, NULL); /* real, past the layer */
		}
		pvm_mytid();
		worker();
		pvm_exit();
		return 0;
	}
	while ((opt = getopt(argc, argv, "w:j:f:m:k:d")) != -1) {
		if (opt == 'd')
			delay = 1;
		if (opt == 'k')
			kill_k = atoi(optarg);
		if (opt == 'w')
			nw = atoi(optarg);
		else if (opt == 'j')
			jobs = atoi(optarg);
		else if (opt == 'f')
			flops = atof(optarg);
		else if (opt == 'm')
			iters = atol(optarg);
	}
	if (nw < 1 || nw > 256)
		return 2;
	if (pvm_mytid() < 0)
		return 1;
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return 1;
	self[n] = 0;
	{
		char fl[64], it[64], dl[8], *wargv[5];
		snprintf(fl, sizeof fl, "%.17g", flops);
		snprintf(it, sizeof it, "%ld", iters);
		snprintf(dl, sizeof dl, "%d", delay);
		wargv[0] = cargv[0];
		wargv[1] = fl;
		wargv[2] = it;
		wargv[3] = dl;
		wargv[4] = NULL;
		if (pvm_spawn(self, wargv, PvmTaskDefault, "", nw, tids) != nw) {
			fprintf(stderr, "farm: spawn failed\n");
			pvm_exit();
			return 1;
		}
	}
	if (kill_k >= 0 && kill_k < nw)
		pvm_notify(PvmTaskExit, TAG_EXIT, 1, &tids[kill_k]);
	for (i = 0; i < nw; i++) {
		count[i] = 0;
		if (i == kill_k)
			give(tids[i], -2);
		else if (next < jobs)
			give(tids[i], next++);
	}
	while (done < jobs) {
		b = pvm_recv(-1, kill_k >= 0 ? -1 : TAG_RESULT);
		pvm_bufinfo(b, NULL, &tag, &src);
		pvm_upkint(&job, 1, 1);
		if (tag == TAG_EXIT) {
			printf("worker %d gone\n", kill_k);
			dead = kill_k;
			continue;
		}
		done++;
		for (i = 0; i < nw && tids[i] != src; i++)
			;
		if (i == nw) {
			fprintf(stderr, "farm: result from an unknown task\n");
			return 1;
		}
		count[i]++;
		if (strlen(order) < sizeof order - 8)
			snprintf(order + strlen(order), sizeof order - strlen(order), "%s%d", done > 1 ? " " : "", i);
		if (next < jobs)
			give(src, next++);
	}
	printf("end %lld\n", (long long)vl_time_ns());
	for (i = 0; i < nw; i++) {
		printf("count %d %d\n", i, count[i]);
		if (i != dead)
			give(tids[i], -1);
	}
	printf("order %s\n", order);
	for (i = 0; i < nw; i++)
		if (i != dead)
			pvm_recv(-1, TAG_BYE);
	pvm_exit();
	return 0;
}
