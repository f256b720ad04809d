/* alltoall_linear_sync.c - Open MPI's linear alltoall (alltoall_intra_basic_linear,
 * and alltoall_intra_linear_sync with the unlimited number of outstanding
 * requests the decision rules give: the same operations): rank r posts
 * receives from r + 1, r + 2 ... (mod p), starts sends to r - 1, r - 2 ...
 * (mod p), and waits for all, receives first.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_alltoall_linear_sync(vlcoll_sched *s, const int64_t *mat)
{
	int p = s->p, k, r;

	for (r = 0; r < p; r++) {
		for (k = 1; k < p; k++)
			vlcoll_irecv(s, r, (r + k) % p, mat[(size_t)((r + k) % p) * p + r]);
		for (k = 1; k < p; k++)
			vlcoll_isend(s, r, (r - k + p) % p, mat[(size_t)r * p + (r - k + p) % p]);
		vlcoll_waitall(s, r);
	}
}
