/* coll_allreduce_reduce_bcast.c - allreduce as a binomial reduce to rank 0
 * followed by a binomial broadcast from rank 0.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_allreduce_reduce_bcast(vlcoll_sched *s, int64_t n)
{
	vlcoll_reduce_binomial(s, 0, n);
	vlcoll_bcast_binomial(s, 0, n);
}
