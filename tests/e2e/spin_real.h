/* spin_real.h - for the e2e test programs: spin for s seconds of real time
 * (the system call itself: under the layer, clock_gettime is the virtual
 * clock), so that another rank gets ahead in real time without this one's
 * virtual clock moving (computation ignored). */
#ifndef VL_TESTS_SPIN_REAL_H
#define VL_TESTS_SPIN_REAL_H
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void spin_real(double s)
{
	struct timespec a, b;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &a);
	do
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &b);
	while ((double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec) < s);
}
#endif
