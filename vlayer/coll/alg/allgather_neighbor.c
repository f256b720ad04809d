/* allgather_neighbor.c - Open MPI's neighbour-exchange allgather
 * (allgather_intra_neighborexchange; Chen et al.); for an odd p, Open MPI's
 * ring, which is allgather_ring.c's.  An even rank r has the neighbours r + 1
 * (first) and r - 1, an odd one r - 1 (first) and r + 1.  Step 0: one block
 * with the first neighbour (its own for the other's).  Steps i = 1 .. p/2 - 1:
 * with neighbour i % 2, two blocks: those it received in the step before
 * (for an even rank at step 1: its own pair r, r + 1) for the pair the
 * neighbour got the step before.  Each step one Open MPI sendrecv.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_allgather_neighbor(vlcoll_sched *s, const int64_t *blk)
{
	int p = s->p, r, i;

	if (p % 2) {
		vlcoll_allgather_ring(s, blk);
		return;
	}
	for (r = 0; r < p; r++) {
		int even = !(r % 2), nb[2], off[2], from[2], sfrom;

		nb[0] = even ? (r + 1) % p : (r - 1 + p) % p;
		nb[1] = even ? (r - 1 + p) % p : (r + 1) % p;
		from[0] = from[1] = even ? r : nb[0];
		off[0] = even ? 2 : -2;
		off[1] = even ? -2 : 2;
		vlcoll_sendrecv_ompi(s, r, nb[0], blk[r], nb[0], blk[nb[0]]);
		sfrom = even ? r : from[0];
		for (i = 1; i < p / 2; i++) {
			int q = i % 2;

			from[q] = (from[q] + off[q] + p) % p;
			vlcoll_sendrecv_ompi(s, r, nb[q], blk[sfrom] + blk[(sfrom + 1) % p], nb[q],
					     blk[from[q]] + blk[(from[q] + 1) % p]);
			sfrom = from[q];
		}
	}
}
