/* timeline.c - the events of the Pajé and SVG outputs (timeline.h).
 *
 * Each task generates its events in time order (a few per record, queued in
 * the task, by states.c); the merge (merge.c) yields them in global order.
 * A send begin starts a link unless its receive has already ended at the same
 * time (then the link starts and ends at once); a receive end closes the
 * link of its message, or waits in the merge for a send begin at the same
 * time.  Links still open when their receiver ends end with it.
 */
#include "timeline.h"
#include "states.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* the events queued by the tasks */
enum { E_CREATE, E_DESTROY, E_STATE, E_PUSH, E_POP, E_MARK, E_SEND, E_RECV };

/* val: state, collective index; text: E_MARK */
typedef vlpost_st_ev tl_ev;

#define QMAX 10

typedef struct tl_task {
	vlpost_st_task s;
	tl_ev q[QMAX];
} tl_task;

#define FLY_DEL (~(uint64_t)0)

const char *const vlpost_tl_coll_name[VLPOST_TL_NCOLL] = {
	"other", "barrier", "bcast", "reduce", "gather", "scatter", "join", "leave",
	"allreduce", "allgather", "alltoall", "reduce_scatter", "scan", "exscan",
};

/* ---- messages in flight: an open-addressing table keyed by (sender, seq) ---- */
static uint64_t fly_key(int sender, uint32_t seq)
{
	return (uint64_t)(sender + 1) << 32 | seq;
}

static size_t fly_slot(const vlpost_tl *c, uint64_t key)
{
	uint64_t h = key * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 20) & (c->cfly - 1);
}

static vlpost_tl_fly *fly_find(vlpost_tl *c, uint64_t key)
{
	if (!c->cfly)
		return NULL;
	for (size_t i = fly_slot(c, key);; i = (i + 1) & (c->cfly - 1)) {
		if (c->fly[i].key == key)
			return &c->fly[i];
		if (c->fly[i].key == 0)
			return NULL;
	}
}

static int fly_add(vlpost_tl *c, uint64_t key, int receiver);

static int fly_grow(vlpost_tl *c)
{
	vlpost_tl_fly *old = c->fly;
	size_t n = c->cfly, cap = c->nfly * 4 > 64 ? c->nfly * 4 : 64;
	while (cap & (cap - 1))
		cap &= cap - 1;
	c->fly = calloc(cap * 2, sizeof *c->fly);
	if (!c->fly) {
		c->fly = old;
		return vlpost_mg_fail(&c->m, "out of memory");
	}
	c->cfly = cap * 2;
	c->nfly = c->nused = 0;
	for (size_t i = 0; i < n; i++)
		if (old[i].key && old[i].key != FLY_DEL)
			fly_add(c, old[i].key, old[i].receiver);
	free(old);
	return 0;
}

static int fly_add(vlpost_tl *c, uint64_t key, int receiver)
{
	size_t i;
	if ((c->nused + 1) * 2 > c->cfly && fly_grow(c) < 0)
		return -1;
	for (i = fly_slot(c, key); c->fly[i].key && c->fly[i].key != FLY_DEL;
	     i = (i + 1) & (c->cfly - 1))
		;
	if (c->fly[i].key == 0)
		c->nused++;
	c->fly[i] = (vlpost_tl_fly){ key, receiver };
	c->nfly++;
	return 0;
}

static void fly_del(vlpost_tl *c, vlpost_tl_fly *e)
{
	e->key = FLY_DEL;
	c->nfly--;
}

/* ---- the events passed on ---- */
static int tl_out(vlpost_tl *c, int kind, int proc, int64_t t, int val)
{
	vlpost_tl_ev o;
	memset(&o, 0, sizeof o);
	o.kind = kind;
	o.proc = proc;
	o.t = t;
	o.val = val;
	return c->fn(c->ctx, &o) < 0 ? -1 : 0;
}

static int tl_link_start(vlpost_tl *c, const tl_ev *e, int sender)
{
	vlpost_tl_ev o;
	memset(&o, 0, sizeof o);
	o.kind = VLP_TL_LINK_START;
	o.proc = o.sender = sender;
	o.t = e->m.t;
	o.seq = e->m.seq;
	o.bytes = e->bytes;
	o.tag = e->tag;
	return c->fn(c->ctx, &o) < 0 ? -1 : 0;
}

