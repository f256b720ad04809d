/* test_coll_ompi.c - unit tests of [collectives] selection = openmpi
 * (vlayer/coll/select_openmpi.c) and of Open MPI's algorithms in
 * vlayer/coll/alg/: points of Open MPI 4.1's fixed decision rules
 * (coll_tuned_decision_fixed.c, commutative operations) and exact closed
 * forms of the algorithms, derived by hand in the comments.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"
#include "vlayer/coll/sched.h"
#include "vlayer/coll/alg/alg.h"
#include "coll_fixture.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- the decision rules ---- */

typedef struct point {
	int kind, variant, p;
	int64_t bytes;
	int ompi;   /* Open MPI's algorithm number */
	int alg;    /* vlayer's */
	int subst;  /* a stand-in */
} point;

static const point points[] = {
	/* barrier: by p only */
	{ VL_KIND_BARRIER, 0, 2, 0, 3, VLCOLL_ALG_RECURSIVE_DOUBLING, 0 },
	{ VL_KIND_BARRIER, 0, 4, 0, 1, VLCOLL_ALG_LINEAR, 0 },
	{ VL_KIND_BARRIER, 0, 7, 0, 1, VLCOLL_ALG_LINEAR, 0 },
	{ VL_KIND_BARRIER, 0, 12, 0, 3, VLCOLL_ALG_RECURSIVE_DOUBLING, 0 },
	{ VL_KIND_BARRIER, 0, 100, 0, 4, VLCOLL_ALG_DISSEMINATION, 0 },
	{ VL_KIND_BARRIER, 0, 300, 0, 6, VLCOLL_ALG_TREE, 0 },
	{ VL_KIND_BARRIER, 0, 5000, 0, 4, VLCOLL_ALG_DISSEMINATION, 0 },
	/* bcast, 12 ranks: knomial, binary, knomial, binary, binomial, basic linear */
	{ VL_KIND_BCAST, 0, 12, 4, 7, VLCOLL_ALG_KNOMIAL, 0 },
	{ VL_KIND_BCAST, 0, 12, 8, 5, VLCOLL_ALG_BINARY, 0 },
	{ VL_KIND_BCAST, 0, 12, 4095, 7, VLCOLL_ALG_KNOMIAL, 0 },
	{ VL_KIND_BCAST, 0, 12, 4096, 5, VLCOLL_ALG_BINARY, 0 },
	{ VL_KIND_BCAST, 0, 12, 20000, 6, VLCOLL_ALG_BINOMIAL_OMPI, 0 },
	{ VL_KIND_BCAST, 0, 12, 65536, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_BCAST, 0, 12, 1048576, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_BCAST, 0, 2, 100, 5, VLCOLL_ALG_BINARY, 0 },
	{ VL_KIND_BCAST, 0, 3, 200000, 2, VLCOLL_ALG_PIPELINE, 0 },
	{ VL_KIND_BCAST, 0, 3, 16, 3, VLCOLL_ALG_PIPELINE, 0 },
	{ VL_KIND_BCAST, 0, 5, 2 * 1048576, 2, VLCOLL_ALG_PIPELINE, 0 },
	{ VL_KIND_BCAST, 0, 16, 1048576, 8, VLCOLL_ALG_SCATTER_ALLGATHER, 0 },
	{ VL_KIND_BCAST, 0, 300, 20000, 4, VLCOLL_ALG_SPLIT_BINARY, 0 },
	{ VL_KIND_BCAST, 0, 100, 1, 7, VLCOLL_ALG_KNOMIAL, 0 },
	/* reduce */
	{ VL_KIND_REDUCE, 0, 12, 100, 4, VLCOLL_ALG_BINARY, 0 },
	{ VL_KIND_REDUCE, 0, 12, 8192, 5, VLCOLL_ALG_BINOMIAL_OMPI, 0 },
	{ VL_KIND_REDUCE, 0, 2, 4, 7, VLCOLL_ALG_LINEAR_OMPI, 1 },
	/* rabenseifner: 1 B is one element (Open MPI's linear); 6 B taken as 3 shorts */
	{ VL_KIND_REDUCE, 0, 2, 1, 7, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_REDUCE, 0, 3, 6, 7, VLCOLL_ALG_RABENSEIFNER, 1 },
	{ VL_KIND_REDUCE, 0, 3, 100, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_REDUCE, 0, 6, 10000, 2, VLCOLL_ALG_PIPELINE, 0 },
	{ VL_KIND_REDUCE, 0, 300, 10000, 6, VLCOLL_ALG_IN_ORDER_BINARY, 0 },
	/* allreduce: 12 ranks switch to Rabenseifner at 8 KiB */
	{ VL_KIND_ALLREDUCE, 0, 12, 8191, 3, VLCOLL_ALG_RECURSIVE_DOUBLING, 0 },
	{ VL_KIND_ALLREDUCE, 0, 12, 8192, 6, VLCOLL_ALG_RABENSEIFNER, 0 },
	{ VL_KIND_ALLREDUCE, 0, 12, 1048576, 6, VLCOLL_ALG_RABENSEIFNER, 0 },
	{ VL_KIND_ALLREDUCE, 0, 3, 4, 4, VLCOLL_ALG_RING_OMPI, 0 },
	{ VL_KIND_ALLREDUCE, 0, 3, 100000, 5, VLCOLL_ALG_RING_OMPI, 0 },
	{ VL_KIND_ALLREDUCE, 0, 20, 32, 5, VLCOLL_ALG_RING_OMPI, 0 },
	{ VL_KIND_ALLREDUCE, 0, 200, 1000, 2, VLCOLL_ALG_NONOVERLAPPING, 0 },
	/* allgather: the block of one rank */
	{ VL_KIND_ALLGATHER, 0, 2, 100, 6, VLCOLL_ALG_RING, 0 },
	{ VL_KIND_ALLGATHER, 0, 12, 100, 3, VLCOLL_ALG_BRUCK, 0 },
	{ VL_KIND_ALLGATHER, 0, 16, 100, 3, VLCOLL_ALG_RECURSIVE_DOUBLING, 0 },
	{ VL_KIND_ALLGATHER, 0, 40, 2000, 5, VLCOLL_ALG_NEIGHBOR, 0 },
	{ VL_KIND_ALLGATHER, 0, 40, 100000, 4, VLCOLL_ALG_RING, 0 },
	{ VL_KIND_ALLGATHER, 0, 300, 100, 2, VLCOLL_ALG_BRUCK, 0 },
	/* alltoall: the block for one rank */
	{ VL_KIND_ALLTOALL, 0, 2, 100, 2, VLCOLL_ALG_PAIRWISE, 0 },
	{ VL_KIND_ALLTOALL, 0, 2, 3000, 5, VLCOLL_ALG_PAIRWISE, 0 },
	{ VL_KIND_ALLTOALL, 0, 12, 1000, 4, VLCOLL_ALG_LINEAR_SYNC, 0 },
	{ VL_KIND_ALLTOALL, 0, 12, 300000, 1, VLCOLL_ALG_LINEAR_SYNC, 0 },
	{ VL_KIND_ALLTOALL, 0, 6, 600000, 2, VLCOLL_ALG_PAIRWISE, 0 },
	{ VL_KIND_ALLTOALL, 0, 20, 100, 3, VLCOLL_ALG_BRUCK, 0 },
	{ VL_KIND_ALLTOALL, 0, 20, 600000, 4, VLCOLL_ALG_LINEAR_SYNC, 0 },
	/* gather, scatter: the block */
	{ VL_KIND_GATHER, 0, 2, 1, 3, VLCOLL_ALG_LINEAR_SYNC, 0 },
	{ VL_KIND_GATHER, 0, 3, 3, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_GATHER, 0, 12, 100, 2, VLCOLL_ALG_BINOMIAL, 0 },
	{ VL_KIND_GATHER, 0, 5, 300000, 3, VLCOLL_ALG_LINEAR_SYNC, 0 },
	{ VL_KIND_SCATTER, 0, 2, 1, 3, VLCOLL_ALG_LINEAR_NB, 0 },
	{ VL_KIND_SCATTER, 0, 3, 100, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_SCATTER, 0, 12, 100, 2, VLCOLL_ALG_BINOMIAL, 0 },
	{ VL_KIND_SCATTER, 0, 100, 100000, 3, VLCOLL_ALG_LINEAR_NB, 0 },
	/* reduce_scatter: the whole vector (here p blocks of the size given) */
	{ VL_KIND_REDUCE_SCATTER, 0, 2, 40000, 4, VLCOLL_ALG_BUTTERFLY, 0 },
	{ VL_KIND_REDUCE_SCATTER, 0, 3, 100, 3, VLCOLL_ALG_RING_OMPI, 0 },
	{ VL_KIND_REDUCE_SCATTER, 0, 5, 1, 1, VLCOLL_ALG_NONOVERLAPPING, 0 },
	{ VL_KIND_REDUCE_SCATTER, 0, 12, 100, 2, VLCOLL_ALG_RECURSIVE_HALVING, 0 },
	{ VL_KIND_REDUCE_SCATTER, 0, 40, 100, 4, VLCOLL_ALG_BUTTERFLY, 0 },
	/* reduce_scatter_block: its own table, on the block of one rank */
	{ VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK, 2, 3, 2, VLCOLL_ALG_RECURSIVE_DOUBLING, 0 },
	{ VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK, 3, 200000, 1, VLCOLL_ALG_NONOVERLAPPING, 0 },
	{ VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK, 6, 16, 2, VLCOLL_ALG_RECURSIVE_DOUBLING, 0 },
	{ VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK, 12, 100, 4, VLCOLL_ALG_BUTTERFLY, 0 },
	{ VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK, 12, 1000, 3, VLCOLL_ALG_RECURSIVE_HALVING, 0 },
	{ VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK, 40, 100000, 1, VLCOLL_ALG_NONOVERLAPPING, 0 },
	/* v-variants: gatherv, scatterv run the basic linear ones, even with equal
	 * blocks; allgatherv has a table of its own (on the mean block), alltoallv
	 * one on p alone (coll_tuned_decision_fixed.c of 4.1.4, read) */
	{ VL_KIND_GATHER, VLCOLL_V, 12, 100, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_GATHER, VLCOLL_V, 2, 1, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_SCATTER, VLCOLL_V, 12, 100, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 16, 100, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 2, 2047, 3, VLCOLL_ALG_RING, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 2, 3000, 5, VLCOLL_ALG_RING, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 2, 5000, 3, VLCOLL_ALG_RING, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 4, 255, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 4, 256, 4, VLCOLL_ALG_NEIGHBOR, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 4, 5000, 3, VLCOLL_ALG_RING, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 7, 100000, 2, VLCOLL_ALG_BRUCK, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 7, 262144, 4, VLCOLL_ALG_NEIGHBOR, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 12, 1023, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 12, 1024, 2, VLCOLL_ALG_BRUCK, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 40, 8192, 3, VLCOLL_ALG_RING, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 200, 2000, 4, VLCOLL_ALG_NEIGHBOR, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 600, 600, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_ALLGATHER, VLCOLL_V, 2000, 10000, 4, VLCOLL_ALG_NEIGHBOR, 0 },
	{ VL_KIND_ALLTOALL, VLCOLL_V, 2, 100, 2, VLCOLL_ALG_PAIRWISE, 0 },
	{ VL_KIND_ALLTOALL, VLCOLL_V, 3, 1000000, 2, VLCOLL_ALG_PAIRWISE, 0 },
	{ VL_KIND_ALLTOALL, VLCOLL_V, 4, 100, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_ALLTOALL, VLCOLL_V, 63, 100, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_ALLTOALL, VLCOLL_V, 64, 100, 2, VLCOLL_ALG_PAIRWISE, 0 },
	{ VL_KIND_ALLTOALL, VLCOLL_V, 200, 100, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	{ VL_KIND_ALLTOALL, VLCOLL_V, 1023, 1, 2, VLCOLL_ALG_PAIRWISE, 0 },
	{ VL_KIND_ALLTOALL, VLCOLL_V, 1024, 1, 1, VLCOLL_ALG_LINEAR_OMPI, 0 },
	/* kinds without rules: the fixed default */
	{ VL_KIND_SCAN, 0, 12, 100, 0, VLCOLL_ALG_DEFAULT, 0 },
	{ VL_KIND_EXSCAN, 0, 12, 100, 0, VLCOLL_ALG_DEFAULT, 0 },
};

START_TEST(decision_points)
{
	int host[1] = { 0 };
	int64_t e[1] = { 0 };
	size_t i;
	int k;

	for (i = 0; i < sizeof points / sizeof points[0]; i++) {
		const point *q = &points[i];
		int nb = q->kind == VL_KIND_ALLTOALL ? q->p * q->p : q->p;
		int64_t *bytes = malloc(sizeof(int64_t) * (size_t)nb);
		vlcoll_in in;
		int ompi, subst, alg;

		ck_assert_ptr_nonnull(bytes);
		for (k = 0; k < nb; k++)
			bytes[k] = q->bytes;
		in.kind = q->kind;
		in.alg = VLCOLL_ALG_DEFAULT;
		in.p = q->p;
		in.root = q->p - 1;
		in.host = host;
		in.entry = e;
		in.bytes = bytes;
		in.variant = q->variant;
		alg = vlcoll_select_openmpi(&in, &ompi, &subst);
		ck_assert_msg(ompi == q->ompi && alg == q->alg && subst == q->subst,
			      "%s p=%d %lld B: Open MPI %d (%s), vlayer %s, subst %d",
			      vl_coll_kind_name(q->kind), q->p, (long long)q->bytes, ompi,
			      vlcoll_ompi_name(q->kind, q->variant, ompi), vlcoll_alg_name(alg), subst);
		free(bytes);
	}
	ck_assert_str_eq(vlcoll_ompi_name(VL_KIND_BCAST, 0, 7), "knomial");
	ck_assert_str_eq(vlcoll_ompi_name(VL_KIND_BCAST, 0, 0), "none");
	ck_assert_str_eq(vlcoll_ompi_name(VL_KIND_SCAN, 0, 1), "none");
	ck_assert_str_eq(vlcoll_ompi_name(VL_KIND_REDUCE_SCATTER, 0, 1), "non-overlapping");
	ck_assert_str_eq(vlcoll_ompi_name(VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK, 2),
			 "recursive_doubling");
	ck_assert_str_eq(vlcoll_ompi_name(VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK, 5), "none");
	ck_assert_str_eq(vlcoll_ompi_why(VL_KIND_BARRIER, 2), "vlayer lacks it");
}
END_TEST

/* reduce_scatter_block in the tables of edges below: kind reduce_scatter,
 * variant VLCOLL_BLOCK. */
#define RSB VL_KIND_N

/* Open MPI's number for kind on p ranks; size: the block (gather, scatter,
 * reduce_scatter_block), the whole vector (reduce_scatter: held by rank 0,
 * the others' blocks empty). */
static int ompi_of(int kind, int p, int64_t size)
{
	static int host[1];
	static int64_t e[1], bytes[4096];
	vlcoll_in in = { kind, VLCOLL_ALG_DEFAULT, p, 0, host, e, bytes, VLCOLL_PLAIN };
	int k, ompi, subst;

	ck_assert_int_le(p, 4096);
	if (kind == RSB) {
		in.kind = VL_KIND_REDUCE_SCATTER;
		in.variant = VLCOLL_BLOCK;
	}
	for (k = 0; k < p; k++)
		bytes[k] = kind == VL_KIND_REDUCE_SCATTER && k ? 0 : size;
	vlcoll_select_openmpi(&in, &ompi, &subst);
	return ompi;
}

static const char *edge_kind(int kind)
{
	return kind == RSB ? "reduce_scatter_block" : vl_coll_kind_name(kind);
}

#define K(x) ((x) * KIB)
#define G VL_KIND_GATHER
#define SC VL_KIND_SCATTER
#define RS VL_KIND_REDUCE_SCATTER

typedef struct edge {
	int kind, p;
	int64_t size;
	int below, at; /* Open MPI's numbers */
} edge;

/* Every size threshold of the gather, scatter and reduce_scatter rules, at the
 * smallest p of its row: Open MPI's algorithm at size - 1 and at size. */
static const edge size_edges[] = {
	{ G, 2, 2, 3, 1 }, { G, 2, 4, 1, 2 }, { G, 2, K(32), 2, 1 }, { G, 2, K(64), 1, 2 },
	{ G, 2, K(128), 2, 3 }, { G, 4, K(1), 2, 1 }, { G, 4, K(8), 1, 2 }, { G, 4, K(32), 2, 1 },
	{ G, 4, K(256), 1, 3 }, { G, 256, K(2), 2, 1 }, { G, 256, K(8), 1, 2 },
	{ SC, 2, 2, 3, 1 }, { SC, 2, K(128), 1, 3 }, { SC, 2, K(256), 3, 1 },
	{ SC, 4, K(2), 2, 1 }, { SC, 4, K(4), 1, 2 }, { SC, 4, K(8), 2, 1 },
	{ SC, 4, K(32), 1, 3 }, { SC, 4, K(1024), 3, 1 }, { SC, 8, K(16), 2, 3 },
	{ SC, 8, K(1024), 3, 1 }, { SC, 16, K(16), 2, 1 }, { SC, 16, K(32), 1, 3 },
	{ SC, 32, 512, 2, 3 }, { SC, 32, K(8), 3, 2 }, { SC, 32, K(16), 2, 3 },
	{ SC, 64, 512, 2, 3 },
	{ RS, 2, K(64), 3, 4 }, { RS, 2, K(128), 4, 3 }, { RS, 4, 8, 1, 2 },
	{ RS, 4, K(256), 2, 3 }, { RS, 8, K(256), 2, 3 }, { RS, 32, 64, 1, 2 },
	{ RS, 32, K(2), 2, 4 }, { RS, 32, K(512), 4, 3 }, { RS, 64, 256, 1, 2 },
	{ RS, 64, 512, 2, 4 }, { RS, 64, K(2), 4, 2 }, { RS, 64, K(4), 2, 4 },
	{ RS, 128, 256, 1, 2 }, { RS, 128, 512, 2, 4 }, { RS, 256, 256, 1, 2 },
	{ RS, 256, K(1), 2, 4 }, { RS, 512, 512, 1, 2 }, { RS, 512, K(2), 2, 4 },
	{ RS, 512, K(8), 4, 2 }, { RS, 512, K(16), 2, 4 }, { RS, 1024, 512, 1, 2 },
	{ RS, 1024, K(4), 2, 4 }, { RS, 1024, K(16), 4, 2 }, { RS, 1024, K(32), 2, 4 },
	{ RS, 2048, 512, 1, 2 }, { RS, 2048, K(4), 2, 4 }, { RS, 4096, K(1), 1, 2 },
	{ RS, 4096, K(8), 2, 4 },
	{ RSB, 2, 4, 2, 4 }, { RSB, 2, 8, 4, 3 }, { RSB, 2, 16, 3, 4 }, { RSB, 2, 128, 4, 3 },
	{ RSB, 2, 256, 3, 4 }, { RSB, 2, K(4), 4, 3 }, { RSB, 2, K(8), 3, 4 },
	{ RSB, 2, K(128), 4, 1 }, { RSB, 4, 8, 3, 2 }, { RSB, 4, 32, 2, 4 }, { RSB, 4, 256, 4, 3 },
	{ RSB, 4, K(8), 3, 4 }, { RSB, 4, K(16), 4, 3 }, { RSB, 4, K(1024), 3, 1 },
	{ RSB, 8, 4, 1, 3 }, { RSB, 8, 32, 3, 4 }, { RSB, 8, 128, 4, 3 }, { RSB, 8, K(512), 3, 1 },
	{ RSB, 8, K(4096), 1, 4 }, { RSB, 16, 32, 1, 3 }, { RSB, 16, K(512), 3, 1 },
	{ RSB, 16, K(2048), 1, 3 }, { RSB, 16, K(4096), 3, 4 }, { RSB, 32, 4, 3, 1 },
	{ RSB, 32, 16, 1, 4 }, { RSB, 32, K(64), 4, 1 }, { RSB, 32, K(256), 1, 4 },
};

/* Every boundary of p in those rules, at a size where it matters: Open MPI's
 * algorithm on p - 1 and on p ranks. */
static const edge p_edges[] = {
	{ G, 4, 1, 3, 2 }, { G, 8, K(1), 1, 2 }, { G, 256, K(2), 2, 1 }, { G, 512, K(2), 1, 2 },
	{ SC, 4, 1, 3, 2 }, { SC, 8, K(2), 1, 2 }, { SC, 16, K(16), 3, 1 }, { SC, 32, 512, 2, 3 },
	{ SC, 64, K(8), 2, 3 },
	{ RS, 4, 1, 3, 1 }, { RS, 8, 1, 1, 2 }, { RS, 32, 1, 2, 1 }, { RS, 64, 64, 2, 1 },
	{ RS, 128, K(2), 2, 4 }, { RS, 256, 512, 4, 2 }, { RS, 512, 256, 2, 1 },
	{ RS, 1024, K(2), 4, 2 }, { RS, 2048, K(16), 2, 4 }, { RS, 4096, 512, 2, 1 },
	{ RSB, 4, 4, 4, 3 }, { RSB, 8, 2, 3, 1 }, { RSB, 16, 32, 4, 3 }, { RSB, 32, 2, 1, 3 },
};

START_TEST(decision_edges)
{
	size_t i;

	for (i = 0; i < sizeof size_edges / sizeof size_edges[0]; i++) {
		const edge *q = &size_edges[i];

		ck_assert_msg(ompi_of(q->kind, q->p, q->size - 1) == q->below &&
				      ompi_of(q->kind, q->p, q->size) == q->at,
			      "%s p=%d around %lld B", edge_kind(q->kind), q->p,
			      (long long)q->size);
	}
	for (i = 0; i < sizeof p_edges / sizeof p_edges[0]; i++) {
		const edge *q = &p_edges[i];

		ck_assert_msg(ompi_of(q->kind, q->p - 1, q->size) == q->below &&
				      ompi_of(q->kind, q->p, q->size) == q->at,
			      "%s %lld B around p=%d", edge_kind(q->kind),
			      (long long)q->size, q->p);
	}
}
END_TEST

/* The call made decides, not the blocks: a gatherv or scatterv runs Open
 * MPI's basic linear algorithm whatever p and the sizes, even with equal
 * blocks; a gather or scatter of the same blocks follows the rules. */
START_TEST(decision_v_variants)
{
	int host[1] = { 0 }, kind, ompi, subst;
	int64_t e[1] = { 0 }, bytes[12];
	vlcoll_in in = { 0, VLCOLL_ALG_DEFAULT, 12, 3, host, e, bytes, VLCOLL_V };
	int k;

	for (k = 0; k < 12; k++)
		bytes[k] = 100;
	for (kind = VL_KIND_GATHER; kind <= VL_KIND_SCATTER; kind++) {
		in.kind = kind;
		in.variant = VLCOLL_V;
		ck_assert_int_eq(vlcoll_select_openmpi(&in, &ompi, &subst), VLCOLL_ALG_LINEAR_OMPI);
		ck_assert_int_eq(ompi, 1);
		ck_assert_int_eq(subst, 0);
		in.variant = VLCOLL_PLAIN;
		ck_assert_int_eq(vlcoll_select_openmpi(&in, &ompi, &subst), VLCOLL_ALG_BINOMIAL);
		ck_assert_int_eq(ompi, 2);
	}
}
END_TEST

/* selection = openmpi applies to kinds whose key is "default" only */
START_TEST(selection_applies)
{
	vlcfg_config c;
	vlcoll_out a[12], f[12];
	int r, differ = 0;

	cfg_std(&c);
	ck_assert_int_eq(c.mpi.coll_select, VLCOLL_SELECT_FIXED);
	ck_assert_str_eq(vlcoll_selection_name(VLCOLL_SELECT_OPENMPI), "openmpi");
	ck_assert_int_eq(vlcoll_selection_parse("fixed"), VLCOLL_SELECT_FIXED);
	ck_assert_int_eq(vlcoll_selection_parse("OpenMPI"), -1);
	/* fixed: default is binomial (MPICH's) */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_DEFAULT, 12, 0, NULL, 65536, f);
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 12, 0, NULL, 65536, a);
	ck_assert_mem_eq(a, f, sizeof a);
	/* openmpi: 12 ranks, 64 KiB: Open MPI's basic linear */
	c.mpi.coll_select = VLCOLL_SELECT_OPENMPI;
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_DEFAULT, 12, 0, NULL, 65536, a);
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_LINEAR_OMPI, 12, 0, NULL, 65536, f);
	ck_assert_mem_eq(a, f, sizeof a);
	/* an algorithm named for the kind wins */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 12, 0, NULL, 65536, a);
	for (r = 0; r < 12; r++)
		differ |= a[r].exit != f[r].exit;
	ck_assert(differ);
	/* a kind without rules keeps its fixed default */
	sim(&c, VL_KIND_SCAN, VLCOLL_ALG_DEFAULT, 12, 0, NULL, 100, a);
	sim(&c, VL_KIND_SCAN, VLCOLL_ALG_CHAIN, 12, 0, NULL, 100, f);
	ck_assert_mem_eq(a, f, sizeof a);
	vlcfg_free(&c);
}
END_TEST

