/* bcast_linear_ompi.c - Open MPI's basic linear broadcast
 * (bcast_intra_basic_linear): the root starts nonblocking sends to ranks 0, 1
 * ... p - 1 in that (absolute) order, itself left out, and waits for all;
 * the others receive.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_bcast_linear_ompi(vlcoll_sched *s, int root, int64_t n)
{
	int r;

	for (r = 0; r < s->p; r++)
		if (r != root) {
			vlcoll_isend(s, root, r, n);
			vlcoll_recv(s, r, root, n);
		}
	vlcoll_waitall(s, root);
}
