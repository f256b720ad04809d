/* latecoll.c - a collective whose every exit follows every entry, with one
 * member late (test_links): rank LATE computes DELAY microseconds
 * (vl_compute), then every rank runs the collective on the world: barrier,
 * allreduce (BYTES of doubles, summed), allgather or alltoall (BYTES per
 * block, of doubles) or reduce_scatter_block (BYTES per block, summed), or
 * allgatherv or reduce_scatter (rank r's block (1 + r % 3) / 2 of BYTES),
 * alltoallv (from rank r to rank j (1 + (r + j) % 3) / 2 of BYTES);
 * allgatherv_eq, reduce_scatter_eq, alltoallv_eq: BYTES each, as their
 * plain forms.
 * With collectives = shared its messages leave when
 * the schedule says, those between members in before the late one enters.
 * With a fifth argument i, the nonblocking form (MPI_Iallreduce, ...),
 * waited for at once with MPI_Wait.
 * Prints "T RANK end NS" and "BAD ..." on a wrong result.
 * Usage: latecoll barrier|allreduce|allgather|alltoall|reduce_scatter_block|
 * allgatherv[_eq]|reduce_scatter[_eq]|alltoallv[_eq] BYTES LATE DELAY [i] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vlayer.h>

int main(int argc, char **argv)
{
	int rank, np, i, n, late, nb, eq, cnt[64], dsp[64];
	MPI_Request rq = MPI_REQUEST_NULL;
	double *a, *b, delay;
	const char *kind;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc < 5)
		MPI_Abort(MPI_COMM_WORLD, 2);
	kind = argv[1];
	n = atoi(argv[2]) / (int)sizeof(double);
	late = atoi(argv[3]);
	delay = atof(argv[4]) * 1e-6;
	nb = argc > 5 && !strcmp(argv[5], "i");
	if (n < 1)
		n = 1;
	a = malloc(sizeof(double) * (size_t)n * (size_t)np * 2);
	b = malloc(sizeof(double) * (size_t)n * (size_t)np * 2);
	if (!a || !b)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (i = 0; i < n * np * 2; i++)
		a[i] = rank * 1000 + i;
	if (np > 64)
		MPI_Abort(MPI_COMM_WORLD, 1);
	eq = strstr(kind, "_eq") != NULL;
	for (i = 0; i < np; i++) {
		cnt[i] = eq ? n : n * (1 + i % 3) / 2;
		dsp[i] = i ? dsp[i - 1] + cnt[i - 1] : 0;
	}
	if (rank == late)
		vl_compute(delay);
	if (!strcmp(kind, "barrier")) {
		if (nb)
			MPI_Ibarrier(MPI_COMM_WORLD, &rq);
		else
			MPI_Barrier(MPI_COMM_WORLD);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	} else if (!strcmp(kind, "allreduce")) {
		if (nb)
			MPI_Iallreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq);
		else
			MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (b[n - 1] != 1000.0 * np * (np - 1) / 2 + (double)np * (n - 1))
			printf("BAD allreduce %g\n", b[n - 1]);
	} else if (!strcmp(kind, "allgather")) {
		if (nb)
			MPI_Iallgather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, MPI_COMM_WORLD, &rq);
		else
			MPI_Allgather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, MPI_COMM_WORLD);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (b[(size_t)(np - 1) * n] != (np - 1) * 1000.0)
			printf("BAD allgather %g\n", b[(size_t)(np - 1) * n]);
	} else if (!strncmp(kind, "alltoallv", 9)) {
		int sc[64], sd[64];

		for (i = 0; i < np; i++) {
			sc[i] = eq ? n : n * (1 + (rank + i) % 3) / 2;
			sd[i] = i * n * 2;
		}
		if (nb)
			MPI_Ialltoallv(a, sc, sd, MPI_DOUBLE, b, sc, sd, MPI_DOUBLE, MPI_COMM_WORLD,
				       &rq);
		else
			MPI_Alltoallv(a, sc, sd, MPI_DOUBLE, b, sc, sd, MPI_DOUBLE, MPI_COMM_WORLD);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (b[(size_t)sd[np - 1]] != (np - 1) * 1000.0 + (double)rank * n * 2)
			printf("BAD alltoallv %g\n", b[(size_t)sd[np - 1]]);
	} else if (!strncmp(kind, "allgatherv", 10)) {
		if (nb)
			MPI_Iallgatherv(a, cnt[rank], MPI_DOUBLE, b, cnt, dsp, MPI_DOUBLE,
					MPI_COMM_WORLD, &rq);
		else
			MPI_Allgatherv(a, cnt[rank], MPI_DOUBLE, b, cnt, dsp, MPI_DOUBLE,
				       MPI_COMM_WORLD);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (b[dsp[np - 1]] != (np - 1) * 1000.0 || b[dsp[np - 1] - 1] != (np - 2) * 1000.0 + cnt[np - 2] - 1)
			printf("BAD allgatherv %g\n", b[dsp[np - 1]]);
	} else if (!strncmp(kind, "reduce_scatter", 14) && strcmp(kind, "reduce_scatter_block")) {
		if (nb)
			MPI_Ireduce_scatter(a, b, cnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq);
		else
			MPI_Reduce_scatter(a, b, cnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (b[0] != 1000.0 * np * (np - 1) / 2 + (double)np * dsp[rank])
			printf("BAD reduce_scatter %g\n", b[0]);
	} else if (!strcmp(kind, "reduce_scatter_block")) {
		if (nb)
			MPI_Ireduce_scatter_block(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq);
		else
			MPI_Reduce_scatter_block(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (b[0] != 1000.0 * np * (np - 1) / 2 + (double)np * rank * n)
			printf("BAD reduce_scatter_block %g\n", b[0]);
	} else {
		if (nb)
			MPI_Ialltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, MPI_COMM_WORLD, &rq);
		else
			MPI_Alltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, MPI_COMM_WORLD);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (b[(size_t)(np - 1) * n] != (np - 1) * 1000.0 + (double)rank * n)
			printf("BAD alltoall %g\n", b[(size_t)(np - 1) * n]);
	}
	printf("T %d end %lld\n", rank, (long long)vl_time_ns());
	free(a);
	free(b);
	MPI_Finalize();
	return 0;
}
