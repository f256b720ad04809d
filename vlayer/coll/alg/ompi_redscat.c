/* ompi_redscat.c - the reduce-scatter steps Open MPI 4.1's algorithms share.
 *
 * The first two steps of Rabenseifner's reduction, in its allreduce
 * (allreduce_intra_redscat_allgather) and its reduce (reduce_intra_redscat_gather).
 * The vector's n bytes are counted as n elements (the datatype is not known
 * here).  With p' the largest power of two <= p and rem = p - p':
 * fold: among the first 2 rem ranks, each odd rank and the even rank below it
 * exchange halves (the even one sends the upper n - n/2, the odd one the lower
 * n/2: Open MPI's sendrecv), then the odd one sends its reduced upper half to
 * the even one and drops out;
 * halving: the remaining p' ranks (virtual rank r / 2 for those even ones,
 * r - rem above them) halve their window in log2 p' steps, the lower rank of
 * a pair keeping the lower half, of floor(w / 2) elements, and sending the
 * rest, each step one Open MPI sendrecv.
 *
 * The first step of its reduce_scatter recursive_halving and butterfly: among
 * the first 2 rem ranks each even rank sends the whole vector to the odd one
 * above it (blocking) and drops out; the remaining p' ranks (virtual rank
 * r / 2 for those odd ones, r - rem above them) own p' groups of blocks (the
 * pair's two blocks for a virtual rank below rem, else its own).
 */
#include "vlayer/coll/alg/alg.h"

int vlcoll_pof2_below(int p, int *steps)
{
	int pof2 = 1;

	*steps = 0;
	while (2 * pof2 <= p) {
		pof2 <<= 1;
		(*steps)++;
	}
	return pof2;
}

int vlcoll_redscat_real(int v, int rem)
{
	return v < rem ? 2 * v : v + rem;
}

void vlcoll_redscat_fold(vlcoll_sched *s, int rem, int64_t n)
{
	int64_t lo = n / 2, hi = n - n / 2;
	int r;

	for (r = 0; r < 2 * rem; r += 2) {
		vlcoll_sendrecv_ompi(s, r + 1, r, lo, r, hi);
		vlcoll_sendrecv_ompi(s, r, r + 1, hi, r + 1, lo);
		vlcoll_transfer(s, r + 1, r, hi);
	}
}

void vlcoll_redscat_halve(vlcoll_sched *s, int v, int pof2, int rem, int64_t n,
			  int64_t *scount, int64_t *rcount)
{
	int me = vlcoll_redscat_real(v, rem), m, k;
	int64_t w = n;

	for (m = 1, k = 0; m < pof2; m <<= 1, k++) {
		int dest = vlcoll_redscat_real(v ^ m, rem);

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
}

int vlcoll_rs_real(int v, int rem)
{
	return v < rem ? 2 * v + 1 : v + rem;
}

void vlcoll_rs_fold(vlcoll_sched *s, int rem, int64_t total)
{
	int r;

	for (r = 0; r < 2 * rem; r += 2)
		vlcoll_transfer(s, r, r + 1, total);
}

int64_t vlcoll_rs_groups(const int64_t *blk, int rem, int lo, int hi)
{
	int64_t sum = 0;
	int i;

	for (i = lo; i < hi; i++)
		sum += i < rem ? blk[2 * i] + blk[2 * i + 1] : blk[i + rem];
	return sum;
}
