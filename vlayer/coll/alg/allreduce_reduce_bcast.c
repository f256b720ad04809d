/* coll_allreduce_reduce_bcast.c - allreduce as a binomial reduce to rank 0
 * followed by a binomial broadcast from rank 0.
 */
#include "vlayer/coll/sched.h"

void vli_coll_allreduce_reduce_bcast(vli_coll_sched *s, int64_t n)
{
	vli_coll_reduce_binomial(s, 0, n);
	vli_coll_bcast_binomial(s, 0, n);
}
