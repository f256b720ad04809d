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

typedef struct vli_coll_op {
	int32_t peer;
	uint32_t send : 1;
	uint32_t match : 31; /* send: index of the matching receive in peer's list */
	int64_t v;           /* send: bytes; receive: bytes, then arrival once matched */
} vli_coll_op;

typedef struct vli_coll_ops {
	vli_coll_op *op;
	int n, cap;
} vli_coll_ops;

typedef struct vli_coll_sched {
	int p;
	int bad;            /* an operation named a rank out of range */
	vli_coll_ops *rank; /* p lists */
} vli_coll_sched;

/* calloc that stops the program (vl_error) when memory is exhausted. */
void *vli_coll_alloc(size_t n, size_t size);

void vli_coll_sched_init(vli_coll_sched *s, int p);
void vli_coll_sched_free(vli_coll_sched *s);
/* Append to rank r's list: send bytes to peer / receive bytes from peer. */
void vli_coll_send(vli_coll_sched *s, int r, int peer, int64_t bytes);
void vli_coll_recv(vli_coll_sched *s, int r, int peer, int64_t bytes);

/* Run s on the model c (semantics of coll.h) and fill out (p entries).
 * Returns 0, or -1 if the schedule is broken: a receive without its send (or
 * the reverse), sizes that differ between a send and its receive, a rank out
 * of range, or a schedule that cannot complete.  s is consumed (receive sizes
 * are replaced by arrival times) but must still be freed. */
int vli_coll_run(const vl_config *c, vli_coll_sched *s, const int *host, const int64_t *entry,
		 vli_coll_out *out);

/* Rooted algorithms work on relative ranks v = (r - root + p) % p. */
static inline int vli_coll_abs(int v, int root, int p)
{
	return (v + root) % p;
}

/* Sum of blk[r] over the ranks whose relative rank is in [lo, hi). */
int64_t vli_coll_sum(const int64_t *blk, int root, int p, int lo, int hi);

/* The algorithms, one per file coll_<kind>_<algorithm>.c.  n is the size of
 * one vector (reductions, scans, bcast), blk[r] the block of rank r, mat the
 * p x p matrix of alltoall (mat[i * p + j]: bytes from i to j). */
void vli_coll_barrier_dissemination(vli_coll_sched *s);
void vli_coll_barrier_linear(vli_coll_sched *s);
void vli_coll_barrier_binomial(vli_coll_sched *s);
void vli_coll_bcast_binomial(vli_coll_sched *s, int root, int64_t n);
void vli_coll_bcast_linear(vli_coll_sched *s, int root, int64_t n);
void vli_coll_reduce_binomial(vli_coll_sched *s, int root, int64_t n);
void vli_coll_reduce_linear(vli_coll_sched *s, int root, int64_t n);
void vli_coll_allreduce_recursive_doubling(vli_coll_sched *s, int64_t n);
void vli_coll_allreduce_ring(vli_coll_sched *s, int64_t n);
void vli_coll_allreduce_reduce_bcast(vli_coll_sched *s, int64_t n);
void vli_coll_gather_linear(vli_coll_sched *s, int root, const int64_t *blk);
void vli_coll_gather_binomial(vli_coll_sched *s, int root, const int64_t *blk);
void vli_coll_scatter_linear(vli_coll_sched *s, int root, const int64_t *blk);
void vli_coll_scatter_binomial(vli_coll_sched *s, int root, const int64_t *blk);
void vli_coll_allgather_ring(vli_coll_sched *s, const int64_t *blk);
void vli_coll_allgather_recursive_doubling(vli_coll_sched *s, const int64_t *blk);
void vli_coll_allgather_linear(vli_coll_sched *s, const int64_t *blk);
void vli_coll_alltoall_pairwise(vli_coll_sched *s, const int64_t *mat);
void vli_coll_alltoall_linear(vli_coll_sched *s, const int64_t *mat);
void vli_coll_reduce_scatter_linear(vli_coll_sched *s, const int64_t *blk);
void vli_coll_reduce_scatter_ring(vli_coll_sched *s, const int64_t *blk);
/* exscan sends the same messages as scan: both use these two. */
void vli_coll_scan_chain(vli_coll_sched *s, int64_t n);
void vli_coll_scan_recursive_doubling(vli_coll_sched *s, int64_t n);

#endif
