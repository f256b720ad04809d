/* sim.c - one collective call (vlcoll_sim, coll.h): check the arguments,
 * choose the algorithm ([collectives]: the kind's key, else the selection:
 * the kind's fixed default or Open MPI's rules, select_openmpi.c), build its
 * schedule (alg/), run it (run.c).
 */
#include <stdlib.h>
#include <string.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/alg/alg.h"

static int vlcoll_rooted(int kind)
{
	return kind == VL_KIND_BCAST || kind == VL_KIND_REDUCE || kind == VL_KIND_GATHER ||
	       kind == VL_KIND_SCATTER;
}

static int vlcoll_sizes_ok(const int64_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] < 0)
			return 0;
	return 1;
}

/* Argument checks of vlcoll_sim: the algorithm to use, or -1. */
static int vlcoll_check(const vlcfg_config *c, const vlcoll_in *in, const vlcoll_out *out)
{
	size_t n;
	int alg;

	if (!c || !in || !out || !vlcoll_kind_ok(in->kind) || in->p < 1 || !in->host || !in->entry)
		return -1;
	alg = in->alg == VLCOLL_ALG_DEFAULT ? vlcoll_alg_default(in->kind) : in->alg;
	if (!vlcoll_accepts(in->kind, alg))
		return -1;
	if (vlcoll_rooted(in->kind) && (in->root < 0 || in->root >= in->p))
		return -1;
	if (in->kind == VL_KIND_BARRIER)
		return alg;
	if (!in->bytes)
		return -1;
	if (in->kind == VL_KIND_BCAST) /* only the root's size counts */
		return in->bytes[in->root] >= 0 ? alg : -1;
	n = (size_t)in->p;
	if (in->kind == VL_KIND_ALLTOALL)
		n *= n;
	return vlcoll_sizes_ok(in->bytes, n) ? alg : -1;
}

#define VLCOLL_CASE(kind, alg) ((kind) * VLCOLL_ALG_NALGS + (alg))

static void vlcoll_build(vlcoll_sched *s, const vlcoll_in *in, int alg);

/* Open MPI's rules for in (kind, p, sizes): the algorithm, with a warning
 * the first time a substitute stands in for one vlayer lacks or cannot tell
 * apart. */
static int vlcoll_openmpi(const vlcoll_in *in)
{
	static unsigned char warned[VL_KIND_N][10];
	int ompi, subst, alg = vlcoll_select_openmpi(in, &ompi, &subst);

	if (subst && ompi > 0 && ompi < 10 && !warned[in->kind][ompi]) {
		warned[in->kind][ompi] = 1;
		vli_warn("[collectives] selection = openmpi: Open MPI 4.1 runs %s %s for %d ranks "
			 "here; %s, and times %s (said once)",
			 vl_coll_kind_name(in->kind), vlcoll_ompi_name(in->kind, in->variant, ompi), in->p,
			 vlcoll_ompi_why(in->kind, ompi), vlcoll_alg_name(alg));
	}
	return alg;
}

/* Open MPI's non-overlapping allreduce and reduce_scatter, and its basic
 * linear reduce_scatter_block: a reduce of the whole vector to rank 0 with
 * the algorithm Open MPI's rules give it for this size, then a bcast from
 * rank 0 chosen the same way (allreduce), a scatter of the blocks chosen the
 * same way (reduce_scatter_block) or a scatterv of the blocks from rank 0,
 * which Open MPI's basic component runs (linear_ompi). */
static void vlcoll_build_nonoverlapping(vlcoll_sched *s, const vlcoll_in *in)
{
	vlcoll_in part = *in;
	int64_t n[1];

	part.root = 0;
	part.kind = VL_KIND_REDUCE;
	part.variant = VLCOLL_PLAIN;
	if (in->kind == VL_KIND_REDUCE_SCATTER) {
		n[0] = vlcoll_sum(in->bytes, 0, in->p, 0, in->p);
		part.bytes = n;
	}
	vlcoll_build(s, &part, vlcoll_openmpi(&part));
	part.bytes = in->bytes;
	if (in->kind == VL_KIND_REDUCE_SCATTER && in->variant != VLCOLL_BLOCK) {
		vlcoll_scatter_linear_ompi(s, 0, in->bytes);
		return;
	}
	part.kind = in->kind == VL_KIND_REDUCE_SCATTER ? VL_KIND_SCATTER : VL_KIND_BCAST;
	vlcoll_build(s, &part, vlcoll_openmpi(&part));
}

