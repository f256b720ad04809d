/* coll_barrier_binomial.c - binomial barrier: empty messages up a binomial
 * tree to rank 0 (as a binomial reduce) and back down (as a binomial bcast).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_barrier_binomial(vlcoll_sched *s)
{
	vlcoll_reduce_binomial(s, 0, 0);
	vlcoll_bcast_binomial(s, 0, 0);
}
