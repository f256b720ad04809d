/* coll_bcast_linear.c - linear broadcast: the root sends the message to every
 * other rank in relative order root + 1, root + 2 ...
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_bcast_linear(vlcoll_sched *s, int root, int64_t n)
{
	int v;

	for (v = 1; v < s->p; v++) {
		int r = vlcoll_abs(v, root, s->p);

		vlcoll_send(s, root, r, n);
		vlcoll_recv(s, r, root, n);
	}
}
