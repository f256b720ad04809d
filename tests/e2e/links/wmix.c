/* wmix.c - random collectives and wildcard receives (test_links): ROUNDS
 * rounds drawn from SEED, the same on every rank.  Each round: every rank
 * computes a while (vl_compute, its own time); a bcast, reduce, gather or
 * scatter (1 to 8 KiB, of doubles) from a random root runs on the world or
 * on the even or odd ranks' communicator; then a random collector takes 1 to
 * p - 1 messages from random other ranks with MPI_ANY_SOURCE, which they send
 * right after their collective (so which comes first is decided by when each
 * member leaves it).  With KINDS 8 a round may also run a gatherv or
 * scatterv (rank r's block: (1 + r % 3) / 4 of the size, at displacements
 * in reverse rank order), a scan or an exscan (the sum); KINDS 4 (the
 * default) draws as before they came.  WORLD w: every collective on the
 * world (the same draws); with z in WORLD (w, z, wz) a gatherv's blocks of
 * ranks 1, 4, 7 ... but the last are 0 (Open MPI's linear gatherv sends no
 * message for them); with i in WORLD each collective's nonblocking form
 * (MPI_Ibcast, ...), waited for at once with MPI_Wait.
 * Usage: wmix ROUNDS SEED [KINDS [WORLD]].
 * The collector prints
 * "W ROUND SOURCE NS" per message, every rank "T RANK end NS" and "BAD ..."
 * on a wrong result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vlayer.h>

#define MAXD 1024
/* the blocking call, or its nonblocking form (nb) waited for at once */
#define CALL(blocking, nonblocking)                          \
	do {                                                 \
		if (nb) {                                    \
			nonblocking;                         \
			MPI_Wait(&rq, MPI_STATUS_IGNORE);    \
		} else {                                     \
			blocking;                            \
		}                                            \
	} while (0)

