/* gather_linear_sync.c - Open MPI's linear_sync gather (gather_intra_linear_sync)
 * with the first segment size of 0 its rules give, which makes the first
 * segment the whole block and the second one empty.  The root, for each other
 * rank in rank order: posts the receive of the first segment, sends it an
 * empty message (blocking), posts the receive of the second segment and waits
 * for the first; at the end it waits for all the second ones.  Every other
 * rank receives the empty message, then sends the first segment and the
 * second (blocking).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_gather_linear_sync(vlcoll_sched *s, int root, const int64_t *blk)
{
	int r;

	for (r = 0; r < s->p; r++) {
		int h;

		if (r == root)
			continue;
		vlcoll_recv(s, r, root, 0);
		vlcoll_send(s, r, root, blk[r]);
		vlcoll_send(s, r, root, 0);
		h = vlcoll_irecv(s, root, r, blk[r]);
		vlcoll_send(s, root, r, 0);
		vlcoll_irecv(s, root, r, 0);
		vlcoll_wait(s, root, h);
	}
	vlcoll_waitall(s, root);
}
