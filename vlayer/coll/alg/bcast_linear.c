/* coll_bcast_linear.c - linear broadcast (Open MPI's basic linear): the root
 * starts nonblocking sends of the message to every other rank in relative
 * order root + 1, root + 2 ... and waits for all of them.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_bcast_linear(vlcoll_sched *s, int root, int64_t n)
{
	int v;

	for (v = 1; v < s->p; v++) {
		int r = vlcoll_abs(v, root, s->p);

		vlcoll_isend(s, root, r, n);
		vlcoll_recv(s, r, root, n);
	}
	vlcoll_waitall(s, root);
}
