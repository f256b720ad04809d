/* select_openmpi.c - [collectives] selection = openmpi: the algorithm Open
 * MPI 4.1's default collective component ("tuned") runs, per call, from the
 * communicator size p and the message size, as its fixed decision rules
 * (coll_tuned_decision_fixed.c of the v4.1.x series) choose it, for barrier,
 * bcast, reduce, allreduce, gather, scatter, allgather, alltoall,
 * reduce_scatter and reduce_scatter_block.  The rules for a commutative operation are used (MPI_SUM,
 * MPI_MAX ...: the simulation does not know the operation).  In those rules
 * the segment size and fan-out are 0: no algorithm cuts the message into
 * segments.
 *
 * The tables below state the rules: one row per range of p, each a list of
 * (size limit, algorithm) pairs - the algorithm for sizes below the limit -
 * ended by the algorithm for all larger sizes.  Sizes are Open MPI's
 * "total_dsize" in bytes: the vector (bcast, reduce, allreduce), the block
 * one rank sends to one other (gather, scatter, allgather, alltoall) or the
 * whole vector, the sum of the blocks (reduce_scatter), or the block of
 * one rank (reduce_scatter_block).  The algorithms are
 * Open MPI's numbers (vlcoll_ompi_name gives the names); vlcoll_ompi_alg turns
 * them into vlayer's.  docs/vmconfig.md shows the same tables.
 *
 * The call made (vlcoll_in.variant) decides for the v-variants: tuned has
 * no rule for gatherv and scatterv (its module leaves them to the basic
 * component, whose linear algorithms run: linear_ompi), and
 * reduce_scatter_block has a table of its own, on the block of one rank;
 * allgatherv has its own table on the mean block of one rank, and
 * alltoallv one on p alone (tuned has only basic_linear and pairwise for
 * it).
 */
#include <limits.h>
#include <stddef.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"

/* A row: p below pmax (p == 2 for pmax 3 after a row of pmax 2 or none);
 * nsz limits sz[] with the algorithms alg[] below them, alg[nsz] above. */
typedef struct vlcoll_rule {
	int pmax;
	int nsz;
	int64_t sz[11];
	unsigned char alg[12];
} vlcoll_rule;

#define K(x) ((int64_t)(x) * 1024)
#define PMAX INT_MAX

/* barrier: 1 linear, 2 double_ring, 3 recursive_doubling, 4 bruck, 5 two_proc, 6 tree */
static const vlcoll_rule vlcoll_rules_barrier[] = {
	{ 4, 0, { 0 }, { 3 } },     { 8, 0, { 0 }, { 1 } },    { 64, 0, { 0 }, { 3 } },
	{ 256, 0, { 0 }, { 4 } },   { 512, 0, { 0 }, { 6 } },  { 1024, 0, { 0 }, { 4 } },
	{ 4096, 0, { 0 }, { 6 } },  { PMAX, 0, { 0 }, { 4 } },
};

/* bcast: 1 basic_linear, 2 chain, 3 pipeline, 4 split_binary_tree, 5 binary_tree,
 * 6 binomial, 7 knomial, 8 scatter_allgather, 9 scatter_allgather_ring */
static const vlcoll_rule vlcoll_rules_bcast[] = {
	{ 4, 9, { 32, 256, 512, K(1), K(32), K(128), K(256), K(512), K(1024) },
	  { 3, 5, 3, 7, 1, 5, 2, 1, 6, 5 } },
	{ 8, 5, { 64, 128, K(2), K(8), K(1024) }, { 5, 6, 5, 6, 1, 2 } },
	{ 16, 5, { 8, 64, K(4), K(16), K(32) }, { 7, 5, 7, 5, 6, 1 } },
	{ 32, 2, { K(4), K(1024) }, { 7, 6, 8 } },
	{ 64, 1, { K(2) }, { 6, 7 } },
	{ 128, 0, { 0 }, { 7 } },
	{ 256, 4, { 2, K(16), K(32), K(64) }, { 6, 5, 1, 5, 7 } },
	{ 1024, 2, { K(16), K(32) }, { 7, 4, 7 } },
	{ 2048, 1, { K(512) }, { 7, 8 } },
	{ 4096, 1, { K(256) }, { 7, 8 } },
	{ PMAX, 3, { K(8), K(16), K(256) }, { 7, 5, 7, 8 } },
};

