/* masterworker.c - PVM master/worker with dynamic load balancing (a vlayer sample).
 *
 *   masterworker [-w WORKERS] [-j JOBS] [-s WORK]
 * The master spawns WORKERS copies of itself and hands out JOBS jobs one at a
 * time: a worker that returns a result gets the next job.  Job j costs
 * WORK * (1 + j % 4) iterations of a floating-point kernel and sends back 1 KiB.
 * Prints the sum of all results (identical native and virtual) and the
 * elapsed time from gettimeofday() (virtual time under vlayer).
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define TAG_JOB 11
#define TAG_RESULT 12
#define RESULT_DOUBLES 128

static double kernel(int job, long iters)
{
	double x = job, s = 0;
	long i;
	for (i = 0; i < iters; i++) {
		x = x * 1.0000001 + 0.5;
		if (x > 1e6)
			x -= 1e6;
		s += x * 1e-9;
	}
	return s;
}

static void worker(void)
{
	int parent = pvm_parent(), job;
	long work;
	double res[RESULT_DOUBLES];

	for (;;) {
		pvm_recv(parent, TAG_JOB);
		pvm_upkint(&job, 1, 1);
		pvm_upklong(&work, 1, 1);
		if (job < 0)
			break;
		memset(res, 0, sizeof res);
		res[0] = kernel(job, work * (1 + job % 4));
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&job, 1, 1);
		pvm_pkdouble(res, RESULT_DOUBLES, 1);
		pvm_send(parent, TAG_RESULT);
	}
}

static void give(int tid, int job, long work)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&job, 1, 1);
	pvm_pklong(&work, 1, 1);
	pvm_send(tid, TAG_JOB);
}

int main(int argc, char **argv)
{
	int nw = 4, jobs = 40, opt, tids[64], i, next = 0, done = 0, job, bufid, bytes, tag, src;
	long work = 200000;
	double res[RESULT_DOUBLES], sum = 0;
	char self[4096], *cargv[] = { "-worker", NULL };
	struct timeval t0, t1;
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "-worker")) {
		pvm_mytid();
		worker();
		pvm_exit();
		return 0;
	}
	while ((opt = getopt(argc, argv, "w:j:s:")) != -1) {
		if (opt == 'w')
			nw = atoi(optarg);
		else if (opt == 'j')
			jobs = atoi(optarg);
		else if (opt == 's')
			work = atol(optarg);
		else {
			fprintf(stderr, "usage: masterworker [-w WORKERS] [-j JOBS] [-s WORK]\n");
			return 2;
		}
	}
	if (nw < 1 || nw > 64 || jobs < 0 || work < 0) {
		fprintf(stderr, "masterworker: 1 <= WORKERS <= 64, JOBS >= 0, WORK >= 0\n");
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0 || pvm_mytid() < 0)
		return 1;
	self[n] = 0;
	gettimeofday(&t0, NULL);
	if (pvm_spawn(self, cargv, PvmTaskDefault, "", nw, tids) != nw) {
		fprintf(stderr, "masterworker: cannot spawn %d workers\n", nw);
		pvm_exit();
		return 1;
	}
	for (i = 0; i < nw; i++)
		give(tids[i], next < jobs ? next++ : -1, work);
	while (done < jobs) {
		bufid = pvm_recv(-1, TAG_RESULT);
		pvm_bufinfo(bufid, &bytes, &tag, &src);
		pvm_upkint(&job, 1, 1);
		pvm_upkdouble(res, RESULT_DOUBLES, 1);
		sum += res[0];
		done++;
		give(src, next < jobs ? next++ : -1, work);
	}
	gettimeofday(&t1, NULL);
	printf("jobs %d workers %d sum %.6f\n", jobs, nw, sum);
	printf("elapsed %.6f s\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_usec - t0.tv_usec) * 1e-6);
	pvm_exit();
	return 0;
}
