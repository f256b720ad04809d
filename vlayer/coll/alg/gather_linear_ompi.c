/* gather_linear_ompi.c - Open MPI's basic linear gather (gather_intra_basic_linear,
 * and the basic component's gatherv, which Open MPI runs for every gatherv):
 * every rank sends its block to the root (blocking), which receives them in
 * rank order 0, 1 ... (blocking), itself left out.  A block of 0 bytes is not
 * sent (gatherv skips it; Open MPI's rules never choose this algorithm for a
 * gather of 0 bytes).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_gather_linear_ompi(vlcoll_sched *s, int root, const int64_t *blk)
{
	int r;

	for (r = 0; r < s->p; r++)
		if (r != root)
			vlcoll_maybe_transfer(s, r, root, blk[r]);
}
