/* pingpong.c - MPI ping-pong between ranks 0 and 1 over message sizes.
 * usage: mpirun -np 2 pingpong [-n REPS] [SIZE ...]   (sizes in bytes)
 * Prints, per size, the round-trip time and the bandwidth, measured with
 * MPI_Wtime (virtual time when run under vlayer). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	static const long defsizes[] = { 8, 1024, 65536, 1048576 };
	long sizes[64], maxsize = 0;
	int nsizes = 0, reps = 100, rank, np, i, r;
	char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (nsizes < 64)
			sizes[nsizes++] = atol(argv[i]);
	}
	if (!nsizes)
		for (; nsizes < 4; nsizes++)
			sizes[nsizes] = defsizes[nsizes];
	for (i = 0; i < nsizes; i++)
		if (sizes[i] > maxsize)
			maxsize = sizes[i];
	if (np < 2 || reps < 1) {
		if (!rank)
			fprintf(stderr, "pingpong: needs 2 ranks and -n >= 1\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	buf = calloc((size_t)maxsize + 1, 1);
	if (!rank)
		printf("%10s %8s %14s %12s\n", "bytes", "reps", "rtt_us", "MB/s");
	for (i = 0; i < nsizes; i++) {
		int n = (int)sizes[i];
		double t0, t;
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (r = 0; r < reps; r++) {
			if (rank == 0) {
				MPI_Send(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
				MPI_Recv(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else if (rank == 1) {
				MPI_Recv(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
			}
		}
		t = (MPI_Wtime() - t0) / reps;
		if (!rank)
			printf("%10d %8d %14.3f %12.3f\n", n, reps, t * 1e6,
			       t > 0 ? 2.0 * n / t / 1e6 : 0.0);
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
