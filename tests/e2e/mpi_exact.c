/* mpi_exact.c - MPI scenarios whose virtual times have closed forms
 * (tests/e2e/test_mpi.sh runs it with compute = ignore).  Prints lines
 * "T RANK LABEL NS" with virtual times from the layer, and "BAD ..." when a
 * result is numerically wrong.
 *   pingpong BYTES REPS [LATE_NS]  ranks 0,1; rank 1 computes LATE_NS before each receive
 *   ring BYTES LAPS                a token around all ranks
 *   isend BYTES                    neighbours exchange with Isend/Irecv/Waitall
 *   probe BYTES                    rank 1 polls Iprobe until rank 0's message is visible
 *   coll KIND BYTES ROOT           one collective, first thing after MPI_Init
 *   colls BYTES                    the 11 kinds one after the other (barrier, bcast,
 *                                  reduce, allreduce, gather, scatter, allgather,
 *                                  alltoall, reduce_scatter, scan, exscan; root P-1 for
 *                                  the rooted ones): "C RANK KIND ENTRY_NS EXIT_NS" each
 *   semantics                      3 ranks: wildcards, order, datatypes, communicators, ...
 *   sleep                          rank 0 sleeps 1.5 ms (usleep), 2.5 ms (nanosleep), then
 *                                  polls MPI_Iprobe with 1 ms sleeps until rank 1's message
 *                                  (sent at 10 ms of vl_compute) is visible
 *   icoll KIND BYTES ROOT LATE_NS  a nonblocking one (ibarrier, ibcast, iallreduce), then
 *                                  LATE_NS of modelled computation, then MPI_Wait / Test loop
 *   wildrdv                        3 ranks: rank 1 sends 8000 B (rendezvous) at 0, rank 2
 *                                  5000 B at 1 ms, rank 0 probes and receives from any
 *                                  source at 5 ms: MPI matches the envelopes in the
 *                                  order sent (rank 1 first), not the smaller message
 *   fortran-free: see mpi_exact_f.f90 for the Fortran program */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <vlayer.h>

static int rank, np;

static void t(const char *label)
{
	printf("T %d %s %lld\n", rank, label, (long long)vl_time_ns());
}

static void bad(const char *what)
{
	printf("BAD %d %s\n", rank, what);
}

