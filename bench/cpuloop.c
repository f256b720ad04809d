/* cpuloop.c - the floor of repeatable measured computation on this machine
 * (bench/repeat.sh): the thread CPU time of one fixed loop of integer
 * divisions and floating-point multiply-adds (no memory traffic, no system
 * calls), N iterations, printed in seconds.  Run several times: its spread is
 * what the machine itself adds to any CPU time the layer measures.
 *   cpuloop N
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	volatile double sink;
	long n = argc > 1 ? atol(argv[1]) : 100000000, k;
	double a = cpu(), r = 0;

	for (k = 0; k < n; k++)
		r += (double)(k % 9 + 1) * (double)(k % 11 - 4);
	sink = r;
	(void)sink;
	printf("%.6f\n", cpu() - a);
	return 0;
}
