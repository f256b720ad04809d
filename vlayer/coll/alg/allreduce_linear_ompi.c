/* allreduce_linear_ompi.c - Open MPI's basic linear allreduce
 * (allreduce_intra_basic_linear): its basic linear reduce to rank 0
 * (reduce_linear_ompi.c), then its basic linear bcast from rank 0
 * (bcast_linear_ompi.c).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_allreduce_linear_ompi(vlcoll_sched *s, int64_t n)
{
	vlcoll_reduce_linear_ompi(s, 0, n);
	vlcoll_bcast_linear_ompi(s, 0, n);
}
