/* coll_allgather_ring.c - ring allgather: in step k = 0 .. p - 2 rank r passes
 * block r - k to r + 1 and receives block r - k - 1 from r - 1 (mod p).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_allgather_ring(vlcoll_sched *s, const int64_t *blk)
{
	int p = s->p, k, r;

	for (k = 0; k < p - 1; k++)
		for (r = 0; r < p; r++) {
			vlcoll_sendrecv(s, r, (r + 1) % p, blk[(r - k + p) % p], (r - 1 + p) % p,
					blk[(r - k - 1 + 2 * p) % p]);
		}
}
