/* nbmix.c - nonblocking collectives among point-to-point messages (test_links):
 * ITERS rounds, each: computes a while (vl_compute, a different time on each
 * rank), starts an MPI_Iallreduce, MPI_Ibcast or MPI_Ialltoall of 1 KiB to
 * 128 KiB (the same on every rank), an MPI_Isend to the next rank and an
 * MPI_Irecv from the previous one (1 KiB to 64 KiB), computes again, then
 * completes the three with MPI_Waitall (HOW 0), MPI_Waitany (1) or an
 * MPI_Testall loop every 50 us of vl_compute (2).  Usage: nbmix ITERS HOW.
 * Each rank prints "T RANK end NS".  Waitany and Testall loops on shared
 * links got stuck until 2026-11-27 (a nonblocking collective not entered by
 * every member yet was taken to end no later than its start; a task waiting
 * for any of several messages on the links counted its clock, not its bound,
 * against their arrivals). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <vlayer.h>

static unsigned next(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) & 0xffffff;
}

int main(int argc, char **argv)
{
	int rank, np, it, iters, how, i, k;
	unsigned all = 7, mine;
	char *a, *b, *c, *d;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	iters = argc > 1 ? atoi(argv[1]) : 10;
	how = argc > 2 ? atoi(argv[2]) : 0;
	mine = 100 + (unsigned)rank;
	a = calloc(1 << 17, 1);
	b = calloc(1 << 17, 1);
	c = calloc(1 << 16, 1);
	d = calloc(1 << 16, 1);
	for (it = 0; it < iters; it++) {
		MPI_Request rq[3];
		int sz = 1024 << (next(&all) % 8), kind = next(&all) % 3, flag = 0;
		int psz = 1024 << (next(&all) % 7);

		vl_compute(1e-6 * (next(&mine) % 500));
		if (kind == 0)
			MPI_Iallreduce(a, b, sz / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[0]);
		else if (kind == 1)
			MPI_Ibcast(a, sz, MPI_BYTE, it % np, MPI_COMM_WORLD, &rq[0]);
		else
			MPI_Ialltoall(a, sz / np, MPI_BYTE, b, sz / np, MPI_BYTE, MPI_COMM_WORLD,
				      &rq[0]);
		MPI_Isend(c, psz, MPI_BYTE, (rank + 1) % np, it, MPI_COMM_WORLD, &rq[1]);
		MPI_Irecv(d, psz, MPI_BYTE, (rank + np - 1) % np, it, MPI_COMM_WORLD, &rq[2]);
		vl_compute(1e-6 * (next(&mine) % 500));
		if (how == 0) {
			MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
		} else if (how == 1) {
			for (i = 0; i < 3; i++)
				MPI_Waitany(3, rq, &k, MPI_STATUS_IGNORE);
		} else {
			while (!flag) {
				vl_compute(5e-5);
				MPI_Testall(3, rq, &flag, MPI_STATUSES_IGNORE);
			}
		}
	}
	printf("T %d end %lld\n", rank, (long long)vl_time_ns());
	free(a);
	free(b);
	free(c);
	free(d);
	MPI_Finalize();
	return 0;
}