/* Open MPI's basic linear allgather and its default allgatherv: a gather
 * of the blocks to rank 0 (allgather: the algorithm Open MPI's gather rules
 * choose; allgatherv: the basic component's linear gatherv), then a bcast of
 * all of them from rank 0, chosen by Open MPI's bcast rules on their sum. */
static void vlcoll_build_gather_bcast(vlcoll_sched *s, const vlcoll_in *in)
{
	vlcoll_in part = *in;
	int64_t n[1];

	part.root = 0;
	part.kind = VL_KIND_GATHER;
	vlcoll_build(s, &part, vlcoll_openmpi(&part));
	n[0] = vlcoll_sum(in->bytes, 0, in->p, 0, in->p);
	part.kind = VL_KIND_BCAST;
	part.variant = VLCOLL_PLAIN;
	part.bytes = n;
	vlcoll_build(s, &part, vlcoll_openmpi(&part));
}

/* exscan sends the same messages as scan, and so uses its algorithms. */
static void vlcoll_build(vlcoll_sched *s, const vlcoll_in *in, int alg)
{
	const int64_t *b = in->bytes;
	int root = in->root;

	switch (VLCOLL_CASE(in->kind, alg)) {
	case VLCOLL_CASE(VL_KIND_BARRIER, VLCOLL_ALG_DISSEMINATION):
		vlcoll_barrier_dissemination(s);
		break;
	case VLCOLL_CASE(VL_KIND_BARRIER, VLCOLL_ALG_LINEAR):
		vlcoll_barrier_linear(s);
		break;
	case VLCOLL_CASE(VL_KIND_BARRIER, VLCOLL_ALG_BINOMIAL):
		vlcoll_barrier_binomial(s);
		break;
	case VLCOLL_CASE(VL_KIND_BARRIER, VLCOLL_ALG_RECURSIVE_DOUBLING):
		vlcoll_barrier_recursive_doubling(s);
		break;
	case VLCOLL_CASE(VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL):
		vlcoll_bcast_binomial(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_BCAST, VLCOLL_ALG_LINEAR):
		vlcoll_bcast_linear(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE, VLCOLL_ALG_BINOMIAL):
		vlcoll_reduce_binomial(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE, VLCOLL_ALG_LINEAR):
		vlcoll_reduce_linear(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING):
		vlcoll_allreduce_recursive_doubling(s, b[0]);
		break;
	case VLCOLL_CASE(VL_KIND_ALLREDUCE, VLCOLL_ALG_RING):
		vlcoll_allreduce_ring(s, b[0]);
		break;
	case VLCOLL_CASE(VL_KIND_ALLREDUCE, VLCOLL_ALG_REDUCE_BCAST):
		vlcoll_allreduce_reduce_bcast(s, b[0]);
		break;
	case VLCOLL_CASE(VL_KIND_GATHER, VLCOLL_ALG_LINEAR):
		vlcoll_gather_linear(s, root, b);
		break;
	case VLCOLL_CASE(VL_KIND_GATHER, VLCOLL_ALG_BINOMIAL):
		vlcoll_gather_binomial(s, root, b);
		break;
	case VLCOLL_CASE(VL_KIND_SCATTER, VLCOLL_ALG_LINEAR):
		vlcoll_scatter_linear(s, root, b);
		break;
	case VLCOLL_CASE(VL_KIND_SCATTER, VLCOLL_ALG_BINOMIAL):
		vlcoll_scatter_binomial(s, root, b);
		break;
	case VLCOLL_CASE(VL_KIND_ALLGATHER, VLCOLL_ALG_RING):
		vlcoll_allgather_ring(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_ALLGATHER, VLCOLL_ALG_RECURSIVE_DOUBLING):
		vlcoll_allgather_recursive_doubling(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_ALLGATHER, VLCOLL_ALG_LINEAR):
		vlcoll_allgather_linear(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_ALLTOALL, VLCOLL_ALG_PAIRWISE):
		vlcoll_alltoall_pairwise(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR):
		vlcoll_alltoall_linear(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_LINEAR):
		vlcoll_reduce_scatter_linear(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RING):
		vlcoll_reduce_scatter_ring(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_BARRIER, VLCOLL_ALG_TREE):
		vlcoll_barrier_tree(s);
		break;
	case VLCOLL_CASE(VL_KIND_BCAST, VLCOLL_ALG_LINEAR_OMPI):
		vlcoll_bcast_linear_ompi(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL_OMPI):
		vlcoll_bcast_binomial_ompi(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_BCAST, VLCOLL_ALG_BINARY):
		vlcoll_bcast_binary(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_BCAST, VLCOLL_ALG_KNOMIAL):
		vlcoll_bcast_knomial(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_BCAST, VLCOLL_ALG_PIPELINE):
		vlcoll_bcast_pipeline(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_BCAST, VLCOLL_ALG_SCATTER_ALLGATHER):
		vlcoll_bcast_scatter_allgather(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_BCAST, VLCOLL_ALG_SPLIT_BINARY):
		vlcoll_bcast_split_binary(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE, VLCOLL_ALG_LINEAR_OMPI):
		vlcoll_reduce_linear_ompi(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE, VLCOLL_ALG_BINOMIAL_OMPI):
		vlcoll_reduce_binomial_ompi(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE, VLCOLL_ALG_BINARY):
		vlcoll_reduce_binary(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE, VLCOLL_ALG_PIPELINE):
		vlcoll_reduce_pipeline(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE, VLCOLL_ALG_IN_ORDER_BINARY):
		vlcoll_reduce_in_order_binary(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_ALLREDUCE, VLCOLL_ALG_RABENSEIFNER):
		vlcoll_allreduce_rabenseifner(s, b[0]);
		break;
	case VLCOLL_CASE(VL_KIND_ALLREDUCE, VLCOLL_ALG_RING_OMPI):
		vlcoll_allreduce_ring_ompi(s, b[0]);
		break;
	case VLCOLL_CASE(VL_KIND_ALLREDUCE, VLCOLL_ALG_LINEAR_OMPI):
		vlcoll_allreduce_linear_ompi(s, b[0]);
		break;
	case VLCOLL_CASE(VL_KIND_ALLREDUCE, VLCOLL_ALG_NONOVERLAPPING):
	case VLCOLL_CASE(VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_NONOVERLAPPING):
		vlcoll_build_nonoverlapping(s, in);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE, VLCOLL_ALG_RABENSEIFNER):
		vlcoll_reduce_rabenseifner(s, root, b[root]);
		break;
	case VLCOLL_CASE(VL_KIND_GATHER, VLCOLL_ALG_LINEAR_OMPI):
		vlcoll_gather_linear_ompi(s, root, b);
		break;
	case VLCOLL_CASE(VL_KIND_GATHER, VLCOLL_ALG_LINEAR_SYNC):
		vlcoll_gather_linear_sync(s, root, b);
		break;
	case VLCOLL_CASE(VL_KIND_SCATTER, VLCOLL_ALG_LINEAR_OMPI):
		vlcoll_scatter_linear_ompi(s, root, b);
		break;
	case VLCOLL_CASE(VL_KIND_SCATTER, VLCOLL_ALG_LINEAR_NB):
		vlcoll_scatter_linear_nb(s, root, b);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RING_OMPI):
		vlcoll_reduce_scatter_ring_ompi(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RECURSIVE_HALVING):
		vlcoll_reduce_scatter_recursive_halving(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_BUTTERFLY):
		vlcoll_reduce_scatter_butterfly(s, b, in->variant == VLCOLL_BLOCK);
		break;
	case VLCOLL_CASE(VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RECURSIVE_DOUBLING):
		vlcoll_reduce_scatter_recursive_doubling(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_ALLGATHER, VLCOLL_ALG_BRUCK):
		vlcoll_allgather_bruck(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_ALLGATHER, VLCOLL_ALG_NEIGHBOR):
		vlcoll_allgather_neighbor(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_ALLTOALL, VLCOLL_ALG_BRUCK):
		vlcoll_alltoall_bruck(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_ALLGATHER, VLCOLL_ALG_LINEAR_OMPI):
		vlcoll_build_gather_bcast(s, in);
		break;
	case VLCOLL_CASE(VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR_OMPI):
		vlcoll_alltoall_linear_ompi(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR_SYNC):
		vlcoll_alltoall_linear_sync(s, b);
		break;
	case VLCOLL_CASE(VL_KIND_SCAN, VLCOLL_ALG_CHAIN):
	case VLCOLL_CASE(VL_KIND_EXSCAN, VLCOLL_ALG_CHAIN):
		vlcoll_scan_chain(s, b[0]);
		break;
	case VLCOLL_CASE(VL_KIND_SCAN, VLCOLL_ALG_RECURSIVE_DOUBLING):
	case VLCOLL_CASE(VL_KIND_EXSCAN, VLCOLL_ALG_RECURSIVE_DOUBLING):
		vlcoll_scan_recursive_doubling(s, b[0]);
		break;
	default:
		s->bad = 1; /* accepted by the table but not built: a bug here */
		break;
	}
}

