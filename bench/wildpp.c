/* wildpp.c (bench/mpi.sh) - the cost of a wildcard choice beside idle ranks: ranks 0 and 1
 * play ping-pong R times (rank 0 receives with MPI_ANY_SOURCE, so every
 * receive asks the board for the least bound) while every other rank waits
 * in MPI_Barrier, which 0 and 1 enter at the end.
 *   wildpp R */
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int rank, r = argc > 1 ? atoi(argv[1]) : 1000, i, x = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (i = 0; i < r && rank < 2; i++) {
		if (rank == 0) {
			MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
