/* freed.c - rendezvous sends the program frees (MPI_Request_free) before
 * their receiver has answered (test_links): each rank but the last sends
 * 64 KiB to the next with MPI_Isend and frees the request at once, computes
 * a while (rank r: r * 100 us), receives from the one before, then all meet
 * in a barrier; ROUNDS times.  The layer keeps watching those answers
 * (vlayer/mpi/request.c, vlmpi_req_detach).  Usage: freed ROUNDS.  Each rank
 * prints "T RANK end NS" and "BAD ..." on a wrong payload. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vlayer.h>

#define N 65536

int main(int argc, char **argv)
{
	int rank, np, rounds, it;
	static char sb[N], rb[N];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rounds = argc > 1 ? atoi(argv[1]) : 5;
	for (it = 0; it < rounds; it++) {
		MPI_Request r;

		if (rank < np - 1) {
			memset(sb, it + 1, N);
			MPI_Isend(sb, N, MPI_BYTE, rank + 1, it, MPI_COMM_WORLD, &r);
			MPI_Request_free(&r);
		}
		vl_compute(1e-4 * rank);
		if (rank > 0) {
			MPI_Recv(rb, N, MPI_BYTE, rank - 1, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (rb[0] != it + 1 || rb[N - 1] != it + 1)
				printf("BAD %d: round %d\n", rank, it);
		}
		/* (the send buffer is reused only after everyone has received) */
		MPI_Barrier(MPI_COMM_WORLD);
	}
	printf("T %d end %lld\n", rank, (long long)vl_time_ns());
	MPI_Finalize();
	return 0;
}
