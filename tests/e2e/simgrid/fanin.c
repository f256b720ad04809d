/* fanin.c - ranks 1..P-1 each send BYTES to rank 0 at time 0; rank 0 receives
 * them in rank order.  tests/e2e/test_simgrid.sh replays it with SimGrid: on a
 * contention-free platform it takes vlayer's time, on a star or a bus the P-1
 * messages share rank 0's link.  Usage: fanin BYTES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <vlayer.h>

int main(int argc, char **argv)
{
	int rank, np, n = argc > 1 ? atoi(argv[1]) : 0, i;
	char *b;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	b = calloc((size_t)n + 1, 1);
	if (rank == 0) {
		for (i = 1; i < np; i++)
			MPI_Recv(b, n, MPI_BYTE, i, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Send(b, n, MPI_BYTE, 0, rank, MPI_COMM_WORLD);
	}
	printf("T %d end %lld\n", rank, (long long)vl_time_ns());
	free(b);
	MPI_Finalize();
	return 0;
}
