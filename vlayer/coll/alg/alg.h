/* alg.h - the algorithms of the collectives, one per file <kind>_<algorithm>.c
 * in this folder.  Each appends its sends and receives to a schedule
 * (vlayer/coll/sched.h); sim.c chooses one per call.  Where a step sends to
 * one rank and receives from one (an exchange, a ring step) it is one
 * MPI_Sendrecv (vlcoll_sendrecv), as the MPI libraries do, so that large
 * messages (rendezvous) do not wait for each other.
 */
#ifndef VLCOLL_ALG_H
#define VLCOLL_ALG_H

#include "vlayer/coll/sched.h"

/* One message: a blocking send of bytes from rank `from` to rank `to` and
 * the blocking receive of it there (MPI_Send, MPI_Recv). */
static inline void vlcoll_transfer(vlcoll_sched *s, int from, int to, int64_t bytes)
{
	vlcoll_send(s, from, to, bytes);
	vlcoll_recv(s, to, from, bytes);
}

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
/* Open MPI's algorithms (one file each, over ompi_tree.c for the trees and
 * ompi_redscat.c for the reduce-scatter steps). */
void vlcoll_barrier_tree(vlcoll_sched *s);
void vlcoll_bcast_linear_ompi(vlcoll_sched *s, int root, int64_t n);
void vlcoll_bcast_binomial_ompi(vlcoll_sched *s, int root, int64_t n);
void vlcoll_bcast_binary(vlcoll_sched *s, int root, int64_t n);
void vlcoll_bcast_knomial(vlcoll_sched *s, int root, int64_t n);
void vlcoll_bcast_pipeline(vlcoll_sched *s, int root, int64_t n);
void vlcoll_bcast_scatter_allgather(vlcoll_sched *s, int root, int64_t n);
void vlcoll_bcast_split_binary(vlcoll_sched *s, int root, int64_t n);
void vlcoll_reduce_linear_ompi(vlcoll_sched *s, int root, int64_t n);
void vlcoll_reduce_binomial_ompi(vlcoll_sched *s, int root, int64_t n);
void vlcoll_reduce_binary(vlcoll_sched *s, int root, int64_t n);
void vlcoll_reduce_pipeline(vlcoll_sched *s, int root, int64_t n);
void vlcoll_reduce_in_order_binary(vlcoll_sched *s, int root, int64_t n);
void vlcoll_reduce_rabenseifner(vlcoll_sched *s, int root, int64_t n);
void vlcoll_allreduce_rabenseifner(vlcoll_sched *s, int64_t n);
void vlcoll_allreduce_ring_ompi(vlcoll_sched *s, int64_t n);
void vlcoll_allreduce_linear_ompi(vlcoll_sched *s, int64_t n);
void vlcoll_allgather_bruck(vlcoll_sched *s, const int64_t *blk);
void vlcoll_allgather_neighbor(vlcoll_sched *s, const int64_t *blk);
void vlcoll_alltoall_linear_sync(vlcoll_sched *s, const int64_t *mat);
void vlcoll_alltoall_bruck(vlcoll_sched *s, const int64_t *mat);
void vlcoll_alltoall_linear_ompi(vlcoll_sched *s, const int64_t *mat);
void vlcoll_gather_linear_ompi(vlcoll_sched *s, int root, const int64_t *blk);
void vlcoll_gather_linear_sync(vlcoll_sched *s, int root, const int64_t *blk);
void vlcoll_scatter_linear_ompi(vlcoll_sched *s, int root, const int64_t *blk);
void vlcoll_scatter_linear_nb(vlcoll_sched *s, int root, const int64_t *blk);
void vlcoll_reduce_scatter_ring_ompi(vlcoll_sched *s, const int64_t *blk);
void vlcoll_reduce_scatter_recursive_halving(vlcoll_sched *s, const int64_t *blk);
/* block: Open MPI's reduce_scatter_block butterfly (no final swap on a power
 * of two), else its reduce_scatter butterfly. */
void vlcoll_reduce_scatter_butterfly(vlcoll_sched *s, const int64_t *blk, int block);
void vlcoll_reduce_scatter_recursive_doubling(vlcoll_sched *s, const int64_t *blk);
/* exscan sends the same messages as scan: both use these two. */
void vlcoll_scan_chain(vlcoll_sched *s, int64_t n);
void vlcoll_scan_recursive_doubling(vlcoll_sched *s, int64_t n);

/* Open MPI's trees (ompi_tree.c).  Nodes are relative ranks (r - root + p)
 * % p, except in the in-order binary tree: absolute ranks, rooted at p - 1. */
enum vlcoll_tree_shape {
	VLCOLL_TREE_BMTREE,          /* binomial: parent clears the highest bit */
	VLCOLL_TREE_IN_ORDER_BMTREE, /* binomial: parent clears the lowest bit */
	VLCOLL_TREE_BINARY,          /* binary, level by level */
	VLCOLL_TREE_CHAIN,           /* 0 -> 1 -> 2 ... */
	VLCOLL_TREE_KNOMIAL,         /* k-nomial, radix 4 */
	VLCOLL_TREE_IN_ORDER_BINARY, /* in-order binary */
};
#define VLCOLL_TREE_MAXCHILD 96
/* Node v of the tree of shape on p nodes: its parent (-1 at the root) and its
 * children in Open MPI's order; returns their number. */
int vlcoll_tree_node(int shape, int p, int v, int *parent, int *child);
/* Open MPI's generic tree bcast / reduce (one segment) on the tree of shape. */
void vlcoll_bcast_tree(vlcoll_sched *s, int shape, int root, int64_t n);
void vlcoll_reduce_tree(vlcoll_sched *s, int shape, int root, int64_t n);

/* Open MPI's reduce-scatter steps (ompi_redscat.c).  The largest power of two
 * p' <= p, *steps = log2 p'. */
int vlcoll_pof2_below(int p, int *steps);
/* Rabenseifner (reduce, allreduce): the rank of virtual rank v (2 v below
 * rem = p - p', else v + rem); the fold of the first 2 rem ranks; the
 * recursive halving of virtual rank v, filling scount[k] and rcount[k] with
 * what it sent and received at step k (log2 p' entries). */
int vlcoll_redscat_real(int v, int rem);
void vlcoll_redscat_fold(vlcoll_sched *s, int rem, int64_t n);
void vlcoll_redscat_halve(vlcoll_sched *s, int v, int pof2, int rem, int64_t n,
			  int64_t *scount, int64_t *rcount);
/* reduce_scatter recursive_halving and butterfly: the rank of virtual rank v
 * (2 v + 1 below rem, else v + rem); the fold of the first 2 rem ranks (total
 * bytes from each even one to the odd one above); the bytes of the groups
 * [lo, hi) of virtual ranks. */
int vlcoll_rs_real(int v, int rem);
void vlcoll_rs_fold(vlcoll_sched *s, int rem, int64_t total);
int64_t vlcoll_rs_groups(const int64_t *blk, int rem, int lo, int hi);

#endif
