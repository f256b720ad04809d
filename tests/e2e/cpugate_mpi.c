/* cpugate_mpi.c - the CPU gate ([simulation] cpus, tests/e2e/test_cpugate.sh).
 *
 *   cpugate_mpi busy MS ROUNDS   every rank computes MS ms of CPU ROUNDS times
 *                                (an MPI_Iprobe between rounds); rank 0 prints
 *                                "overlap K": the most ranks that computed at
 *                                once in real time
 *   cpugate_mpi sleep MS         rank 0 sends each rank a message, then sleeps
 *                                MS ms of real time outside MPI; the others
 *                                receive it and compute 20 ms; rank 0 prints
 *                                "before K of N": how many of them began
 *                                computing before its sleep ended (the gate
 *                                takes back a token whose holder does not
 *                                compute)
 * Real times are read with the clock_gettime system call itself (the layer
 * makes the library function virtual).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double real_now(void)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_now(void)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* compute ms of CPU; the real interval it took in iv[0..1] */
static void busy(double ms, double *iv)
{
	volatile double x = 1.0;
	double end;

	iv[0] = real_now();
	end = cpu_now() + ms / 1e3;
	while (cpu_now() < end)
		x = x * 1.0000001 + 1e-9;
	iv[1] = real_now();
}

int main(int argc, char **argv)
{
	int rank, np, flag, i, j, r;
	double *iv, *all = NULL;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc == 4 && !strcmp(argv[1], "busy")) {
		int rounds = atoi(argv[3]), k, best = 0;
		iv = malloc(sizeof(double) * 2 * rounds);
		MPI_Barrier(MPI_COMM_WORLD);
		for (r = 0; r < rounds; r++) {
			busy(atof(argv[2]), iv + 2 * r);
			MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
		}
		if (rank == 0)
			all = malloc(sizeof(double) * 2 * rounds * np);
		MPI_Gather(iv, 2 * rounds, MPI_DOUBLE, all, 2 * rounds, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		if (rank == 0) {
			/* at each interval's start: how many intervals hold it */
			for (i = 0; i < rounds * np; i++) {
				for (k = 0, j = 0; j < rounds * np; j++)
					if (all[2 * j] <= all[2 * i] && all[2 * i] < all[2 * j + 1])
						k++;
				if (k > best)
					best = k;
			}
			printf("overlap %d\n", best);
		}
	} else if (argc == 3 && !strcmp(argv[1], "sleep")) {
		double t[2] = { 0, 0 }, end = 0;
		int before = 0;
		all = malloc(sizeof(double) * 2 * np);
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			/* the others wait in the layer until these are sent: rank 0
			 * holds the token when it sleeps */
			for (i = 1; i < np; i++)
				MPI_Send(&i, 1, MPI_INT, i, 1, MPI_COMM_WORLD);
			usleep((useconds_t)(atof(argv[2]) * 1000));
			end = real_now();
		} else {
			MPI_Recv(&j, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			busy(20, t);
		}
		MPI_Gather(t, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		if (rank == 0) {
			for (i = 1; i < np; i++)
				before += all[2 * i] < end;
			printf("before %d of %d\n", before, np - 1);
		}
	} else {
		if (rank == 0)
			fprintf(stderr, "usage: cpugate_mpi busy MS ROUNDS | sleep MS\n");
		MPI_Finalize();
		return 2;
	}
	MPI_Finalize();
	return 0;
}
