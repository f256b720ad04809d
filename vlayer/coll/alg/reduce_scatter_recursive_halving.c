/* reduce_scatter_recursive_halving.c - Open MPI's recursive-halving
 * reduce_scatter (reduce_scatter_intra_basic_recursivehalving).  Nothing is
 * sent if the vector (the sum of the blocks) is empty.  With p' the largest
 * power of two <= p and rem = p - p': the fold of ompi_redscat.c (each even
 * rank below 2 rem sends the whole vector to the odd one above it), which
 * leaves p' ranks with p' groups of blocks.  In log2 p' steps, at distances p'/2, p'/4
 * ... 1, a rank keeps the half of its window of groups on its side and
 * exchanges the other half with its partner: posts the receive, sends
 * (blocking), waits, each skipped when empty.  At the end each odd rank below
 * 2 rem sends the even one its block (blocking, unless empty).
 */
#include "vlayer/coll/alg/alg.h"

/* Open MPI's exchange here: either side skipped when it carries nothing. */
static void vlcoll_exchange(vlcoll_sched *s, int r, int peer, int64_t sbytes, int64_t rbytes)
{
	int h = rbytes > 0 ? vlcoll_irecv(s, r, peer, rbytes) : -1;

	if (sbytes > 0)
		vlcoll_send(s, r, peer, sbytes);
	if (h >= 0)
		vlcoll_wait(s, r, h);
}

void vlcoll_reduce_scatter_recursive_halving(vlcoll_sched *s, const int64_t *blk)
{
	int p = s->p, steps, pof2 = vlcoll_pof2_below(p, &steps), rem = p - pof2, r, v;
	int64_t total = vlcoll_sum(blk, 0, p, 0, p);

	if (total == 0)
		return;
	vlcoll_rs_fold(s, rem, total);
	for (v = 0; v < pof2; v++) {
		int me = vlcoll_rs_real(v, rem), lo = 0, hi = pof2, m;

		for (m = pof2 >> 1; m > 0; m >>= 1) {
			int vpeer = v ^ m, peer = vlcoll_rs_real(vpeer, rem), mid = lo + m;

			if (v < vpeer) {
				vlcoll_exchange(s, me, peer, vlcoll_rs_groups(blk, rem, mid, hi),
						vlcoll_rs_groups(blk, rem, lo, mid));
				hi = mid;
			} else {
				vlcoll_exchange(s, me, peer, vlcoll_rs_groups(blk, rem, lo, mid),
						vlcoll_rs_groups(blk, rem, mid, hi));
				lo = mid;
			}
		}
	}
	for (r = 0; r < 2 * rem; r += 2)
		if (blk[r] > 0)
			vlcoll_transfer(s, r + 1, r, blk[r]);
}