static unsigned next(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) & 0xffffff;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10, rank, np, it, i, half;
	unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
	unsigned kinds = argc > 3 && atoi(argv[3]) == 8 ? 8 : 4;
	int world = argc > 4 && strchr(argv[4], 'w'), zero = argc > 4 && strchr(argv[4], 'z');
	int nb = argc > 4 && strchr(argv[4], 'i');
	MPI_Request rq;
	int cnt[64], dsp[64];
	double *a, *b;
	MPI_Comm parity;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	/* (a member's vector for every member: at 12 ranks and more, a
	 * fixed 8 made the collectives write past the buffers) */
	a = malloc(sizeof(double) * MAXD * (size_t)np);
	b = malloc(sizeof(double) * MAXD * (size_t)np);
	if (!a || !b || np > 64)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
	for (it = 0; it < rounds; it++) {
		int kind = (int)(next(&seed) % kinds), onhalf = (int)(next(&seed) % 3), coll = 1;
		int nd = 128 * (1 + (int)(next(&seed) % 8)), collector = (int)(next(&seed) % (unsigned)np);
		int nsend = 1 + (int)(next(&seed) % (unsigned)(np - 1)), send[64] = { 0 }, cp, cr, root;
		MPI_Comm c = MPI_COMM_WORLD;
		double work[64];

		for (i = 0; i < np; i++)
			work[i] = 1e-6 * (double)(next(&seed) % 200);
		for (i = 0; i < nsend;) { /* distinct senders, never the collector */
			int s = (int)(next(&seed) % (unsigned)np);

			if (s != collector && !send[s]) {
				send[s] = 1;
				i++;
			}
		}
		half = world ? -1 : onhalf == 1 ? 0 : onhalf == 2 ? 1 : -1;
		if (half >= 0) {
			c = parity;
			coll = rank % 2 == half;
		}
		root = (int)(next(&seed) % 64);
		vl_compute(work[rank]);
		if (coll) {
			MPI_Comm_size(c, &cp);
			MPI_Comm_rank(c, &cr);
			root %= cp;
			for (i = 0; i < nd * cp; i++)
				a[i] = cr * 1000 + i;
			for (i = cp - 1; i >= 0; i--) {
				cnt[i] = zero && kind == 4 && i % 3 == 1 && i != cp - 1
						 ? 0 : nd * (1 + i % 3) / 4;
				dsp[i] = i == cp - 1 ? 0 : dsp[i + 1] + cnt[i + 1];
			}
			if (kind == 0) {
				CALL(MPI_Bcast(a, nd, MPI_DOUBLE, root, c),
				     MPI_Ibcast(a, nd, MPI_DOUBLE, root, c, &rq));
				if (a[nd - 1] != root * 1000 + nd - 1)
					printf("BAD bcast round %d\n", it);
			} else if (kind == 1) {
				CALL(MPI_Reduce(a, b, nd, MPI_DOUBLE, MPI_SUM, root, c),
				     MPI_Ireduce(a, b, nd, MPI_DOUBLE, MPI_SUM, root, c, &rq));
				if (cr == root && b[1] != cp * 1 + 1000.0 * cp * (cp - 1) / 2)
					printf("BAD reduce round %d: %g\n", it, b[1]);
			} else if (kind == 2) {
				CALL(MPI_Gather(a, nd, MPI_DOUBLE, b, nd, MPI_DOUBLE, root, c),
				     MPI_Igather(a, nd, MPI_DOUBLE, b, nd, MPI_DOUBLE, root, c, &rq));
				if (cr == root && b[(size_t)(cp - 1) * nd] != (cp - 1) * 1000)
					printf("BAD gather round %d\n", it);
			} else if (kind == 3) {
				CALL(MPI_Scatter(a, nd, MPI_DOUBLE, b, nd, MPI_DOUBLE, root, c),
				     MPI_Iscatter(a, nd, MPI_DOUBLE, b, nd, MPI_DOUBLE, root, c, &rq));
				if (b[0] != root * 1000 + cr * nd)
					printf("BAD scatter round %d\n", it);
			} else if (kind == 4) {
				CALL(MPI_Gatherv(a, cnt[cr], MPI_DOUBLE, b, cnt, dsp, MPI_DOUBLE, root, c),
				     MPI_Igatherv(a, cnt[cr], MPI_DOUBLE, b, cnt, dsp, MPI_DOUBLE, root, c, &rq));
				if (cr == root && (b[0] != (cp - 1) * 1000 || b[dsp[0]] != 0))
					printf("BAD gatherv round %d\n", it);
			} else if (kind == 5) {
				CALL(MPI_Scatterv(a, cnt, dsp, MPI_DOUBLE, b, cnt[cr], MPI_DOUBLE, root, c),
				     MPI_Iscatterv(a, cnt, dsp, MPI_DOUBLE, b, cnt[cr], MPI_DOUBLE, root, c, &rq));
				if (b[0] != root * 1000 + dsp[cr] || b[cnt[cr] - 1] != root * 1000 + dsp[cr] + cnt[cr] - 1)
					printf("BAD scatterv round %d\n", it);
			} else if (kind == 6) {
				CALL(MPI_Scan(a, b, nd, MPI_DOUBLE, MPI_SUM, c),
				     MPI_Iscan(a, b, nd, MPI_DOUBLE, MPI_SUM, c, &rq));
				if (b[0] != 1000.0 * cr * (cr + 1) / 2)
					printf("BAD scan round %d\n", it);
			} else {
				CALL(MPI_Exscan(a, b, nd, MPI_DOUBLE, MPI_SUM, c),
				     MPI_Iexscan(a, b, nd, MPI_DOUBLE, MPI_SUM, c, &rq));
				if (cr > 0 && b[0] != 1000.0 * cr * (cr - 1) / 2)
					printf("BAD exscan round %d\n", it);
			}
		}
		if (send[rank])
			MPI_Send(&it, 1, MPI_INT, collector, it, MPI_COMM_WORLD);
		if (rank == collector)
			for (i = 0; i < nsend; i++) {
				MPI_Status st;
				int x;

				MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, it, MPI_COMM_WORLD, &st);
				printf("W %d %d %lld\n", it, st.MPI_SOURCE, (long long)vl_time_ns());
			}
	}
	printf("T %d end %lld\n", rank, (long long)vl_time_ns());
	MPI_Comm_free(&parity);
	free(a);
	free(b);
	MPI_Finalize();
	return 0;
}
