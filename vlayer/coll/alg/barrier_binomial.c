/* coll_barrier_binomial.c - binomial barrier: empty messages up a binomial
 * tree to rank 0 (as a binomial reduce) and back down (as a binomial bcast).
 */
#include "vlayer/coll/sched.h"

void vli_coll_barrier_binomial(vli_coll_sched *s)
{
	vli_coll_reduce_binomial(s, 0, 0);
	vli_coll_bcast_binomial(s, 0, 0);
}
