/* coll.c - collective operations timed by a named algorithm: the names of
 * kinds and algorithms, which algorithms a kind accepts, and the simulator.
 *
 * The algorithm (a coll_<kind>_<algorithm>.c file) lists, for every rank, its
 * sends and receives in order.  Each send is matched to a receive (the k-th
 * send from i to j to the k-th receive of j from i), then the ranks are swept
 * in order, each running its operations until it reaches a receive whose
 * message has not been sent yet, until all are done.  Costs come from model.c
 * only; the message semantics are those stated in coll.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/sched.h"

static const char *const vlcoll_alg_names[] = {
	"default", "linear", "binomial", "dissemination", "recursive_doubling",
	"ring", "pairwise", "reduce_bcast", "chain",
};

_Static_assert(sizeof(vlcoll_alg_names) / sizeof(vlcoll_alg_names[0]) == VLCOLL_ALG_NALGS,
	       "one name per algorithm");

/* The algorithms each kind accepts, its default first, ended by 0. */
#define VLCOLL_KIND_MAXALGS 4
static const unsigned char vlcoll_kind_algs[VL_KIND_N][VLCOLL_KIND_MAXALGS] = {
	[VL_KIND_BARRIER] = { VLCOLL_ALG_DISSEMINATION, VLCOLL_ALG_LINEAR, VLCOLL_ALG_BINOMIAL },
	[VL_KIND_BCAST] = { VLCOLL_ALG_BINOMIAL, VLCOLL_ALG_LINEAR },
	[VL_KIND_REDUCE] = { VLCOLL_ALG_BINOMIAL, VLCOLL_ALG_LINEAR },
	[VL_KIND_ALLREDUCE] = { VLCOLL_ALG_RECURSIVE_DOUBLING, VLCOLL_ALG_RING, VLCOLL_ALG_REDUCE_BCAST },
	[VL_KIND_GATHER] = { VLCOLL_ALG_LINEAR, VLCOLL_ALG_BINOMIAL },
	[VL_KIND_SCATTER] = { VLCOLL_ALG_LINEAR, VLCOLL_ALG_BINOMIAL },
	[VL_KIND_ALLGATHER] = { VLCOLL_ALG_RING, VLCOLL_ALG_RECURSIVE_DOUBLING, VLCOLL_ALG_LINEAR },
	[VL_KIND_ALLTOALL] = { VLCOLL_ALG_PAIRWISE, VLCOLL_ALG_LINEAR },
	[VL_KIND_REDUCE_SCATTER] = { VLCOLL_ALG_LINEAR, VLCOLL_ALG_RING },
	[VL_KIND_SCAN] = { VLCOLL_ALG_CHAIN, VLCOLL_ALG_RECURSIVE_DOUBLING },
	[VL_KIND_EXSCAN] = { VLCOLL_ALG_CHAIN, VLCOLL_ALG_RECURSIVE_DOUBLING },
};

static int vlcoll_kind_ok(int kind)
{
	return kind >= 0 && kind < VL_KIND_N;
}

static int vlcoll_accepts(int kind, int alg)
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

/* ---- the schedule ---- */

void *vlcoll_alloc(size_t n, size_t size)
{
	void *q = calloc(n ? n : 1, size ? size : 1);

	if (!q)
		vli_error(3, "out of memory timing a collective (%zu x %zu bytes)", n, size);
	return q;
}

void vlcoll_sched_init(vlcoll_sched *s, int p)
{
	s->p = p;
	s->bad = 0;
	s->rank = vlcoll_alloc((size_t)p, sizeof(*s->rank));
}

void vlcoll_sched_free(vlcoll_sched *s)
{
	int r;

	for (r = 0; r < s->p; r++)
		free(s->rank[r].op);
	free(s->rank);
	s->rank = NULL;
}

static void vlcoll_push(vlcoll_sched *s, int r, int peer, int send, int64_t bytes)
{
	vlcoll_ops *l;
	vlcoll_op *op;

	if (r < 0 || r >= s->p || peer < 0 || peer >= s->p) {
		s->bad = 1;
		return;
	}
	l = &s->rank[r];
	if (l->n == l->cap) {
		int ncap = l->cap ? 2 * l->cap : 8;
		vlcoll_op *nop = realloc(l->op, (size_t)ncap * sizeof(*nop));

		if (!nop)
			vli_error(3, "out of memory timing a collective (%d operations)", l->n);
		l->op = nop;
		l->cap = ncap;
	}
	op = &l->op[l->n++];
	op->peer = peer;
	op->send = send ? 1 : 0;
	op->match = 0;
	op->v = bytes;
}

void vlcoll_send(vlcoll_sched *s, int r, int peer, int64_t bytes)
{
	vlcoll_push(s, r, peer, 1, bytes);
}

void vlcoll_recv(vlcoll_sched *s, int r, int peer, int64_t bytes)
{
	vlcoll_push(s, r, peer, 0, bytes);
}

