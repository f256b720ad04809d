/* rebound.c - a waiting rank's bound comes back up after a message it did not
 * wait for came in (tests/e2e/test_links.sh; hpcc's LatencyBandwidth ring got
 * stuck on it).  4 ranks, two per host, the hosts on a shared [topology]:
 *  - rank 2 posts receives from 0 and from 3 and waits for the one from 0;
 *  - rank 3 sends rank 0 a message (on the shared link), sleeps in real time
 *    (rank 2 is waiting and has published its wait by then), sends rank 2 a
 *    message of its own host (announced: rank 2's bound drops to its arrival),
 *    then a second message to rank 0;
 *  - rank 0 receives both from 3, then sends to 2.
 * Rank 0's second message shares the link: its arrival is final only when no
 * task can start a transfer before it ends.  Rank 2 sends nothing before rank
 * 0's message reaches it, so once rank 3's message is in, its bound must be
 * raised again; if it stayed at that message's arrival the run was stuck.
 * Prints "T RANK end NS" (the clock at the end) and "BAD ..." on a wrong
 * value.  Usage: rebound */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, size, a = 0, b = 0, c = 0;
	MPI_Request r[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 4) {
		if (rank == 0)
			fprintf(stderr, "rebound: run with 4 ranks\n");
		MPI_Finalize();
		return 2;
	}
	if (rank == 2) {
		MPI_Irecv(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[0]);
		MPI_Irecv(&b, 1, MPI_INT, 3, 2, MPI_COMM_WORLD, &r[1]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		MPI_Wait(&r[1], MPI_STATUS_IGNORE);
		if (a != 10 || b != 32)
			printf("BAD rank 2 got %d %d\n", a, b);
	} else if (rank == 3) {
		b = 30;
		MPI_Send(&b, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
		usleep(300000);
		b = 32;
		MPI_Send(&b, 1, MPI_INT, 2, 2, MPI_COMM_WORLD);
		b = 31;
		MPI_Send(&b, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
	} else if (rank == 0) {
		MPI_Recv(&b, 1, MPI_INT, 3, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&c, 1, MPI_INT, 3, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (b != 30 || c != 31)
			printf("BAD rank 0 got %d %d\n", b, c);
		a = 10;
		MPI_Send(&a, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
	}
	printf("T %d end %.0f\n", rank, MPI_Wtime() * 1e9);
	MPI_Finalize();
	return 0;
}