/* The algorithm to simulate in with; -1 if in is invalid. */
static int vlcoll_alg_of(const vlcfg_config *c, const vlcoll_in *in, const vlcoll_out *out)
{
	int alg = vlcoll_check(c, in, out);

	if (alg >= 0 && in->alg == VLCOLL_ALG_DEFAULT &&
	    c->mpi.coll_select == VLCOLL_SELECT_OPENMPI) {
		int sel = vlcoll_openmpi(in);

		if (sel != VLCOLL_ALG_DEFAULT)
			alg = sel;
	}
	return alg;
}

int vlcoll_sim(const vlcfg_config *c, const vlcoll_in *in, vlcoll_out *out)
{
	vlcoll_sched s;
	int alg = vlcoll_alg_of(c, in, out), rc;

	if (alg < 0)
		return -1;
	vlcoll_sched_init(&s, in->p);
	vlcoll_build(&s, in, alg);
	rc = vlcoll_run(c, &s, in->host, in->entry, out);
	vlcoll_sched_free(&s);
	return rc;
}

int vlcoll_sim_alone(const vlcfg_config *c, const vlcoll_in *in, int r, vlcoll_out *o)
{
	vlcoll_sched s;
	vlcoll_out *out;
	int alg = in && r >= 0 && r < in->p ? vlcoll_alg_of(c, in, o) : -1, i, rc = 0;

	if (alg < 0)
		return -1;
	vlcoll_sched_init(&s, in->p);
	vlcoll_build(&s, in, alg);
	for (i = 0; i < s.rank[r].n; i++)
		if (!s.rank[r].op[i].send || s.rank[r].op[i].bytes >= c->mpi.eager_limit)
			break;
	if (!s.bad && i == s.rank[r].n) {
		out = vlcoll_alloc((size_t)in->p, sizeof *out);
		rc = vlcoll_run(c, &s, in->host, in->entry, out) < 0 ? -1 : 1;
		if (rc > 0)
			*o = out[r];
		free(out);
	}
	vlcoll_sched_free(&s);
	return rc;
}

