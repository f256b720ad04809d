/* coll_reduce_binomial.c - binomial-tree reduce (MPICH reduce_intra_binomial,
 * commutative operation): for m = 1, 2, 4 ... relative rank v receives the
 * partial result of v + m (if < p) while bit m of v is clear, and sends its
 * own to v - m at the first set bit.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_reduce_binomial(vlcoll_sched *s, int root, int64_t n)
{
	int p = s->p, v, m;

	for (v = 0; v < p; v++) {
		int r = vlcoll_abs(v, root, p);

		for (m = 1; m < p; m <<= 1) {
			if (v & m) {
				vlcoll_send(s, r, vlcoll_abs(v - m, root, p), n);
				break;
			}
			if (v + m < p)
				vlcoll_recv(s, r, vlcoll_abs(v + m, root, p), n);
		}
	}
}
