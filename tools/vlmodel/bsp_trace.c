/* bsp_trace.c - the M-steps of a vlayer trace directory for `vlmodel bsp --trace`
 * (the rules are in its --help and in vlmodel.h): each task's records are read
 * in order (postproc's tracereader) and cut into steps; messages are matched
 * to their sends by (sender, seq); collectives over all tasks become the
 * messages of their logical pattern. */
#include "vlmodel.h"
#include "vltrace.h"
#include "postproc/stats.h"
#include "postproc/tracereader.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct tr_send {
	uint32_t seq;
	int step, recvd;
	double bytes;
} tr_send;

typedef struct tr_recv {
	int step, from, to;
	uint32_t seq;
	double bytes;
} tr_recv;

typedef struct tr_coll {
	int kind, root, step; /* enum vl_coll_kind or -1; root processor or -1 */
	double bytes;
} tr_coll;

typedef struct tr_seg {
	int64_t w, end;    /* computation ns; end time (INT64_MIN: none) */
	const char *label; /* what ends it */
} tr_seg;

typedef struct tr_task {
	tr_seg *st; /* per step */
	size_t cap;
	int nsteps;
	tr_send *send;
	size_t ns, cs;
	tr_coll *coll;
	int nc, cc;
	/* the walk */
	int k, has_comm, in_comm;
	int64_t cursor, pend;
} tr_task;

typedef struct tr {
	vlpost_tset set;
	int n, rule;
	int64_t min_gap;
	tr_task *tk;
	tr_recv *recv;
	size_t nr, cr;
	vlpost_tstats *st;
	FILE *warn;
	char *err;
	size_t errlen;
} tr;

static int tr_oom(tr *t)
{
	snprintf(t->err, t->errlen, "out of memory");
	return -1;
}

