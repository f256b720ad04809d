/* coll_reduce_scatter_linear.c - reduce_scatter as a binomial reduce of the
 * whole vector (the sum of the blocks) to rank 0 followed by a linear scatter
 * of the blocks from rank 0.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_reduce_scatter_linear(vlcoll_sched *s, const int64_t *blk)
{
	vlcoll_reduce_binomial(s, 0, vlcoll_sum(blk, 0, s->p, 0, s->p));
	vlcoll_scatter_linear(s, 0, blk);
}