/* reduce (commutative): 1 linear, 2 chain, 3 pipeline, 4 binary, 5 binomial,
 * 6 in-order_binary, 7 rabenseifner */
static const vlcoll_rule vlcoll_rules_reduce[] = {
	{ 4, 6, { 8, 16, 32, K(256), K(512), K(1024) }, { 7, 4, 3, 1, 3, 2, 3 } },
	{ 8, 5, { K(4), K(64), K(256), K(512), K(1024) }, { 4, 2, 5, 1, 5, 1 } },
	{ 16, 1, { K(8) }, { 4, 5 } },
	{ 32, 1, { K(4) }, { 4, 5 } },
	{ 256, 0, { 0 }, { 5 } },
	{ 512, 2, { K(8), K(16) }, { 5, 6, 5 } },
	{ 2048, 0, { 0 }, { 5 } },
	{ 4096, 4, { 512, K(1), K(8), K(16) }, { 5, 6, 5, 6, 5 } },
	{ PMAX, 6, { 16, 32, K(1), K(2), K(8), K(16) }, { 5, 6, 5, 6, 5, 6, 5 } },
};

/* allreduce (commutative): 1 basic_linear, 2 nonoverlapping, 3 recursive_doubling,
 * 4 ring, 5 segmented_ring, 6 rabenseifner */
static const vlcoll_rule vlcoll_rules_allreduce[] = {
	{ 4, 6, { 8, K(4), K(8), K(16), K(64), K(256) }, { 4, 3, 4, 3, 4, 5, 6 } },
	{ 8, 2, { 16, K(8) }, { 4, 3, 6 } },
	{ 16, 1, { K(8) }, { 3, 6 } },
	{ 32, 2, { 64, K(4) }, { 5, 3, 6 } },
	{ 64, 1, { 128 }, { 5, 6 } },
	{ 128, 1, { K(256) }, { 3, 6 } },
	{ 256, 2, { K(128), K(256) }, { 2, 3, 6 } },
	{ 512, 1, { K(4) }, { 2, 6 } },
	{ 2048, 2, { K(2), K(16) }, { 2, 3, 6 } },
	{ 4096, 3, { K(2), K(4), K(16) }, { 2, 5, 3, 6 } },
	{ PMAX, 3, { K(2), K(16), K(32) }, { 2, 5, 3, 6 } },
};

/* allgather: 1 linear, 2 bruck, 3 recursive_doubling, 4 ring, 5 neighbor, 6 two_proc */
static const vlcoll_rule vlcoll_rules_allgather[] = {
	{ 3, 0, { 0 }, { 6 } },
	{ 32, 0, { 0 }, { 3 } },
	{ 64, 2, { K(1), K(64) }, { 3, 5, 4 } },
	{ 128, 2, { 512, K(64) }, { 3, 5, 4 } },
	{ 256, 4, { 512, K(128), K(512), K(1024) }, { 3, 5, 4, 5, 4 } },
	{ 512, 6, { 32, 128, K(1), K(128), K(512), K(1024) }, { 3, 2, 3, 5, 4, 5, 4 } },
	{ 1024, 3, { 64, 256, K(2) }, { 3, 2, 3, 5 } },
	{ 2048, 7, { 4, 8, 16, 32, 256, 512, K(4) }, { 3, 2, 3, 2, 3, 2, 3, 5 } },
	{ 4096, 4, { 32, 128, 512, K(4) }, { 2, 3, 2, 3, 5 } },
	{ PMAX, 5, { 2, 8, 16, 512, K(4) }, { 3, 2, 3, 2, 3, 5 } },
};

