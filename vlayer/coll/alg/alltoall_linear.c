/* coll_alltoall_linear.c - linear alltoall (Open MPI's basic linear): each
 * rank posts receives from every other in the order r + 1, r + 2 ... (mod p),
 * starts its sends to them in the same order, then waits for all, receives
 * first (nonblocking operations and one Waitall).
 */
#include <stddef.h>
#include "vlayer/coll/alg/alg.h"

void vlcoll_alltoall_linear(vlcoll_sched *s, const int64_t *mat)
{
	int p = s->p, k, r;

	for (r = 0; r < p; r++) {
		for (k = 1; k < p; k++)
			vlcoll_irecv(s, r, (r + k) % p, mat[(size_t)((r + k) % p) * p + r]);
		for (k = 1; k < p; k++)
			vlcoll_isend(s, r, (r + k) % p, mat[(size_t)r * p + (r + k) % p]);
		vlcoll_waitall(s, r);
	}
}
