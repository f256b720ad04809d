/* reduce_linear_ompi.c - Open MPI's basic linear reduction
 * (reduce_intra_basic_linear): every rank sends its vector to the root
 * (blocking), which receives them in the order p - 1, p - 2 ... 0, itself
 * left out.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_reduce_linear_ompi(vlcoll_sched *s, int root, int64_t n)
{
	int r;

	for (r = s->p - 1; r >= 0; r--)
		if (r != root) {
			vlcoll_send(s, r, root, n);
			vlcoll_recv(s, root, r, n);
		}
}