static int deps(const vlcfg_config *c, const vlcoll_in *in, unsigned char *m, int links);

int vlcoll_deps(const vlcfg_config *c, const vlcoll_in *in, unsigned char *m)
{
	return deps(c, in, m, 1);
}

int vlcoll_deps_all(const vlcfg_config *c, const vlcoll_in *in, unsigned char *m)
{
	return deps(c, in, m, 2);
}

int vlcoll_deps_after(const vlcfg_config *c, const vlcoll_in *in, unsigned char *m)
{
	return deps(c, in, m, 0);
}

/* links: count the sharing of the [topology]'s links with the members
 * whose entries move a message's start (1, vlcoll_deps) or every member
 * (2, vlcoll_deps_all). */
static int deps(const vlcfg_config *c, const vlcoll_in *in, unsigned char *m, int links)
{
	vlcoll_sched s;
	vlcoll_out any = { 0 }; /* (only its address is checked; gcc -O0 warned) */
	int alg = vlcoll_alg_of(c, in, &any), p, r, i, j, n, *stack;
	unsigned char *flows;

	if (alg < 0)
		return -1;
	p = in->p;
	vlcoll_sched_init(&s, p);
	vlcoll_build(&s, in, alg);
	if (s.bad) {
		vlcoll_sched_free(&s);
		return -1;
	}
	/* the members whose entries move a message's start: those that send,
	 * and the receivers of rendezvous (a member that only receives eager
	 * messages, a bcast's leaf, moves none) */
	flows = vlcoll_alloc((size_t)p, 1);
	for (r = 0; r < p; r++)
		for (i = 0; i < s.rank[r].n; i++)
			if (s.rank[r].op[i].send || s.rank[r].op[i].bytes >= c->mpi.eager_limit)
				flows[r] = 1;
	if (links == 2)
		memset(flows, 1, (size_t)p);
	/* first the direct ones: m[r * p + j] = 1 if r waits for j */
	memset(m, 0, (size_t)p * (size_t)p);
	for (r = 0; r < p; r++) {
		int only_eager = 1;

		m[(size_t)r * p + r] = 1;
		for (i = 0; i < s.rank[r].n; i++) {
			const vlcoll_op *o = &s.rank[r].op[i];

			if (!o->send || o->bytes >= c->mpi.eager_limit) {
				m[(size_t)r * p + o->peer] = 1;
				only_eager = 0;
			}
		}
		if (links && vli_net_on(c) && !only_eager) /* (its messages share links with all theirs) */
			for (j = 0; j < p; j++)
				m[(size_t)r * p + j] |= flows[j];
	}
	free(flows);
	vlcoll_sched_free(&s);
	if (!links)
		return 0; /* (vlcoll_deps_after: the direct ones only) */
	/* then the closure, rank by rank (a depth-first search over the
	 * direct ones; the rows of the ranks not done yet are still direct) */
	stack = vlcoll_alloc((size_t)p, sizeof *stack);
	{
		unsigned char *direct = vlcoll_alloc((size_t)p * (size_t)p, 1), *seen;

		memcpy(direct, m, (size_t)p * (size_t)p);
		for (r = 0; r < p; r++) {
			seen = &m[(size_t)r * p];
			memset(seen, 0, (size_t)p);
			seen[r] = 1;
			stack[0] = r;
			n = 1;
			while (n > 0) {
				i = stack[--n];
				for (j = 0; j < p; j++)
					if (direct[(size_t)i * p + j] && !seen[j]) {
						seen[j] = 1;
						stack[n++] = j;
					}
			}
		}
		free(direct);
	}
	free(stack);
	return 0;
}

