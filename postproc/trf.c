/* trf.c - vlayer traces -> PICL 2.0 (.trf) for ParaGraph.
 *
 * Each task is a generator of PICL events in its own time order (at most two
 * events per record, queued in the task); a binary heap over the tasks, keyed by
 * (time of the task's next event, processor), merges them.  Memory: one reader
 * buffer and one small state per task, plus the receives that wait for a send
 * begin with the very same timestamp.
 */
#include "trf.h"
#include "coll.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { S_BEGIN, S_RECS, S_FINAL, S_DONE };
enum { W_NONE, W_SEND, W_RECV };

/* PICL event codes (MPICL tracedefs.h) */
enum {
	P_SEND = -21, P_RECV = -51, P_RECVBLOCK = -52, P_BARRIER = -402, P_IDLE = -601,
	P_USEROH = -603, P_BCAST = -785, P_GATHER = -786, P_REDUCE = -790, P_SCATTER = -793,
	P_TRACE = -901
};

typedef struct cv_ev {
	int64_t t;        /* ns */
	int64_t d[3];
	uint64_t rec;     /* record index (W_SEND, W_RECV) */
	int32_t code;
	uint32_t seq;     /* W_SEND, W_RECV: the message's seq */
	int32_t partner;  /* W_RECV: sender's processor */
	int8_t rt;        /* -3 entry, -4 exit */
	uint8_t nd;
	uint8_t what;
} cv_ev;

typedef struct cv_task {
	vl_tfile *f;
	vlp_tstats *st;
	int proc, state;
	int qn, qi;
	cv_ev q[2];
	int64_t last_t;   /* events of one processor never go back in time */
	char pstr[16];    /* " <proc> 0 " */
	size_t plen;
	int32_t ptid;     /* cache of the last peer looked up: tid, processor */
	int pproc;
	uint32_t sent;    /* seq of the last send begin written */
	uint32_t maxseq;  /* --partial: last seq in the usable part of the trace */
	int64_t mc_t0, mc_t1;
	uint32_t mc_n, mc_i;
	int mc_split;     /* the current multicast shares one interval: split it */
} cv_task;

typedef struct cv_pend {
	int64_t t;
	uint64_t rec;
	uint32_t seq;
	int sender, receiver;
} cv_pend;

/* heap entry: the key of the task's next event, kept here for cache locality */
typedef struct cv_hent {
	int64_t t;
	int task;
} cv_hent;

typedef struct cv {
	vl_tset *set;
	const vlp_trf_opt *opt;
	vlp_tstats *st_base;
	cv_task *tk;
	cv_hent *heap;
	int hn;
	cv_pend *pd;
	size_t npd, cpd;
	FILE *out;
	char *ob;
	size_t on;
	uint64_t tus;          /* the last time written, in us, and its text */
	char tstr[32];
	size_t tlen;
	char *err;
	size_t errlen;
} cv;

#define OBSIZE (256u << 10)
#define OBLINE 256

__attribute__((format(printf, 2, 3)))
static int cv_fail(cv *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 2, 3)))
static void cv_warn(cv *c, const char *fmt, ...)
{
	va_list ap;
	if (!c->opt->warn)
		return;
	fputs("vlpost: warning: ", c->opt->warn);
	va_start(ap, fmt);
	vfprintf(c->opt->warn, fmt, ap);
	va_end(ap);
	fputc('\n', c->opt->warn);
}

/* An inconsistency: an error, or with --partial a warning. */
__attribute__((format(printf, 2, 3)))
static int cv_bad(cv *c, const char *fmt, ...)
{
	va_list ap;
	char msg[512];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!c->opt->partial)
		return cv_fail(c, "%s", msg);
	cv_warn(c, "%s", msg);
	return 0;
}

/* ---- output ---- */
static int ob_flush(cv *c)
{
	if (c->on && fwrite(c->ob, 1, c->on, c->out) != c->on)
		return cv_fail(c, "write error");
	c->on = 0;
	return 0;
}

static const char digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static char *put_u(char *p, uint64_t v)
{
	char tmp[24], *e = tmp + sizeof tmp, *b = e;
	while (v >= 100) {
		b -= 2;
		memcpy(b, digits2 + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		b -= 2;
		memcpy(b, digits2 + 2 * v, 2);
	} else {
		*--b = (char)('0' + v);
	}
	memcpy(p, b, (size_t)(e - b));
	return p + (e - b);
}

static char *put_i(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u(p, (uint64_t)0 - (uint64_t)v);
	}
	return put_u(p, (uint64_t)v);
}

