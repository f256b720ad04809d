/* coll_gather_binomial.c - binomial-tree gather (MPICH gather_intra_binomial):
 * the pattern of the binomial reduce, but a message carries the blocks of the
 * sender's whole subtree: relative ranks [v, v + m) when v sends at bit m.
 */
#include "vlayer/coll/sched.h"

static int vli_min(int a, int b)
{
	return a < b ? a : b;
}

void vli_coll_gather_binomial(vli_coll_sched *s, int root, const int64_t *blk)
{
	int p = s->p, v, m;

	for (v = 0; v < p; v++) {
		int r = vli_coll_abs(v, root, p);

		for (m = 1; m < p; m <<= 1) {
			if (v & m) {
				vli_coll_send(s, r, vli_coll_abs(v - m, root, p),
					      vli_coll_sum(blk, root, p, v, vli_min(v + m, p)));
				break;
			}
			if (v + m < p)
				vli_coll_recv(s, r, vli_coll_abs(v + m, root, p),
					      vli_coll_sum(blk, root, p, v + m,
							   vli_min(v + 2 * m, p)));
		}
	}
}
