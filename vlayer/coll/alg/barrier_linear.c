/* coll_barrier_linear.c - linear barrier: every rank sends an empty message to
 * rank 0; rank 0 receives them in rank order, then replies to each in rank
 * order.
 */
#include "vlayer/coll/sched.h"

void vli_coll_barrier_linear(vli_coll_sched *s)
{
	int r;

	for (r = 1; r < s->p; r++) {
		vli_coll_send(s, r, 0, 0);
		vli_coll_recv(s, 0, r, 0);
	}
	for (r = 1; r < s->p; r++) {
		vli_coll_send(s, 0, r, 0);
		vli_coll_recv(s, r, 0, 0);
	}
}