/* alltoall: 1 linear, 2 pairwise, 3 modified_bruck, 4 linear_sync, 5 two_proc */
static const vlcoll_rule vlcoll_rules_alltoall[] = {
	{ 3, 9, { 2, 4, 16, 64, 256, K(4), K(32), K(256), K(1024) },
	  { 2, 5, 2, 5, 2, 5, 2, 4, 5, 2 } },
	{ 8, 5, { K(8), K(16), K(64), K(512), K(1024) }, { 4, 1, 4, 1, 2, 1 } },
	{ 16, 1, { K(256) }, { 4, 1 } },
	{ 32, 6, { 4, 512, K(8), K(32), K(256), K(512) }, { 4, 3, 4, 1, 4, 1, 4 } },
	{ 64, 2, { 512, K(512) }, { 3, 1, 4 } },
	{ 128, 4, { K(1), K(2), K(4), K(256) }, { 3, 1, 4, 1, 2 } },
	{ 256, 3, { K(1), K(2), K(256) }, { 3, 4, 1, 2 } },
	{ 512, 3, { K(1), K(8), K(32) }, { 3, 4, 1, 2 } },
	{ 1024, 5, { 512, K(8), K(16), K(128), K(256) }, { 3, 4, 1, 4, 1, 2 } },
	{ 2048, 5, { 512, K(1), K(2), K(16), K(256) }, { 3, 4, 1, 4, 1, 4 } },
	{ 4096, 4, { K(1), K(4), K(8), K(128) }, { 3, 4, 1, 4, 1 } },
	{ PMAX, 5, { K(2), K(8), K(16), K(32), K(64) }, { 3, 4, 1, 4, 1, 4 } },
};

/* allgatherv: 1 default (gatherv to 0, then bcast), 2 bruck, 3 ring, 4 neighbor,
 * 5 two_proc (the mean block of one rank) */
static const vlcoll_rule vlcoll_rules_allgatherv[] = {
	{ 3, 3, { K(2), K(4), K(8) }, { 3, 5, 3, 5 } },
	{ 8, 5, { 256, K(4), K(8), K(16), K(256) }, { 1, 4, 3, 4, 2, 4 } },
	{ 16, 1, { K(1) }, { 1, 2 } },
	{ 32, 2, { 128, K(256) }, { 1, 2, 3 } },
	{ 64, 2, { 256, K(8) }, { 1, 2, 3 } },
	{ 128, 2, { 256, K(4) }, { 1, 2, 3 } },
	{ 256, 2, { K(1), K(64) }, { 2, 4, 3 } },
	{ 512, 1, { K(1) }, { 2, 3 } },
	{ 1024, 4, { 512, K(1), K(4), K(1024) }, { 2, 1, 2, 4, 3 } },
	{ PMAX, 1, { K(4) }, { 2, 4 } },
};

/* alltoallv: 1 basic_linear, 2 pairwise (p alone decides) */
static const vlcoll_rule vlcoll_rules_alltoallv[] = {
	{ 4, 0, { 0 }, { 2 } },    { 64, 0, { 0 }, { 1 } },   { 128, 0, { 0 }, { 2 } },
	{ 256, 0, { 0 }, { 1 } },  { 1024, 0, { 0 }, { 2 } }, { PMAX, 0, { 0 }, { 1 } },
};

/* gather: 1 basic_linear, 2 binomial, 3 linear_sync (the block) */
static const vlcoll_rule vlcoll_rules_gather[] = {
	{ 4, 5, { 2, 4, K(32), K(64), K(128) }, { 3, 1, 2, 1, 2, 3 } },
	{ 8, 4, { K(1), K(8), K(32), K(256) }, { 2, 1, 2, 1, 3 } },
	{ 256, 0, { 0 }, { 2 } },
	{ 512, 2, { K(2), K(8) }, { 2, 1, 2 } },
	{ PMAX, 0, { 0 }, { 2 } },
};

/* scatter: 1 basic_linear, 2 binomial, 3 linear_nb (the block) */
static const vlcoll_rule vlcoll_rules_scatter[] = {
	{ 4, 3, { 2, K(128), K(256) }, { 3, 1, 3, 1 } },
	{ 8, 5, { K(2), K(4), K(8), K(32), K(1024) }, { 2, 1, 2, 1, 3, 1 } },
	{ 16, 2, { K(16), K(1024) }, { 2, 3, 1 } },
	{ 32, 2, { K(16), K(32) }, { 2, 1, 3 } },
	{ 64, 3, { 512, K(8), K(16) }, { 2, 3, 2, 3 } },
	{ PMAX, 1, { 512 }, { 2, 3 } },
};