/* ---- closed forms (one host: S, T(b), R; eager below 4 KiB) ---- */

START_TEST(barrier_tree_closed_form)
{
	vlcfg_config c;
	vlcoll_out o[4];

	/* p = 4, up: 1 -> 0 and 3 -> 2, then 2 -> 0; down: 0 -> 2, then 0 -> 1
	 * and 2 -> 3.  Rank 2: receives at S + T + R, sends (ready 2S + T + R);
	 * rank 0: receives 1 (S + T + R), 2 (2S + 2T + 2R), sends to 2 (3S ...)
	 * and 1 (4S + 2T + 2R); rank 2 gets it at 3S + 3T + 2R, + R, sends to 3:
	 * 4S + 3T + 3R; rank 3: 4S + 4T + 4R; rank 1: 4S + 3T + 3R */
	cfg_std(&c);
	sim(&c, VL_KIND_BARRIER, VLCOLL_ALG_TREE, 4, 0, NULL, 0, o);
	ck_assert_int_eq(o[0].exit, 4 * S + 2 * T0 + 2 * R);
	ck_assert_int_eq(o[1].exit, 4 * S + 3 * T0 + 3 * R);
	ck_assert_int_eq(o[2].exit, 4 * S + 3 * T0 + 3 * R);
	ck_assert_int_eq(o[3].exit, 4 * S + 4 * T0 + 4 * R);
	vlcfg_free(&c);
}
END_TEST

