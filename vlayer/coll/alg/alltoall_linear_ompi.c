/* alltoall_linear_ompi.c - Open MPI's basic linear alltoallv
 * (alltoallv_intra_basic_linear): rank r posts receives from every other
 * rank in rank order 0, 1 ... p - 1, then starts its sends to them in the same
 * order, and waits for all, receives first.  (Open MPI's linear alltoall
 * starts at r + 1 instead: alltoall_linear.c.)
 */
#include <stddef.h>
#include "vlayer/coll/alg/alg.h"

void vlcoll_alltoall_linear_ompi(vlcoll_sched *s, const int64_t *mat)
{
	int p = s->p, i, r;

	for (r = 0; r < p; r++) {
		for (i = 0; i < p; i++)
			if (i != r)
				vlcoll_irecv(s, r, i, mat[(size_t)i * p + r]);
		for (i = 0; i < p; i++)
			if (i != r)
				vlcoll_isend(s, r, i, mat[(size_t)r * p + i]);
		vlcoll_waitall(s, r);
	}
}
