/* coll_reduce_linear.c - linear reduce: every rank sends its vector to the
 * root, which receives them in relative order root + 1, root + 2 ...
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_reduce_linear(vlcoll_sched *s, int root, int64_t n)
{
	int v;

	for (v = 1; v < s->p; v++) {
		int r = vlcoll_abs(v, root, s->p);

		vlcoll_send(s, r, root, n);
		vlcoll_recv(s, root, r, n);
	}
}
