/* allreduce_rabenseifner.c - Rabenseifner's allreduce as Open MPI runs it
 * (allreduce_intra_redscat_allgather).  The vector's n bytes are counted as n
 * elements (the datatype is not known here).  With p' the largest power of
 * two <= p: if n < p', Open MPI's basic linear allreduce.  Else the fold and
 * the recursive halving of ompi_redscat.c, then the window doubled back
 * (recursive doubling, in reverse: send what was kept, receive what was
 * sent), each step one Open MPI sendrecv.  Finally each even rank of the
 * first 2 rem ranks sends the whole result to the odd one above it.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_allreduce_rabenseifner(vlcoll_sched *s, int64_t n)
{
	int p = s->p, steps, pof2 = vlcoll_pof2_below(p, &steps), rem = p - pof2, r, v, m, k;
	int64_t scount[32], rcount[32];

	if (n < pof2) {
		vlcoll_allreduce_linear_ompi(s, n);
		return;
	}
	vlcoll_redscat_fold(s, rem, n);
	for (v = 0; v < pof2; v++) {
		int me = vlcoll_redscat_real(v, rem);

		vlcoll_redscat_halve(s, v, pof2, rem, n, scount, rcount);
		for (m = pof2 >> 1, k = steps - 1; m > 0; m >>= 1, k--) {
			int dest = vlcoll_redscat_real(v ^ m, rem);

			vlcoll_sendrecv_ompi(s, me, dest, rcount[k], dest, scount[k]);
		}
	}
	for (r = 0; r < 2 * rem; r += 2)
		vlcoll_transfer(s, r, r + 1, n);
}