START_TEST(bcast_trees_closed_form)
{
	vlcfg_config c;
	vlcoll_out o[6];
	const int64_t t = T(8 * KIB), te = T(KIB);

	cfg_std(&c);
	/* binomial_ompi, p = 4, rendezvous: the root's children 1 then 2, 1's
	 * child 3; the root starts both sends (ready S, 2S), both receivers posted
	 * at 0: the root waits until 2S + T.  1: S + T + R, its send ready
	 * 2S + T + R, in 2S + 2T + R */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL_OMPI, 4, 0, NULL, 8 * KIB, o);
	ck_assert_int_eq(o[0].exit, 2 * S + t);
	ck_assert_int_eq(o[1].exit, 2 * S + 2 * t + R);
	ck_assert_int_eq(o[2].exit, 2 * S + t + R);
	ck_assert_int_eq(o[3].exit, 2 * S + 2 * t + 2 * R);
	/* root 2: the same tree over relative ranks (rank 2 + v mod 4) */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL_OMPI, 4, 2, NULL, 8 * KIB, o);
	ck_assert_int_eq(o[2].exit, 2 * S + t);
	ck_assert_int_eq(o[3].exit, 2 * S + 2 * t + R);
	ck_assert_int_eq(o[1].exit, 2 * S + 2 * t + 2 * R);
	/* binary, p = 6, eager: 0 -> 1, 2; 1 -> 3, 5; 2 -> 4 */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINARY, 6, 0, NULL, KIB, o);
	ck_assert_int_eq(o[0].exit, 2 * S);
	ck_assert_int_eq(o[1].exit, 3 * S + te + R);
	ck_assert_int_eq(o[2].exit, 3 * S + te + R);
	ck_assert_int_eq(o[3].exit, 2 * S + 2 * te + 2 * R);
	ck_assert_int_eq(o[5].exit, 3 * S + 2 * te + 2 * R);
	ck_assert_int_eq(o[4].exit, 3 * S + 2 * te + 2 * R);
	/* knomial (radix 4), p = 5: the root sends to 4 first, then 1, 2, 3 */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_KNOMIAL, 5, 0, NULL, KIB, o);
	ck_assert_int_eq(o[0].exit, 4 * S);
	ck_assert_int_eq(o[4].exit, S + te + R);
	ck_assert_int_eq(o[1].exit, 2 * S + te + R);
	ck_assert_int_eq(o[3].exit, 4 * S + te + R);
	/* pipeline, p = 3, rendezvous: 0 -> 1 -> 2 */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_PIPELINE, 3, 0, NULL, 8 * KIB, o);
	ck_assert_int_eq(o[0].exit, S + t);
	ck_assert_int_eq(o[1].exit, 2 * S + 2 * t + R);
	ck_assert_int_eq(o[2].exit, 2 * S + 2 * t + 2 * R);
	/* linear_ompi, root 2 of 4: sends to 0, 1, 3 in that order */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_LINEAR_OMPI, 4, 2, NULL, KIB, o);
	ck_assert_int_eq(o[2].exit, 3 * S);
	ck_assert_int_eq(o[0].exit, S + te + R);
	ck_assert_int_eq(o[1].exit, 2 * S + te + R);
	ck_assert_int_eq(o[3].exit, 3 * S + te + R);
	/* split_binary, p = 3, 2 KiB: the root sends the halves (1 KiB) to 1
	 * and 2 (blocking, eager: it leaves at 2S), which swap them (Open MPI's
	 * sendrecv): 1 sends at 2S + T + R, receives 2's (sent at 3S + T + R) */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_SPLIT_BINARY, 3, 0, NULL, 2 * KIB, o);
	ck_assert_int_eq(o[0].exit, 2 * S);
	ck_assert_int_eq(o[1].exit, 3 * S + 2 * te + 2 * R);
	ck_assert_int_eq(o[2].exit, 2 * S + 2 * te + 2 * R);
	/* scatter_allgather, p = 4, 2 KiB (c = 512 B): the root sends 1 KiB to
	 * 2, 512 B to 1; 2 sends 512 B to 3; then exchanges of 512 B (0-1, 2-3)
	 * and 1 KiB (0-2, 1-3), each an Open MPI sendrecv */
	{
		const int64_t h = T(KIB / 2), k = te;

		sim(&c, VL_KIND_BCAST, VLCOLL_ALG_SCATTER_ALLGATHER, 4, 0, NULL, 2 * KIB, o);
		ck_assert_int_eq(o[0].exit, 4 * S + 2 * k + 2 * h + 4 * R);
		ck_assert_int_eq(o[1].exit, 4 * S + 2 * k + h + 4 * R);
		ck_assert_int_eq(o[2].exit, 4 * S + k + 2 * h + 4 * R);
		ck_assert_int_eq(o[3].exit, 4 * S + k + h + 4 * R);
	}
	vlcfg_free(&c);
}
END_TEST