/* reduce_scatter (commutative): 1 non-overlapping, 2 recursive_halving, 3 ring,
 * 4 butterfly (the whole vector) */
static const vlcoll_rule vlcoll_rules_reduce_scatter[] = {
	{ 4, 2, { K(64), K(128) }, { 3, 4, 3 } },
	{ 8, 2, { 8, K(256) }, { 1, 2, 3 } },
	{ 32, 1, { K(256) }, { 2, 3 } },
	{ 64, 3, { 64, K(2), K(512) }, { 1, 2, 4, 3 } },
	{ 128, 4, { 256, 512, K(2), K(4) }, { 1, 2, 4, 2, 4 } },
	{ 256, 2, { 256, 512 }, { 1, 2, 4 } },
	{ 512, 2, { 256, K(1) }, { 1, 2, 4 } },
	{ 1024, 4, { 512, K(2), K(8), K(16) }, { 1, 2, 4, 2, 4 } },
	{ 2048, 4, { 512, K(4), K(16), K(32) }, { 1, 2, 4, 2, 4 } },
	{ 4096, 2, { 512, K(4) }, { 1, 2, 4 } },
	{ PMAX, 2, { K(1), K(8) }, { 1, 2, 4 } },
};

/* reduce_scatter_block (commutative): 1 basic_linear, 2 recursive_doubling,
 * 3 recursive_halving, 4 butterfly (the block of one rank) */
static const vlcoll_rule vlcoll_rules_reduce_scatter_block[] = {
	{ 4, 8, { 4, 8, 16, 128, 256, K(4), K(8), K(128) }, { 2, 4, 3, 4, 3, 4, 3, 4, 1 } },
	{ 8, 6, { 8, 32, 256, K(8), K(16), K(1024) }, { 3, 2, 4, 3, 4, 3, 1 } },
	{ 16, 5, { 4, 32, 128, K(512), K(4096) }, { 1, 3, 4, 3, 1, 4 } },
	{ 32, 4, { 32, K(512), K(2048), K(4096) }, { 1, 3, 1, 3, 4 } },
	{ PMAX, 4, { 4, 16, K(64), K(256) }, { 3, 1, 4, 1, 4 } },
};

/* Open MPI's number of the algorithm for p ranks and size sz. */
static int vlcoll_rule_pick(const vlcoll_rule *t, int p, int64_t sz)
{
	int i;

	while (p >= t->pmax)
		t++;
	for (i = 0; i < t->nsz && sz >= t->sz[i]; i++)
		;
	return t->alg[i];
}

static const char *const vlcoll_ompi_names[VL_KIND_N][10] = {
	[VL_KIND_BARRIER] = { "", "linear", "double_ring", "recursive_doubling", "bruck",
			      "two_proc", "tree" },
	[VL_KIND_BCAST] = { "", "basic_linear", "chain", "pipeline", "split_binary_tree",
			    "binary_tree", "binomial", "knomial", "scatter_allgather",
			    "scatter_allgather_ring" },
	[VL_KIND_REDUCE] = { "", "linear", "chain", "pipeline", "binary", "binomial",
			     "in-order_binary", "rabenseifner" },
	[VL_KIND_ALLREDUCE] = { "", "basic_linear", "nonoverlapping", "recursive_doubling", "ring",
				"segmented_ring", "rabenseifner" },
	[VL_KIND_GATHER] = { "", "basic_linear", "binomial", "linear_sync" },
	[VL_KIND_SCATTER] = { "", "basic_linear", "binomial", "linear_nb" },
	[VL_KIND_ALLGATHER] = { "", "linear", "bruck", "recursive_doubling", "ring", "neighbor",
				"two_proc" },
	[VL_KIND_ALLTOALL] = { "", "linear", "pairwise", "modified_bruck", "linear_sync",
			       "two_proc" },
	[VL_KIND_REDUCE_SCATTER] = { "", "non-overlapping", "recursive_halving", "ring",
				     "butterfly" },
};

