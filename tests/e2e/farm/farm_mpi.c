/* farm_mpi.c - the MPI task farm of the virtual-order tests (farm_pvm.c's
 * twin): rank 0 hands JOBS jobs to the other ranks one at a time; a worker
 * that returns a result (taken with a wildcard source) gets the next job.
 * Every job is FLOPS of modelled computation (vl_compute_flops), or, with -m,
 * a real loop of ITERS measured.  Prints what farm_sim.py prints: the master's
 * virtual time when the last result is in, the jobs per worker, the order the
 * results came in.
 *
 * How the master takes a result (-r):
 *   recv    MPI_Recv(MPI_ANY_SOURCE)                      (default)
 *   probe   MPI_Probe(MPI_ANY_SOURCE), then MPI_Recv from the source probed
 *   iprobe  a polling loop of MPI_Iprobe(MPI_ANY_SOURCE), then MPI_Recv
 *   mprobe  MPI_Mprobe(MPI_ANY_SOURCE), then MPI_Mrecv
 *   waitany  an MPI_Irecv from every worker, MPI_Waitany (then a new MPI_Irecv
 *            from the worker whose result came)
 *   testany  the same, with a polling loop of MPI_Testany
 *   waitsome the same, with MPI_Waitsome (every result it returns, in order)
 *   irecv   MPI_Irecv(MPI_ANY_SOURCE), then MPI_Wait
 *   persist one persistent MPI_Recv_init(MPI_ANY_SOURCE); MPI_Start, MPI_Wait
 *   ptest   the same, with a polling loop of MPI_Test
 * With -d every worker first sleeps a real random time (up to 50 ms, not
 * virtualised); with -b BYTES results carry BYTES bytes (default: one int);
 * -e ends with an MPI_Reduce of the job counts to rank 0 (the workers wait in
 * it while the master still takes results).
 *
 *   farm_mpi [-j JOBS] [-f FLOPS] [-m ITERS] [-r HOW] [-d] [-b BYTES] [-e]
 */
#include <mpi.h>
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

static double flops = 1e6;
static long iters;
static int rbytes = 4;


