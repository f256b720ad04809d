/* collbench.c - one collective timed, for bench/cluster.sh: natively on the
 * emulated cluster (the measurement) and under vlrun (the prediction; MPI_Wtime
 * is then virtual).  Usage: collbench KIND BYTES REPS, KIND one of pingpong,
 * bcast, allreduce, alltoall (BYTES per block).  Each repetition starts after
 * a barrier; its time is the longest of the ranks' (pingpong: half the round
 * trip of ranks 0 and 1).  Prints "KIND BYTES min_s median_s" from rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int rank, np, n, reps, i;
	const char *kind;
	char *s, *r;
	double *t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc != 4) {
		if (rank == 0)
			fprintf(stderr, "usage: collbench pingpong|bcast|allreduce|alltoall BYTES REPS\n");
		MPI_Finalize();
		return 2;
	}
	kind = argv[1];
	n = atoi(argv[2]);
	reps = atoi(argv[3]);
	s = calloc((size_t)n * (size_t)np + 8, 1);
	r = calloc((size_t)n * (size_t)np + 8, 1);
	t = calloc((size_t)reps + 1, sizeof *t);
	for (i = 0; i <= reps; i++) { /* repetition 0 warms up */
		double t0, dt, mx;

		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		if (!strcmp(kind, "pingpong")) {
			if (rank == 0) {
				MPI_Send(s, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
				MPI_Recv(r, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else if (rank == 1) {
				MPI_Recv(r, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(s, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
			}
		} else if (!strcmp(kind, "bcast")) {
			MPI_Bcast(s, n, MPI_BYTE, 0, MPI_COMM_WORLD);
		} else if (!strcmp(kind, "allreduce")) {
			MPI_Allreduce(s, r, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM,
				      MPI_COMM_WORLD);
		} else if (!strcmp(kind, "alltoall")) {
			MPI_Alltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, MPI_COMM_WORLD);
		} else {
			if (rank == 0)
				fprintf(stderr, "collbench: unknown kind %s\n", kind);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		dt = MPI_Wtime() - t0;
		if (!strcmp(kind, "pingpong"))
			dt /= 2;
		MPI_Reduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
		t[i] = mx;
	}
	if (rank == 0) {
		qsort(t + 1, (size_t)reps, sizeof *t, cmp);
		printf("%s %d %.9f %.9f\n", kind, n, t[1], t[1 + reps / 2]);
	}
	free(s);
	free(r);
	free(t);
	MPI_Finalize();
	return 0;
}