static const char *const vlcoll_ompi_names_rsb[] = { "", "basic_linear", "recursive_doubling",
						      "recursive_halving", "butterfly" };
static const char *const vlcoll_ompi_names_agv[] = { "", "default", "bruck", "ring", "neighbor",
						      "two_proc" };
static const char *const vlcoll_ompi_names_atv[] = { "", "basic_linear", "pairwise" };

/* allgatherv: default is a gatherv and a bcast (sim.c); two_proc (p = 2) is
 * one exchange, as ring; neighbor runs ring for odd p (alg/) */
static const unsigned char vlcoll_ompi_map_agv[] = { 0, VLCOLL_ALG_LINEAR_OMPI, VLCOLL_ALG_BRUCK,
						     VLCOLL_ALG_RING, VLCOLL_ALG_NEIGHBOR,
						     VLCOLL_ALG_RING };
/* alltoallv: basic_linear posts in rank order (alg/alltoall_linear_ompi.c) */
static const unsigned char vlcoll_ompi_map_atv[] = { 0, VLCOLL_ALG_LINEAR_OMPI,
						     VLCOLL_ALG_PAIRWISE };

/* reduce_scatter_block: basic_linear is a reduce and a scatter, each chosen
 * by Open MPI's rules, as in the non-overlapping reduce_scatter (sim.c). */
static const unsigned char vlcoll_ompi_map_rsb[] = { 0, VLCOLL_ALG_NONOVERLAPPING,
						     VLCOLL_ALG_RECURSIVE_DOUBLING,
						     VLCOLL_ALG_RECURSIVE_HALVING, VLCOLL_ALG_BUTTERFLY };

static int vlcoll_is_rsb(int kind, int variant)
{
	return kind == VL_KIND_REDUCE_SCATTER && variant == VLCOLL_BLOCK;
}

const char *vlcoll_ompi_name(int kind, int variant, int ompi)
{
	const char *n = NULL;

	if (vlcoll_is_rsb(kind, variant))
		n = ompi > 0 && ompi < 5 ? vlcoll_ompi_names_rsb[ompi] : NULL;
	else if (kind == VL_KIND_ALLGATHER && variant == VLCOLL_V)
		n = ompi > 0 && ompi < 6 ? vlcoll_ompi_names_agv[ompi] : NULL;
	else if (kind == VL_KIND_ALLTOALL && variant == VLCOLL_V)
		n = ompi > 0 && ompi < 3 ? vlcoll_ompi_names_atv[ompi] : NULL;
	else if (vlcoll_kind_ok(kind) && ompi > 0 && ompi < 10)
		n = vlcoll_ompi_names[kind][ompi];

	return n && *n ? n : "none";
}

/* The largest power of two <= p. */
static int vlcoll_pof2(int p)
{
	int q = 1;

	while (2 * q <= p)
		q <<= 1;
	return q;
}

/* Open MPI's reduce rabenseifner (redscat_gather) on p ranks and sz bytes:
 * for fewer elements than p' (the largest power of two <= p) it runs its
 * basic linear reduce.  The datatype is not known: its size is taken as the
 * largest of 8, 4, 2, 1 bytes that divides sz (one int, float or double is
 * one element); *subst = 1 when that guess decides (sz >= p' >= 2). */
static int vlcoll_ompi_reduce_rabenseifner(int p, int64_t sz, int *subst)
{
	int64_t elem = sz > 0 ? sz & -sz : 1;
	int pof2 = vlcoll_pof2(p);

	if (elem > 8)
		elem = 8;
	*subst = pof2 >= 2 && sz >= pof2;
	return pof2 >= 2 && sz / elem >= pof2 ? VLCOLL_ALG_RABENSEIFNER : VLCOLL_ALG_LINEAR_OMPI;
}

/* vlayer's algorithm for Open MPI's number ompi of kind on p ranks and sz
 * bytes; *subst = 1 if vlayer lacks it and this is a stand-in, or a guess of
 * the datatype decides (vlcoll_ompi_why). */
