/* spin.h - the real work of one job of the farms' -m option (farm_pvm.c,
 * farm_mpi.c): N iterations of a loop the compiler cannot drop. */
#ifndef FARM_SPIN_H
#define FARM_SPIN_H
static double spin(long n)
{
	volatile double x = 1.0;
	long i;
	for (i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}
#endif