/* seconds with 6 decimals, rounded to the microsecond (t >= 0); the text of the
 * last time written is kept, as consecutive lines often share it */
static char *put_time(cv *c, char *p, int64_t t)
{
	uint64_t us = ((uint64_t)t + 500) / 1000, f;
	char *b = p;
	if (us == c->tus && c->tlen) {
		memcpy(p, c->tstr, c->tlen);
		return p + c->tlen;
	}
	f = us % 1000000;
	p = put_u(p, us / 1000000);
	*p++ = '.';
	memcpy(p, digits2 + 2 * (f / 10000), 2);
	memcpy(p + 2, digits2 + 2 * (f / 100 % 100), 2);
	memcpy(p + 4, digits2 + 2 * (f % 100), 2);
	p += 6;
	c->tus = us;
	c->tlen = (size_t)(p - b);
	memcpy(c->tstr, b, c->tlen);
	return p;
}

static int ob_event(cv *c, const cv_ev *e, const cv_task *k)
{
	char *p;
	if (c->on + OBLINE > OBSIZE && ob_flush(c) < 0)
		return -1;
	p = c->ob + c->on;
	*p++ = '-';
	*p++ = (char)('0' - e->rt);
	*p++ = ' ';
	p = put_i(p, e->code);
	*p++ = ' ';
	p = put_time(c, p, e->t);
	memcpy(p, k->pstr, sizeof k->pstr);
	p = put_u(p + k->plen, e->nd);
	if (e->nd) {
		memcpy(p, " 2", 2);
		p += 2;
	}
	for (int i = 0; i < e->nd; i++) {
		*p++ = ' ';
		p = put_i(p, e->d[i]);
	}
	*p++ = '\n';
	c->on = (size_t)(p - c->ob);
	return 0;
}

/* ---- event generation ---- */
static cv_ev *cv_push(cv_task *k, int rt, int code, int64_t t)
{
	cv_ev *e = &k->q[k->qn++];
	if (t < k->last_t)
		t = k->last_t;
	k->last_t = t;
	e->t = t;
	e->rt = (int8_t)rt;
	e->code = code;
	e->nd = 0;
	e->what = W_NONE;
	return e;
}

static void cv_pair(cv_task *k, int code, int64_t t0, int64_t t1)
{
	cv_push(k, -3, code, t0);
	cv_push(k, -4, code, t1);
}

/* Processor of task tid, or -1 (one-entry cache per task: peers repeat). */
static int cv_find(cv *c, cv_task *k, int32_t tid)
{
	if (tid != k->ptid) {
		k->ptid = tid;
		k->pproc = vl_tset_find(c->set, tid);
	}
	return k->pproc;
}

/* The part of a shared multicast interval [t0,t1] that destination i of n gets. */
static int64_t mc_at(int64_t t0, int64_t t1, uint32_t i, uint32_t n)
{
	if (i >= n)
		return t1;
	return t0 + (int64_t)((unsigned __int128)(uint64_t)(t1 - t0) * i / n);
}

static void cv_mcast(cv_task *k, const vl_trec *r, int64_t *a, int64_t *b)
{
	vl_trec nx;
	uint32_t i;
	if (k->mc_split && k->mc_i > 0 && r->u.v.t0 == k->mc_t0 && r->u.v.t1 == k->mc_t1) {
		i = k->mc_i++;
	} else {
		k->mc_split = vl_tfile_peek(k->f, &nx) == 1 && nx.type == VL_EV_SEND &&
			      (nx.flags & VL_TF_MCAST) && nx.u.v.t0 == r->u.v.t0 &&
			      nx.u.v.t1 == r->u.v.t1;
		k->mc_t0 = r->u.v.t0;
		k->mc_t1 = r->u.v.t1;
		k->mc_n = r->u.v.t3 >= 1 && r->u.v.t3 <= UINT32_MAX ? (uint32_t)r->u.v.t3 : 1;
		k->mc_i = 1;
		i = 0;
	}
	if (!k->mc_split)
		return;
	*a = mc_at(k->mc_t0, k->mc_t1, i, k->mc_n);
	*b = mc_at(k->mc_t0, k->mc_t1, i + 1, k->mc_n);
}

