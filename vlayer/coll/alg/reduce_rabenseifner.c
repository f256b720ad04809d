/* reduce_rabenseifner.c - Rabenseifner's reduce as Open MPI runs it
 * (reduce_intra_redscat_gather).  The vector's n bytes are counted as n
 * elements (the datatype is not known here).  With p' the largest power of
 * two <= p: if p' < 2 or n < p', Open MPI's basic linear reduce.  Else the
 * fold and the recursive halving of ompi_redscat.c, then a binomial gather
 * of the pieces to the root's virtual rank, in the reverse order of the
 * halving: at the step of distance m a rank whose partner's aligned group of
 * m ranks holds the root sends what it has (blocking) and is done, the other
 * one receives what it had sent at that step of the halving.  A root that
 * dropped out in the fold (an odd rank below 2 rem) first receives rank 0's
 * piece and then takes the place of virtual rank 0 (rank 0 leaves).
 */
#include "vlayer/coll/alg/alg.h"

/* The gather of virtual rank v (rank me) towards vroot; rank `swap` stands
 * for virtual rank 0 (the root that dropped out, or -1). */
static void vlcoll_redscat_gather(vlcoll_sched *s, int v, int me, int vroot, int swap,
				  int pof2, int rem, int steps, const int64_t *scount,
				  const int64_t *rcount)
{
	int m, k;

	for (m = pof2 >> 1, k = steps - 1; m > 0; m >>= 1, k--) {
		int vdest = v ^ m;
		int dest = vdest == 0 && swap >= 0 ? swap : vlcoll_redscat_real(vdest, rem);

		if ((vdest >> k) == (vroot >> k)) {
			vlcoll_send(s, me, dest, rcount[k]);
			return;
		}
		vlcoll_recv(s, me, dest, scount[k]);
	}
}

void vlcoll_reduce_rabenseifner(vlcoll_sched *s, int root, int64_t n)
{
	int p = s->p, steps, pof2 = vlcoll_pof2_below(p, &steps), rem = p - pof2, v;
	int swap = root < 2 * rem && root % 2 ? root : -1;
	int vroot = swap >= 0 ? 0 : root < 2 * rem ? root / 2 : root - rem;
	int64_t scount[32], rcount[32];

	if (pof2 < 2 || n < pof2) {
		vlcoll_reduce_linear_ompi(s, root, n);
		return;
	}
	vlcoll_redscat_fold(s, rem, n);
	for (v = 0; v < pof2; v++) {
		int me = vlcoll_redscat_real(v, rem);

		vlcoll_redscat_halve(s, v, pof2, rem, n, scount, rcount);
		if (v == 0 && swap >= 0) {
			vlcoll_transfer(s, me, swap, rcount[steps - 1]);
			me = swap;
		}
		vlcoll_redscat_gather(s, v, me, vroot, swap, pof2, rem, steps, scount, rcount);
	}
}