START_TEST(reduce_trees_closed_form)
{
	vlcfg_config c;
	vlcoll_out o[4];
	int64_t entry[4] = { 0, L, 0, 0 };
	const int64_t t = T(8 * KIB), te = T(KIB);

	cfg_std(&c);
	/* binomial_ompi, p = 4, rendezvous, rank 1 late by L: 0's children 1, 2;
	 * 2's child 3.  2 gets 3's vector at S + T, + R, sends (ready
	 * 2S + T + R); 0 posted both receives at 0: 2's data are in at
	 * 2S + 2T + R, 1's at L + S + T; 0 leaves at L + S + T + 2R.  (With the
	 * receive from 2 posted only after 1's, as reduce binomial does, 0 would
	 * leave at L + S + 2T + 2R.) */
	sim(&c, VL_KIND_REDUCE, VLCOLL_ALG_BINOMIAL_OMPI, 4, 0, entry, 8 * KIB, o);
	ck_assert_int_eq(o[0].exit, L + S + t + 2 * R);
	ck_assert_int_eq(o[1].exit, L + S + t);
	ck_assert_int_eq(o[2].exit, 2 * S + 2 * t + R);
	ck_assert_int_eq(o[3].exit, S + t);
	sim(&c, VL_KIND_REDUCE, VLCOLL_ALG_BINOMIAL, 4, 0, entry, 8 * KIB, o);
	ck_assert_int_eq(o[0].exit, L + S + 2 * t + 2 * R);
	/* linear_ompi, p = 3, root 0, rank 1 late, eager: the root receives from
	 * 2 first (S + T + R), then from 1 (L + S + T + R) */
	sim(&c, VL_KIND_REDUCE, VLCOLL_ALG_LINEAR_OMPI, 3, 0, entry, KIB, o);
	ck_assert_int_eq(o[0].exit, L + S + te + R);
	sim(&c, VL_KIND_REDUCE, VLCOLL_ALG_LINEAR, 3, 0, entry, KIB, o);
	ck_assert_int_eq(o[0].exit, L + S + te + 2 * R);
	/* in_order_binary, p = 3, root 0, eager: the tree is rooted at 2, with
	 * children 1 then 0; 2 receives both (S + T + R, + R), sends the result
	 * to 0 (ready 2S + T + 2R), which has sent its own at S */
	sim(&c, VL_KIND_REDUCE, VLCOLL_ALG_IN_ORDER_BINARY, 3, 0, NULL, KIB, o);
	ck_assert_int_eq(o[2].exit, 2 * S + te + 2 * R);
	ck_assert_int_eq(o[1].exit, S);
	ck_assert_int_eq(o[0].exit, 2 * S + 2 * te + 3 * R);
	/* pipeline, p = 3, root 0, eager: 2 -> 1 -> 0 */
	sim(&c, VL_KIND_REDUCE, VLCOLL_ALG_PIPELINE, 3, 0, NULL, KIB, o);
	ck_assert_int_eq(o[0].exit, 2 * S + 2 * te + 2 * R);
	ck_assert_int_eq(o[1].exit, 2 * S + te + R);
	vlcfg_free(&c);
}
END_TEST

