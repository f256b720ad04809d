/* allgather_bruck.c - Bruck's allgather as Open MPI runs it
 * (allgather_intra_bruck): for distance d = 1, 2, 4 ... < p, rank r sends the
 * first min(d, p - d) blocks it holds (its own block r and the ones after it,
 * r + 1 ...) to r - d and receives as many from r + d (mod p), one Open MPI
 * sendrecv each (the final local shift costs nothing).
 */
#include "vlayer/coll/alg/alg.h"

/* Bytes of the cnt blocks first, first + 1 ... (mod p). */
static int64_t vlcoll_blocks(const int64_t *blk, int p, int first, int cnt)
{
	int64_t sum = 0;
	int i;

	for (i = 0; i < cnt; i++)
		sum += blk[(first + i) % p];
	return sum;
}

void vlcoll_allgather_bruck(vlcoll_sched *s, const int64_t *blk)
{
	int p = s->p, d, r;

	for (d = 1; d < p; d <<= 1) {
		int cnt = d <= p / 2 ? d : p - d;

		for (r = 0; r < p; r++) {
			int to = (r - d + p) % p, from = (r + d) % p;

			vlcoll_sendrecv_ompi(s, r, to, vlcoll_blocks(blk, p, r, cnt), from,
					     vlcoll_blocks(blk, p, from, cnt));
		}
	}
}
