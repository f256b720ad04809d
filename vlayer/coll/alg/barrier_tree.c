/* barrier_tree.c - Open MPI's tree barrier (barrier_intra_tree): with d the
 * smallest power of two >= p, for jump = 1, 2 ... d / 2 rank r and its
 * partner r ^ jump, if the partner has no bit below jump and exists, meet:
 * the lower one receives an empty message from the higher one; then for jump
 * = d / 2 ... 1 the same pairs, the lower one sending.  All blocking.
 */
#include "vlayer/coll/alg/alg.h"

/* The pairs of one jump, up (the higher sends) or down. */
static void vlcoll_barrier_tree_jump(vlcoll_sched *s, int jump, int up)
{
	int r;

	for (r = 0; r < s->p; r++) {
		int q = r ^ jump;

		if ((q & (jump - 1)) || q >= s->p)
			continue;
		if ((q > r) == up)
			vlcoll_recv(s, r, q, 0);
		else
			vlcoll_send(s, r, q, 0);
	}
}

void vlcoll_barrier_tree(vlcoll_sched *s)
{
	int d = 1, jump;

	while (d < s->p)
		d <<= 1;
	for (jump = 1; jump < d; jump <<= 1)
		vlcoll_barrier_tree_jump(s, jump, 1);
	for (jump = d >> 1; jump > 0; jump >>= 1)
		vlcoll_barrier_tree_jump(s, jump, 0);
}