static void cv_send(cv *c, cv_task *k, const vl_trec *r)
{
	int64_t a = r->u.v.t0, b = r->u.v.t1;
	int dst = cv_find(c, k, r->peer);
	cv_ev *e;
	if (r->flags & VL_TF_MCAST)
		cv_mcast(k, r, &a, &b);
	else
		k->mc_split = 0;
	e = cv_push(k, -3, dst >= 0 ? P_SEND : P_USEROH, a);
	e->what = W_SEND;
	e->seq = r->seq;
	e->rec = k->f->nrec - 1;
	if (dst >= 0) {
		e->nd = 3;
		e->d[0] = r->u.v.bytes;
		e->d[1] = r->tag;
		e->d[2] = dst;
	}
	cv_push(k, -4, dst >= 0 ? P_SEND : P_USEROH, b);
}

/* Processor of the sender of a received message, or -1 if it has no send to
 * match (synthetic message, or --partial and the sender's trace lacks it). */
static int cv_recv_src(cv *c, cv_task *k, const vl_trec *r, int *src)
{
	*src = -1;
	if (r->flags & VL_TF_SYNTH)
		return 0;
	*src = cv_find(c, k, r->peer);
	if (*src < 0)
		return cv_bad(c, "%s: record %llu: message from task 0x%x, which has no trace file",
			      k->f->path, (unsigned long long)k->f->nrec - 1, (unsigned)r->peer);
	if (c->opt->partial && r->seq > c->tk[*src].maxseq) {
		cv_warn(c, "%s: record %llu: message %u of task 0x%x is not in its trace",
			k->f->path, (unsigned long long)k->f->nrec - 1, r->seq, (unsigned)r->peer);
		*src = -1;
	}
	return 0;
}

static int cv_recv(cv *c, cv_task *k, const vl_trec *r)
{
	int src, code;
	cv_ev *e;
	if (cv_recv_src(c, k, r, &src) < 0)
		return -1;
	if (src < 0) {
		cv_pair(k, r->u.v.t2 > 0 ? P_IDLE : P_USEROH, r->u.v.t0, r->u.v.t1);
		return 0;
	}
	code = r->u.v.t2 > 0 ? P_RECVBLOCK : P_RECV;
	e = cv_push(k, -3, code, r->u.v.t0);
	e->nd = 2;
	e->d[0] = r->tag;
	e->d[1] = src;
	e = cv_push(k, -4, code, r->u.v.t1);
	e->nd = 3;
	e->d[0] = r->u.v.bytes;
	e->d[1] = r->tag;
	e->d[2] = src;
	e->what = W_RECV;
	e->partner = src;
	e->seq = r->seq;
	e->rec = k->f->nrec - 1;
	return 0;
}

static int coll_code(int op)
{
	switch (op) {
	case VL_COLL_BARRIER: return P_BARRIER;
	case VL_COLL_BCAST: return P_BCAST;
	case VL_COLL_REDUCE: return P_REDUCE;
	case VL_COLL_GATHER: return P_GATHER;
	case VL_COLL_SCATTER: return P_SCATTER;
	case VL_COLL_MPI + VLI_COLL_BARRIER: return P_BARRIER;
	case VL_COLL_MPI + VLI_COLL_BCAST: return P_BCAST;
	case VL_COLL_MPI + VLI_COLL_REDUCE:
	case VL_COLL_MPI + VLI_COLL_ALLREDUCE: return P_REDUCE;
	case VL_COLL_MPI + VLI_COLL_GATHER:
	case VL_COLL_MPI + VLI_COLL_ALLGATHER: return P_GATHER;
	case VL_COLL_MPI + VLI_COLL_SCATTER: return P_SCATTER;
	default: return P_USEROH;
	}
}

static void cv_coll(cv *c, cv_task *k, const vl_trec *r)
{
	int code = coll_code(r->tag);
	cv_ev *b, *e;
	if (code == P_USEROH) {
		cv_pair(k, code, r->u.v.t0, r->u.v.t1);
		return;
	}
	b = cv_push(k, -3, code, r->u.v.t0);
	e = cv_push(k, -4, code, r->u.v.t1);
	if (code == P_BARRIER) {
		b->nd = e->nd = 1;
		b->d[0] = e->d[0] = -1;
		return;
	}
	b->nd = 3;
	b->d[0] = -1;
	b->d[1] = r->peer == -1 ? -1 : vl_tset_find(c->set, r->peer);
	b->d[2] = -1;
	e->nd = 1;
	e->d[0] = r->u.v.bytes;
}