static int tl_link_end(vlpost_tl *c, int64_t t, int sender, uint32_t seq, int receiver)
{
	vlpost_tl_ev o;
	memset(&o, 0, sizeof o);
	o.kind = VLP_TL_LINK_END;
	o.proc = receiver;
	o.sender = sender;
	o.t = t;
	o.seq = seq;
	return c->fn(c->ctx, &o) < 0 ? -1 : 0;
}

/* A receive end: close its link, or wait for a send begin at the same time. */
static int tl_recv_end(vlpost_tl *c, const tl_ev *e, int receiver)
{
	vlpost_tl_fly *m = fly_find(c, fly_key(e->m.peer, e->m.seq));
	if (m && m->receiver == receiver) {
		fly_del(c, m);
		return tl_link_end(c, e->m.t, e->m.peer, e->m.seq, receiver);
	}
	return vlpost_mg_recv_end(&c->m, &e->m, receiver);
}

static int tl_send_begin(vlpost_tl *c, tl_task *k, const tl_ev *e)
{
	int matched = 0, proc = k->s.m.proc, peer = e->m.peer;
	if (vlpost_mg_send_begin(&c->m, &k->s.m, &e->m, &matched) < 0)
		return -1;
	if (matched < 0)
		return 0;
	if (matched) {
		if (tl_link_start(c, e, proc) < 0)
			return -1;
		return tl_link_end(c, e->m.t, proc, e->m.seq, matched - 1);
	}
	if (peer < 0)
		return 0;
	if (vlpost_mg_tk(&c->m, peer)->state >= VLPOST_MG_FINAL) {
		vlpost_mg_warn(&c->m, "%s: record %llu: message %u to task 0x%x is never received (no link)",
			       k->s.m.f->path, (unsigned long long)e->m.rec, e->m.seq,
			       (unsigned)vlpost_mg_tk(&c->m, peer)->f->hdr.tid);
		return 0;
	}
	if (tl_link_start(c, e, proc) < 0)
		return -1;
	return fly_add(c, fly_key(proc, e->m.seq), peer);
}

/* The task ends: the links still open towards it end here. */
static int tl_close_links(vlpost_tl *c, tl_task *k, int64_t t)
{
	for (size_t i = 0; i < c->cfly && c->nfly; i++) {
		vlpost_tl_fly *m = &c->fly[i];
		int sender;
		uint32_t seq;
		if (!m->key || m->key == FLY_DEL || m->receiver != k->s.m.proc)
			continue;
		sender = (int)(m->key >> 32) - 1;
		seq = (uint32_t)m->key;
		vlpost_mg_warn(&c->m, "%s: message %u of task 0x%x is never received: its link ends with the task",
			       k->s.m.f->path, seq, (unsigned)vlpost_mg_tk(&c->m, sender)->f->hdr.tid);
		if (tl_link_end(c, t, sender, seq, k->s.m.proc) < 0)
			return -1;
		fly_del(c, m);
	}
	return 0;
}

static int tl_emit(vlpost_tl *c, tl_task *k, const tl_ev *e)
{
	int p = k->s.m.proc;
	vlpost_tl_ev o;
	switch (e->kind) {
	case E_CREATE:
		return tl_out(c, VLP_TL_CREATE, p, e->m.t, 0);
	case E_DESTROY:
		if (tl_close_links(c, k, e->m.t) < 0)
			return -1;
		return tl_out(c, VLP_TL_DESTROY, p, e->m.t, 0);
	case E_STATE:
		return tl_out(c, VLP_TL_STATE, p, e->m.t, e->val);
	case E_PUSH:
		return tl_out(c, VLP_TL_PUSH, p, e->m.t, e->val);
	case E_POP:
		return tl_out(c, VLP_TL_POP, p, e->m.t, 0);
	case E_MARK:
		memset(&o, 0, sizeof o);
		o.kind = VLP_TL_MARK;
		o.proc = p;
		o.t = e->m.t;
		o.text = e->text;
		return c->fn(c->ctx, &o) < 0 ? -1 : 0;
	case E_SEND:
		return tl_send_begin(c, k, e);
	default:
		return tl_recv_end(c, e, p);
	}
}

