/* coll_allgather_recursive_doubling.c - recursive-doubling allgather: in step
 * k rank r exchanges with r ^ 2^k everything it has, the blocks of the 2^k
 * ranks of its aligned group.  Only for p a power of two: otherwise this is
 * the ring allgather (coll_allgather_ring.c), as MPICH also does not use
 * recursive doubling there.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_allgather_recursive_doubling(vlcoll_sched *s, const int64_t *blk)
{
	int p = s->p, m, r;

	if (p & (p - 1)) {
		vlcoll_allgather_ring(s, blk);
		return;
	}
	for (m = 1; m < p; m <<= 1)
		for (r = 0; r < p; r++) {
			int peer = r ^ m;
			int64_t mine = vlcoll_sum(blk, 0, p, r & -m, (r & -m) + m);

			vlcoll_sendrecv(s, r, peer, mine, peer,
					vlcoll_sum(blk, 0, p, peer & -m, (peer & -m) + m));
		}
}
