/* coll_allgather_linear.c - allgather as a linear gather to rank 0 followed by
 * a binomial broadcast of all the blocks from rank 0.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_allgather_linear(vlcoll_sched *s, const int64_t *blk)
{
	vlcoll_gather_linear(s, 0, blk);
	vlcoll_bcast_binomial(s, 0, vlcoll_sum(blk, 0, s->p, 0, s->p));
}
