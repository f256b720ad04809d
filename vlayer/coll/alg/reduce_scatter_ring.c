/* coll_reduce_scatter_ring.c - ring reduce_scatter: in step k = 0 .. p - 2
 * rank r sends its partial result of block r - k - 1 to r + 1 and receives
 * that of block r - k - 2 from r - 1 (mod p), so that after the last step it
 * holds block r fully reduced.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_reduce_scatter_ring(vlcoll_sched *s, const int64_t *blk)
{
	int p = s->p, k, r;

	for (k = 0; k < p - 1; k++)
		for (r = 0; r < p; r++) {
			vlcoll_sendrecv(s, r, (r + 1) % p, blk[(r - k - 1 + p) % p],
					(r - 1 + p) % p, blk[(r - k - 2 + 2 * p) % p]);
		}
}
