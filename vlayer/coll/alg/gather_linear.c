/* coll_gather_linear.c - linear gather: every rank sends its block to the
 * root, which receives them in relative order root + 1, root + 2 ...
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_gather_linear(vlcoll_sched *s, int root, const int64_t *blk)
{
	int v;

	for (v = 1; v < s->p; v++) {
		int r = vlcoll_abs(v, root, s->p);

		vlcoll_send(s, r, root, blk[r]);
		vlcoll_recv(s, root, r, blk[r]);
	}
}