struct vlcoll_job {
	vlcoll_sched s;
	vlcoll_lrun *L;
	/* an opened gatherv (vlcoll_job_block): its blocks as known (the
	 * others VLCOLL_PENDING), the input to build from, and whether a block
	 * came in since the sizes were last set */
	int64_t *blk;
	vlcoll_in in;
	int alg, dirty;
};

/* Whether in is a gatherv whose blocks, or an alltoallv whose rows, may
 * come in as its members do. */
static int lazy_blocks(const vlcoll_in *in)
{
	return (in->kind == VL_KIND_GATHER || in->kind == VL_KIND_ALLTOALL) &&
	       in->variant == VLCOLL_V && in->bytes;
}

/* How many bytes values in has: an alltoall's matrix, else one a member. */
static size_t n_bytes(const vlcoll_in *in)
{
	return in->kind == VL_KIND_ALLTOALL ? (size_t)in->p * (size_t)in->p : (size_t)in->p;
}

/* Set the sizes of an opened gatherv's (alltoallv's) messages from the
 * blocks known (a size, once known, stays): build it with every unknown
 * block 0 and with every one 2^24 - every message of a gather or of an
 * alltoall but Bruck's carries a sum of blocks, so a size the two agree on
 * is known, and one left out in the first alone may yet be (a zero block
 * of Open MPI's linear gatherv).  (Bruck's alltoall sends the mean block:
 * an alltoallv with it is not opened, vlcoll_opens_early_alg.) */
