/* bsp_steps.c - a program of known M-steps for tests/e2e/test_vlmodel.sh (run on
 * 4 ranks with compute = ignore, so all computation is vl_compute()).
 *
 * usage: mpirun -np 4 bsp_steps        steps closed by collectives:
 *   1  w = (r+1) ms; rank r sends 1000 (r+1) bytes to r+1 (mod p); barrier
 *   2  w = 0.5 ms; bcast of 2048 bytes from rank 1
 *   3  gather of 100 bytes per rank to rank 2
 *   4  alltoall of 64 bytes per pair
 *   5  scan (sum) of 8 doubles
 *   6  rank 0 computes 2 ms (a last step without communication)
 * usage: mpirun -np 4 bsp_steps -phase  no collectives: 3 rounds of
 *   w = (r+1) ms, then rank r sends 1000 (r+1) bytes to r+1 (mod p) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vlayer.h"

static void ring(int rank, int np)
{
	static char out[8192], in[8192];
	int to = (rank + 1) % np, from = (rank + np - 1) % np;
	MPI_Sendrecv(out, 1000 * (rank + 1), MPI_CHAR, to, 7, in, (int)sizeof in, MPI_CHAR, from, 7,
	             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void collectives(int rank, int np)
{
	char b[2048], g[100], *all = malloc((size_t)np * 100);
	char *a2a = calloc((size_t)np, 64), *a2b = calloc((size_t)np, 64);
	double s[8] = {0}, t[8];
	memset(b, rank, sizeof b);
	memset(g, rank, sizeof g);
	vl_compute(1e-3 * (rank + 1));
	ring(rank, np);
	MPI_Barrier(MPI_COMM_WORLD);
	vl_compute(0.5e-3);
	MPI_Bcast(b, (int)sizeof b, MPI_CHAR, 1, MPI_COMM_WORLD);
	MPI_Gather(g, 100, MPI_CHAR, all, 100, MPI_CHAR, 2, MPI_COMM_WORLD);
	MPI_Alltoall(a2a, 64, MPI_CHAR, a2b, 64, MPI_CHAR, MPI_COMM_WORLD);
	MPI_Scan(s, t, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		vl_compute(2e-3);
	free(all);
	free(a2a);
	free(a2b);
}

int main(int argc, char **argv)
{
	int rank, np;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc > 1 && !strcmp(argv[1], "-phase")) {
		for (int k = 0; k < 3; k++) {
			vl_compute(1e-3 * (rank + 1));
			ring(rank, np);
		}
	} else {
		collectives(rank, np);
	}
	if (rank == 0)
		printf("bsp_steps: %d ranks done\n", np);
	MPI_Finalize();
	return 0;
}
