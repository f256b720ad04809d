/* coll_barrier_linear.c - linear barrier: every rank sends an empty message to
 * rank 0; rank 0 receives them in rank order, then replies to each in rank
 * order.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_barrier_linear(vlcoll_sched *s)
{
	int r;

	for (r = 1; r < s->p; r++) {
		vlcoll_send(s, r, 0, 0);
		vlcoll_recv(s, 0, r, 0);
	}
	for (r = 1; r < s->p; r++) {
		vlcoll_send(s, 0, r, 0);
		vlcoll_recv(s, r, 0, 0);
	}
}
