/* critpath.c - the critical path of the stats report (critpath.h); the walk is
 * described in docs/vlpost.md, "Critical path". */
#include "critpath.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A record kept for the critical path. */
struct vlpost_crec {
	int64_t t0, t1;
	int64_t wait; /* RECV, COLL, WAIT, PROBE found: waiting ns; SLEEP: all of it */
	int64_t arr;  /* RECV: the message's arrival */
	int32_t peer;
	uint32_t seq;
	uint16_t type, flags;
};

/* Per task: the records kept. */
struct vlpost_ctask {
	vlpost_crec *r;   /* the records that take time or carry a dependency */
	size_t n, cap;
	size_t *sends;    /* indices in r of the SEND records (seq increasing) */
	size_t ns, scap;
};

struct vlpost_tidx {
	int32_t tid;
	int proc;
};

static int tidx_cmp(const void *a, const void *b)
{
	const struct vlpost_tidx *x = a, *y = b;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

int vlpost_cp_init(vlpost_report *rep, const vlpost_tstats *st)
{
	int n = rep->n;
	rep->tids = calloc((size_t)n, sizeof *rep->tids);
	rep->tk = calloc((size_t)n, sizeof *rep->tk);
	if (!rep->tids || !rep->tk)
		return -1;
	for (int i = 0; i < n; i++)
		rep->tids[i] = (struct vlpost_tidx){ st[i].tid, i };
	qsort(rep->tids, (size_t)n, sizeof *rep->tids, tidx_cmp);
	return 0;
}

int vlpost_cp_proc(const vlpost_report *rep, int32_t tid)
{
	struct vlpost_tidx key = { tid, 0 }, *e;
	if (!rep->tids)
		return -1;
	e = bsearch(&key, rep->tids, (size_t)rep->n, sizeof key, tidx_cmp);
	return e ? e->proc : -1;
}

void vlpost_cp_free(vlpost_report *rep)
{
	for (int i = 0; rep->tk && i < rep->n; i++) {
		free(rep->tk[i].r);
		free(rep->tk[i].sends);
	}
	free(rep->tk);
	free(rep->tids);
	free(rep->cp.procs);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c;
	void *q;
	if (need <= *cap)
		return 0;
	c = *cap ? *cap * 2 : 64;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/* START, END, MARK, PARAM take no time. */
int vlpost_cp_keep(vlpost_report *rep, int proc, const vl_trec *r)
{
	struct vlpost_ctask *k = &rep->tk[proc];
	vlpost_crec *c;
	int dep = r->type == VL_EV_SEND || r->type == VL_EV_RECV || r->type == VL_EV_SPAWN;
	int busy = r->type == VL_EV_COMPUTE || r->type == VL_EV_PROBE || r->type == VL_EV_COLL ||
		   r->type == VL_EV_WAIT || r->type == VL_EV_IRECV || r->type == VL_EV_SLEEP;
	if (!dep && !(busy && r->u.v.t1 > r->u.v.t0))
		return 0;
	if (grow((void **)&k->r, &k->cap, k->n + 1, sizeof *k->r) < 0)
		return -1;
	if (r->type == VL_EV_SEND) {
		if (grow((void **)&k->sends, &k->scap, k->ns + 1, sizeof *k->sends) < 0)
			return -1;
		k->sends[k->ns++] = k->n;
	}
	c = &k->r[k->n++];
	memset(c, 0, sizeof *c);
	c->t0 = r->u.v.t0;
	c->t1 = r->u.v.t1;
	c->peer = r->peer;
	c->seq = r->seq;
	c->type = r->type;
	c->flags = r->flags;
	if (r->type == VL_EV_RECV || r->type == VL_EV_COLL || r->type == VL_EV_WAIT ||
	    (r->type == VL_EV_PROBE && (r->flags & VL_TF_FOUND)))
		c->wait = r->u.v.t2;
	if (r->type == VL_EV_SLEEP)
		c->wait = r->u.v.t1 - r->u.v.t0;
	if (r->type == VL_EV_RECV)
		c->arr = r->u.v.t3;
	return 0;
}

/* Index in k->r of the SEND with seq, or -1. */
static long cp_find_send(const struct vlpost_ctask *k, uint32_t seq)
{
	size_t lo = 0, hi = k->ns;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		uint32_t s = k->r[k->sends[m]].seq;
		if (s == seq)
			return (long)k->sends[m];
		if (s < seq)
			lo = m + 1;
		else
			hi = m;
	}
	return -1;
}

static long cp_find_spawn(const struct vlpost_ctask *k, int32_t child)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->r[i].type == VL_EV_SPAWN && k->r[i].peer == child)
			return (long)i;
	return -1;
}

