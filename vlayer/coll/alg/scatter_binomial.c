/* coll_scatter_binomial.c - binomial-tree scatter (MPICH scatter_intra_binomial):
 * the pattern of the binomial broadcast, but a message carries the blocks of
 * the receiver's whole subtree: relative ranks [v, v + lowbit(v)).
 */
#include "vlayer/coll/sched.h"

static int vli_min(int a, int b)
{
	return a < b ? a : b;
}

void vli_coll_scatter_binomial(vli_coll_sched *s, int root, const int64_t *blk)
{
	int p = s->p, top, v, m;

	for (top = 1; top < p; top <<= 1)
		;
	for (v = 0; v < p; v++) {
		int r = vli_coll_abs(v, root, p), low = v ? v & -v : top;

		if (v)
			vli_coll_recv(s, r, vli_coll_abs(v - low, root, p),
				      vli_coll_sum(blk, root, p, v, vli_min(v + low, p)));
		for (m = low >> 1; m > 0; m >>= 1)
			if (v + m < p)
				vli_coll_send(s, r, vli_coll_abs(v + m, root, p),
					      vli_coll_sum(blk, root, p, v + m,
							   vli_min(v + 2 * m, p)));
	}
}
