/* pvmcoll.c - the collectives of bench/cluster.sh written with PVM's
 * point-to-point calls over direct routes, one task per host: the task
 * started from the shell spawns the others (task i on host HOSTi, i = 2..N
 * with the default prefix "vlc"), then REPS + 1 repetitions (the first warms
 * up) of KIND on BYTES, each after a synchronisation (the tasks report to
 * task 0, which releases them).  Each task times its part with
 * clock_gettime (virtual time under vlayer); task 0 prints
 * "KIND BYTES least median" over the repetitions of the slowest task's time.
 *   pingpong   task 0 -> 1 -> 0, half the round trip
 *   bcast      binomial tree from task 0 (a parent sends to its farthest
 *              child first: 0 -> 2, 0 -> 1, 2 -> 3 at 4 tasks)
 *   allreduce  recursive doubling of doubles (send to the partner, receive
 *              its vector, add); N a power of 2
 *   alltoall   pairwise: in step k = 1..N-1 send to (i + k) mod N, receive
 *              from (i - k) mod N
 *   fanout     task 0 sends BYTES to each other task, in turn (they share
 *              its link)
 *   fanin      every other task sends BYTES to task 0 at once (they share
 *              task 0's link); task 0 receives them in the order of the tasks
 * Built natively (cc pvmcoll.c -lpvm3) for the measurement and with vlcc for
 * the prediction: the source is the same.
 *
 *   pvmcoll KIND BYTES REPS [NTASKS [HOSTPREFIX]]
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TAG_TIDS 41
#define TAG_SYNC 42
#define TAG_GO 43
#define TAG_DATA 44
#define TAG_TIME 45
#define MAXT 64

static int ntask, me, tids[MAXT];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void send_bytes(int to, const char *b, int n)
{
	pvm_initsend(PvmDataRaw);
	pvm_pkbyte((char *)b, n, 1);
	pvm_send(tids[to], TAG_DATA);
}

static void recv_bytes(int from, char *b, int n)
{
	pvm_recv(tids[from], TAG_DATA);
	pvm_upkbyte(b, n, 1);
}

/* all tasks reach this point; returns the time a task's repetition starts:
 * task 0's before it releases the others (so that a delay of task 0 after
 * the release cannot hide part of the repetition), the others' on release */
static double sync_all(void)
{
	double t0 = 0;
	int i;

	if (me == 0) {
		for (i = 1; i < ntask; i++)
			pvm_recv(tids[i], TAG_SYNC);
		t0 = now();
		for (i = 1; i < ntask; i++) {
			pvm_initsend(PvmDataRaw);
			pvm_send(tids[i], TAG_GO);
		}
	} else {
		pvm_initsend(PvmDataRaw);
		pvm_send(tids[0], TAG_SYNC);
		pvm_recv(tids[0], TAG_GO);
		t0 = now();
	}
	return t0;
}

static void bcast(char *b, int n)
{
	int mask = 1, k;

	while (mask < ntask)
		mask <<= 1;
	/* receive from the parent: me minus its lowest set bit */
	if (me != 0)
		recv_bytes(me & (me - 1), b, n);
	for (k = mask >> 1; k > 0; k >>= 1) /* farthest child first */
		if ((me == 0 || k < (me & -me)) && me + k < ntask)
			send_bytes(me + k, b, n);
}

static void allreduce(char *s, char *r, int n)
{
	double *a = (double *)s, *x = (double *)r;
	int k, i, m = n / (int)sizeof(double);

	for (k = 1; k < ntask; k <<= 1) {
		send_bytes(me ^ k, s, n);
		recv_bytes(me ^ k, r, n);
		for (i = 0; i < m; i++)
			a[i] += x[i];
	}
}

