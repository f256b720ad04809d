/* coll_gather_binomial.c - binomial-tree gather (MPICH gather_intra_binomial):
 * the pattern of the binomial reduce, but a message carries the blocks of the
 * sender's whole subtree: relative ranks [v, v + m) when v sends at bit m.
 */
#include "vlayer/coll/alg/alg.h"

static int vlcoll_min(int a, int b)
{
	return a < b ? a : b;
}

void vlcoll_gather_binomial(vlcoll_sched *s, int root, const int64_t *blk)
{
	int p = s->p, v, m;

	for (v = 0; v < p; v++) {
		int r = vlcoll_abs(v, root, p);

		for (m = 1; m < p; m <<= 1) {
			if (v & m) {
				vlcoll_send(s, r, vlcoll_abs(v - m, root, p),
					      vlcoll_sum(blk, root, p, v, vlcoll_min(v + m, p)));
				break;
			}
			if (v + m < p)
				vlcoll_recv(s, r, vlcoll_abs(v + m, root, p),
					      vlcoll_sum(blk, root, p, v + m,
							   vlcoll_min(v + 2 * m, p)));
		}
	}
}