int64_t vlcoll_sum(const int64_t *blk, int root, int p, int lo, int hi)
{
	int64_t sum = 0;
	int v;

	for (v = lo; v < hi; v++)
		sum += blk[vlcoll_abs(v, root, p)];
	return sum;
}

/* ---- matching: the k-th send from i to j with the k-th receive of j from i ---- */

/* A receive whose message has not been sent yet. */
#define VLI_PENDING INT64_MIN

/* Give every send the index of its receive and mark the receives pending.
 * The sends addressed to each rank are gathered in rank-then-list order, so
 * those from one sender are contiguous and in FIFO order. */
static int vlcoll_match(vlcoll_sched *s)
{
	int p = s->p, r, q, i, rc = -1;
	size_t nsends = 0, k, none = (size_t)-1;
	size_t *off = vlcoll_alloc((size_t)p + 1, sizeof(*off));
	size_t *fill = vlcoll_alloc((size_t)p, sizeof(*fill));
	size_t *cur = vlcoll_alloc((size_t)p, sizeof(*cur));
	int *src, *idx;

	for (r = 0; r < p; r++)
		for (i = 0; i < s->rank[r].n; i++)
			if (s->rank[r].op[i].send) {
				off[s->rank[r].op[i].peer + 1]++;
				nsends++;
			}
	for (q = 0; q < p; q++)
		off[q + 1] += off[q];
	src = vlcoll_alloc(nsends, sizeof(*src));
	idx = vlcoll_alloc(nsends, sizeof(*idx));
	for (r = 0; r < p; r++)
		for (i = 0; i < s->rank[r].n; i++)
			if (s->rank[r].op[i].send) {
				q = s->rank[r].op[i].peer;
				k = off[q] + fill[q]++;
				src[k] = r;
				idx[k] = i;
			}
	for (r = 0; r < p; r++)
		cur[r] = none;
	for (q = 0; q < p; q++) {
		vlcoll_ops *l = &s->rank[q];

		/* cur[r]: the next unmatched send from r to q */
		for (k = off[q + 1]; k-- > off[q];)
			cur[src[k]] = k;
		for (i = 0; i < l->n; i++) {
			vlcoll_op *rv = &l->op[i], *sd;

			if (rv->send)
				continue;
			r = rv->peer;
			k = cur[r];
			if (k == none || k >= off[q + 1] || src[k] != r)
				goto out; /* a receive without its send */
			sd = &s->rank[r].op[idx[k]];
			if (sd->v != rv->v)
				goto out;
			sd->match = (uint32_t)i;
			rv->v = VLI_PENDING;
			cur[r]++;
		}
		for (k = off[q]; k < off[q + 1]; k++) {
			r = src[k];
			if (cur[r] != none && cur[r] < off[q + 1] && src[cur[r]] == r)
				goto out; /* a send without its receive */
			cur[r] = none;
		}
	}
	rc = 0;
out:
	free(off);
	free(fill);
	free(cur);
	free(src);
	free(idx);
	return rc;
}

/* ---- running ---- */

/* Run rank r's operations until a receive must wait for a send not yet made;
 * returns the number run. */
static int vlcoll_step(const vlcfg_config *c, vlcoll_sched *s, const int *host, int r, int *pc,
		    vlcoll_out *o)
{
	vlcoll_ops *l = &s->rank[r];
	int done = 0;

	for (; pc[r] < l->n; pc[r]++, done++) {
		const vlcoll_op *op = &l->op[pc[r]];
		int h = host[r], hp = host[op->peer];
		int64_t d, w;

		if (op->send) {
			d = vli_send_time(c, h, hp, op->v);
			o->exit += d;
			o->comm += d;
			o->nmsgs++;
			/* the arrival, in the matching receive */
			s->rank[op->peer].op[op->match].v =
				o->exit + vli_trans_time(c, h, hp, op->v);
			continue;
		}
		if (op->v == VLI_PENDING)
			break;
		w = op->v > o->exit ? op->v - o->exit : 0;
		d = vli_recv_time(c, hp, h);
		o->exit += w + d;
		o->wait += w;
		o->comm += d;
	}
	return done;
}

int vlcoll_run(const vlcfg_config *c, vlcoll_sched *s, const int *host, const int64_t *entry,
		 vlcoll_out *out)
{
	int p = s->p, r, left, progress, *pc;

	if (s->bad || vlcoll_match(s) < 0)
		return -1;
	for (r = 0; r < p; r++) {
		out[r].exit = entry[r];
		out[r].comm = 0;
		out[r].wait = 0;
		out[r].nmsgs = 0;
	}
	pc = vlcoll_alloc((size_t)p, sizeof(*pc));
	do {
		left = progress = 0;
		for (r = 0; r < p; r++) {
			if (vlcoll_step(c, s, host, r, pc, &out[r]))
				progress = 1;
			left += pc[r] < s->rank[r].n;
		}
	} while (left && progress);
	free(pc);
	return left ? -1 : 0;
}

