/* reduce_scatter_recursive_doubling.c - Open MPI's recursive-doubling
 * reduce_scatter_block (reduce_scatter_block_intra_recursivedoubling).
 * Nothing is sent if the blocks are empty or p < 2.  At distances m = 1, 2,
 * 4 ... < p, rank r and its partner r ^ m exchange (Open MPI's sendrecv)
 * every block but those of the partner's subtree of m ranks (the ranks
 * [t, t + m), t the partner rounded down to a multiple of m).  A rank whose
 * partner does not exist (r ^ m >= p) gets that data within its own subtree
 * instead, by a recursive halving at distances m/2, m/4 ... 1: a rank that
 * has it sends it (blocking) to the one that does not, which receives it.
 */
#include "vlayer/coll/alg/alg.h"

/* Bytes of every block but those of the ranks [t, t + m) (those < p). */
static int64_t vlcoll_rd_others(const int64_t *blk, int p, int64_t total, int t, int m)
{
	int hi = t + m < p ? t + m : p;

	return t < p ? total - vlcoll_sum(blk, 0, p, t, hi) : total;
}

/* The halving within rank r's subtree of m ranks (rooted at cur) at the step
 * of distance m, when the partner subtree is short of ranks. */
static void vlcoll_rd_forward(vlcoll_sched *s, int r, int cur, int m, int64_t bytes)
{
	int have = s->p - cur - m, h;

	for (h = m >> 1; h > 0; h >>= 1) {
		int peer = r ^ h, root = r / (2 * h) * (2 * h);

		if (peer > r && r < root + have && peer >= root + have)
			vlcoll_send(s, r, peer, bytes);
		else if (peer < r && peer < root + have && r >= root + have)
			vlcoll_recv(s, r, peer, bytes);
	}
}

void vlcoll_reduce_scatter_recursive_doubling(vlcoll_sched *s, const int64_t *blk)
{
	int p = s->p, r, m;
	int64_t total = vlcoll_sum(blk, 0, p, 0, p);

	if (p < 2 || total == 0)
		return;
	for (r = 0; r < p; r++)
		for (m = 1; m < p; m <<= 1) {
			int peer = r ^ m, cur = r / m * m, pt = peer / m * m;
			int64_t in = vlcoll_rd_others(blk, p, total, pt, m);

			if (peer < p)
				vlcoll_sendrecv_ompi(s, r, peer, vlcoll_rd_others(blk, p, total, cur, m),
						     peer, in);
			if (pt + m > p)
				vlcoll_rd_forward(s, r, cur, m, in);
		}
}