/* Queue the events of one record (none for START, END, COMPUTE, PARAM). */
static int cv_map(cv *c, cv_task *k, const vl_trec *r)
{
	if (r->type != VL_EV_SEND)
		k->mc_split = 0;
	switch (r->type) {
	case VL_EV_SEND:
		cv_send(c, k, r);
		return 0;
	case VL_EV_RECV:
		return cv_recv(c, k, r);
	case VL_EV_MARK:
		if (r->peer >= 0)
			cv_pair(k, r->peer, r->u.m.t0, r->u.m.t1);
		return 0;
	case VL_EV_PROBE:
	case VL_EV_SPAWN:
		cv_pair(k, P_USEROH, r->u.v.t0, r->u.v.t1);
		return 0;
	case VL_EV_COLL:
		cv_coll(c, k, r);
		return 0;
	default:
		return 0;
	}
}

static int cv_records(cv *c, cv_task *k)
{
	vl_trec r;
	int rc;
	while ((rc = vl_tfile_next(k->f, &r)) == 1) {
		vlp_stats_add(k->st, &r);
		if (cv_map(c, k, &r) < 0)
			return -1;
		if (k->qn)
			return 1;
	}
	if (rc < 0 && !(c->opt->partial && vl_tfile_err_is_partial(k->f)))
		return cv_fail(c, "%s", k->f->errmsg);
	if (rc < 0 && k->f->err == VL_TR_ENOEND)
		cv_warn(c, "%s", k->f->errmsg);
	else if (rc < 0)
		cv_warn(c, "%s; the records before it are used", k->f->errmsg);
	vlp_stats_done(k->st);
	cv_push(k, -4, P_TRACE, k->st->end);
	k->state = S_FINAL;
	return 1;
}

/* Queue the next events of task k: 1, 0 when it has no more, -1 on error. */
static int cv_refill(cv *c, cv_task *k)
{
	k->qn = k->qi = 0;
	switch (k->state) {
	case S_BEGIN:
		cv_push(k, -3, P_TRACE, k->f->hdr.start_ns);
		k->state = S_RECS;
		return 1;
	case S_RECS:
		return cv_records(c, k);
	default:
		k->state = S_DONE;
		return 0;
	}
}

/* ---- message checks: every receive end at or after its send begin ---- */
static int cv_pend_add(cv *c, const cv_ev *e, int receiver)
{
	if (c->npd == c->cpd) {
		size_t n = c->cpd ? 2 * c->cpd : 16;
		cv_pend *p = realloc(c->pd, n * sizeof *p);
		if (!p)
			return cv_fail(c, "out of memory");
		c->pd = p;
		c->cpd = n;
	}
	c->pd[c->npd++] = (cv_pend){ e->t, e->rec, e->seq, e->partner, receiver };
	return 0;
}

static int cv_no_send(cv *c, int receiver, uint64_t rec, uint32_t seq, int sender)
{
	return cv_bad(c, "%s: record %llu: receives message %u of task 0x%x, which %s never sends",
		      c->tk[receiver].f->path, (unsigned long long)rec, seq,
		      (unsigned)c->tk[sender].f->hdr.tid, c->tk[sender].f->path);
}

static int cv_recv_end(cv *c, const cv_ev *e, int receiver)
{
	cv_task *s = &c->tk[e->partner];
	if (s->sent >= e->seq)
		return 0;
	if (s->state >= S_FINAL)
		return cv_no_send(c, receiver, e->rec, e->seq, e->partner);
	return cv_pend_add(c, e, receiver);
}

static int cv_tachyon(cv *c, const cv_pend *p, const cv_ev *send, int sender)
{
	char tr[32], ts[32];
	vlp_fmt_sec(tr, p->t);
	vlp_fmt_sec(ts, send->t);
	return cv_bad(c, "tachyon: %s record %llu ends a receive at %s s, before %s record %llu "
		      "begins its send at %s s", c->tk[p->receiver].f->path,
		      (unsigned long long)p->rec, tr, c->tk[sender].f->path,
		      (unsigned long long)send->rec, ts);
}

/* Settle the pending receives of sender's messages up to send->seq (send != NULL)
 * or all of them (the sender has ended). */