/* ---- one collective call ---- */

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

#define VLI_CASE(kind, alg) ((kind) * VLCOLL_ALG_NALGS + (alg))

/* exscan sends the same messages as scan, and so uses its algorithms. */
static void vlcoll_build(vlcoll_sched *s, const vlcoll_in *in, int alg)
{
	const int64_t *b = in->bytes;
	int root = in->root;

	switch (VLI_CASE(in->kind, alg)) {
	case VLI_CASE(VL_KIND_BARRIER, VLCOLL_ALG_DISSEMINATION):
		vlcoll_barrier_dissemination(s);
		break;
	case VLI_CASE(VL_KIND_BARRIER, VLCOLL_ALG_LINEAR):
		vlcoll_barrier_linear(s);
		break;
	case VLI_CASE(VL_KIND_BARRIER, VLCOLL_ALG_BINOMIAL):
		vlcoll_barrier_binomial(s);
		break;
	case VLI_CASE(VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL):
		vlcoll_bcast_binomial(s, root, b[root]);
		break;
	case VLI_CASE(VL_KIND_BCAST, VLCOLL_ALG_LINEAR):
		vlcoll_bcast_linear(s, root, b[root]);
		break;
	case VLI_CASE(VL_KIND_REDUCE, VLCOLL_ALG_BINOMIAL):
		vlcoll_reduce_binomial(s, root, b[root]);
		break;
	case VLI_CASE(VL_KIND_REDUCE, VLCOLL_ALG_LINEAR):
		vlcoll_reduce_linear(s, root, b[root]);
		break;
	case VLI_CASE(VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING):
		vlcoll_allreduce_recursive_doubling(s, b[0]);
		break;
	case VLI_CASE(VL_KIND_ALLREDUCE, VLCOLL_ALG_RING):
		vlcoll_allreduce_ring(s, b[0]);
		break;
	case VLI_CASE(VL_KIND_ALLREDUCE, VLCOLL_ALG_REDUCE_BCAST):
		vlcoll_allreduce_reduce_bcast(s, b[0]);
		break;
	case VLI_CASE(VL_KIND_GATHER, VLCOLL_ALG_LINEAR):
		vlcoll_gather_linear(s, root, b);
		break;
	case VLI_CASE(VL_KIND_GATHER, VLCOLL_ALG_BINOMIAL):
		vlcoll_gather_binomial(s, root, b);
		break;
	case VLI_CASE(VL_KIND_SCATTER, VLCOLL_ALG_LINEAR):
		vlcoll_scatter_linear(s, root, b);
		break;
	case VLI_CASE(VL_KIND_SCATTER, VLCOLL_ALG_BINOMIAL):
		vlcoll_scatter_binomial(s, root, b);
		break;
	case VLI_CASE(VL_KIND_ALLGATHER, VLCOLL_ALG_RING):
		vlcoll_allgather_ring(s, b);
		break;
	case VLI_CASE(VL_KIND_ALLGATHER, VLCOLL_ALG_RECURSIVE_DOUBLING):
		vlcoll_allgather_recursive_doubling(s, b);
		break;
	case VLI_CASE(VL_KIND_ALLGATHER, VLCOLL_ALG_LINEAR):
		vlcoll_allgather_linear(s, b);
		break;
	case VLI_CASE(VL_KIND_ALLTOALL, VLCOLL_ALG_PAIRWISE):
		vlcoll_alltoall_pairwise(s, b);
		break;
	case VLI_CASE(VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR):
		vlcoll_alltoall_linear(s, b);
		break;
	case VLI_CASE(VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_LINEAR):
		vlcoll_reduce_scatter_linear(s, b);
		break;
	case VLI_CASE(VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RING):
		vlcoll_reduce_scatter_ring(s, b);
		break;
	case VLI_CASE(VL_KIND_SCAN, VLCOLL_ALG_CHAIN):
	case VLI_CASE(VL_KIND_EXSCAN, VLCOLL_ALG_CHAIN):
		vlcoll_scan_chain(s, b[0]);
		break;
	case VLI_CASE(VL_KIND_SCAN, VLCOLL_ALG_RECURSIVE_DOUBLING):
	case VLI_CASE(VL_KIND_EXSCAN, VLCOLL_ALG_RECURSIVE_DOUBLING):
		vlcoll_scan_recursive_doubling(s, b[0]);
		break;
	default:
		s->bad = 1; /* accepted by the table but not built: a bug here */
		break;
	}
}

int vlcoll_sim(const vlcfg_config *c, const vlcoll_in *in, vlcoll_out *out)
{
	vlcoll_sched s;
	int alg = vlcoll_check(c, in, out), rc;

	if (alg < 0)
		return -1;
	vlcoll_sched_init(&s, in->p);
	vlcoll_build(&s, in, alg);
	rc = vlcoll_run(c, &s, in->host, in->entry, out);
	vlcoll_sched_free(&s);
	return rc;
}