static int vlcoll_ompi_alg(int kind, int ompi, int p, int64_t sz, int *subst)
{
	static const unsigned char map[VL_KIND_N][10] = {
		[VL_KIND_BARRIER] = { 0, VLCOLL_ALG_LINEAR, VLCOLL_ALG_DISSEMINATION,
				      VLCOLL_ALG_RECURSIVE_DOUBLING, VLCOLL_ALG_DISSEMINATION,
				      VLCOLL_ALG_RECURSIVE_DOUBLING, VLCOLL_ALG_TREE },
		[VL_KIND_BCAST] = { 0, VLCOLL_ALG_LINEAR_OMPI, VLCOLL_ALG_PIPELINE,
				    VLCOLL_ALG_PIPELINE, VLCOLL_ALG_SPLIT_BINARY, VLCOLL_ALG_BINARY,
				    VLCOLL_ALG_BINOMIAL_OMPI, VLCOLL_ALG_KNOMIAL,
				    VLCOLL_ALG_SCATTER_ALLGATHER, VLCOLL_ALG_SCATTER_ALLGATHER },
		[VL_KIND_REDUCE] = { 0, VLCOLL_ALG_LINEAR_OMPI, VLCOLL_ALG_PIPELINE,
				     VLCOLL_ALG_PIPELINE, VLCOLL_ALG_BINARY,
				     VLCOLL_ALG_BINOMIAL_OMPI, VLCOLL_ALG_IN_ORDER_BINARY,
				     VLCOLL_ALG_RABENSEIFNER },
		[VL_KIND_ALLREDUCE] = { 0, VLCOLL_ALG_LINEAR_OMPI, VLCOLL_ALG_NONOVERLAPPING,
					VLCOLL_ALG_RECURSIVE_DOUBLING, VLCOLL_ALG_RING_OMPI,
					VLCOLL_ALG_RING_OMPI, VLCOLL_ALG_RABENSEIFNER },
		[VL_KIND_GATHER] = { 0, VLCOLL_ALG_LINEAR_OMPI, VLCOLL_ALG_BINOMIAL,
				     VLCOLL_ALG_LINEAR_SYNC },
		[VL_KIND_SCATTER] = { 0, VLCOLL_ALG_LINEAR_OMPI, VLCOLL_ALG_BINOMIAL,
				      VLCOLL_ALG_LINEAR_NB },
		[VL_KIND_ALLGATHER] = { 0, VLCOLL_ALG_LINEAR_OMPI, VLCOLL_ALG_BRUCK,
					VLCOLL_ALG_RECURSIVE_DOUBLING, VLCOLL_ALG_RING,
					VLCOLL_ALG_NEIGHBOR, VLCOLL_ALG_RING },
		[VL_KIND_ALLTOALL] = { 0, VLCOLL_ALG_LINEAR_SYNC, VLCOLL_ALG_PAIRWISE,
				       VLCOLL_ALG_BRUCK, VLCOLL_ALG_LINEAR_SYNC,
				       VLCOLL_ALG_PAIRWISE },
		[VL_KIND_REDUCE_SCATTER] = { 0, VLCOLL_ALG_NONOVERLAPPING,
					     VLCOLL_ALG_RECURSIVE_HALVING, VLCOLL_ALG_RING_OMPI,
					     VLCOLL_ALG_BUTTERFLY },
	};

	*subst = 0;
	switch (kind) {
	case VL_KIND_BARRIER:
		*subst = ompi == 2 || ompi == 5; /* never chosen by the rules */
		break;
	case VL_KIND_BCAST:
		*subst = ompi == 9; /* never chosen by the rules */
		break;
	case VL_KIND_REDUCE:
		if (ompi == 7) /* chosen below 8 bytes for p < 4 only */
			return vlcoll_ompi_reduce_rabenseifner(p, sz, subst);
		break;
	case VL_KIND_ALLGATHER:
		if (ompi == 3 && (p & (p - 1)))
			return VLCOLL_ALG_BRUCK; /* Open MPI's recursive doubling does so */
		break;
	}
	return map[kind][ompi];
}