START_TEST(allreduce_rabenseifner_closed_form)
{
	vlcfg_config c;
	vlcoll_out o[4];
	const int64_t te = T(KIB), t2 = T(2 * KIB), t4 = T(4 * KIB);

	cfg_std(&c);
	/* p = 3, 2 KiB (eager), halves of 1 KiB.  Ranks 0 and 1 swap halves
	 * (Open MPI's sendrecv: post, send, wait): both at S + T + R; 1 sends its
	 * upper half to 0 (ready 2S + T + R): 0 at 2S + 2T + 2R; 1 leaves that
	 * part at 2S + T + R.  Then 0 and 2 (virtual ranks 0, 1): reduce-scatter
	 * of 1 KiB each way: 2 sent at S, 0 sends at 3S + 2T + 2R and receives:
	 * 3S + 2T + 3R; 2 receives 0's at 3S + 3T + 2R: 3S + 3T + 3R.  Allgather
	 * of 1 KiB: 0 sends (ready 4S + 2T + 3R), receives 2's (ready 4S + 3T +
	 * 3R): 4S + 4T + 4R; 2: 4S + 3T + 4R.  Last 0 sends all 2 KiB to 1:
	 * 1 leaves at 5S + 4T + 4R + T(2 KiB) + R. */
	sim(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RABENSEIFNER, 3, 0, NULL, 2 * KIB, o);
	ck_assert_int_eq(o[0].exit, 5 * S + 4 * te + 4 * R);
	ck_assert_int_eq(o[2].exit, 4 * S + 3 * te + 4 * R);
	ck_assert_int_eq(o[1].exit, 5 * S + 4 * te + t2 + 5 * R);
	/* p = 4, 8 KiB: halving 4 KiB (rendezvous) then 2 KiB, doubling 2 then 4
	 * KiB: each step S + T + R for everyone */
	sim(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RABENSEIFNER, 4, 0, NULL, 8 * KIB, o);
	ck_assert_int_eq(o[0].exit, 2 * (S + t4 + R) + 2 * (S + t2 + R));
	ck_assert_int_eq(o[3].exit, o[0].exit);
	/* fewer bytes than p' (3 < 4): Open MPI's basic linear */
	sim(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RABENSEIFNER, 4, 0, NULL, 3, o);
	ck_assert_int_eq(o[3].nmsgs, 1);
	ck_assert_int_eq(o[0].nmsgs, 3);
	vlcfg_free(&c);
}
END_TEST

