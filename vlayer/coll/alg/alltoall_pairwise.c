/* coll_alltoall_pairwise.c - pairwise alltoall: in step k = 1 .. p - 1 rank r
 * sends to r + k and receives from r - k (mod p).
 */
#include <stddef.h>
#include "vlayer/coll/alg/alg.h"

void vlcoll_alltoall_pairwise(vlcoll_sched *s, const int64_t *mat)
{
	int p = s->p, k, r;

	for (k = 1; k < p; k++)
		for (r = 0; r < p; r++) {
			int to = (r + k) % p, from = (r - k + p) % p;

			vlcoll_sendrecv(s, r, to, mat[(size_t)r * p + to], from,
					mat[(size_t)from * p + r]);
		}
}
