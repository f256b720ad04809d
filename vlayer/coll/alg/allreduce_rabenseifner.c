/* allreduce_rabenseifner.c - Rabenseifner's allreduce as Open MPI runs it
 * (allreduce_intra_redscat_allgather).  The vector's n bytes are counted as n
 * elements (the datatype is not known here).  With p' the largest power of
 * two <= p and rem = p - p': if n < p', Open MPI's basic linear allreduce.
 * Else, among the first 2 rem ranks, each odd rank and the even rank below it
 * exchange halves (the even one sends the upper n - n/2, the odd one the lower
 * n/2: Open MPI's sendrecv), then the odd one sends its reduced upper half to
 * the even one and drops out.  The remaining p' ranks (virtual rank r / 2 for
 * those even ones, r - rem above them) halve their window in log2 p' steps
 * (recursive halving: the lower rank of a pair keeps the lower half, of
 * floor(w / 2) elements, and sends the rest), then double it back (recursive
 * doubling, in reverse), each step one Open MPI sendrecv.  Finally each even
 * rank of the first 2 rem sends the whole result to the odd one above it.
 */
#include "vlayer/coll/alg/alg.h"

/* Real rank of virtual rank v. */
static int vlcoll_real(int v, int rem)
{
	return v < rem ? 2 * v : v + rem;
}

void vlcoll_allreduce_rabenseifner(vlcoll_sched *s, int64_t n)
{
	int p = s->p, pof2 = 1, rem, r, v, m, steps = 0, k;
	int64_t lo = n / 2, hi = n - n / 2;
	int64_t scount[32], rcount[32];

	while (2 * pof2 <= p) {
		pof2 <<= 1;
		steps++;
	}
	if (n < pof2) {
		vlcoll_allreduce_linear_ompi(s, n);
		return;
	}
	rem = p - pof2;
	for (r = 0; r < 2 * rem; r += 2) {
		vlcoll_sendrecv_ompi(s, r + 1, r, lo, r, hi);
		vlcoll_sendrecv_ompi(s, r, r + 1, hi, r + 1, lo);
		vlcoll_send(s, r + 1, r, hi);
		vlcoll_recv(s, r, r + 1, hi);
	}
	for (v = 0; v < pof2; v++) {
		int me = vlcoll_real(v, rem);
		int64_t w = n;

		/* reduce-scatter by recursive halving */
		for (m = 1, k = 0; m < pof2; m <<= 1, k++) {
			int dest = vlcoll_real(v ^ m, rem);

			if (me < dest) {
				rcount[k] = w / 2;
				scount[k] = w - rcount[k];
			} else {
				scount[k] = w / 2;
				rcount[k] = w - scount[k];
			}
			vlcoll_sendrecv_ompi(s, me, dest, scount[k], dest, rcount[k]);
			w = rcount[k];
		}
		/* allgather by recursive doubling: send what was kept, receive what
		 * was sent */
		for (m = pof2 >> 1, k = steps - 1; m > 0; m >>= 1, k--) {
			int dest = vlcoll_real(v ^ m, rem);

			vlcoll_sendrecv_ompi(s, me, dest, rcount[k], dest, scount[k]);
		}
	}
	for (r = 0; r < 2 * rem; r += 2) {
		vlcoll_send(s, r, r + 1, n);
		vlcoll_recv(s, r + 1, r, n);
	}
}
