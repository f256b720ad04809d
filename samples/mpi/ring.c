/* ring.c - a token of SIZE bytes travels LAPS times around all ranks.
 * usage: mpirun -np N ring [-n LAPS] [-s SIZE]
 * Rank 0 prints the time per lap and per hop (MPI_Wtime: virtual under vlayer)
 * and checks that the token came back intact. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, np, laps = 10, size = 1024, i, l, bad = 0;
	unsigned char *tok;
	double t0, t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			if (rank == 0)
				printf("usage: mpirun -np N ring [-n LAPS] [-s SIZE]   (N >= 2)\n");
			MPI_Finalize();
			return 0;
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			laps = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			size = atoi(argv[++i]);
		} else {
			if (rank == 0)
				fprintf(stderr, "ring: bad argument %s (try -h)\n", argv[i]);
			MPI_Finalize();
			return 2;
		}
	}
	/* a ring of one would send to itself before receiving: with MPI_Send that
	 * may block for ever (it does in Open MPI), so say so instead */
	if (np < 2 || laps < 0 || size < 0) {
		if (rank == 0)
			fprintf(stderr, "ring: needs 2 or more ranks (mpirun -np N, N >= 2), LAPS and SIZE >= 0\n");
		MPI_Finalize();
		return 2;
	}
	tok = malloc((size_t)size + 1);
	for (i = 0; i < size; i++)
		tok[i] = (unsigned char)(rank == 0 ? i * 7 : 0);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (l = 0; l < laps; l++) {
		if (rank == 0) {
			MPI_Send(tok, size, MPI_BYTE, 1 % np, l, MPI_COMM_WORLD);
			MPI_Recv(tok, size, MPI_BYTE, np - 1, l, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(tok, size, MPI_BYTE, rank - 1, l, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(tok, size, MPI_BYTE, (rank + 1) % np, l, MPI_COMM_WORLD);
		}
	}
	t = MPI_Wtime() - t0;
	if (rank == 0) {
		for (i = 0; i < size; i++)
			bad += tok[i] != (unsigned char)(i * 7);
		printf("ring: %d ranks, %d laps of %d bytes: %.3f us per lap, %.3f us per hop, %s\n",
		       np, laps, size, t / laps * 1e6, t / laps / np * 1e6,
		       bad ? "TOKEN CORRUPT" : "token intact");
	}
	free(tok);
	MPI_Finalize();
	return bad ? 1 : 0;
}
