/* mpiV.h - drop-in replacement for mpi.h (the CLUE way, for MPI).
 *
 * Replace  #include <mpi.h>  by  #include "mpiV.h"  (or compile with
 * -include mpiV.h) and link with -lvlayer-mpi before the MPI libraries
 * (vlcc -mpi does the linking; vlrun needs neither: it preloads the layer).
 * The layer works through the PMPI profiling interface, so nothing in the
 * program changes: the header only adds the vlayer API (vlayer.h) and makes
 * a link without the layer fail loudly instead of running unvirtualized.
 */
#ifndef MPIV_H
#define MPIV_H
#include <mpi.h>
#include <vlayer.h>
extern int vl_mpi_layer_present;
static int *const vl_mpi_layer_ref __attribute__((unused)) = &vl_mpi_layer_present;
#endif