static void job_sizes(vlcoll_job *j)
{
	vlcoll_sched t[2];
	size_t nb = n_bytes(&j->in), k;
	int64_t *b = vlcoll_alloc(nb, sizeof *b);
	vlcoll_in x = j->in;
	int v, r, i;

	x.bytes = b;
	for (v = 0; v < 2; v++) {
		/* (0, then large: a size that depends on an unknown block in
		 * any way - a sum, or a mean as Bruck's alltoall takes - comes
		 * out different) */
		for (k = 0; k < nb; k++)
			b[k] = j->blk[k] == VLCOLL_PENDING ? (int64_t)v << 24 : j->blk[k];
		vlcoll_sched_init(&t[v], x.p);
		t[v].keep = 1;
		vlcoll_build(&t[v], &x, j->alg);
	}
	for (r = 0; r < x.p; r++) {
		vlcoll_ops *l = &j->s.rank[r];

		for (i = 0; i < l->n && i < t[0].rank[r].n && i < t[1].rank[r].n; i++) {
			const vlcoll_op *a = &t[0].rank[r].op[i], *c = &t[1].rank[r].op[i];

			if (l->op[i].bytes >= 0 || l->op[i].none)
				continue;
			if (a->bytes == c->bytes && a->none == c->none) {
				l->op[i].bytes = a->bytes;
				l->op[i].none = a->none;
			} else {
				l->op[i].bytes = a->none != c->none ? VLCOLL_MAYBE_NONE : VLCOLL_UNKNOWN;
			}
		}
	}
	vlcoll_sched_free(&t[0]);
	vlcoll_sched_free(&t[1]);
	free(b);
	j->dirty = 0;
}

static vlcoll_job *job_new(const vlcfg_config *c, const vlcoll_in *in, const vlcoll_net *net,
			   vlcoll_out *out, int open)
{
	vlcoll_job *j;
	vlcoll_in x = *in;
	int64_t *b = NULL;
	size_t nb = n_bytes(in), k;
	int alg, r, i;

	if (open && lazy_blocks(in)) {
		/* (built first with every unknown block 1: the algorithm and
		 * the operations do not depend on them) */
		b = vlcoll_alloc(nb, sizeof *b);
		for (k = 0; k < nb; k++)
			b[k] = in->bytes[k] == VLCOLL_PENDING ? 1 : in->bytes[k];
		x.bytes = b;
	}
	if ((alg = vlcoll_alg_of(c, &x, out)) < 0) {
		free(b);
		return NULL;
	}
	j = vlcoll_alloc(1, sizeof *j);
	vlcoll_sched_init(&j->s, in->p);
	j->s.keep = b != NULL;
	vlcoll_build(&j->s, &x, alg);
	if (b && !j->s.bad) {
		j->in = *in;
		j->in.host = NULL; /* (in's arrays are the caller's) */
		j->in.entry = NULL;
		j->in.bytes = NULL;
		j->alg = alg;
		j->blk = b;
		for (k = 0; k < nb; k++)
			b[k] = in->bytes[k];
		for (r = 0; r < in->p; r++) {
			for (i = 0; i < j->s.rank[r].n; i++) {
				j->s.rank[r].op[i].bytes = VLCOLL_UNKNOWN;
				j->s.rank[r].op[i].none = 0;
			}
		}
		job_sizes(j);
	} else {
		free(b);
	}
	j->L = open ? vlcoll_links_open(c, &j->s, in->host, in->entry, out, net)
		    : vlcoll_links_start(c, &j->s, in->host, in->entry, out, net);
	if (!j->L) {
		vlcoll_job_free(j);
		return NULL;
	}
	return j;
}

