/* scatter_linear_ompi.c - Open MPI's basic linear scatter (scatter_intra_basic_linear,
 * and the basic component's scatterv, which Open MPI runs for every
 * scatterv): the root sends each other rank its block in rank order 0, 1 ...
 * (blocking), which receives it.  A block of 0 bytes is not sent (scatterv
 * skips it; Open MPI's rules never choose this algorithm for a scatter of 0
 * bytes).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_scatter_linear_ompi(vlcoll_sched *s, int root, const int64_t *blk)
{
	int r;

	for (r = 0; r < s->p; r++)
		if (r != root && blk[r] > 0)
			vlcoll_transfer(s, root, r, blk[r]);
}