/* ---- event generation (states.c) ---- */
static vlpost_st_ev *tl_push(vlpost_st_task *k, int kind, int64_t t)
{
	tl_ev *e = &((tl_task *)k)->q[k->m.qn++];
	memset(e, 0, sizeof *e);
	e->m.t = t;
	e->kind = (uint8_t)kind;
	return e;
}

static void tl_change(vlpost_st_task *k, int64_t t, int s)
{
	vlpost_st_push(k, E_STATE, t)->val = (uint8_t)s;
}

static int coll_index(int op)
{
	if (op >= VL_COLL_BARRIER && op <= VL_COLL_LEAVE)
		return op;
	switch (op - VL_COLL_MPI) {
	case VL_KIND_BARRIER: return 1;
	case VL_KIND_BCAST: return 2;
	case VL_KIND_REDUCE: return 3;
	case VL_KIND_GATHER: return 4;
	case VL_KIND_SCATTER: return 5;
	case VL_KIND_ALLREDUCE: return 8;
	case VL_KIND_ALLGATHER: return 9;
	case VL_KIND_ALLTOALL: return 10;
	case VL_KIND_REDUCE_SCATTER: return 11;
	case VL_KIND_SCAN: return 12;
	case VL_KIND_EXSCAN: return 13;
	default: return 0;
	}
}

/* A group operation: the Collective state for [t0, t1]. */
static void tl_coll_begin(vlm *m, vlpost_st_task *k, const vl_trec *r)
{
	(void)m;
	vlpost_st_push(k, E_PUSH, r->u.v.t0)->val = (uint8_t)coll_index(r->tag);
}

static void tl_coll_end(vlm *m, vlpost_st_task *k, const vl_trec *r)
{
	(void)m;
	vlpost_st_push(k, E_POP, r->u.v.t1);
}

/* no events for PARAM records, nonblocking receives posted and sends completed */
static const vlpost_st_ops tl_sops = {
	E_SEND, E_RECV, E_MARK, -1, -1, -1, tl_push, tl_change, tl_coll_begin, tl_coll_end
};

static int tl_map(vlm *m, vlpost_mg_task *t, const vl_trec *r)
{
	return vlpost_st_map(m, (vlpost_st_task *)t, r);
}

static void tl_tinit(vlm *m, vlpost_mg_task *t)
{
	(void)m;
	vlpost_st_init((vlpost_st_task *)t, &tl_sops);
}

static void tl_begin(vlm *m, vlpost_mg_task *t)
{
	vlpost_st_task *k = (vlpost_st_task *)t;
	(void)m;
	vlpost_st_push(k, E_CREATE, t->f->hdr.start_ns);
	vlpost_st_state(k, t->f->hdr.start_ns, VLS_COMP);
}

static void tl_end(vlm *m, vlpost_mg_task *t)
{
	vlpost_st_task *k = (vlpost_st_task *)t;
	(void)m;
	vlpost_st_end_at(k, t->st->end);
	vlpost_st_push(k, E_DESTROY, t->st->end);
}

static const vlpost_mg_ops tl_ops = {
	sizeof(tl_task), offsetof(tl_task, q), sizeof(tl_ev), tl_tinit, tl_begin, tl_map, tl_end
};

/* ---- the run ---- */
int vlpost_tl_init(vlpost_tl *tl, vlpost_tset *set, int partial, FILE *warn, vlpost_tstats *st,
		   vlpost_tl_fn fn, void *ctx, char *err, size_t errlen)
{
	memset(tl, 0, sizeof *tl);
	tl->m.set = set;
	tl->m.ops = &tl_ops;
	tl->m.partial = partial;
	tl->m.strict = 1;
	tl->m.warn = warn;
	tl->m.msgmax = 768;
	tl->m.st_base = st;
	tl->m.err = err;
	tl->m.errlen = errlen;
	tl->fn = fn;
	tl->ctx = ctx;
	return vlpost_mg_init(&tl->m);
}

int vlpost_tl_run(vlpost_tl *tl)
{
	vlpost_mg_task *k;
	tl_ev *e;
	int rc;
	while ((e = (tl_ev *)vlpost_mg_next(&tl->m, &k, &rc)))
		if (tl_emit(tl, (tl_task *)k, e) < 0)
			return -1;
	return rc;
}

void vlpost_tl_free(vlpost_tl *tl)
{
	vlpost_mg_free(&tl->m);
	free(tl->fly);
	tl->fly = NULL;
}
