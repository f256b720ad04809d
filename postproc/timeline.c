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

const char *const vlpost_tl_coll_name[VLPOST_TL_NCOLL] = {
	"other", "barrier", "bcast", "reduce", "gather", "scatter", "join", "leave",
	"allreduce", "allgather", "alltoall", "reduce_scatter", "scan", "exscan",
};

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
	o.tag = e->m.tag;
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
	int rc = vlpost_mg_recv_end(&c->m, &e->m, receiver);
	if (rc <= 0)
		return rc;
	return tl_link_end(c, e->m.t, e->m.peer, e->m.seq, receiver);
}

static int tl_send_begin(vlpost_tl *c, tl_task *k, const tl_ev *e)
{
	int matched, proc = k->s.m.proc, peer = e->m.peer;
	if (vlpost_mg_send_begin(&c->m, &k->s.m, &e->m, &matched) < 0)
		return -1;
	if (matched == -1 || (matched == -2 && peer < 0))
		return 0;
	if (matched == -2) {
		vlpost_mg_warn(&c->m, "%s: record %llu: message %u to task 0x%x is never received (no link)",
			       k->s.m.f->path, (unsigned long long)e->m.rec, e->m.seq,
			       (unsigned)vlpost_mg_tk(&c->m, peer)->f->hdr.tid);
		return 0;
	}
	if (tl_link_start(c, e, proc) < 0)
		return -1;
	if (matched > 0)
		return tl_link_end(c, e->m.t, proc, e->m.seq, matched - 1);
	return 0;
}

/* A task that ends: the links still open towards it end with it. */
typedef struct tl_end_ctx {
	vlpost_tl *c;
	tl_task *k;
	int64_t t;
} tl_end_ctx;

static int tl_unreceived(vlm *m, void *ctx, int sender, uint32_t seq)
{
	tl_end_ctx *x = ctx;
	vlpost_mg_warn(m, "%s: message %u of task 0x%x is never received: its link ends with the task",
		       x->k->s.m.f->path, seq, (unsigned)vlpost_mg_tk(m, sender)->f->hdr.tid);
	return tl_link_end(x->c, x->t, sender, seq, x->k->s.m.proc);
}

static int tl_close_links(vlpost_tl *c, tl_task *k, int64_t t)
{
	tl_end_ctx x = { c, k, t };
	return vlpost_mg_unreceived(&c->m, k->s.m.proc, tl_unreceived, &x);
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
	if (op < VL_COLL_MPI) /* (a tag read from a trace: op - VL_COLL_MPI may overflow) */
		return 0;
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
}
