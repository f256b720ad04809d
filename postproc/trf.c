/* trf.c - vlayer traces -> PICL 2.0 (.trf) for ParaGraph.
 *
 * Each task is a generator of PICL events in its own time order (at most two
 * events per record, queued in the task); a tournament tree (merge.c) over the tasks, keyed by
 * (time of the task's next event, processor), merges them.  Memory: one reader
 * buffer and one small state per task, plus the receives that wait for a send
 * begin with the very same timestamp.
 */
#include "trf.h"
#include "vltrace.h"
#include "merge.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { W_NONE, W_SEND, W_RECV };

/* PICL event codes (MPICL tracedefs.h) */
enum {
	P_SEND = -21, P_SENDBEG = -27, P_SENDEND = -30, P_SENDENDBLOCK = -31, P_RECV = -51,
	P_RECVBLOCK = -52, P_RECVBEG = -57, P_RECVEND = -60, P_RECVENDBLOCK = -61,
	P_BARRIER = -402, P_IDLE = -601,
	P_USEROH = -603, P_BCAST = -785, P_GATHER = -786, P_REDUCE = -790, P_SCATTER = -793,
	P_TRACE = -901
};

typedef struct cv_ev {
	vlpost_mg_ev m;         /* W_RECV: peer is the sender's processor */
	int64_t d[3];
	int32_t code;
	int8_t rt;        /* -3 entry, -4 exit */
	uint8_t nd;
	uint8_t what;
} cv_ev;

typedef struct cv_task {
	vlpost_mg_task m;
	cv_ev q[2];
	int64_t last_t;   /* events of one processor never go back in time */
	char pstr[16];    /* " <proc> 0 " */
	size_t plen;
} cv_task;

typedef struct cv {
	vlm m;
	FILE *out;
	char *ob;
	size_t on;
	uint64_t tus;          /* the last time written, in us, and its text */
	char tstr[32];
	size_t tlen;
} cv;

#define OBSIZE (256u << 10)
#define OBLINE 256

/* ---- output ---- */
static int ob_flush(cv *c)
{
	if (c->on && fwrite(c->ob, 1, c->on, c->out) != c->on)
		return vlpost_mg_fail(&c->m, "write error");
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
	p = put_time(c, p, e->m.t);
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
	cv_ev *e = &k->q[k->m.qn++];
	if (t < k->last_t)
		t = k->last_t;
	k->last_t = t;
	e->m.t = t;
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

/* A send: -21 (blocking) or -27 (nonblocking post, its end naming the
 * request that a -30/-31 completes). */
static void cv_send(cv *c, cv_task *k, const vl_trec *r)
{
	int64_t a, b;
	int dst = vlpost_mg_find(&c->m, &k->m, r->peer);
	int code = dst < 0 ? P_USEROH : r->flags & VL_TF_NB ? P_SENDBEG : P_SEND;
	cv_ev *e;
	vlpost_mg_send_span(&k->m, r, &a, &b);
	e = cv_push(k, -3, code, a);
	e->what = W_SEND;
	e->m.seq = r->seq;
	e->m.rec = k->m.f->nrec - 1;
	e->m.peer = dst;
	e->m.tag = r->tag;
	if (dst >= 0) {
		e->nd = 3;
		e->d[0] = r->u.v.bytes;
		e->d[1] = r->tag;
		e->d[2] = dst;
	}
	e = cv_push(k, -4, code, b);
	if (code == P_SENDBEG) {
		e->nd = 1;
		e->d[0] = r->u.v.t4;
	}
}

/* The completion of a nonblocking send: -30, or -31 if it waited. */
static void cv_wait(cv_task *k, const vl_trec *r)
{
	int code = r->u.v.t2 > 0 ? P_SENDENDBLOCK : P_SENDEND;
	cv_ev *e = cv_push(k, -3, code, r->u.v.t0);
	e->nd = 1;
	e->d[0] = r->u.v.t4;
	cv_push(k, -4, code, r->u.v.t1);
}

/* The post of a nonblocking receive: -57 with the pattern (-2 any source, -1
 * any tag), its end naming the request. */
static void cv_irecv(cv *c, cv_task *k, const vl_trec *r)
{
	int src = r->peer < 0 ? -2 : vlpost_mg_find(&c->m, &k->m, r->peer);
	cv_ev *e = cv_push(k, -3, P_RECVBEG, r->u.v.t0);
	e->nd = 2;
	e->d[0] = r->tag < 0 ? -1 : r->tag;
	e->d[1] = src < 0 ? -2 : src;
	e = cv_push(k, -4, P_RECVBEG, r->u.v.t1);
	e->nd = 1;
	e->d[0] = r->u.v.t4;
}

static int cv_recv(cv *c, cv_task *k, const vl_trec *r)
{
	int src, code;
	cv_ev *e;
	if (vlpost_mg_recv_src(&c->m, &k->m, r, &src) < 0)
		return -1;
	if (src < 0) {
		cv_pair(k, r->u.v.t2 > 0 ? P_IDLE : P_USEROH, r->u.v.t0, r->u.v.t1);
		return 0;
	}
	if (r->flags & VL_TF_NB) {
		/* completion of a nonblocking receive: -60, or -61 if it waited */
		code = r->u.v.t2 > 0 ? P_RECVENDBLOCK : P_RECVEND;
		e = cv_push(k, -3, code, r->u.v.t0);
		e->nd = 1;
		e->d[0] = r->u.v.t4;
	} else {
		code = r->u.v.t2 > 0 ? P_RECVBLOCK : P_RECV;
		e = cv_push(k, -3, code, r->u.v.t0);
		e->nd = 2;
		e->d[0] = r->tag;
		e->d[1] = src;
	}
	e = cv_push(k, -4, code, r->u.v.t1);
	e->nd = 3;
	e->d[0] = r->u.v.bytes;
	e->d[1] = r->tag;
	e->d[2] = src;
	e->what = W_RECV;
	e->m.peer = src;
	e->m.tag = r->tag;
	e->m.seq = r->seq;
	e->m.rec = k->m.f->nrec - 1;
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
	case VL_COLL_MPI + VL_KIND_BARRIER: return P_BARRIER;
	case VL_COLL_MPI + VL_KIND_BCAST: return P_BCAST;
	case VL_COLL_MPI + VL_KIND_REDUCE:
	case VL_COLL_MPI + VL_KIND_ALLREDUCE: return P_REDUCE;
	case VL_COLL_MPI + VL_KIND_GATHER:
	case VL_COLL_MPI + VL_KIND_ALLGATHER: return P_GATHER;
	case VL_COLL_MPI + VL_KIND_SCATTER: return P_SCATTER;
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
	b->d[1] = r->peer == -1 ? -1 : vlpost_tset_find(c->m.set, r->peer);
	b->d[2] = -1;
	e->nd = 1;
	e->d[0] = r->u.v.bytes;
}

/* Queue the events of one record (none for START, END, COMPUTE, PARAM). */
static int cv_map(vlm *m, vlpost_mg_task *t, const vl_trec *r)
{
	cv *c = (cv *)m;
	cv_task *k = (cv_task *)t;
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
		/* a blocking probe that waited for its message is idle */
		cv_pair(k, (r->flags & VL_TF_FOUND) && r->u.v.t2 > 0 ? P_IDLE : P_USEROH,
			r->u.v.t0, r->u.v.t1);
		return 0;
	case VL_EV_SPAWN:
		cv_pair(k, P_USEROH, r->u.v.t0, r->u.v.t1);
		return 0;
	case VL_EV_IRECV:
		cv_irecv(c, k, r);
		return 0;
	case VL_EV_SLEEP:
		cv_pair(k, P_IDLE, r->u.v.t0, r->u.v.t1);
		return 0;
	case VL_EV_WAIT:
		cv_wait(k, r);
		return 0;
	case VL_EV_COLL:
		cv_coll(c, k, r);
		return 0;
	default:
		return 0;
	}
}

