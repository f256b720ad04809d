/* coll_barrier_dissemination.c - barrier by dissemination (Hensgen, Finkel and
 * Manber): in round k every rank sends an empty message to r + 2^k and waits
 * for the one from r - 2^k (mod p); ceil(log2 p) rounds, any p.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_barrier_dissemination(vlcoll_sched *s)
{
	int p = s->p, r, d;

	for (d = 1; d < p; d <<= 1)
		for (r = 0; r < p; r++) {
			vlcoll_sendrecv(s, r, (r + d) % p, 0, (r - d + p) % p, 0);
		}
}
