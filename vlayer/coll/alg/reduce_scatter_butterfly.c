/* reduce_scatter_butterfly.c - Open MPI's butterfly reduce_scatter
 * (reduce_scatter_intra_butterfly, after Traeff).  With p' the largest power
 * of two <= p and rem = p - p': the fold of ompi_redscat.c (each even rank
 * below 2 rem sends the whole vector to the odd one above it), which leaves
 * p' ranks with p' groups of blocks.  In log2 p' steps, at distances 1, 2, 4 ..., a
 * rank halves its window of groups: it keeps the lower half if its bit of
 * that distance is 0, else the upper one, and sends the other half to its
 * partner (Open MPI's sendrecv, also when empty).  Virtual rank v then holds
 * the group of v's bits reversed (its mirror m): it sends the pair's first
 * block to the even rank of that pair when m < rem, then swaps the last
 * block with m's rank for its own (Open MPI's sendrecv; nothing when m = v).
 * A rank that dropped out receives its block from the mirror of its pair.
 *
 * Its reduce_scatter_block (reduce_scatter_block_intra_butterfly) is the
 * same, except that nothing is sent if the blocks are empty, and that on a
 * power of two p it permutes the blocks by the mirror before the steps, so
 * that each rank ends with its own block: no final swap.
 */
#include "vlayer/coll/alg/alg.h"

/* The lowest `bits` bits of x in reverse order. */
static int vlcoll_mirror(int x, int bits)
{
	int y = 0, i;

	for (i = 0; i < bits; i++)
		y |= (x >> i & 1) << (bits - 1 - i);
	return y;
}

void vlcoll_reduce_scatter_butterfly(vlcoll_sched *s, const int64_t *blk, int block)
{
	int p = s->p, steps, pof2 = vlcoll_pof2_below(p, &steps), rem = p - pof2, r, v, m;
	int64_t total = vlcoll_sum(blk, 0, p, 0, p);

	if (p < 2 || (block && total == 0))
		return;
	vlcoll_rs_fold(s, rem, total);
	for (v = 0; v < pof2; v++) {
		int me = vlcoll_rs_real(v, rem), lo = 0, n = pof2, mir = vlcoll_mirror(v, steps);
		int peer = vlcoll_rs_real(mir, rem);

		for (m = 1; m < pof2; m <<= 1) {
			int dest = vlcoll_rs_real(v ^ m, rem), keep, give;

			n /= 2;
			keep = v & m ? lo + n : lo;
			give = v & m ? lo : lo + n;
			vlcoll_sendrecv_ompi(s, me, dest, vlcoll_rs_groups(blk, rem, give, give + n), dest,
					     vlcoll_rs_groups(blk, rem, keep, keep + n));
			lo = keep;
		}
		/* lo == mir: this rank holds group mir, whose last block is peer's */
		if (mir < rem)
			vlcoll_send(s, me, peer - 1, blk[peer - 1]);
		if (mir != v && !(block && rem == 0))
			vlcoll_sendrecv_ompi(s, me, peer, blk[peer], peer, blk[me]);
	}
	for (r = 0; r < 2 * rem; r += 2)
		vlcoll_recv(s, r, vlcoll_rs_real(vlcoll_mirror(r / 2, steps), rem), blk[r]);
}
