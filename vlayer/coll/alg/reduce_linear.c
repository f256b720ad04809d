/* coll_reduce_linear.c - linear reduce: every rank sends its vector to the
 * root, which receives them in relative order root + 1, root + 2 ...
 */
#include "vlayer/coll/sched.h"

void vli_coll_reduce_linear(vli_coll_sched *s, int root, int64_t n)
{
	int v;

	for (v = 1; v < s->p; v++) {
		int r = vli_coll_abs(v, root, s->p);

		vli_coll_send(s, r, root, n);
		vli_coll_recv(s, root, r, n);
	}
}
