/* scatter_linear_nb.c - Open MPI's linear_nb scatter (scatter_intra_linear_nb,
 * with its default blocking-send ratio of 0: no send is blocking): the root
 * starts a send of each other rank's block in rank order 0, 1 ... and waits
 * for all; every other rank receives its block.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_scatter_linear_nb(vlcoll_sched *s, int root, const int64_t *blk)
{
	int r;

	for (r = 0; r < s->p; r++)
		if (r != root) {
			vlcoll_isend(s, root, r, blk[r]);
			vlcoll_recv(s, r, root, blk[r]);
		}
	vlcoll_waitall(s, root);
}
