/* coll_allgather_linear.c - allgather as a linear gather to rank 0 followed by
 * a binomial broadcast of all the blocks from rank 0.
 */
#include "vlayer/coll/sched.h"

void vli_coll_allgather_linear(vli_coll_sched *s, const int64_t *blk)
{
	vli_coll_gather_linear(s, 0, blk);
	vli_coll_bcast_binomial(s, 0, vli_coll_sum(blk, 0, s->p, 0, s->p));
}
