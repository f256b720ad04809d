/* catalogue.c - the names of the collective algorithms, which algorithms each
 * kind accepts (its default first), and parsing an algorithm's name (the
 * VMConfig's [collectives] keys).  The kinds and their names are in the trace
 * format header (include/vltrace.h).
 */
#include <stdio.h>
#include <string.h>
#include "vlayer/coll/coll.h"

static const char *const vlcoll_alg_names[] = {
	"default", "linear", "binomial", "dissemination", "recursive_doubling",
	"ring", "pairwise", "reduce_bcast", "chain",
	"linear_ompi", "binomial_ompi", "binary", "knomial", "pipeline", "in_order_binary",
	"rabenseifner", "ring_ompi", "nonoverlapping", "bruck", "neighbor", "linear_sync", "tree",
	"scatter_allgather", "split_binary", "linear_nb", "recursive_halving", "butterfly",
};

_Static_assert(sizeof(vlcoll_alg_names) / sizeof(vlcoll_alg_names[0]) == VLCOLL_ALG_NALGS,
	       "one name per algorithm");

/* The algorithms each kind accepts, its default first, ended by 0. */
#define VLCOLL_KIND_MAXALGS 10
static const unsigned char vlcoll_kind_algs[VL_KIND_N][VLCOLL_KIND_MAXALGS] = {
	[VL_KIND_BARRIER] = { VLCOLL_ALG_DISSEMINATION, VLCOLL_ALG_LINEAR, VLCOLL_ALG_BINOMIAL,
			      VLCOLL_ALG_RECURSIVE_DOUBLING, VLCOLL_ALG_TREE },
	[VL_KIND_BCAST] = { VLCOLL_ALG_BINOMIAL, VLCOLL_ALG_LINEAR, VLCOLL_ALG_LINEAR_OMPI,
			    VLCOLL_ALG_BINOMIAL_OMPI, VLCOLL_ALG_BINARY, VLCOLL_ALG_KNOMIAL,
			    VLCOLL_ALG_PIPELINE, VLCOLL_ALG_SCATTER_ALLGATHER,
			    VLCOLL_ALG_SPLIT_BINARY },
	[VL_KIND_REDUCE] = { VLCOLL_ALG_BINOMIAL, VLCOLL_ALG_LINEAR, VLCOLL_ALG_LINEAR_OMPI,
			     VLCOLL_ALG_BINOMIAL_OMPI, VLCOLL_ALG_BINARY, VLCOLL_ALG_PIPELINE,
			     VLCOLL_ALG_IN_ORDER_BINARY, VLCOLL_ALG_RABENSEIFNER },
	[VL_KIND_ALLREDUCE] = { VLCOLL_ALG_RECURSIVE_DOUBLING, VLCOLL_ALG_RING,
				VLCOLL_ALG_REDUCE_BCAST, VLCOLL_ALG_RABENSEIFNER,
				VLCOLL_ALG_RING_OMPI, VLCOLL_ALG_NONOVERLAPPING,
				VLCOLL_ALG_LINEAR_OMPI },
	[VL_KIND_GATHER] = { VLCOLL_ALG_LINEAR, VLCOLL_ALG_BINOMIAL, VLCOLL_ALG_LINEAR_OMPI,
			     VLCOLL_ALG_LINEAR_SYNC },
	[VL_KIND_SCATTER] = { VLCOLL_ALG_LINEAR, VLCOLL_ALG_BINOMIAL, VLCOLL_ALG_LINEAR_OMPI,
			      VLCOLL_ALG_LINEAR_NB },
	[VL_KIND_ALLGATHER] = { VLCOLL_ALG_RING, VLCOLL_ALG_RECURSIVE_DOUBLING, VLCOLL_ALG_LINEAR,
				VLCOLL_ALG_BRUCK, VLCOLL_ALG_NEIGHBOR, VLCOLL_ALG_LINEAR_OMPI },
	[VL_KIND_ALLTOALL] = { VLCOLL_ALG_PAIRWISE, VLCOLL_ALG_LINEAR, VLCOLL_ALG_LINEAR_SYNC,
			       VLCOLL_ALG_BRUCK, VLCOLL_ALG_LINEAR_OMPI },
	[VL_KIND_REDUCE_SCATTER] = { VLCOLL_ALG_LINEAR, VLCOLL_ALG_RING, VLCOLL_ALG_RING_OMPI,
				     VLCOLL_ALG_NONOVERLAPPING, VLCOLL_ALG_RECURSIVE_HALVING,
				     VLCOLL_ALG_BUTTERFLY, VLCOLL_ALG_RECURSIVE_DOUBLING },
	[VL_KIND_SCAN] = { VLCOLL_ALG_CHAIN, VLCOLL_ALG_RECURSIVE_DOUBLING },
	[VL_KIND_EXSCAN] = { VLCOLL_ALG_CHAIN, VLCOLL_ALG_RECURSIVE_DOUBLING },
};

static const char *const vlcoll_selection_names[] = { "fixed", "openmpi" };

const char *vlcoll_selection_name(int sel)
{
	return sel == VLCOLL_SELECT_OPENMPI ? vlcoll_selection_names[1] : vlcoll_selection_names[0];
}

int vlcoll_selection_parse(const char *name)
{
	if (name && !strcmp(name, vlcoll_selection_names[0]))
		return VLCOLL_SELECT_FIXED;
	if (name && !strcmp(name, vlcoll_selection_names[1]))
		return VLCOLL_SELECT_OPENMPI;
	return -1;
}

int vlcoll_kind_ok(int kind)
{
	return kind >= 0 && kind < VL_KIND_N;
}

int vlcoll_accepts(int kind, int alg)
{
	int i;

	for (i = 0; i < VLCOLL_KIND_MAXALGS && vlcoll_kind_algs[kind][i]; i++)
		if (vlcoll_kind_algs[kind][i] == alg)
			return 1;
	return 0;
}

const char *vlcoll_alg_name(int alg)
{
	return alg >= 0 && alg < VLCOLL_ALG_NALGS ? vlcoll_alg_names[alg] : "unknown";
}

int vlcoll_alg_default(int kind)
{
	return vlcoll_kind_ok(kind) ? vlcoll_kind_algs[kind][0] : -1;
}

int vlcoll_alg_parse(int kind, const char *name, char *valid, size_t validlen)
{
	int i, a;

	if (valid && validlen)
		valid[0] = 0;
	if (!vlcoll_kind_ok(kind))
		return -1;
	if (valid && validlen) {
		size_t n = (size_t)snprintf(valid, validlen, "%s", vlcoll_alg_names[VLCOLL_ALG_DEFAULT]);
		for (i = 0; i < VLCOLL_KIND_MAXALGS && vlcoll_kind_algs[kind][i] && n < validlen; i++)
			n += (size_t)snprintf(valid + n, validlen - n, ", %s",
					      vlcoll_alg_names[vlcoll_kind_algs[kind][i]]);
	}
	if (!name)
		return -1;
	if (!strcmp(name, vlcoll_alg_names[VLCOLL_ALG_DEFAULT]))
		return VLCOLL_ALG_DEFAULT;
	for (i = 0; i < VLCOLL_KIND_MAXALGS && (a = vlcoll_kind_algs[kind][i]); i++)
		if (!strcmp(name, vlcoll_alg_names[a]))
			return a;
	return -1;
}

