/* coll_alltoall_linear.c - linear alltoall: each rank sends to every other in
 * the order r + 1, r + 2 ... (mod p), then receives from them in the same
 * order.
 */
#include <stddef.h>
#include "vlayer/coll/alg/alg.h"

void vlcoll_alltoall_linear(vlcoll_sched *s, const int64_t *mat)
{
	int p = s->p, k, r;

	for (r = 0; r < p; r++) {
		for (k = 1; k < p; k++)
			vlcoll_send(s, r, (r + k) % p, mat[(size_t)r * p + (r + k) % p]);
		for (k = 1; k < p; k++)
			vlcoll_recv(s, r, (r + k) % p, mat[(size_t)((r + k) % p) * p + r]);
	}
}
