/* allreduce.c - ITERS allreduces (sum) of COUNT doubles, checked.
 * usage: mpirun -np N allreduce [-n ITERS] [-c COUNT] [-m]
 * Rank 0 prints the time per allreduce (MPI_Wtime: virtual under vlayer);
 * -m also the largest peak resident memory of a rank (VmHWM, Linux). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, np, iters = 100, count = 1024, i, it, bad = 0, mem = 0;
	double *in, *out, t0, t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-m"))
			mem = 1;
		else if (i + 1 >= argc)
			break;
		else if (!strcmp(argv[i], "-n"))
			iters = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-c"))
			count = atoi(argv[++i]);
	}
	in = malloc(sizeof(double) * (size_t)count);
	out = malloc(sizeof(double) * (size_t)count);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (it = 0; it < iters; it++) {
		for (i = 0; i < count; i++)
			in[i] = rank + i + it;
		MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		for (i = 0; i < count; i++)
			bad += out[i] != (double)np * (i + it) + (double)np * (np - 1) / 2;
	}
	t = MPI_Wtime() - t0;
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("allreduce: %d ranks, %d x %d doubles: %.3f us each, %s\n", np, iters, count,
		       t / iters * 1e6, bad ? "WRONG SUMS" : "sums correct");
	if (mem) {
		long kb = 0, maxkb = 0;
		char line[256];
		FILE *f = fopen("/proc/self/status", "r");
		while (f && fgets(line, sizeof line, f))
			if (!strncmp(line, "VmHWM:", 6))
				kb = atol(line + 6);
		if (f)
			fclose(f);
		MPI_Reduce(&kb, &maxkb, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
		if (rank == 0)
			printf("peak resident memory of a rank: %ld KiB\n", maxkb);
	}
	free(in);
	free(out);
	MPI_Finalize();
	return bad ? 1 : 0;
}