const char *vlcoll_ompi_why(int kind, int ompi)
{
	if (kind == VL_KIND_REDUCE && ompi == 7)
		return "vlayer does not know the datatype, which decides (for fewer elements than "
		       "ranks Open MPI runs its linear reduce), takes the largest of 8, 4, 2 or 1 "
		       "bytes that divides the vector as the element size";
	return "vlayer lacks it";
}

/* Open MPI's total_dsize of the call. */
static int64_t vlcoll_ompi_size(const vlcoll_in *in)
{
	int64_t sum = 0;
	int i;

	switch (in->kind) {
	case VL_KIND_BCAST:
		return in->bytes[in->root];
	case VL_KIND_ALLGATHER: /* the block of one rank; allgatherv: their mean, rounded down */
		for (i = 0; i < in->p; i++)
			sum += in->bytes[i];
		return sum / in->p;
	case VL_KIND_ALLTOALL: /* the block for one rank; alltoallv: their mean */
		for (i = 0; i < in->p * in->p; i++)
			sum += in->bytes[i];
		return sum / ((int64_t)in->p * in->p);
	case VL_KIND_REDUCE_SCATTER: /* the whole vector; reduce_scatter_block: the block */
		if (in->variant == VLCOLL_BLOCK)
			return in->bytes[0];
		for (i = 0; i < in->p; i++)
			sum += in->bytes[i];
		return sum;
	default: /* the vector (all equal); gather, scatter: the block */
		return in->bytes[0];
	}
}

static const vlcoll_rule *const vlcoll_rules[VL_KIND_N] = {
	[VL_KIND_BARRIER] = vlcoll_rules_barrier,
	[VL_KIND_BCAST] = vlcoll_rules_bcast,
	[VL_KIND_REDUCE] = vlcoll_rules_reduce,
	[VL_KIND_ALLREDUCE] = vlcoll_rules_allreduce,
	[VL_KIND_GATHER] = vlcoll_rules_gather,
	[VL_KIND_SCATTER] = vlcoll_rules_scatter,
	[VL_KIND_ALLGATHER] = vlcoll_rules_allgather,
	[VL_KIND_ALLTOALL] = vlcoll_rules_alltoall,
	[VL_KIND_REDUCE_SCATTER] = vlcoll_rules_reduce_scatter,
};

int vlcoll_select_openmpi(const vlcoll_in *in, int *ompi, int *subst)
{
	int64_t sz;

	*ompi = 0;
	*subst = 0;
	if (!vlcoll_kind_ok(in->kind) || !vlcoll_rules[in->kind])
		return VLCOLL_ALG_DEFAULT;
	if ((in->kind == VL_KIND_GATHER || in->kind == VL_KIND_SCATTER) &&
	    in->variant == VLCOLL_V) {
		*ompi = 1; /* gatherv, scatterv: the basic component's linear */
		return VLCOLL_ALG_LINEAR_OMPI;
	}
	sz = in->kind == VL_KIND_BARRIER ? 0 : vlcoll_ompi_size(in);
	if (vlcoll_is_rsb(in->kind, in->variant)) {
		*ompi = vlcoll_rule_pick(vlcoll_rules_reduce_scatter_block, in->p, sz);
		return vlcoll_ompi_map_rsb[*ompi];
	}
	if (in->kind == VL_KIND_ALLGATHER && in->variant == VLCOLL_V) {
		*ompi = vlcoll_rule_pick(vlcoll_rules_allgatherv, in->p, sz);
		return vlcoll_ompi_map_agv[*ompi];
	}
	if (in->kind == VL_KIND_ALLTOALL && in->variant == VLCOLL_V) {
		*ompi = vlcoll_rule_pick(vlcoll_rules_alltoallv, in->p, sz);
		return vlcoll_ompi_map_atv[*ompi];
	}
	*ompi = vlcoll_rule_pick(vlcoll_rules[in->kind], in->p, sz);
	return vlcoll_ompi_alg(in->kind, *ompi, in->p, sz, subst);
}
