/* coll_scatter_linear.c - linear scatter: the root sends each rank its block,
 * in relative order root + 1, root + 2 ...
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_scatter_linear(vlcoll_sched *s, int root, const int64_t *blk)
{
	int v;

	for (v = 1; v < s->p; v++) {
		int r = vlcoll_abs(v, root, s->p);

		vlcoll_send(s, root, r, blk[r]);
		vlcoll_recv(s, r, root, blk[r]);
	}
}
