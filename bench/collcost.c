/* collcost.c - the real time of one collective call, for bench/mpi.sh: N
 * calls of KIND back to back (BYTES per block, root 0), natively and under
 * vlrun; the difference of two run lengths over the difference of their N
 * gives a call's real cost without start-up.  Usage: collcost KIND BYTES N,
 * KIND one of barrier, bcast, reduce, allreduce, gather, scatter, allgather,
 * alltoall, scan, exscan. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, np, n, calls, i, d;
	const char *k;
	char *s, *r;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc != 4) {
		if (rank == 0)
			fprintf(stderr, "usage: collcost KIND BYTES N\n");
		MPI_Finalize();
		return 2;
	}
	k = argv[1];
	n = atoi(argv[2]);
	calls = atoi(argv[3]);
	d = n / (int)sizeof(double);
	s = calloc((size_t)n * (size_t)np + 8, 1);
	r = calloc((size_t)n * (size_t)np + 8, 1);
	if (!s || !r)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (i = 0; i < calls; i++) {
		if (!strcmp(k, "barrier"))
			MPI_Barrier(MPI_COMM_WORLD);
		else if (!strcmp(k, "bcast"))
			MPI_Bcast(s, n, MPI_BYTE, 0, MPI_COMM_WORLD);
		else if (!strcmp(k, "reduce"))
			MPI_Reduce(s, r, d, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
		else if (!strcmp(k, "allreduce"))
			MPI_Allreduce(s, r, d, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		else if (!strcmp(k, "gather"))
			MPI_Gather(s, n, MPI_BYTE, r, n, MPI_BYTE, 0, MPI_COMM_WORLD);
		else if (!strcmp(k, "scatter"))
			MPI_Scatter(s, n, MPI_BYTE, r, n, MPI_BYTE, 0, MPI_COMM_WORLD);
		else if (!strcmp(k, "allgather"))
			MPI_Allgather(s, n, MPI_BYTE, r, n, MPI_BYTE, MPI_COMM_WORLD);
		else if (!strcmp(k, "alltoall"))
			MPI_Alltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, MPI_COMM_WORLD);
		else if (!strcmp(k, "scan"))
			MPI_Scan(s, r, d, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		else if (!strcmp(k, "exscan"))
			MPI_Exscan(s, r, d, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		else {
			if (rank == 0)
				fprintf(stderr, "collcost: unknown kind %s\n", k);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
	}
	free(s);
	free(r);
	MPI_Finalize();
	return 0;
}
