/* coll_scatter_binomial.c - binomial-tree scatter (MPICH scatter_intra_binomial):
 * the pattern of the binomial broadcast, but a message carries the blocks of
 * the receiver's whole subtree: relative ranks [v, v + lowbit(v)).
 */
#include "vlayer/coll/alg/alg.h"

static int vlcoll_min(int a, int b)
{
	return a < b ? a : b;
}

void vlcoll_scatter_binomial(vlcoll_sched *s, int root, const int64_t *blk)
{
	int p = s->p, top, v, m;

	for (top = 1; top < p; top <<= 1)
		;
	for (v = 0; v < p; v++) {
		int r = vlcoll_abs(v, root, p), low = v ? v & -v : top;

		if (v)
			vlcoll_recv(s, r, vlcoll_abs(v - low, root, p),
				      vlcoll_sum(blk, root, p, v, vlcoll_min(v + low, p)));
		for (m = low >> 1; m > 0; m >>= 1)
			if (v + m < p)
				vlcoll_send(s, r, vlcoll_abs(v + m, root, p),
					      vlcoll_sum(blk, root, p, v + m,
							   vlcoll_min(v + 2 * m, p)));
	}
}
