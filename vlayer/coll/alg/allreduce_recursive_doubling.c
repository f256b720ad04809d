/* coll_allreduce_recursive_doubling.c - recursive-doubling allreduce (MPICH
 * allreduce_intra_recursive_doubling).  With p' the largest power of two <= p
 * and rem = p - p': among the first 2 rem ranks each even rank sends its vector
 * to the odd rank above it and drops out; the remaining p' ranks (new rank
 * r / 2 for those odd ranks, r - rem above them) exchange vectors with new rank
 * ^ 2^k for k = 0 .. log2 p' - 1; then each odd rank sends the result back to
 * the even rank below it.
 */
#include "vlayer/coll/alg/alg.h"

/* Real rank of new rank nr. */
static int vlcoll_old(int nr, int rem)
{
	return nr < rem ? 2 * nr + 1 : nr + rem;
}

void vlcoll_allreduce_recursive_doubling(vlcoll_sched *s, int64_t n)
{
	int p = s->p, pof2, rem, r, nr, m;

	for (pof2 = 1; 2 * pof2 <= p; pof2 <<= 1)
		;
	rem = p - pof2;
	for (r = 0; r < 2 * rem; r += 2) {
		vlcoll_send(s, r, r + 1, n);
		vlcoll_recv(s, r + 1, r, n);
	}
	for (m = 1; m < pof2; m <<= 1)
		for (nr = 0; nr < pof2; nr++) {
			int me = vlcoll_old(nr, rem), peer = vlcoll_old(nr ^ m, rem);

			vlcoll_sendrecv(s, me, peer, n, peer, n);
		}
	for (r = 0; r < 2 * rem; r += 2) {
		vlcoll_send(s, r + 1, r, n);
		vlcoll_recv(s, r, r + 1, n);
	}
}