START_TEST(allgather_alltoall_closed_form)
{
	vlcfg_config c;
	vlcoll_out o[5];
	int64_t entry[3] = { 0, L, 0 };
	const int64_t te = T(KIB), t2 = T(2 * KIB);
	int r;

	cfg_std(&c);
	/* bruck p = 5, 1 KiB blocks: distances 1, 2, 4 carry 1, 2, 1 blocks */
	sim(&c, VL_KIND_ALLGATHER, VLCOLL_ALG_BRUCK, 5, 0, NULL, KIB, o);
	for (r = 0; r < 5; r++)
		ck_assert_int_eq(o[r].exit, 3 * S + 2 * te + t2 + 3 * R);
	/* neighbour exchange p = 4: one block, then two */
	sim(&c, VL_KIND_ALLGATHER, VLCOLL_ALG_NEIGHBOR, 4, 0, NULL, KIB, o);
	for (r = 0; r < 4; r++)
		ck_assert_int_eq(o[r].exit, 2 * S + te + t2 + 2 * R);
	/* alltoall bruck p = 4, 1 KiB blocks: d = 1 and 2 each carry the 2 slots
	 * with that bit (1, 3; 2, 3) */
	sim(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_BRUCK, 4, 0, NULL, KIB, o);
	for (r = 0; r < 4; r++)
		ck_assert_int_eq(o[r].exit, 2 * (S + t2 + R));
	/* linear_sync p = 3, rank 1 late, eager: 0 receives from 1 (sent first,
	 * to 0, at L + S) and 2 (sent second, at 2S): L + S + T + 2R; with the
	 * linear algorithm 1 sends to 2 first: L + 2S + T + 2R */
	sim(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR_SYNC, 3, 0, entry, KIB, o);
	ck_assert_int_eq(o[0].exit, L + S + te + 2 * R);
	sim(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR, 3, 0, entry, KIB, o);
	ck_assert_int_eq(o[0].exit, L + 2 * S + te + 2 * R);
	vlcfg_free(&c);
}
END_TEST

