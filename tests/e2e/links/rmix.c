/* rmix.c - random traffic for the replay and reproducibility checks
 * (test_links): ROUNDS rounds drawn from SEED, the same on every rank.  Each
 * round: every rank computes a while (vl_compute, its own time), then 1 to
 * 2p messages between random pairs of ranks (64 B to 64 KiB, some to itself
 * never) are started with MPI_Isend/MPI_Irecv by name, with perhaps a
 * nonblocking collective (Iallreduce, Ibcast, Ialltoall) among them; each
 * rank completes its requests with MPI_Waitall, MPI_Waitany, MPI_Waitsome or
 * an MPI_Testany loop (its own choice per round), then perhaps a blocking
 * collective (Allreduce, Bcast, Barrier) or a blocking MPI_Sendrecv ring.
 * Usage: rmix ROUNDS SEED.  Each rank prints "T RANK end NS" and "BAD ..." on
 * a wrong payload. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vlayer.h>

#define MAXM 64

static unsigned next(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) & 0xffffff;
}

int main(int argc, char **argv)
{
	int rank, np, rounds, it, i;
	unsigned all, mine;
	char *sb, *rb, *ca, *cb;
	MPI_Request rq[2 * MAXM + 1];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rounds = argc > 1 ? atoi(argv[1]) : 10;
	all = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
	mine = all * 31u + 1000u + (unsigned)rank;
	sb = malloc((size_t)MAXM << 16);
	rb = malloc((size_t)MAXM << 16);
	ca = calloc(1 << 16, 1);
	cb = calloc(1 << 16, 1);
	if (!sb || !rb || !ca || !cb)
		return 1;
	for (it = 0; it < rounds; it++) {
		int nm = 1 + (int)(next(&all) % (unsigned)(2 * np)), n = 0, done = 0;
		int coll = (int)(next(&all) % 4), after = (int)(next(&all) % 5);
		int csz = 64 << (next(&all) % 11), how = (int)(next(&mine) % 4);
		int src[MAXM], dst[MAXM], sz[MAXM], ix[2 * MAXM + 1];

		for (i = 0; i < nm; i++) {
			src[i] = (int)(next(&all) % (unsigned)np);
			dst[i] = (int)((unsigned)src[i] + 1u + next(&all) % (unsigned)(np - 1)) % np;
			sz[i] = 64 << (next(&all) % 11);
		}
		vl_compute(1e-6 * (next(&mine) % 400));
		for (i = 0; i < nm; i++) {
			char *p = sb + ((size_t)i << 16), *q = rb + ((size_t)i << 16);

			if (dst[i] == rank)
				MPI_Irecv(q, sz[i], MPI_BYTE, src[i], it * MAXM + i, MPI_COMM_WORLD,
					  &rq[n++]);
			if (src[i] == rank) {
				memset(p, (it + i) & 0xff, (size_t)sz[i]);
				MPI_Isend(p, sz[i], MPI_BYTE, dst[i], it * MAXM + i, MPI_COMM_WORLD,
					  &rq[n++]);
			}
			if (i == nm / 2 && coll == 1)
				MPI_Iallreduce(ca, cb, csz / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
					       &rq[n++]);
			else if (i == nm / 2 && coll == 2)
				MPI_Ibcast(ca, csz, MPI_BYTE, it % np, MPI_COMM_WORLD, &rq[n++]);
			else if (i == nm / 2 && coll == 3 && csz / np > 0)
				MPI_Ialltoall(ca, csz / np, MPI_BYTE, cb, csz / np, MPI_BYTE,
					      MPI_COMM_WORLD, &rq[n++]);
		}
		vl_compute(1e-6 * (next(&mine) % 300));
		if (n > 0 && how == 0) {
			MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
		} else if (n > 0 && how == 1) {
			for (i = 0; i < n; i++) {
				int k;

				MPI_Waitany(n, rq, &k, MPI_STATUS_IGNORE);
			}
		} else if (n > 0 && how == 2) {
			while (done < n) {
				int out;

				MPI_Waitsome(n, rq, &out, ix, MPI_STATUSES_IGNORE);
				done += out;
				vl_compute(1e-6 * (next(&mine) % 50));
			}
		} else if (n > 0) {
			while (done < n) {
				int k, flag = 0;

				MPI_Testany(n, rq, &k, &flag, MPI_STATUS_IGNORE);
				if (flag && k != MPI_UNDEFINED)
					done++;
				else
					vl_compute(2e-5);
			}
		}
		for (i = 0; i < nm; i++) {
			const unsigned char *q = (const unsigned char *)rb + ((size_t)i << 16);

			if (dst[i] == rank && (q[0] != ((it + i) & 0xff) || q[sz[i] - 1] != q[0]))
				printf("BAD %d: round %d message %d from %d\n", rank, it, i, src[i]);
		}
		if (after == 1)
			MPI_Allreduce(ca, cb, csz / 8 ? csz / 8 : 1, MPI_DOUBLE, MPI_SUM,
				      MPI_COMM_WORLD);
		else if (after == 2)
			MPI_Bcast(ca, csz, MPI_BYTE, (it + 1) % np, MPI_COMM_WORLD);
		else if (after == 3)
			MPI_Barrier(MPI_COMM_WORLD);
		else if (after == 4)
			MPI_Sendrecv(ca, csz, MPI_BYTE, (rank + 1) % np, 1, cb, csz, MPI_BYTE,
				     (rank + np - 1) % np, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	printf("T %d end %lld\n", rank, (long long)vl_time_ns());
	free(sb);
	free(rb);
	free(ca);
	free(cb);
	MPI_Finalize();
	return 0;
}
