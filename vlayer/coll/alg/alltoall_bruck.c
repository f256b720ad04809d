/* alltoall_bruck.c - Open MPI's modified Bruck alltoall (alltoall_intra_bruck,
 * for small blocks): for d = 1, 2, 4 ... < p, rank r sends to r + d and
 * receives from r - d (mod p), one Open MPI sendrecv, the blocks of the
 * slots i in 1 .. p - 1 with bit d set (the local rotations cost nothing).
 * The blocks move through intermediate ranks, so each message is counted as
 * that many blocks of the mean size (all equal for MPI_Alltoall).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_alltoall_bruck(vlcoll_sched *s, const int64_t *mat)
{
	int p = s->p, d, r, i, k;
	int64_t sum = 0, blk;

	for (i = 0; i < p * p; i++)
		sum += mat[i];
	blk = sum / ((int64_t)p * p);
	for (d = 1; d < p; d <<= 1) {
		for (i = 1, k = 0; i < p; i++)
			k += (i & d) == d;
		for (r = 0; r < p; r++)
			vlcoll_sendrecv_ompi(s, r, (r + d) % p, k * blk, (r - d + p) % p, k * blk);
	}
}
