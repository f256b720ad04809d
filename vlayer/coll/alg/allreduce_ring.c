/* coll_allreduce_ring.c - ring allreduce: the vector is cut into p chunks of
 * n / p bytes, the first n % p of them one byte longer (they sum to n); a ring
 * reduce-scatter of the chunks (p - 1 steps) then a ring allgather of them
 * (p - 1 steps).
 */
#include <stdlib.h>
#include "vlayer/coll/alg/alg.h"

void vlcoll_allreduce_ring(vlcoll_sched *s, int64_t n)
{
	int p = s->p, i;
	int64_t *chunk = vlcoll_alloc((size_t)p, sizeof(*chunk));

	for (i = 0; i < p; i++)
		chunk[i] = n / p + (i < n % p);
	vlcoll_reduce_scatter_ring(s, chunk);
	vlcoll_allgather_ring(s, chunk);
	free(chunk);
}