/* Room for N elements of size SZ in *P (capacity *CAP). */
static int tr_grow(void **p, size_t *cap, size_t n, size_t sz)
{
	size_t c = *cap ? *cap : 16;
	void *q;
	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	q = realloc(*p, c * sz);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/* Step S of task K exists (zeroed). */
static int tr_step(tr_task *k, int s)
{
	if (s < k->nsteps)
		return 0;
	if (tr_grow((void **)&k->st, &k->cap, (size_t)s + 1, sizeof *k->st) < 0)
		return -1;
	for (; k->nsteps <= s; k->nsteps++)
		k->st[k->nsteps] = (tr_seg){0, INT64_MIN, NULL};
	return 0;
}

/* The collective kind of COLL record R (enum vl_coll_kind), or -1; *GLOBAL:
 * over all N tasks (not a PVM join or leave). */
static int tr_kind(const vl_trec *r, int n, int *global)
{
	static const int pvm[] = {-1,
	                          VL_KIND_BARRIER,
	                          VL_KIND_BCAST,
	                          VL_KIND_REDUCE,
	                          VL_KIND_GATHER,
	                          VL_KIND_SCATTER};
	int tag = r->tag;
	*global = r->u.v.t3 == n && tag != VL_COLL_JOIN && tag != VL_COLL_LEAVE;
	if (tag >= VL_COLL_MPI && tag - VL_COLL_MPI < VL_KIND_N)
		return tag - VL_COLL_MPI;
	if (tag > 0 && tag < (int)(sizeof pvm / sizeof pvm[0]))
		return pvm[tag];
	return -1;
}

static int is_comm(int type)
{
	return type == VL_EV_SEND || type == VL_EV_RECV || type == VL_EV_PROBE ||
	       type == VL_EV_COLL || type == VL_EV_SPAWN || type == VL_EV_IRECV ||
	       type == VL_EV_WAIT;
}

/* A read error of task I: 0 (tolerated: truncated, no END; warned), or -1. */
static int tr_read_err(tr *t, int i)
{
	vlpost_tfile *f = &t->set.f[i];
	if (f->err == VL_TR_ETRUNC || f->err == VL_TR_ENOEND) {
		if (t->warn)
			fprintf(t->warn, "vlmodel: warning: %s\n", f->errmsg);
		return 0;
	}
	snprintf(t->err, t->errlen, "%s", f->errmsg);
	return -1;
}

/* Pass 1: the collectives over all tasks of each task into COUNT. */
static int tr_count(tr *t, int *count)
{
	for (int i = 0; i < t->n; i++) {
		vl_trec r;
		int rc, global;
		count[i] = 0;
		while ((rc = vlpost_tfile_next(&t->set.f[i], &r)) == 1)
			if (r.type == VL_EV_COLL) {
				tr_kind(&r, t->n, &global);
				count[i] += global;
			}
		if (rc < 0 && tr_read_err(t, i) < 0)
			return -1;
	}
	return vlpost_tset_rewind(&t->set, t->err, t->errlen);
}

/* auto/coll/phase: coll needs the same number (> 0) of them in every task. */
static int tr_rule(tr *t, int rule)
{
	int *count = calloc((size_t)t->n, sizeof *count), differ = 0, rc = 0;
	if (!count)
		return tr_oom(t);
	if (rule != VLMOD_STEPS_PHASE && tr_count(t, count) < 0)
		rc = -1;
	for (int i = 1; !rc && rule != VLMOD_STEPS_PHASE && i < t->n && !differ; i++)
		differ = count[i] != count[0] ? i : 0;
	if (!rc && rule == VLMOD_STEPS_COLL && differ) {
		snprintf(t->err, t->errlen,
		         "%s: --steps coll: the tasks took part in different "
		         "numbers of collectives over all %d tasks (processor 0: %d, processor %d: "
		         "%d)",
		         t->set.dir, t->n, count[0], differ, count[differ]);
		rc = -1;
	} else if (!rc && rule == VLMOD_STEPS_COLL && count[0] == 0) {
		snprintf(t->err, t->errlen, "%s: --steps coll: no collective over all %d tasks",
		         t->set.dir, t->n);
		rc = -1;
	}
	if (rule == VLMOD_STEPS_PHASE || differ || count[0] == 0)
		t->rule = VLMOD_STEPS_PHASE;
	else
		t->rule = VLMOD_STEPS_COLL;
	free(count);
	return rc;
}

/* The messages and collectives of communication record R of task I in step k. */
static int tr_account(tr *t, int i, const vl_trec *r)
{
	tr_task *k = &t->tk[i];
	int global, kind;
	if (r->type == VL_EV_SEND) {
		if (tr_grow((void **)&k->send, &k->cs, k->ns + 1, sizeof *k->send) < 0)
			return tr_oom(t);
		k->send[k->ns++] = (tr_send){r->seq, k->k, 0, (double)r->u.v.bytes};
	} else if (r->type == VL_EV_RECV) {
		if (tr_grow((void **)&t->recv, &t->cr, t->nr + 1, sizeof *t->recv) < 0)
			return tr_oom(t);
		t->recv[t->nr++] = (tr_recv){k->k, vlpost_tset_find(&t->set, r->peer), i, r->seq,
		                             (double)r->u.v.bytes};
	} else if (r->type == VL_EV_COLL) {
		size_t cc = (size_t)k->cc;
		kind = tr_kind(r, t->n, &global);
		if (!global)
			return 0;
		if (tr_grow((void **)&k->coll, &cc, (size_t)k->nc + 1, sizeof *k->coll) < 0)
			return tr_oom(t);
		k->cc = (int)cc;
		k->coll[k->nc++] =
		    (tr_coll){kind, r->peer < 0 ? -1 : vlpost_tset_find(&t->set, r->peer), k->k,
		              (double)r->u.v.bytes};
		if (t->rule == VLMOD_STEPS_COLL) {
			k->st[k->k].label = kind >= 0 ? vl_coll_kind_name(kind) : "collective";
			k->st[k->k].end = r->u.v.t1;
			k->k++;
			k->has_comm = 0;
			return tr_step(k, k->k) < 0 ? tr_oom(t) : 0;
		}
	}
	return 0;
}

/* A communication record: settle the computation before it (a new step after
 * a phase and at least min_gap of computation), then account it. */
static int tr_comm(tr *t, int i, const vl_trec *r)
{
	tr_task *k = &t->tk[i];
	if (t->rule == VLMOD_STEPS_PHASE && k->in_comm && k->pend >= t->min_gap) {
		k->k++;
		if (tr_step(k, k->k) < 0)
			return tr_oom(t);
	}
	k->st[k->k].w += k->pend;
	k->pend = 0;
	k->in_comm = k->has_comm = 1;
	k->st[k->k].end = r->u.v.t1;
	if (t->rule == VLMOD_STEPS_PHASE)
		k->st[k->k].label = "phase";
	return tr_account(t, i, r);
}

/* The end of task I at time END: where the computation since the last
 * communication goes (see the usage of `vlmodel bsp`). */
static int tr_end(tr *t, int i, int64_t end)
{
	tr_task *k = &t->tk[i];
	int own = k->pend >= t->min_gap;
	if (k->has_comm && !(t->rule == VLMOD_STEPS_PHASE && own)) {
		k->st[k->k].w += k->pend;
		if (t->rule == VLMOD_STEPS_COLL) {
			k->st[k->k].end = end;
			k->st[k->k].label = "end";
		}
		k->nsteps = k->k + 1;
		return 0;
	}
	if (k->has_comm)
		k->k++;
	if (own || k->k == 0) {
		if (tr_step(k, k->k) < 0)
			return tr_oom(t);
		k->st[k->k].w += k->pend;
		k->st[k->k].end = end;
		k->st[k->k].label = "end";
		k->nsteps = k->k + 1;
		return 0;
	}
	k->st[k->k - 1].w += k->pend;
	k->nsteps = k->k;
	return 0;
}

/* Pass 2: cut task I into steps. */
static int tr_walk(tr *t, int i)
{
	vlpost_tfile *f = &t->set.f[i];
	tr_task *k = &t->tk[i];
	vl_trec r;
	int rc;
	vlpost_stats_init(&t->st[i], i, &f->hdr);
	k->cursor = f->hdr.start_ns;
	if (tr_step(k, 0) < 0)
		return tr_oom(t);
	while ((rc = vlpost_tfile_next(f, &r)) == 1) {
		int64_t comp = r.u.v.t0 > k->cursor ? r.u.v.t0 - k->cursor : 0;
		vlpost_stats_add(&t->st[i], &r);
		if (r.type == VL_EV_COMPUTE)
			comp += r.u.v.t1 - r.u.v.t0;
		if (r.u.v.t1 > k->cursor)
			k->cursor = r.u.v.t1;
		k->pend += comp;
		if (r.type == VL_EV_END)
			break;
		if (is_comm(r.type) && tr_comm(t, i, &r) < 0)
			return -1;
	}
	vlpost_stats_done(&t->st[i]);
	if (rc < 0 && tr_read_err(t, i) < 0)
		return -1;
	return tr_end(t, i, k->cursor);
}

static int send_cmp(const void *a, const void *b)
{
	const tr_send *x = a, *y = b;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Receives matched to their sends: full messages; sends nobody received: out only. */
static int tr_messages(tr *t, vlmod_prog *m)
{
	for (size_t q = 0; q < t->nr; q++) {
		const tr_recv *v = &t->recv[q];
		tr_send key = {v->seq, 0, 0, 0}, *s = NULL;
		if (v->from >= 0)
			s = bsearch(&key, t->tk[v->from].send, t->tk[v->from].ns, sizeof key,
			            send_cmp);
		if (s && !s->recvd) {
			s->recvd = 1;
			if (vlmod_prog_msg(m, v->step, v->from, v->to, v->bytes, s->step) < 0)
				return tr_oom(t);
		} else if (vlmod_prog_msg(m, v->step, v->from, v->to, v->bytes, -1) < 0) {
			return tr_oom(t);
		}
	}
	for (int i = 0; i < t->n; i++)
		for (size_t q = 0; q < t->tk[i].ns; q++) {
			const tr_send *s = &t->tk[i].send[q];
			if (!s->recvd &&
			    vlmod_prog_msg(m, s->step, i, VLMOD_TO_NONE, s->bytes, s->step) < 0)
				return tr_oom(t);
		}
	return 0;
}

/* The bytes of a message i -> j of collective c: the sender's or the receiver's. */
typedef double (*tr_bytes_fn)(const tr *t, int c, int i, int j);

static const tr_coll *tc(const tr *t, int c, int i)
{
	return &t->tk[i].coll[c];
}

static double b_from(const tr *t, int c, int i, int j)
{
	(void)j;
	return tc(t, c, i)->bytes;
}

static double b_to(const tr *t, int c, int i, int j)
{
	(void)i;
	return tc(t, c, j)->bytes;
}

/* Messages i -> j of collective C of F(i, j) bytes for the pairs i != j: from
 * ONLY_FROM (if >= 0), to ONLY_TO (if >= 0), with j > i if UP. */
static int tr_pairs(const tr *t, vlmod_prog *m, int c, int only_from, int only_to, int up,
                    tr_bytes_fn f)
{
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++) {
			if (i == j || (only_from >= 0 && i != only_from) ||
			    (only_to >= 0 && j != only_to) || (up && j < i))
				continue;
			if (vlmod_prog_msg(m, tc(t, c, j)->step, i, j, f(t, c, i, j),
			                 tc(t, c, i)->step) < 0)
				return -1;
		}
	return 0;
}

/* Every task sends to every other its own bytes (0 for a barrier). */
static int tr_all(const tr *t, vlmod_prog *m, int c, int zero)
{
	for (int j = 0; j < t->n; j++)
		if (vlmod_prog_msg(m, tc(t, c, j)->step, j, VLMOD_TO_ALL, zero ? 0 : tc(t, c, j)->bytes,
		                 tc(t, c, j)->step) < 0)
			return -1;
	return 0;
}

/* Collective C (the c-th over all tasks of every task) as messages. */
static int tr_coll_msgs(tr *t, vlmod_prog *m, int c)
{
	int kind = tc(t, c, 0)->kind, root = tc(t, c, 0)->root;
	int rooted = kind == VL_KIND_BCAST || kind == VL_KIND_SCATTER ||
	             kind == VL_KIND_GATHER || kind == VL_KIND_REDUCE;
	if (rooted && root < 0) {
		if (t->warn)
			fprintf(t->warn,
			        "vlmodel: warning: %s: collective %d (%s) has no root in the "
			        "traces: counted as a barrier\n",
			        t->set.dir, c + 1, vl_coll_kind_name(kind));
		kind = VL_KIND_BARRIER;
	}
	switch (kind) {
	case VL_KIND_BCAST:
		return tr_pairs(t, m, c, root, -1, 0, b_from);
	case VL_KIND_SCATTER:
		return tr_pairs(t, m, c, root, -1, 0, b_to);
	case VL_KIND_GATHER:
	case VL_KIND_REDUCE:
		return tr_pairs(t, m, c, -1, root, 0, b_from);
	case VL_KIND_ALLGATHER:
	case VL_KIND_ALLREDUCE:
	case VL_KIND_ALLTOALL:
		return tr_all(t, m, c, 0);
	case VL_KIND_REDUCE_SCATTER:
		return tr_pairs(t, m, c, -1, -1, 0, b_to);
	case VL_KIND_SCAN:
	case VL_KIND_EXSCAN:
		return tr_pairs(t, m, c, -1, -1, 1, b_from);
	default:
		return tr_all(t, m, c, 1);
	}
}

static int tr_colls(tr *t, vlmod_prog *m)
{
	int nc = t->tk[0].nc, differ = 0;
	for (int i = 1; i < t->n; i++) {
		differ |= t->tk[i].nc != nc;
		if (t->tk[i].nc < nc)
			nc = t->tk[i].nc;
	}
	if (differ && t->warn)
		fprintf(t->warn,
		        "vlmodel: warning: %s: the tasks took part in different numbers "
		        "of collectives over all tasks: the data of the first %d only is counted\n",
		        t->set.dir, nc);
	for (int c = 0; c < nc; c++)
		if (tr_coll_msgs(t, m, c) < 0)
			return tr_oom(t);
	return 0;
}

/* The program: steps, computation, the trace's step ends and elapsed time. */
static int tr_build(tr *t, vlmod_prog *m)
{
	int r = 0;
	int64_t origin = INT64_MAX;
	for (int i = 0; i < t->n; i++) {
		if (t->tk[i].nsteps > r)
			r = t->tk[i].nsteps;
		if (t->set.f[i].hdr.start_ns < origin)
			origin = t->set.f[i].hdr.start_ns;
	}
	if (vlmod_prog_init(m, t->n, r) < 0 || !(m->vlayer_end = calloc((size_t)r + 1, sizeof(double))) ||
	    !(m->label = calloc((size_t)r + 1, sizeof(char *))))
		return tr_oom(t);
	for (int s = 0; s < r; s++) {
		int64_t end = INT64_MIN;
		for (int i = 0; i < t->n; i++) {
			const tr_task *k = &t->tk[i];
			if (s >= k->nsteps)
				continue;
			m->w[(size_t)s * t->n + i] = (double)k->st[s].w * 1e-9;
			if (k->st[s].end > end)
				end = k->st[s].end;
			if (!m->label[s] && k->st[s].label &&
			    !(m->label[s] = strdup(k->st[s].label)))
				return tr_oom(t);
		}
		m->vlayer_end[s] = end == INT64_MIN ? 0 : (double)(end - origin) * 1e-9;
	}
	m->vlayer_total = (double)vlpost_stats_elapsed(t->st, t->n) * 1e-9;
	if (tr_messages(t, m) < 0 || tr_colls(t, m) < 0)
		return -1;
	return vlmod_prog_finish(m) < 0 ? tr_oom(t) : 0;
}

static void tr_free(tr *t)
{
	for (int i = 0; t->tk && i < t->n; i++) {
		free(t->tk[i].st);
		free(t->tk[i].send);
		free(t->tk[i].coll);
	}
	free(t->tk);
	free(t->recv);
	free(t->st);
	vlpost_tset_close(&t->set);
}

int vlmod_prog_from_trace(const char *dir, int rule, double min_gap, vlmod_prog *m, int *rule_used,
                        FILE *warn, char *err, size_t errlen)
{
	tr t;
	int rc = -1;
	memset(&t, 0, sizeof t);
	memset(m, 0, sizeof *m);
	t.min_gap = (int64_t)llround(min_gap * 1e9);
	t.warn = warn;
	t.err = err;
	t.errlen = errlen;
	if (vlpost_tset_open(&t.set, dir, 0, warn, err, errlen) < 0)
		goto out;
	t.n = t.set.n;
	t.tk = calloc((size_t)t.n, sizeof *t.tk);
	t.st = calloc((size_t)t.n, sizeof *t.st);
	if (!t.tk || !t.st) {
		tr_oom(&t);
		goto out;
	}
	if (tr_rule(&t, rule) < 0)
		goto out;
	for (int i = 0; i < t.n; i++)
		if (tr_walk(&t, i) < 0)
			goto out;
	rc = tr_build(&t, m);
	*rule_used = t.rule;
out:
	tr_free(&t);
	if (rc < 0)
		vlmod_prog_free(m);
	return rc;
}