/* nonoverlapping = Open MPI's reduce to 0, then its bcast from 0, as if run
 * one after the other */
START_TEST(allreduce_nonoverlapping)
{
	vlcfg_config c;
	vlcoll_out a[6];

	cfg_std(&c);
	/* p = 6, 100 B: reduce binary, bcast binomial (Open MPI's rules) */
	sim(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_NONOVERLAPPING, 6, 0, NULL, 100, a);
	assert_binary_reduce_then(&c, a, 6, 100, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL_OMPI, 100);
	vlcfg_free(&c);
}
END_TEST

/* The trees: every node but the root has one parent, which lists it as a
 * child; p - 1 edges. */
START_TEST(trees_consistent)
{
	int shape, p, v, k, nc, parent, child[VLCOLL_TREE_MAXCHILD];

	for (shape = VLCOLL_TREE_BMTREE; shape <= VLCOLL_TREE_IN_ORDER_BINARY; shape++)
		for (p = 1; p <= 70; p++) {
			int edges = 0, roots = 0;

			for (v = 0; v < p; v++) {
				nc = vlcoll_tree_node(shape, p, v, &parent, child);
				edges += nc;
				roots += parent < 0;
				for (k = 0; k < nc; k++) {
					int pp, cc[VLCOLL_TREE_MAXCHILD];

					ck_assert_int_lt(child[k], p);
					vlcoll_tree_node(shape, p, child[k], &pp, cc);
					ck_assert_msg(pp == v, "shape %d p %d: %d, %d",
						      shape, p, child[k], v);
				}
			}
			ck_assert_int_eq(edges, p - 1);
			ck_assert_int_eq(roots, 1);
		}
}
END_TEST

