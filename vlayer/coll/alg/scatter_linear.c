/* coll_scatter_linear.c - linear scatter: the root sends each rank its block,
 * in relative order root + 1, root + 2 ...
 */
#include "vlayer/coll/sched.h"

void vli_coll_scatter_linear(vli_coll_sched *s, int root, const int64_t *blk)
{
	int v;

	for (v = 1; v < s->p; v++) {
		int r = vli_coll_abs(v, root, s->p);

		vli_coll_send(s, root, r, blk[r]);
		vli_coll_recv(s, r, root, blk[r]);
	}
}
