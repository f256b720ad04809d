/* alg.h - the algorithms of the collectives, one per file <kind>_<algorithm>.c
 * in this folder.  Each appends its sends and receives to a schedule
 * (vlayer/coll/sched.h); sim.c chooses one per call.
 */
#ifndef VLCOLL_ALG_H
#define VLCOLL_ALG_H

#include "vlayer/coll/sched.h"

/* The algorithms, one per file alg/<kind>_<algorithm>.c.  n is the size of
 * one vector (reductions, scans, bcast), blk[r] the block of rank r, mat the
 * p x p matrix of alltoall (mat[i * p + j]: bytes from i to j). */
void vlcoll_barrier_dissemination(vlcoll_sched *s);
void vlcoll_barrier_linear(vlcoll_sched *s);
void vlcoll_barrier_binomial(vlcoll_sched *s);
void vlcoll_barrier_recursive_doubling(vlcoll_sched *s);
void vlcoll_bcast_binomial(vlcoll_sched *s, int root, int64_t n);
void vlcoll_bcast_linear(vlcoll_sched *s, int root, int64_t n);
void vlcoll_reduce_binomial(vlcoll_sched *s, int root, int64_t n);
void vlcoll_reduce_linear(vlcoll_sched *s, int root, int64_t n);
void vlcoll_allreduce_recursive_doubling(vlcoll_sched *s, int64_t n);
void vlcoll_allreduce_ring(vlcoll_sched *s, int64_t n);
void vlcoll_allreduce_reduce_bcast(vlcoll_sched *s, int64_t n);
void vlcoll_gather_linear(vlcoll_sched *s, int root, const int64_t *blk);
void vlcoll_gather_binomial(vlcoll_sched *s, int root, const int64_t *blk);
void vlcoll_scatter_linear(vlcoll_sched *s, int root, const int64_t *blk);
void vlcoll_scatter_binomial(vlcoll_sched *s, int root, const int64_t *blk);
void vlcoll_allgather_ring(vlcoll_sched *s, const int64_t *blk);
void vlcoll_allgather_recursive_doubling(vlcoll_sched *s, const int64_t *blk);
void vlcoll_allgather_linear(vlcoll_sched *s, const int64_t *blk);
void vlcoll_alltoall_pairwise(vlcoll_sched *s, const int64_t *mat);
void vlcoll_alltoall_linear(vlcoll_sched *s, const int64_t *mat);
void vlcoll_reduce_scatter_linear(vlcoll_sched *s, const int64_t *blk);
void vlcoll_reduce_scatter_ring(vlcoll_sched *s, const int64_t *blk);
/* exscan sends the same messages as scan: both use these two. */
void vlcoll_scan_chain(vlcoll_sched *s, int64_t n);
void vlcoll_scan_recursive_doubling(vlcoll_sched *s, int64_t n);

#endif