/* The [collectives] selection key: loading, errors, run-time change. */
static int load_text(const char *text, vlcfg_config *c, char *err, size_t errlen)
{
	char path[] = "/tmp/vlayer_test_selXXXXXX";
	int fd = mkstemp(path), rc;
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	rc = vlcfg_load(path, c, err, errlen);
	unlink(path);
	return rc;
}

START_TEST(selection_key)
{
	vlcfg_config c;
	char err[512];

	ck_assert_int_eq(load_text("[collectives]\nselection = openmpi\nbcast = linear\n[host a]\n",
				   &c, err, sizeof err), 0);
	ck_assert_int_eq(c.mpi.coll_select, VLCOLL_SELECT_OPENMPI);
	ck_assert_int_eq(c.mpi.coll_alg[VL_KIND_BCAST], VLCOLL_ALG_LINEAR);
	ck_assert_int_eq(vlcfg_set(&c, "collectives", "selection", "fixed", err, sizeof err), 0);
	ck_assert_int_eq(c.mpi.coll_select, VLCOLL_SELECT_FIXED);
	ck_assert_int_eq(vlcfg_set(&c, "collectives", "selection", "tuned", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "selection: \"tuned\" is not a selection (valid: fixed, "
				     "openmpi)"));
	ck_assert_int_eq(c.mpi.coll_select, VLCOLL_SELECT_FIXED);
	vlcfg_free(&c);
	ck_assert_int_eq(load_text("[host a]\n[collectives]\nselection = fixed\n", &c, err,
				   sizeof err), 0);
	ck_assert_int_eq(c.mpi.coll_select, VLCOLL_SELECT_FIXED);
	vlcfg_free(&c);
	ck_assert_int_eq(load_text("[host a]\n[collectives]\nselection = openmpi\n"
				   "selection = openmpi\n", &c, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, ":4: [collectives] selection: given twice in this "
				     "section (first at line 3); give it once"));
	ck_assert_int_eq(load_text("[host a]\n[collectives]\nselection =\n", &c, err, sizeof err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, ":3: [collectives] selection: empty value (valid: fixed, "
				     "openmpi)"));
	ck_assert_int_eq(load_text("[host a]\n[collectives]\nselect = openmpi\n", &c, err,
				   sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "select: unknown key (valid: barrier, bcast, reduce, "
				     "allreduce, gather, scatter, allgather, alltoall, "
				     "reduce_scatter, scan, exscan, selection)"));
	/* a later [collectives] section may give it again */
	ck_assert_int_eq(load_text("[host a]\n[collectives]\nselection = openmpi\n[collectives]\n"
				   "selection = fixed\n", &c, err, sizeof err), 0);
	ck_assert_int_eq(c.mpi.coll_select, VLCOLL_SELECT_FIXED);
	vlcfg_free(&c);
}
END_TEST

static Suite *ompi_suite(void)
{
	Suite *s = suite_create("coll_ompi");
	TCase *tc = tcase_create("openmpi");

	tcase_add_test(tc, decision_points);
	tcase_add_test(tc, decision_edges);
	tcase_add_test(tc, decision_v_variants);
	tcase_add_test(tc, selection_applies);
	tcase_add_test(tc, selection_key);
	tcase_add_test(tc, barrier_tree_closed_form);
	tcase_add_test(tc, bcast_trees_closed_form);
	tcase_add_test(tc, reduce_trees_closed_form);
	tcase_add_test(tc, allreduce_rabenseifner_closed_form);
	tcase_add_test(tc, allgather_alltoall_closed_form);
	tcase_add_test(tc, allreduce_nonoverlapping);
	tcase_add_test(tc, trees_consistent);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ompi_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