static int worker(int *res)
{
	int job, mine = 0;

	for (;;) {
		MPI_Recv(&job, 1, MPI_INT, 0, TAG_JOB, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (job < 0)
			return mine;
		if (iters)
			spin(iters);
		else
			vl_compute_flops(flops);
		res[0] = job;
		MPI_Send(res, rbytes / (int)sizeof(int), MPI_INT, 0, TAG_RESULT, MPI_COMM_WORLD);
		mine++;
	}
}

/* Nonblocking receives, one per worker (-r waitany/testany/waitsome). */
static MPI_Request *rq, prq = MPI_REQUEST_NULL;
static int *rbuf, nrq, pend[256], npend;

static void post(int w)
{
	MPI_Irecv((char *)rbuf + (size_t)w * (size_t)rbytes, rbytes / (int)sizeof(int), MPI_INT, w + 1,
		  TAG_RESULT, MPI_COMM_WORLD, &rq[w]);
}

/* Take one result: returns its source. */
static int take(const char *how, int *res)
{
	MPI_Status st;
	int n = rbytes / (int)sizeof(int), flag = 0, i;

	if (!strcmp(how, "waitany") || !strcmp(how, "testany") || !strcmp(how, "waitsome")) {
		if (npend) { /* the rest of what Waitsome returned */
			i = pend[0];
			memmove(pend, pend + 1, sizeof(int) * (size_t)--npend);
			return i + 1;
		}
		if (!strcmp(how, "waitany")) {
			MPI_Waitany(nrq, rq, &i, &st);
		} else if (!strcmp(how, "testany")) {
			while (!flag)
				MPI_Testany(nrq, rq, &i, &flag, &st);
		} else {
			int idx[256], k;
			MPI_Waitsome(nrq, rq, &npend, idx, MPI_STATUSES_IGNORE);
			for (k = 0; k < npend; k++)
				pend[k] = idx[k];
			i = pend[0];
			memmove(pend, pend + 1, sizeof(int) * (size_t)--npend);
		}
		return i + 1;
	}

	if (!strcmp(how, "probe")) {
		MPI_Probe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
		MPI_Recv(res, n, MPI_INT, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
	} else if (!strcmp(how, "iprobe")) {
		while (!flag)
			MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
		MPI_Recv(res, n, MPI_INT, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
	} else if (!strcmp(how, "irecv")) {
		MPI_Request r;
		MPI_Irecv(res, n, MPI_INT, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &r);
		MPI_Wait(&r, &st);
	} else if (!strcmp(how, "persist") || !strcmp(how, "ptest")) {
		if (prq == MPI_REQUEST_NULL)
			MPI_Recv_init(res, n, MPI_INT, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &prq);
		MPI_Start(&prq);
		if (!strcmp(how, "persist"))
			MPI_Wait(&prq, &st);
		while (!flag && strcmp(how, "persist"))
			MPI_Test(&prq, &flag, &st);
	} else if (!strcmp(how, "mprobe")) {
		MPI_Message m;
		MPI_Mprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &m, &st);
		MPI_Mrecv(res, n, MPI_INT, &m, &st);
	} else {
		MPI_Recv(res, n, MPI_INT, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
	}
	return st.MPI_SOURCE;
}

int main(int argc, char **argv)
{
	int rank, size, opt, delay = 0, reduce = 0, jobs = 40, next = 0, done = 0, i, src, job;
	int count[256], *res, mine, total = 0;
	const char *how = "recv";
	char order[65536] = "";

	while ((opt = getopt(argc, argv, "j:f:m:r:db:e")) != -1) {
		if (opt == 'j')
			jobs = atoi(optarg);
		else if (opt == 'f')
			flops = atof(optarg);
		else if (opt == 'm')
			iters = atol(optarg);
		else if (opt == 'r')
			how = optarg;
		else if (opt == 'd')
			delay = 1;
		else if (opt == 'b')
			rbytes = atoi(optarg);
		else if (opt == 'e')
			reduce = 1;
	}
	if (rbytes < (int)sizeof(int))
		rbytes = sizeof(int);
	res = calloc((size_t)rbytes, 1);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2 || size > 257 || !res)
		MPI_Abort(MPI_COMM_WORLD, 2);
	if (rank > 0) {
		if (delay) {
			struct timespec ts = { 0, (long)(getpid() * 7919L % 50) * 1000000L };
			syscall(SYS_nanosleep, &ts, NULL); /* real, past the layer */
		}
		mine = worker(res);
		if (reduce)
			MPI_Reduce(&mine, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
		MPI_Finalize();
		return 0;
	}
	nrq = size - 1;
	rq = malloc(sizeof(MPI_Request) * (size_t)nrq);
	rbuf = calloc((size_t)nrq, (size_t)rbytes);
	if (!rq || !rbuf)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (i = 1; i < size; i++) {
		count[i - 1] = 0;
		rq[i - 1] = MPI_REQUEST_NULL;
		if (next < jobs) {
			job = next++;
			MPI_Send(&job, 1, MPI_INT, i, TAG_JOB, MPI_COMM_WORLD);
			if (strstr(how, "any") || strstr(how, "some"))
				post(i - 1);
		}
	}
	while (done < jobs) {
		src = take(how, res);
		done++;
		count[src - 1]++;
		if (strlen(order) < sizeof order - 8)
			snprintf(order + strlen(order), sizeof order - strlen(order), "%s%d",
				 done > 1 ? " " : "", src - 1);
		if (next < jobs) {
			job = next++;
			MPI_Send(&job, 1, MPI_INT, src, TAG_JOB, MPI_COMM_WORLD);
			if (strstr(how, "any") || strstr(how, "some"))
				post(src - 1);
		} else if (reduce) {
			job = -1; /* -e: this worker is done, it goes on to the reduce */
			MPI_Send(&job, 1, MPI_INT, src, TAG_JOB, MPI_COMM_WORLD);
		}
	}
	printf("end %lld\n", (long long)vl_time_ns());
	for (i = 1; i < size; i++) {
		printf("count %d %d\n", i - 1, count[i - 1]);
		if (!reduce || count[i - 1] == 0) {
			job = -1;
			MPI_Send(&job, 1, MPI_INT, i, TAG_JOB, MPI_COMM_WORLD);
		}
	}
	printf("order %s\n", order);
	if (prq != MPI_REQUEST_NULL)
		MPI_Request_free(&prq);
	if (reduce) {
		mine = 0;
		MPI_Reduce(&mine, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
		printf("reduce %d\n", total);
	}
	fflush(stdout);
	MPI_Finalize();
	return 0;
}
