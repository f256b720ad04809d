/* barrier_recursive_doubling.c - barrier by recursive doubling (Open MPI's
 * coll base barrier_intra_recursivedoubling).  With p' the largest power of
 * two <= p: each rank r >= p' sends an empty message to r - p' and waits for
 * its answer (one MPI_Sendrecv); the ranks below p - p' first receive that message; the ranks
 * below p' exchange empty messages with r ^ 2^k for k = 0 .. log2 p' - 1;
 * then each rank below p - p' answers r + p'.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_barrier_recursive_doubling(vlcoll_sched *s)
{
	int p = s->p, pof2, rem, r, m;

	for (pof2 = 1; 2 * pof2 <= p; pof2 <<= 1)
		;
	rem = p - pof2;
	for (r = pof2; r < p; r++) {
		vlcoll_sendrecv(s, r, r - pof2, 0, r - pof2, 0);
		vlcoll_recv(s, r - pof2, r, 0);
	}
	for (m = 1; m < pof2; m <<= 1)
		for (r = 0; r < pof2; r++)
			vlcoll_sendrecv(s, r, r ^ m, 0, r ^ m, 0);
	for (r = 0; r < rem; r++)
		vlcoll_send(s, r, r + pof2, 0);
}
