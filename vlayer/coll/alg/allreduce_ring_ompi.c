/* allreduce_ring_ompi.c - Open MPI's ring allreduce (allreduce_intra_ring,
 * and allreduce_intra_ring_segmented with the segment size 0 the decision
 * rules give, which runs it).  The n bytes count as n elements; if n < p,
 * recursive doubling.  Block b has n / p bytes, one more for b < n % p.
 * Reduce-scatter: rank r posts a receive from r - 1, sends (blocking) block r
 * to r + 1; for k = 2 .. p - 1 it posts the next receive, waits for the
 * previous one and sends block r - k + 1; then waits for the last.
 * Allgather: for k = 0 .. p - 2, one Open MPI sendrecv: block r + 1 - k to
 * r + 1, block r - k from r - 1 (all mod p).
 */
#include <stdlib.h>
#include "vlayer/coll/alg/alg.h"

void vlcoll_allreduce_ring_ompi(vlcoll_sched *s, int64_t n)
{
	int p = s->p, r, k;
	int64_t *blk;

	if (p < 2)
		return;
	if (n < p) {
		vlcoll_allreduce_recursive_doubling(s, n);
		return;
	}
	blk = vlcoll_alloc((size_t)p, sizeof(*blk));
	for (k = 0; k < p; k++)
		blk[k] = n / p + (k < n % p);
	for (r = 0; r < p; r++) {
		int to = (r + 1) % p, from = (r - 1 + p) % p, prev;

		/* the k-th message from r - 1 carries block r - k (its first: r - 1) */
		prev = vlcoll_irecv(s, r, from, blk[from]);
		vlcoll_send(s, r, to, blk[r]);
		for (k = 2; k < p; k++) {
			int h = vlcoll_irecv(s, r, from, blk[(r - k + p) % p]);

			vlcoll_wait(s, r, prev);
			vlcoll_send(s, r, to, blk[(r - k + 1 + p) % p]);
			prev = h;
		}
		vlcoll_wait(s, r, prev);
		for (k = 0; k < p - 1; k++)
			vlcoll_sendrecv_ompi(s, r, to, blk[(r + 1 - k + p) % p], from,
					     blk[(r - k + p) % p]);
	}
	free(blk);
}