static int cv_settle(cv *c, int sender, const cv_ev *send)
{
	size_t i = 0;
	while (i < c->npd) {
		cv_pend p = c->pd[i];
		int rc = 0;
		if (p.sender != sender || (send && p.seq > send->seq)) {
			i++;
			continue;
		}
		if (!send)
			rc = cv_no_send(c, p.receiver, p.rec, p.seq, sender);
		else if (send->t > p.t)
			rc = cv_tachyon(c, &p, send, sender);
		c->pd[i] = c->pd[--c->npd];
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int cv_emit(cv *c, cv_task *k, const cv_ev *e)
{
	if (e->what == W_SEND) {
		k->sent = e->seq;
		if (c->npd && cv_settle(c, k->proc, e) < 0)
			return -1;
	} else if (e->what == W_RECV && cv_recv_end(c, e, k->proc) < 0) {
		return -1;
	}
	return ob_event(c, e, k);
}

/* ---- the merge ---- */
static int hp_less(const cv_hent *x, const cv_hent *y)
{
	return x->t < y->t || (x->t == y->t && x->task < y->task);
}

static void hp_down(cv *c, int i)
{
	int n = c->hn;
	cv_hent *h = c->heap, v = h[i];
	for (;;) {
		int l = 2 * i + 1, m;
		if (l >= n)
			break;
		m = (l + 1 < n && hp_less(&h[l + 1], &h[l])) ? l + 1 : l;
		if (!hp_less(&h[m], &v))
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = v;
}

static int cv_merge(cv *c)
{
	while (c->hn > 0) {
		int top = c->heap[0].task;
		cv_task *k = &c->tk[top];
		if (cv_emit(c, k, &k->q[k->qi]) < 0)
			return -1;
		if (++k->qi == k->qn) {
			int rc = cv_refill(c, k);
			if (rc < 0)
				return -1;
			if (rc == 0) {
				c->heap[0] = c->heap[--c->hn];
				if (cv_settle(c, top, NULL) < 0)
					return -1;
				if (c->hn > 0)
					hp_down(c, 0);
				continue;
			}
		}
		c->heap[0].t = k->q[k->qi].t;
		hp_down(c, 0);
	}
	return ob_flush(c);
}

/* --partial: the last seq each task really sent (records before its first error). */
static int cv_scan_maxseq(cv *c)
{
	vl_trec r;
	for (int i = 0; i < c->set->n; i++) {
		cv_task *k = &c->tk[i];
		while (vl_tfile_next(k->f, &r) == 1)
			if (r.type == VL_EV_SEND)
				k->maxseq = r.seq;
		if (k->f->err == VL_TR_EIO)
			return cv_fail(c, "%s", k->f->errmsg);
	}
	return vl_tset_rewind(c->set, c->err, c->errlen);
}

static int cv_init(cv *c)
{
	int n = c->set->n;
	c->tk = calloc((size_t)n, sizeof *c->tk);
	c->heap = malloc((size_t)n * sizeof *c->heap);
	c->ob = malloc(OBSIZE);
	if (!c->tk || !c->heap || !c->ob)
		return cv_fail(c, "out of memory");
	for (int i = 0; i < n; i++) {
		c->tk[i].f = &c->set->f[i];
		c->tk[i].st = &c->st_base[i];
		c->tk[i].proc = i;
		c->tk[i].plen = (size_t)snprintf(c->tk[i].pstr, sizeof c->tk[i].pstr, " %d 0 ", i);
		c->tk[i].ptid = c->set->f[i].hdr.tid;
		c->tk[i].pproc = i;
		c->tk[i].state = S_BEGIN;
		vlp_stats_init(c->tk[i].st, i, &c->set->f[i].hdr);
	}
	if (c->opt->partial && cv_scan_maxseq(c) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		cv_refill(c, &c->tk[i]);
		c->heap[c->hn++] = (cv_hent){ c->tk[i].q[0].t, i };
	}
	for (int i = c->hn / 2 - 1; i >= 0; i--)
		hp_down(c, i);
	return 0;
}

int vlp_trf_write(vl_tset *set, FILE *out, const vlp_trf_opt *opt, vlp_tstats *st,
		  char *err, size_t errlen)
{
	cv c;
	int rc;
	memset(&c, 0, sizeof c);
	c.set = set;
	c.opt = opt;
	c.out = out;
	c.err = err;
	c.errlen = errlen;
	c.st_base = st;
	rc = cv_init(&c) < 0 ? -1 : cv_merge(&c);
	free(c.tk);
	free(c.heap);
	free(c.ob);
	free(c.pd);
	return rc;
}
