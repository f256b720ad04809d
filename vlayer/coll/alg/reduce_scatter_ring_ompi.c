/* reduce_scatter_ring_ompi.c - Open MPI's ring reduce_scatter
 * (reduce_scatter_intra_ring): the blocks of the ring reduce_scatter (step k
 * = 1 .. p - 1: rank r sends its partial result of block r - k to r + 1 and
 * receives that of block r - k - 1 from r - 1, mod p), but the receive of
 * each step is posted one step ahead and the sends are blocking: rank r posts
 * the first receive, sends block r - 1; then for each further step posts the
 * next receive, waits for the previous one and sends the block it completed;
 * at the end it waits for the last receive (its own block).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_reduce_scatter_ring_ompi(vlcoll_sched *s, const int64_t *blk)
{
	int p = s->p, k, r;

	if (p < 2)
		return;
	for (r = 0; r < p; r++) {
		int to = (r + 1) % p, from = (r - 1 + p) % p, h;

		h = vlcoll_irecv(s, r, from, blk[(r - 2 + 2 * p) % p]);
		vlcoll_send(s, r, to, blk[from]);
		for (k = 2; k < p; k++) {
			int next = vlcoll_irecv(s, r, from, blk[(r - k - 1 + 2 * p) % p]);

			vlcoll_wait(s, r, h);
			vlcoll_send(s, r, to, blk[(r - k + p) % p]);
			h = next;
		}
		vlcoll_wait(s, r, h);
	}
}
