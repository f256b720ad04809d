/* coll_bcast_linear.c - linear broadcast: the root sends the message to every
 * other rank in relative order root + 1, root + 2 ...
 */
#include "vlayer/coll/sched.h"

void vli_coll_bcast_linear(vli_coll_sched *s, int root, int64_t n)
{
	int v;

	for (v = 1; v < s->p; v++) {
		int r = vli_coll_abs(v, root, s->p);

		vli_coll_send(s, root, r, n);
		vli_coll_recv(s, r, root, n);
	}
}