static int cp_push(vlpost_critpath *cp, size_t *cap, int proc)
{
	if (cp->nprocs && cp->procs[cp->nprocs - 1] == proc)
		return 0;
	if (grow((void **)&cp->procs, cap, (size_t)cp->nprocs + 1, sizeof *cp->procs) < 0)
		return -1;
	cp->procs[cp->nprocs++] = proc;
	return 0;
}

/* The walk: at processor p, record index i, virtual time t (going backward). */
typedef struct cp_pos {
	int p;
	long i;
	int64_t t;
} cp_pos;

/* A receive that waited continues at the matching send: the part of the receive
 * after the arrival and the message (send begin .. arrival) are communication. */
static int cp_jump_recv(const vlpost_report *rep, vlpost_critpath *cp, const vlpost_crec *c, cp_pos *w)
{
	int q;
	long j;
	int64_t arr, s0;
	if (c->wait <= 0 || (c->flags & VL_TF_SYNTH))
		return 0;
	q = vlpost_cp_proc(rep, c->peer);
	j = q >= 0 ? cp_find_send(&rep->tk[q], c->seq) : -1;
	if (j < 0)
		return 0;
	arr = c->arr < c->t0 ? c->t0 : c->arr > w->t ? w->t : c->arr;
	s0 = rep->tk[q].r[j].t0;
	if (s0 > arr)
		return 0;
	cp->comm += w->t - s0;
	cp->messages++;
	*w = (cp_pos){ q, j - 1, s0 };
	return 1;
}

/* At a task's start: a spawned task continues at its parent's SPAWN record (the
 * time from the spawn call's begin to the child's start is communication). */
static int cp_jump_spawn(const vlpost_report *rep, const vlpost_tstats *st, vlpost_critpath *cp,
			 cp_pos *w)
{
	int q = vlpost_cp_proc(rep, st[w->p].ptid);
	long j = q >= 0 ? cp_find_spawn(&rep->tk[q], st[w->p].tid) : -1;
	int64_t s0;
	if (j < 0)
		return 0;
	s0 = rep->tk[q].r[j].t0;
	if (s0 > w->t)
		return 0;
	cp->comm += w->t - s0;
	cp->spawns++;
	*w = (cp_pos){ q, j - 1, s0 };
	return 1;
}

/* Account [c->t0, w->t] of record c (the time before w->t not yet on the path). */
static void cp_account(vlpost_critpath *cp, const vlpost_crec *c, int64_t t)
{
	int64_t d = t - c->t0, wt;
	switch (c->type) {
	case VL_EV_COMPUTE:
		cp->comp += d;
		break;
	case VL_EV_RECV:
	case VL_EV_COLL:
	case VL_EV_WAIT:
	case VL_EV_PROBE:
	case VL_EV_SLEEP:
		wt = c->wait < d ? c->wait : d;
		cp->wait += wt;
		cp->comm += d - wt;
		break;
	default:
		cp->comm += d;
		break;
	}
}

int vlpost_cp_compute(vlpost_report *rep, const vlpost_tstats *st)
{
	vlpost_critpath *cp = &rep->cp;
	size_t cap = 0, steps = 0, limit = (size_t)rep->n + 1;
	cp_pos w = { -1, 0, 0 };
	for (int j = 0; j < rep->n; j++) {
		limit += rep->tk[j].n;
		if (w.p < 0 || st[j].end > st[w.p].end)
			w.p = j;
	}
	cp->end_proc = w.p;
	if (w.p < 0)
		return 0;
	w.i = (long)rep->tk[w.p].n - 1;
	w.t = cp->end = st[w.p].end;
	for (;;) {
		const vlpost_crec *c;
		if (cp_push(cp, &cap, w.p) < 0)
			return -1;
		if (++steps > limit) {
			cp->cut = 1;
			break;
		}
		if (w.i < 0) {
			if (w.t > st[w.p].start) {
				cp->comp += w.t - st[w.p].start;
				w.t = st[w.p].start;
			}
			if (!cp_jump_spawn(rep, st, cp, &w))
				break;
			continue;
		}
		c = &rep->tk[w.p].r[w.i];
		if (c->t1 < w.t) {
			cp->comp += w.t - c->t1;
			w.t = c->t1;
		}
		if (c->t0 >= w.t) { /* nothing left of it (a multicast's shared interval) */
			w.i--;
			continue;
		}
		if (c->type == VL_EV_RECV && cp_jump_recv(rep, cp, c, &w))
			continue;
		cp_account(cp, c, w.t);
		w.t = c->t0;
		w.i--;
	}
	cp->start = w.t;
	for (int a = 0, b = cp->nprocs - 1; a < b; a++, b--) {
		int x = cp->procs[a];
		cp->procs[a] = cp->procs[b];
		cp->procs[b] = x;
	}
	return 0;
}
