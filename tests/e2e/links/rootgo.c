/* rootgo.c - a member whose exit from a collective depends on its own entry
 * alone goes on before the others enter (test_links).  3 ranks: rank 2 sends
 * 64 KiB to rank 1 at 0, then enters the collective and receives 64 KiB from
 * rank 0; rank 1 receives rank 2's message, then enters the collective;
 * rank 0 enters the collective at 0, leaves it (the root of a bcast, a leaf
 * of a reduce or gather to rank 1, 8 bytes), computes 100 us and sends
 * 64 KiB to rank 2, which on a bus shares it with rank 2's message still on
 * its way.  Usage: rootgo bcast|reduce|gather.  Prints "A RANK NS" at the
 * end of each receive of 64 KiB and "T RANK end NS". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vlayer.h>

#define M 65536

static void coll(const char *how, double *x, double *y)
{
	if (!strcmp(how, "bcast"))
		MPI_Bcast(x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	else if (!strcmp(how, "reduce"))
		MPI_Reduce(x, y, 1, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
	else
		MPI_Gather(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	int rank;
	const char *how = argc > 1 ? argv[1] : "bcast";
	double x = 1, y[3];
	char *buf = calloc(M, 1);

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		x = 42;
		coll(how, &x, y);
		x = -1; /* (the data of a root that left at once are safe) */
		vl_compute(1e-4);
		MPI_Send(buf, M, MPI_BYTE, 2, 0, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(buf, M, MPI_BYTE, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("A %d %lld\n", rank, (long long)vl_time_ns());
		coll(how, &x, y);
		if (!strcmp(how, "bcast") && x != 42)
			printf("BAD bcast: %g\n", x);
		if (!strcmp(how, "reduce") && y[0] != 44)
			printf("BAD reduce: %g\n", y[0]);
		if (!strcmp(how, "gather") && (y[0] != 42 || y[1] != 1 || y[2] != 1))
			printf("BAD gather: %g %g %g\n", y[0], y[1], y[2]);
	} else {
		MPI_Send(buf, M, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
		coll(how, &x, y);
		MPI_Recv(buf, M, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("A %d %lld\n", rank, (long long)vl_time_ns());
	}
	printf("T %d end %lld\n", rank, (long long)vl_time_ns());
	free(buf);
	MPI_Finalize();
	return 0;
}