static void alltoall(char *s, char *r, int n)
{
	int k;

	for (k = 1; k < ntask; k++) {
		send_bytes((me + k) % ntask, s + (size_t)n * (size_t)((me + k) % ntask), n);
		recv_bytes((me - k + ntask) % ntask, r + (size_t)n * (size_t)((me - k + ntask) % ntask), n);
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const char *kind, *prefix;
	int n, reps, i, j;
	char *s, *r, host[64];
	double *t;

	if (argc < 4) {
		fprintf(stderr, "usage: pvmcoll pingpong|bcast|allreduce|alltoall|fanout|fanin BYTES REPS [NTASKS [HOSTPREFIX]]\n");
		return 2;
	}
	kind = argv[1];
	n = atoi(argv[2]);
	reps = atoi(argv[3]);
	ntask = argc > 4 ? atoi(argv[4]) : 4;
	prefix = argc > 5 ? argv[5] : "vlc";
	if (ntask < 2 || ntask > MAXT || n < 8 || reps < 1) {
		fprintf(stderr, "pvmcoll: bad arguments\n");
		return 2;
	}
	if (pvm_mytid() < 0)
		return 1;
	pvm_setopt(PvmRoute, PvmRouteDirect);
	if (pvm_parent() < 0 || pvm_parent() == PvmNoParent) {
		me = 0;
		tids[0] = pvm_mytid();
		for (i = 1; i < ntask; i++) {
			snprintf(host, sizeof host, "%s%d", prefix, i + 1);
			if (pvm_spawn(argv[0], argv + 1, PvmTaskHost, host, 1, &tids[i]) != 1) {
				fprintf(stderr, "pvmcoll: cannot spawn on %s (%d)\n", host, tids[i]);
				pvm_exit();
				return 1;
			}
		}
		for (i = 1; i < ntask; i++) {
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&i, 1, 1);
			pvm_pkint(tids, ntask, 1);
			pvm_send(tids[i], TAG_TIDS);
		}
	} else {
		pvm_recv(pvm_parent(), TAG_TIDS);
		pvm_upkint(&me, 1, 1);
		pvm_upkint(tids, ntask, 1);
	}
	s = calloc((size_t)n * (size_t)ntask + 8, 1);
	r = calloc((size_t)n * (size_t)ntask + 8, 1);
	t = calloc((size_t)reps + 1, sizeof *t);
	for (i = 0; i <= reps; i++) { /* repetition 0 warms up */
		double t0, dt;

		t0 = sync_all();
		if (!strcmp(kind, "pingpong")) {
			if (me == 0) {
				send_bytes(1, s, n);
				recv_bytes(1, r, n);
			} else if (me == 1) {
				recv_bytes(0, r, n);
				send_bytes(0, s, n);
			}
		} else if (!strcmp(kind, "bcast")) {
			bcast(s, n);
		} else if (!strcmp(kind, "fanout") || !strcmp(kind, "fanin")) {
			int out = !strcmp(kind, "fanout");

			for (j = 1; j < ntask; j++)
				if (me == 0 && out)
					send_bytes(j, s, n);
				else if (me == 0)
					recv_bytes(j, r, n);
			if (me != 0 && out)
				recv_bytes(0, r, n);
			else if (me != 0)
				send_bytes(0, s, n);
		} else if (!strcmp(kind, "allreduce")) {
			allreduce(s, r, n);
		} else if (!strcmp(kind, "alltoall")) {
			alltoall(s, r, n);
		} else {
			if (me == 0)
				fprintf(stderr, "pvmcoll: unknown kind %s\n", kind);
			pvm_exit();
			return 2;
		}
		dt = now() - t0;
		if (!strcmp(kind, "pingpong"))
			dt /= 2;
		if (me == 0) {
			for (j = 1; j < ntask; j++) {
				double d;

				pvm_recv(-1, TAG_TIME);
				pvm_upkdouble(&d, 1, 1);
				if (d > dt)
					dt = d;
			}
			t[i] = dt;
		} else {
			pvm_initsend(PvmDataDefault);
			pvm_pkdouble(&dt, 1, 1);
			pvm_send(tids[0], TAG_TIME);
		}
	}
	if (me == 0) {
		qsort(t + 1, (size_t)reps, sizeof *t, cmp);
		printf("%s %d %.9f %.9f\n", kind, n, t[1], t[1 + reps / 2]);
	}
	free(s);
	free(r);
	free(t);
	pvm_exit();
	return 0;
}
