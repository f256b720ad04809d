/* threads_mpi.c - computation in another thread (tests/e2e/test_startup.sh):
 *
 *   threads_mpi SECONDS
 *
 * every rank starts a thread that computes SECONDS of CPU and waits for it
 * (0: no thread), then a barrier.  The layer measures the calling thread
 * only, and says at the end that the other thread's CPU time is not counted.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *work(void *arg)
{
	volatile double x = 1.0;
	double end = cpu_s() + *(double *)arg;

	while (cpu_s() < end)
		x = x * 1.0000001 + 1e-9;
	return NULL;
}

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 0.0;
	pthread_t t;

	MPI_Init(&argc, &argv);
	if (s > 0 && pthread_create(&t, NULL, work, &s) == 0)
		pthread_join(t, NULL);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
