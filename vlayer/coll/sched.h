/* coll_sched.h - the schedule of one collective, internal to coll.c and the
 * coll_<kind>_<algorithm>.c files: for every rank, the ordered list of sends
 * and receives the algorithm makes.  The algorithm files append to it; coll.c
 * matches sends to receives (FIFO per pair of ranks) and runs it on the model.
 */
#ifndef VLI_COLL_SCHED_H
#define VLI_COLL_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include "coll.h"

typedef struct vlcoll_op {
	int32_t peer;
	uint32_t send : 1;
	uint32_t match : 31; /* send: index of the matching receive in peer's list */
	int64_t v;           /* send: bytes; receive: bytes, then arrival once matched */
} vlcoll_op;

typedef struct vlcoll_ops {
	vlcoll_op *op;
	int n, cap;
} vlcoll_ops;

typedef struct vlcoll_sched {
	int p;
	int bad;            /* an operation named a rank out of range */
	vlcoll_ops *rank; /* p lists */
} vlcoll_sched;

/* calloc that stops the program (vli_error) when memory is exhausted. */
void *vlcoll_alloc(size_t n, size_t size);

void vlcoll_sched_init(vlcoll_sched *s, int p);
void vlcoll_sched_free(vlcoll_sched *s);
/* Append to rank r's list: send bytes to peer / receive bytes from peer. */
void vlcoll_send(vlcoll_sched *s, int r, int peer, int64_t bytes);
void vlcoll_recv(vlcoll_sched *s, int r, int peer, int64_t bytes);

/* Run s on the model c (semantics of coll.h) and fill out (p entries).
 * Returns 0, or -1 if the schedule is broken: a receive without its send (or
 * the reverse), sizes that differ between a send and its receive, a rank out
 * of range, or a schedule that cannot complete.  s is consumed (receive sizes
 * are replaced by arrival times) but must still be freed. */
int vlcoll_run(const vlcfg_config *c, vlcoll_sched *s, const int *host, const int64_t *entry,
		 vlcoll_out *out);

/* Rooted algorithms work on relative ranks v = (r - root + p) % p. */
static inline int vlcoll_abs(int v, int root, int p)
{
	return (v + root) % p;
}

/* Sum of blk[r] over the ranks whose relative rank is in [lo, hi). */
int64_t vlcoll_sum(const int64_t *blk, int root, int p, int lo, int hi);

/* The algorithms, one per file coll_<kind>_<algorithm>.c.  n is the size of
 * one vector (reductions, scans, bcast), blk[r] the block of rank r, mat the
 * p x p matrix of alltoall (mat[i * p + j]: bytes from i to j). */
void vlcoll_barrier_dissemination(vlcoll_sched *s);
void vlcoll_barrier_linear(vlcoll_sched *s);
void vlcoll_barrier_binomial(vlcoll_sched *s);
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