vlcoll_job *vlcoll_job_start(const vlcfg_config *c, const vlcoll_in *in, const vlcoll_net *net,
			 vlcoll_out *out)
{
	return job_new(c, in, net, out, 0);
}

vlcoll_job *vlcoll_job_open(const vlcfg_config *c, const vlcoll_in *in, const vlcoll_net *net,
			    vlcoll_out *out)
{
	return job_new(c, in, net, out, 1);
}

void vlcoll_job_block(vlcoll_job *j, int r, int64_t bytes)
{
	if (j->blk && j->in.kind != VL_KIND_ALLTOALL && r >= 0 && r < j->in.p && bytes >= 0 &&
	    j->blk[r] == VLCOLL_PENDING) {
		j->blk[r] = bytes;
		j->dirty = 1;
	}
}

void vlcoll_job_row(vlcoll_job *j, int r, const int64_t *row)
{
	int k;

	if (!j->blk || j->in.kind != VL_KIND_ALLTOALL || r < 0 || r >= j->in.p)
		return;
	for (k = 0; k < j->in.p; k++)
		if (row[k] >= 0 && j->blk[(size_t)r * (size_t)j->in.p + (size_t)k] == VLCOLL_PENDING) {
			j->blk[(size_t)r * (size_t)j->in.p + (size_t)k] = row[k];
			j->dirty = 1;
		}
}

void vlcoll_job_enter(vlcoll_job *j, int r, int64_t t)
{
	vlcoll_links_enter(j->L, r, t);
}

int vlcoll_job_blocker(const vlcoll_job *j, int r, int *who, int64_t *est)
{
	return vlcoll_links_blocker(j->L, r, who, est);
}

int vlcoll_opens_early_alg(const vlcfg_config *c, int kind, int variant)
{
	/* (an alltoallv with Bruck's algorithm, whose every message carries
	 * the mean block, is known only once every member's row is in) */
	if (kind == VL_KIND_ALLTOALL && variant == VLCOLL_V &&
	    c->mpi.coll_alg[VL_KIND_ALLTOALL] == VLCOLL_ALG_BRUCK)
		return 0;
	return vlcoll_opens_early(kind, variant);
}

int vlcoll_opens_early(int kind, int variant)
{
	if (kind == VL_KIND_REDUCE_SCATTER)
		return 1; /* (every block alike; a reduce_scatter's known to every
			     member, as an allgatherv's) */
	if ((kind == VL_KIND_ALLGATHER || kind == VL_KIND_ALLTOALL) && variant == VLCOLL_V)
		return 1; /* (an alltoallv's rows come in with the entries) */
	if ((kind == VL_KIND_SCATTER || kind == VL_KIND_GATHER) && variant == VLCOLL_V)
		return 1; /* (a scatterv once its root's entry, with every block, is
			     in; a gatherv's blocks come in with the entries) */
	return variant == VLCOLL_PLAIN &&
	       (kind == VL_KIND_BCAST || kind == VL_KIND_REDUCE || kind == VL_KIND_GATHER ||
		kind == VL_KIND_SCATTER || kind == VL_KIND_SCAN || kind == VL_KIND_EXSCAN ||
		kind == VL_KIND_BARRIER || kind == VL_KIND_ALLREDUCE ||
		kind == VL_KIND_ALLGATHER || kind == VL_KIND_ALLTOALL);
}

int vlcoll_job_run(vlcoll_job *j, int64_t *lb)
{
	if (j->dirty)
		job_sizes(j);
	return vlcoll_links_resume(j->L, lb);
}

int vlcoll_job_rank_done(const vlcoll_job *j, int r)
{
	return vlcoll_links_rank_done(j->L, r);
}

int vlcoll_job_taken(const vlcoll_job *j, uint32_t k)
{
	return vlcoll_links_taken(j->L, k);
}

void vlcoll_job_free(vlcoll_job *j)
{
	if (!j)
		return;
	vlcoll_links_free(j->L);
	vlcoll_sched_free(&j->s);
	free(j->blk);
	free(j);
}
