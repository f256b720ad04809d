/* coll_bcast_binomial.c - binomial-tree broadcast (MPICH bcast_intra_binomial):
 * relative rank v > 0 receives from v - lowbit(v), then every rank sends to
 * v + m for m = lowbit(v)/2, lowbit(v)/4 ... 1 (the root: from the largest
 * power of two below p down), skipping children >= p.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_bcast_binomial(vlcoll_sched *s, int root, int64_t n)
{
	int p = s->p, top, v, m;

	for (top = 1; top < p; top <<= 1)
		;
	for (v = 0; v < p; v++) {
		int r = vlcoll_abs(v, root, p), low = v ? v & -v : top;

		if (v)
			vlcoll_recv(s, r, vlcoll_abs(v - low, root, p), n);
		for (m = low >> 1; m > 0; m >>= 1)
			if (v + m < p)
				vlcoll_send(s, r, vlcoll_abs(v + m, root, p), n);
	}
}