static int pingpong(int n, int reps, double late)
{
	char *b = calloc((size_t)n + 1, 1);
	int r;
	MPI_Status st;
	int cnt;

	for (r = 0; r < reps; r++) {
		if (rank == 0) {
			memset(b, r + 1, (size_t)n);
			MPI_Send(b, n, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
			MPI_Recv(b, n, MPI_BYTE, 1, 8, MPI_COMM_WORLD, &st);
		} else if (rank == 1) {
			if (late > 0)
				vl_compute(late);
			MPI_Recv(b, n, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_BYTE, &cnt);
			if (st.MPI_SOURCE != 0 || st.MPI_TAG != 7 || cnt != n ||
			    (n > 0 && (b[0] != (char)(r + 1) || b[n - 1] != (char)(r + 1))))
				bad("pingpong status or data");
			MPI_Send(b, n, MPI_BYTE, 0, 8, MPI_COMM_WORLD);
		}
		if (rank == 0 && r == 0)
			t("first");
	}
	t("end");
	free(b);
	return 0;
}

static int ring(int n, int laps)
{
	char *b = calloc((size_t)n + 1, 1);
	int l;

	for (l = 0; l < laps; l++) {
		if (rank == 0) {
			MPI_Send(b, n, MPI_BYTE, 1 % np, l, MPI_COMM_WORLD);
			MPI_Recv(b, n, MPI_BYTE, np - 1, l, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(b, n, MPI_BYTE, rank - 1, l, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(b, n, MPI_BYTE, (rank + 1) % np, l, MPI_COMM_WORLD);
		}
	}
	t("end");
	free(b);
	return 0;
}

static int isend(int n)
{
	char *s = malloc((size_t)n + 1), *r1 = malloc((size_t)n + 1), *r2 = malloc((size_t)n + 1);
	MPI_Request rq[4];
	int right = (rank + 1) % np, left = (rank + np - 1) % np;

	memset(s, rank + 1, (size_t)n + 1);
	MPI_Irecv(r1, n, MPI_BYTE, left, 1, MPI_COMM_WORLD, &rq[0]);
	MPI_Irecv(r2, n, MPI_BYTE, right, 2, MPI_COMM_WORLD, &rq[1]);
	MPI_Isend(s, n, MPI_BYTE, right, 1, MPI_COMM_WORLD, &rq[2]);
	MPI_Isend(s, n, MPI_BYTE, left, 2, MPI_COMM_WORLD, &rq[3]);
	t("posted");
	MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
	if (n > 0 && (r1[0] != (char)(left + 1) || r2[n - 1] != (char)(right + 1)))
		bad("isend data");
	t("end");
	free(s);
	free(r1);
	free(r2);
	return 0;
}

static int probe(int n)
{
	char *b = calloc((size_t)n + 1, 1);
	int flag = 0, polls = 0;
	MPI_Status st;

	/* a poll sees only messages that really arrived (CLUE semantics): the real
	 * synchronisation through PMPI (invisible to the layer) makes sure it has,
	 * so that the virtual result does not depend on real timing */
	if (rank == 0) {
		MPI_Send(b, n, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
		PMPI_Send(NULL, 0, MPI_BYTE, 1, 99, MPI_COMM_WORLD);
	} else if (rank == 1) {
		PMPI_Recv(NULL, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		while (!flag) {
			MPI_Iprobe(0, 3, MPI_COMM_WORLD, &flag, &st);
			polls++;
		}
		printf("P %d polls %d\n", rank, polls);
		t("visible");
		MPI_Recv(b, n, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	t("end");
	free(b);
	return 0;
}

static int coll(const char *kind, int n, int root)
{
	int i, p = np, ok = 1;
	char *s = malloc((size_t)n * (size_t)p + 1), *r = malloc((size_t)n * (size_t)p + 1);
	int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
	int nd = n / (int)sizeof(double);

	for (i = 0; i < n * p; i++)
		s[i] = (char)(rank + 1);
	for (i = 0; i < p; i++) {
		counts[i] = n;
		displs[i] = i * n;
	}
	if (!strcmp(kind, "barrier")) {
		MPI_Barrier(MPI_COMM_WORLD);
	} else if (!strcmp(kind, "bcast")) {
		MPI_Bcast(s, n, MPI_BYTE, root, MPI_COMM_WORLD);
		ok = n == 0 || s[n - 1] == (char)(root + 1);
	} else if (!strcmp(kind, "reduce") || !strcmp(kind, "allreduce") ||
		   !strcmp(kind, "scan") || !strcmp(kind, "exscan")) {
		double *a = (double *)s, *b = (double *)r;
		for (i = 0; i < nd; i++)
			a[i] = rank + 1;
		if (!strcmp(kind, "reduce")) {
			MPI_Reduce(a, b, nd, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
			ok = rank != root || nd == 0 || b[nd - 1] == p * (p + 1) / 2;
		} else if (!strcmp(kind, "allreduce")) {
			MPI_Allreduce(a, b, nd, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
			ok = nd == 0 || b[0] == p * (p + 1) / 2;
		} else if (!strcmp(kind, "scan")) {
			MPI_Scan(a, b, nd, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
			ok = nd == 0 || b[0] == (rank + 1) * (rank + 2) / 2;
		} else {
			MPI_Exscan(a, b, nd, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
			ok = rank == 0 || nd == 0 || b[0] == rank * (rank + 1) / 2;
		}
	} else if (!strcmp(kind, "gather")) {
		MPI_Gather(s, n, MPI_BYTE, r, n, MPI_BYTE, root, MPI_COMM_WORLD);
		ok = rank != root || n == 0 || r[n * p - 1] == (char)p;
	} else if (!strcmp(kind, "gatherv")) {
		MPI_Gatherv(s, n, MPI_BYTE, r, counts, displs, MPI_BYTE, root, MPI_COMM_WORLD);
		ok = rank != root || n == 0 || r[n * p - 1] == (char)p;
	} else if (!strcmp(kind, "scatter")) {
		MPI_Scatter(s, n, MPI_BYTE, r, n, MPI_BYTE, root, MPI_COMM_WORLD);
		ok = n == 0 || r[0] == (char)(root + 1);
	} else if (!strcmp(kind, "scatterv")) {
		MPI_Scatterv(s, counts, displs, MPI_BYTE, r, n, MPI_BYTE, root, MPI_COMM_WORLD);
		ok = n == 0 || r[0] == (char)(root + 1);
	} else if (!strcmp(kind, "allgather")) {
		MPI_Allgather(s, n, MPI_BYTE, r, n, MPI_BYTE, MPI_COMM_WORLD);
		ok = n == 0 || r[n * p - 1] == (char)p;
	} else if (!strcmp(kind, "allgatherv")) {
		MPI_Allgatherv(s, n, MPI_BYTE, r, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
		ok = n == 0 || r[n * p - 1] == (char)p;
	} else if (!strcmp(kind, "alltoall")) {
		MPI_Alltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, MPI_COMM_WORLD);
		ok = n == 0 || r[n * p - 1] == (char)p;
	} else if (!strcmp(kind, "alltoallv")) {
		MPI_Alltoallv(s, counts, displs, MPI_BYTE, r, counts, displs, MPI_BYTE,
			      MPI_COMM_WORLD);
		ok = n == 0 || r[n * p - 1] == (char)p;
	} else if (!strcmp(kind, "reduce_scatter")) {
		double *a = (double *)s, *b = (double *)r;
		for (i = 0; i < p; i++)
			counts[i] = nd;
		for (i = 0; i < nd * p; i++)
			a[i] = rank + 1;
		MPI_Reduce_scatter(a, b, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		ok = nd == 0 || b[0] == p * (p + 1) / 2;
	} else if (!strcmp(kind, "reduce_scatter_block")) {
		double *a = (double *)s, *b = (double *)r;
		for (i = 0; i < nd * p; i++)
			a[i] = rank + 1;
		MPI_Reduce_scatter_block(a, b, nd, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		ok = nd == 0 || b[0] == p * (p + 1) / 2;
	} else {
		fprintf(stderr, "mpi_exact: unknown collective %s\n", kind);
		return 2;
	}
	if (!ok)
		bad(kind);
	t("end");
	free(s);
	free(r);
	free(counts);
	free(displs);
	return 0;
}

static int colls(int n)
{
	static const char *const kinds[] = { "barrier", "bcast", "reduce", "allreduce",
					     "gather", "scatter", "allgather", "alltoall",
					     "reduce_scatter", "scan", "exscan" };
	size_t k;
	int rc = 0;

	for (k = 0; k < sizeof kinds / sizeof kinds[0] && !rc; k++) {
		const char *kind = kinds[k];
		int rooted = !strcmp(kind, "bcast") || !strcmp(kind, "reduce") ||
			     !strcmp(kind, "gather") || !strcmp(kind, "scatter");
		long long entry = (long long)vl_time_ns();

		rc = coll(kind, !strcmp(kind, "barrier") ? 0 : n, rooted ? np - 1 : 0);
		printf("C %d %s %lld %lld\n", rank, kind, entry, (long long)vl_time_ns());
	}
	return rc;
}

static int icoll(const char *kind, int n, int root, double late, int poll)
{
	int nd = n / (int)sizeof(double), i, flag = 0, polls = 0;
	double *a = malloc(sizeof(double) * (size_t)(nd + 1)), *b = malloc(sizeof(double) * (size_t)(nd + 1));
	MPI_Request rq;

	for (i = 0; i < nd; i++)
		a[i] = rank + 1;
	if (!strcmp(kind, "ibarrier"))
		MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	else if (!strcmp(kind, "ibcast"))
		MPI_Ibcast(a, nd, MPI_DOUBLE, root, MPI_COMM_WORLD, &rq);
	else
		MPI_Iallreduce(a, b, nd, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq);
	if (late > 0)
		vl_compute(late);
	if (poll) {
		/* really complete everywhere before polling (see probe()) */
		PMPI_Barrier(MPI_COMM_WORLD);
		{ /* 0.2 s of real time that the virtual clock does not see (a sleep would
		   * count: select() is not a sleep to the layer) */
			struct timeval tv = {0, 200000};
			select(0, NULL, NULL, NULL, &tv);
		}
		while (!flag) {
			MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
			polls++;
		}
		printf("P %d polls %d\n", rank, polls);
	} else {
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	}
	if (!strcmp(kind, "ibcast") && nd > 0 && a[nd - 1] != root + 1)
		bad("ibcast");
	if (!strcmp(kind, "iallreduce") && nd > 0 && b[0] != np * (np + 1) / 2)
		bad("iallreduce");
	t("end");
	free(a);
	free(b);
	return 0;
}

/* MPI semantics kept intact under the layer; exact times where they are simple. */
static int semantics(void)
{
	MPI_Datatype vec;
	MPI_Status st;
	MPI_Comm half, cart;
	MPI_Request rq;
	int buf[128], i, k, last[3] = { -1, -1, -1 }, cnt, el, flag, canc;
	int dims[1] = { 3 }, periods[1] = { 1 }, left, right, got;
	int64_t a, b;
	struct timeval tv0, tv1;

	if (np != 3) {
		bad("semantics needs 3 ranks");
		return 1;
	}
	/* (a) two senders, wildcard receives, a strided datatype: per-sender order,
	 * status, Get_count and Get_elements as MPI gives them */
	MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	if (rank != 1) {
		for (k = 0; k < 4; k++) {
			for (i = 0; i < 12; i++)
				buf[i] = rank * 100 + k * 10 + i;
			MPI_Send(buf, 2, vec, 1, 10 + k, MPI_COMM_WORLD);
		}
	} else {
		for (k = 0; k < 8; k++) {
			memset(buf, 0xff, sizeof buf);
			MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, vec, &cnt);
			if (cnt != 2)
				bad("probe count");
			MPI_Recv(buf, 2, vec, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, vec, &cnt);
			MPI_Get_elements(&st, MPI_INT, &el);
			if (cnt != 2 || el != 6 || (st.MPI_SOURCE != 0 && st.MPI_SOURCE != 2))
				bad("count, elements or source");
			else if (st.MPI_TAG - 10 != last[st.MPI_SOURCE] + 1)
				bad("order of one sender's messages");
			else if (buf[0] != st.MPI_SOURCE * 100 + (st.MPI_TAG - 10) * 10 ||
				 buf[9] != buf[0] + 9 || buf[1] != -1)
				bad("strided data");
			else
				last[st.MPI_SOURCE]++;
		}
		printf("S %d wildcard %d %d\n", rank, last[0], last[2]);
	}
	MPI_Type_free(&vec);
	/* (b) a communicator from Comm_split: ranks 0 and 2; the second round trip
	 * of a ping-pong on it is exactly 2 (S + T + R) */
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
	if (rank != 1) {
		int me, peer;
		MPI_Comm_rank(half, &me);
		peer = 1 - me;
		for (k = 0; k < 2; k++) {
			a = vl_time_ns();
			if (me == 0) {
				MPI_Send(buf, 100, MPI_BYTE, peer, 5, half);
				MPI_Recv(buf, 100, MPI_BYTE, peer, 5, half, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(buf, 100, MPI_BYTE, peer, 5, half, MPI_STATUS_IGNORE);
				MPI_Send(buf, 100, MPI_BYTE, peer, 5, half);
			}
			b = vl_time_ns();
		}
		if (me == 0)
			printf("T %d split_rtt %lld\n", rank, (long long)(b - a));
	}
	MPI_Comm_free(&half);
	/* (c) a periodic Cartesian ring: shift and Sendrecv_replace */
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
	MPI_Cart_shift(cart, 0, 1, &left, &right);
	got = rank;
	MPI_Sendrecv_replace(&got, 1, MPI_INT, right, 7, left, 7, cart, &st);
	if (got != left || st.MPI_SOURCE != left)
		bad("cart sendrecv_replace");
	MPI_Comm_free(&cart);
	/* (d) a cancelled receive leaves no trace in time */
	a = vl_time_ns();
	MPI_Irecv(buf, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &rq);
	MPI_Cancel(&rq);
	MPI_Wait(&rq, &st);
	MPI_Test_cancelled(&st, &canc);
	b = vl_time_ns();
	if (!canc)
		bad("cancel");
	printf("T %d cancel %lld\n", rank, (long long)(b - a));
	/* (e) gettimeofday is virtual: 0.5 ms of modelled computation */
	gettimeofday(&tv0, NULL);
	vl_compute(0.0005);
	gettimeofday(&tv1, NULL);
	printf("T %d gettimeofday_us %lld\n", rank,
	       (long long)((tv1.tv_sec - tv0.tv_sec) * 1000000 + tv1.tv_usec - tv0.tv_usec));
	/* (f) persistent requests: three rounds of a persistent ping-pong 0 <-> 1;
	 * the last round trip is exactly 2 (S + T + R) */
	if (rank < 2) {
		MPI_Request sr, rr;
		MPI_Send_init(buf, 200, MPI_BYTE, 1 - rank, 6, MPI_COMM_WORLD, &sr);
		MPI_Recv_init(buf + 6, 200, MPI_BYTE, 1 - rank, 6, MPI_COMM_WORLD, &rr);
		for (k = 0; k < 3; k++) {
			a = vl_time_ns();
			if (rank == 0) {
				MPI_Start(&sr);
				MPI_Wait(&sr, MPI_STATUS_IGNORE);
				MPI_Start(&rr);
				MPI_Wait(&rr, &st);
			} else {
				MPI_Start(&rr);
				MPI_Wait(&rr, &st);
				MPI_Start(&sr);
				MPI_Wait(&sr, MPI_STATUS_IGNORE);
			}
			b = vl_time_ns();
		}
		MPI_Request_free(&sr);
		MPI_Request_free(&rr);
		if (rank == 0)
			printf("T %d persistent_rtt %lld\n", rank, (long long)(b - a));
	}
	/* (g) a distributed-graph communicator is timed too: second round trip 0 <-> 1 */
	{
		MPI_Comm g;
		int srcs[2] = { (rank + 2) % 3, (rank + 1) % 3 }, w[2] = { 1, 1 };
		MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, w, 2, srcs, w, MPI_INFO_NULL,
					       0, &g);
		for (k = 0; k < 2 && rank < 2; k++) {
			a = vl_time_ns();
			if (rank == 0) {
				MPI_Send(buf, 300, MPI_BYTE, 1, 4, g);
				MPI_Recv(buf, 300, MPI_BYTE, 1, 4, g, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(buf, 300, MPI_BYTE, 0, 4, g, MPI_STATUS_IGNORE);
				MPI_Send(buf, 300, MPI_BYTE, 0, 4, g);
			}
			b = vl_time_ns();
		}
		if (rank == 0)
			printf("T %d graph_rtt %lld\n", rank, (long long)(b - a));
		MPI_Comm_free(&g);
	}
	(void)flag;
	t("end");
	return 0;
}

static int sleeps(void)
{
	const struct timespec ns = {0, 2500000}, ms = {0, 1000000};
	int flag = 0, polls = 0, v = 7;

	if (rank == 0) {
		t("begin");
		usleep(1500);
		t("usleep");
		nanosleep(&ns, NULL);
		t("nanosleep");
		for (;;) {
			MPI_Iprobe(1, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
			if (flag)
				break;
			polls++;
			nanosleep(&ms, NULL);
		}
		printf("P 0 polls %d\n", polls);
		t("visible");
		MPI_Recv(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		vl_compute(0.01);
		MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
	}
	t("end");
	return 0;
}

static int wildrdv(void)
{
	char *b = calloc(8000, 1);
	MPI_Status st;
	int i;

	if (rank == 1)
		MPI_Send(b, 8000, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
	if (rank == 2) {
		vl_compute(0.001);
		MPI_Send(b, 5000, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
	}
	if (rank == 0) {
		vl_compute(0.005);
		MPI_Probe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
		printf("P 0 probe %d\n", st.MPI_SOURCE);
		t("probed");
		for (i = 0; i < 2; i++) {
			MPI_Recv(b, 8000, MPI_BYTE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
			printf("P 0 recv%d %d\n", i, st.MPI_SOURCE);
			t(i ? "recv1" : "recv0");
		}
	}
	t("end");
	free(b);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc >= 4 && !strcmp(argv[1], "pingpong"))
		rc = pingpong(atoi(argv[2]), atoi(argv[3]), argc > 4 ? atof(argv[4]) / 1e9 : 0);
	else if (argc >= 4 && !strcmp(argv[1], "ring"))
		rc = ring(atoi(argv[2]), atoi(argv[3]));
	else if (argc >= 3 && !strcmp(argv[1], "isend"))
		rc = isend(atoi(argv[2]));
	else if (argc >= 3 && !strcmp(argv[1], "probe"))
		rc = probe(atoi(argv[2]));
	else if (argc >= 5 && !strcmp(argv[1], "coll"))
		rc = coll(argv[2], atoi(argv[3]), atoi(argv[4]));
	else if (argc >= 3 && !strcmp(argv[1], "colls"))
		rc = colls(atoi(argv[2]));
	else if (argc >= 2 && !strcmp(argv[1], "semantics"))
		rc = semantics();
	else if (argc >= 2 && !strcmp(argv[1], "wildrdv") && np >= 3)
		rc = wildrdv();
	else if (argc >= 2 && !strcmp(argv[1], "sleep"))
		rc = sleeps();
	else if (argc >= 6 && !strcmp(argv[1], "icoll"))
		rc = icoll(argv[2], atoi(argv[3]), atoi(argv[4]), atof(argv[5]) / 1e9, argc > 6);
	else if (!rank)
		fprintf(stderr, "mpi_exact: bad arguments\n");
	fflush(stdout);
	MPI_Finalize();
	return rc;
}