static void cv_tinit(vlm *m, vlpost_mg_task *t)
{
	cv_task *k = (cv_task *)t;
	(void)m;
	k->plen = (size_t)snprintf(k->pstr, sizeof k->pstr, " %d 0 ", t->proc);
}

static void cv_begin(vlm *m, vlpost_mg_task *t)
{
	(void)m;
	cv_push((cv_task *)t, -3, P_TRACE, t->f->hdr.start_ns);
}

static void cv_end(vlm *m, vlpost_mg_task *t)
{
	(void)m;
	cv_push((cv_task *)t, -4, P_TRACE, t->st->end);
}

static const vlpost_mg_ops cv_ops = {
	sizeof(cv_task), offsetof(cv_task, q), sizeof(cv_ev), cv_tinit, cv_begin, cv_map, cv_end
};

static int cv_run(cv *c)
{
	vlpost_mg_task *k;
	cv_ev *e;
	int rc, unused = 0;
	while ((e = (cv_ev *)vlpost_mg_next(&c->m, &k, &rc))) {
		if (e->what == W_SEND && vlpost_mg_send_begin(&c->m, k, &e->m, &unused) < 0)
			return -1;
		if (e->what == W_RECV && vlpost_mg_recv_end(&c->m, &e->m, k->proc) < 0)
			return -1;
		if (ob_event(c, e, (cv_task *)k) < 0)
			return -1;
	}
	return rc < 0 ? -1 : ob_flush(c);
}

int vlpost_trf_write(vlpost_tset *set, FILE *out, const vlpost_trf_opt *opt, vlpost_tstats *st,
		  char *err, size_t errlen)
{
	cv c;
	int rc;
	memset(&c, 0, sizeof c);
	c.m.set = set;
	c.m.ops = &cv_ops;
	c.m.partial = opt->partial;
	c.m.warn = opt->warn;
	c.m.msgmax = 512;
	c.m.st_base = st;
	c.m.err = err;
	c.m.errlen = errlen;
	c.out = out;
	rc = vlpost_mg_init(&c.m);
	if (rc == 0 && !(c.ob = malloc(OBSIZE)))
		rc = vlpost_mg_fail(&c.m, "out of memory");
	if (rc == 0)
		rc = cv_run(&c);
	vlpost_mg_free(&c.m);
	free(c.ob);
	return rc;
}
