/* lowered.c - a waiting rank's bound comes back up after a flow to it that it
 * does not wait for got a new estimate (tests/e2e/test_links.sh; LAMMPS at 5
 * ranks on a half-duplex star got stuck on it).  4 ranks, one per host, on a
 * bus, computation ignored, S = R = 0:
 *  - rank 2 posts receives from 1 (tag 1, M bytes) and from 1 (tag 2, 4
 *    bytes), and waits for the second one first;
 *  - rank 1 sends rank 2 its M bytes (flow F, at 0), receives 4 M bytes from
 *    rank 3 (flow G, at 0), then sends rank 2 the 4 bytes;
 *  - rank 3 sends G, then receives M bytes from rank 0;
 *  - rank 0 spins in real time first (rank 2 has published its wait by then),
 *    then sends rank 3 its M bytes (flow H, at 0): they share the bus with F,
 *    whose estimate moves, which lowered rank 2's bound to it.
 * G is final only once rank 2's bound is raised again.  Prints "T RANK end
 * NS" and "BAD ..." on a wrong value.  Usage: lowered BYTES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "../spin_real.h"

int main(int argc, char **argv)
{
	int rank, size, n = argc > 1 ? atoi(argv[1]) : 0, k = 0;
	char *b;
	MPI_Request r[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 4 || n <= 0) {
		if (rank == 0)
			fprintf(stderr, "usage: lowered BYTES (4 ranks)\n");
		MPI_Finalize();
		return 2;
	}
	b = calloc(4 * (size_t)n, 1);
	if (rank == 2) {
		MPI_Irecv(b, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &r[0]);
		MPI_Irecv(&k, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &r[1]);
		MPI_Wait(&r[1], MPI_STATUS_IGNORE);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		if (k != 42)
			printf("BAD rank 2 got %d\n", k);
	} else if (rank == 1) {
		MPI_Send(b, n, MPI_BYTE, 2, 1, MPI_COMM_WORLD);
		MPI_Recv(b, 4 * n, MPI_BYTE, 3, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		k = 42;
		MPI_Send(&k, 1, MPI_INT, 2, 2, MPI_COMM_WORLD);
	} else if (rank == 3) {
		MPI_Send(b, 4 * n, MPI_BYTE, 1, 4, MPI_COMM_WORLD);
		MPI_Recv(b, n, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		spin_real(0.3);
		MPI_Send(b, n, MPI_BYTE, 3, 3, MPI_COMM_WORLD);
	}
	printf("T %d end %.0f\n", rank, MPI_Wtime() * 1e9);
	free(b);
	MPI_Finalize();
	return 0;
}
