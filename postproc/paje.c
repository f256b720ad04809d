/* paje.c - vlayer traces -> Pajé (pj_dump, ViTE).
 *
 * The same streaming k-way merge as trf.c: each task generates its Pajé events
 * in time order (a few per record, queued in the task), a binary heap over the
 * tasks, keyed by (time of the task's next event, processor), merges them, so
 * the file is globally time-sorted as pajeng requires.  Memory: one reader
 * buffer and a small state per task, plus the messages in flight (link started,
 * not yet ended) and the receives that wait for a send begin at the same time.
 */
#include "paje.h"
#include "coll.h"
#include "merge.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ST_COMP, ST_COMM, ST_WAIT, ST_NONE };
enum { E_CREATE, E_DESTROY, E_STATE, E_PUSH, E_POP, E_MARK, E_SEND, E_RECV };

static const char *const st_alias[] = { "comp", "comm", "wait" };

/* collective values: PVM group operations, then the MPI kinds (coll.h) */
static const char *const coll_name[] = {
	"other", "barrier", "bcast", "reduce", "gather", "scatter", "join", "leave",
	"allreduce", "allgather", "alltoall", "reduce_scatter", "scan", "exscan",
};
#define NCOLL ((int)(sizeof coll_name / sizeof coll_name[0]))

typedef struct pj_ev {
	vlm_ev m;          /* peer: E_SEND destination's processor (-1: no trace); E_RECV sender's */
	int64_t bytes;
	int32_t tag;
	uint8_t kind, val; /* val: state, collective index */
	char text[24];     /* E_MARK */
} pj_ev;

#define QMAX 10

typedef struct pj_task {
	vlm_task m;
	int cur;
	pj_ev q[QMAX];
	int defer;         /* Computing is due at defer_t, unless a state begins then */
	int64_t defer_t;
} pj_task;

/* a message in flight: its link started, the receive end not yet seen */
typedef struct pj_fly {
	uint64_t key;      /* (sender + 1) << 32 | seq; 0 empty, ~0 deleted */
	int receiver;
} pj_fly;

typedef struct pj {
	vlm m;
	pj_fly *fly;
	size_t nfly, nused, cfly;  /* live entries, live + deleted, capacity (power of 2) */
	int32_t *hosts;            /* distinct host indices */
	int nhosts;
	FILE *out;
} pj;

#define FLY_DEL (~(uint64_t)0)

/* ---- output ---- */

/* seconds with 9 decimals (exact ns); buf needs 32 bytes */
static const char *pj_time(char *buf, int64_t t)
{
	snprintf(buf, 32, "%" PRId64 ".%09" PRId64, t / 1000000000, t % 1000000000);
	return buf;
}

/* A Pajé string: quoted; '"', '\\' and control characters become '_'. */
static void pj_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		fputc(ch < 0x20 || ch == 0x7f || ch == '"' || ch == '\\' ? '_' : ch, o);
	}
	fputc('"', o);
}

static const char pj_header[] =
	"# vlayer trace converted by vlpost paje; times in virtual seconds\n"
	"%EventDef PajeDefineContainerType 0\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeDefineStateType 1\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeDefineEventType 2\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeDefineLinkType 3\n% Alias string\n% Type string\n"
	"% StartContainerType string\n% EndContainerType string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeDefineEntityValue 4\n% Alias string\n% Type string\n% Name string\n"
	"% Color color\n%EndEventDef\n"
	"%EventDef PajeCreateContainer 5\n% Time date\n% Alias string\n% Type string\n"
	"% Container string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeDestroyContainer 6\n% Time date\n% Type string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeSetState 7\n% Time date\n% Container string\n% Type string\n"
	"% Value string\n%EndEventDef\n"
	"%EventDef PajePushState 8\n% Time date\n% Container string\n% Type string\n"
	"% Value string\n%EndEventDef\n"
	"%EventDef PajePopState 9\n% Time date\n% Container string\n% Type string\n%EndEventDef\n"
	"%EventDef PajeNewEvent 10\n% Time date\n% Container string\n% Type string\n"
	"% Value string\n%EndEventDef\n"
	"%EventDef PajeStartLink 11\n% Time date\n% Container string\n% Type string\n"
	"% StartContainer string\n% Value string\n% Key string\n% Size int\n% Tag int\n%EndEventDef\n"
	"%EventDef PajeEndLink 12\n% Time date\n% Container string\n% Type string\n"
	"% EndContainer string\n% Value string\n% Key string\n%EndEventDef\n"
	"0 H 0 \"Host\"\n"
	"0 T H \"Task\"\n"
	"1 S T \"State\"\n"
	"1 C T \"Collective\"\n"
	"2 M T \"Mark\"\n"
	"3 L 0 T T \"Message\"\n"
	"4 comp S \"Computing\" \"0.0 0.7 0.0\"\n"
	"4 comm S \"Communicating\" \"1.0 0.8 0.0\"\n"
	"4 wait S \"Waiting\" \"0.8 0.0 0.0\"\n"
	"4 msg L \"message\" \"1.0 1.0 1.0\"\n";

/* hosts: one container per distinct host index, named by its first task's host name */
static int cmp_host(const void *a, const void *b, void *set)
{
	const vl_tset *s = set;
	int x = *(const int *)a, y = *(const int *)b;
	int32_t hx = s->f[x].hdr.host, hy = s->f[y].hdr.host;
	if (hx != hy)
		return hx < hy ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int pj_head(pj *c)
{
	vl_tset *s = c->m.set;
	int *ix = malloc((size_t)s->n * sizeof *ix);
	int64_t t0 = 0;
	char tb[32];
	c->hosts = malloc((size_t)s->n * sizeof *c->hosts);
	if (!ix || !c->hosts) {
		free(ix);
		return vlm_fail(&c->m, "out of memory");
	}
	fputs(pj_header, c->out);
	for (int i = 1; i < NCOLL; i++)
		fprintf(c->out, "4 c%d C \"%s\" \"0.3 0.5 1.0\"\n", i, coll_name[i]);
	fprintf(c->out, "4 c0 C \"%s\" \"0.3 0.5 1.0\"\n", coll_name[0]);
	for (int i = 0; i < s->n; i++) {
		ix[i] = i;
		if (i == 0 || s->f[i].hdr.start_ns < t0)
			t0 = s->f[i].hdr.start_ns;
	}
	qsort_r(ix, (size_t)s->n, sizeof *ix, cmp_host, s);
	for (int i = 0; i < s->n; i++) {
		const vl_thdr *h = &s->f[ix[i]].hdr;
		char nm[80];
		if (i > 0 && s->f[ix[i - 1]].hdr.host == h->host)
			continue;
		c->hosts[c->nhosts++] = h->host;
		if (h->host_name[0])
			snprintf(nm, sizeof nm, "%s", h->host_name);
		else
			snprintf(nm, sizeof nm, "host%d", (int)h->host);
		fprintf(c->out, "5 %s h%d H 0 ", pj_time(tb, t0), (int)h->host);
		pj_str(c->out, nm);
		fputc('\n', c->out);
	}
	free(ix);
	return 0;
}

/* the hosts end with the last task */
static void pj_tail(pj *c)
{
	int64_t t1 = 0;
	char tb[32];
	for (int i = 0; i < c->m.set->n; i++)
		if (c->m.st_base[i].end > t1)
			t1 = c->m.st_base[i].end;
	pj_time(tb, t1);
	for (int i = 0; i < c->nhosts; i++)
		fprintf(c->out, "6 %s H h%d\n", tb, (int)c->hosts[i]);
}

/* ---- messages in flight: an open-addressing table keyed by (sender, seq) ---- */
static uint64_t fly_key(int sender, uint32_t seq)
{
	return (uint64_t)(sender + 1) << 32 | seq;
}

static size_t fly_slot(const pj *c, uint64_t key)
{
	uint64_t h = key * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 20) & (c->cfly - 1);
}

static pj_fly *fly_find(pj *c, uint64_t key)
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

static int fly_add(pj *c, uint64_t key, int receiver);

static int fly_grow(pj *c)
{
	pj_fly *old = c->fly;
	size_t n = c->cfly, cap = c->nfly * 4 > 64 ? c->nfly * 4 : 64;
	while (cap & (cap - 1))
		cap &= cap - 1;
	c->fly = calloc(cap * 2, sizeof *c->fly);
	if (!c->fly) {
		c->fly = old;
		return vlm_fail(&c->m, "out of memory");
	}
	c->cfly = cap * 2;
	c->nfly = c->nused = 0;
	for (size_t i = 0; i < n; i++)
		if (old[i].key && old[i].key != FLY_DEL)
			fly_add(c, old[i].key, old[i].receiver);
	free(old);
	return 0;
}

static int fly_add(pj *c, uint64_t key, int receiver)
{
	size_t i;
	if ((c->nused + 1) * 2 > c->cfly && fly_grow(c) < 0)
		return -1;
	for (i = fly_slot(c, key); c->fly[i].key && c->fly[i].key != FLY_DEL;
	     i = (i + 1) & (c->cfly - 1))
		;
	if (c->fly[i].key == 0)
		c->nused++;
	c->fly[i] = (pj_fly){ key, receiver };
	c->nfly++;
	return 0;
}

static void fly_del(pj *c, pj_fly *e)
{
	e->key = FLY_DEL;
	c->nfly--;
}

/* ---- writing the events ---- */
static void out_link_end(pj *c, int64_t t, int sender, uint32_t seq, int receiver)
{
	char tb[32];
	fprintf(c->out, "12 %s 0 L p%d msg %d_%" PRIu32 "\n", pj_time(tb, t), receiver, sender, seq);
}

static void out_link_start(pj *c, const pj_ev *e, int sender)
{
	char tb[32];
	fprintf(c->out, "11 %s 0 L p%d msg %d_%" PRIu32 " %" PRId64 " %" PRId32 "\n",
		pj_time(tb, e->m.t), sender, sender, e->m.seq, e->bytes, e->tag);
}

/* A receive end: close its link, or wait for a send begin at the same time. */
static int pj_recv_end(pj *c, const pj_ev *e, int receiver)
{
	pj_fly *m = fly_find(c, fly_key(e->m.peer, e->m.seq));
	if (m && m->receiver == receiver) {
		fly_del(c, m);
		out_link_end(c, e->m.t, e->m.peer, e->m.seq, receiver);
		return 0;
	}
	return vlm_recv_end(&c->m, &e->m, receiver);
}

static int pj_send_begin(pj *c, pj_task *k, const pj_ev *e)
{
	int matched = 0, proc = k->m.proc, peer = e->m.peer;
	if (vlm_send_begin(&c->m, &k->m, &e->m, &matched) < 0)
		return -1;
	if (matched < 0)
		return 0;
	if (matched) {
		out_link_start(c, e, proc);
		out_link_end(c, e->m.t, proc, e->m.seq, matched - 1);
		return 0;
	}
	if (peer < 0)
		return 0;
	if (vlm_tk(&c->m, peer)->state >= VLM_FINAL) {
		vlm_warn(&c->m, "%s: record %llu: message %u to task 0x%x is never received (no link)",
			 k->m.f->path, (unsigned long long)e->m.rec, e->m.seq,
			 (unsigned)vlm_tk(&c->m, peer)->f->hdr.tid);
		return 0;
	}
	out_link_start(c, e, proc);
	return fly_add(c, fly_key(proc, e->m.seq), peer);
}

/* The task ends: the links still open towards it end here. */
static void pj_close_links(pj *c, pj_task *k, int64_t t)
{
	for (size_t i = 0; i < c->cfly && c->nfly; i++) {
		pj_fly *m = &c->fly[i];
		int sender;
		uint32_t seq;
		if (!m->key || m->key == FLY_DEL || m->receiver != k->m.proc)
			continue;
		sender = (int)(m->key >> 32) - 1;
		seq = (uint32_t)m->key;
		vlm_warn(&c->m, "%s: message %u of task 0x%x is never received: its link ends with the task",
			 k->m.f->path, seq, (unsigned)vlm_tk(&c->m, sender)->f->hdr.tid);
		out_link_end(c, t, sender, seq, k->m.proc);
		fly_del(c, m);
	}
}

static int pj_emit(pj *c, pj_task *k, const pj_ev *e)
{
	char tb[32];
	FILE *o = c->out;
	pj_time(tb, e->m.t);
	switch (e->kind) {
	case E_CREATE: {
		char nm[160];
		fprintf(o, "5 %s p%d T h%d ", tb, k->m.proc, (int)k->m.f->hdr.host);
		snprintf(nm, sizeof nm, "0x%x %s", (unsigned)k->m.f->hdr.tid,
			 k->m.f->hdr.program[0] ? k->m.f->hdr.program : "?");
		pj_str(o, nm);
		fputc('\n', o);
		return 0;
	}
	case E_DESTROY:
		pj_close_links(c, k, e->m.t);
		fprintf(o, "6 %s T p%d\n", tb, k->m.proc);
		return 0;
	case E_STATE:
		fprintf(o, "7 %s p%d S %s\n", tb, k->m.proc, st_alias[e->val]);
		return 0;
	case E_PUSH:
		fprintf(o, "8 %s p%d C c%d\n", tb, k->m.proc, e->val);
		return 0;
	case E_POP:
		fprintf(o, "9 %s p%d C\n", tb, k->m.proc);
		return 0;
	case E_MARK:
		fprintf(o, "10 %s p%d M ", tb, k->m.proc);
		pj_str(o, e->text);
		fputc('\n', o);
		return 0;
	case E_SEND:
		return pj_send_begin(c, k, e);
	default:
		return pj_recv_end(c, e, k->m.proc);
	}
}

/* ---- event generation ---- */
static pj_ev *pj_push(pj_task *k, int kind, int64_t t);

/* Before an event at t: the deferred Computing begins if it is due before t. */
static void pj_flush(pj_task *k, int64_t t)
{
	if (!k->defer || t <= k->defer_t)
		return;
	k->defer = 0;
	if (k->cur != ST_COMP) {
		pj_push(k, E_STATE, k->defer_t)->val = ST_COMP;
		k->cur = ST_COMP;
	}
}

static pj_ev *pj_push(pj_task *k, int kind, int64_t t)
{
	pj_ev *e;
	pj_flush(k, t);
	e = &k->q[k->m.qn++];
	memset(e, 0, sizeof *e);
	e->m.t = t;
	e->kind = (uint8_t)kind;
	return e;
}

/* The task is in state s from time t on. */
static void pj_state(pj_task *k, int64_t t, int s)
{
	if (k->defer && t == k->defer_t)
		k->defer = 0;  /* the Computing would last 0 ns */
	pj_flush(k, t);
	if (s == k->cur)
		return;
	pj_push(k, E_STATE, t)->val = (uint8_t)s;
	k->cur = s;
}

/* State s during [a, b) (nothing if empty). */
static void pj_seg(pj_task *k, int64_t a, int64_t b, int s)
{
	if (b > a)
		pj_state(k, a, s);
}

/* After a record: computing from t on, unless the next state begins at t. */
static void pj_done_at(pj_task *k, int64_t t)
{
	if (k->cur == ST_COMP)
		return;
	k->defer = 1;
	k->defer_t = t;
}

static void pj_send(pj *c, pj_task *k, const vl_trec *r)
{
	int64_t a, b;
	pj_ev *e;
	if (!vlm_send_span(&k->m, r, &a, &b))
		pj_seg(k, r->u.v.t0, r->u.v.t1, ST_COMM);
	e = pj_push(k, E_SEND, a);
	e->m.seq = r->seq;
	e->m.rec = k->m.f->nrec - 1;
	e->bytes = r->u.v.bytes;
	e->tag = r->tag;
	e->m.peer = vlm_find(&c->m, &k->m, r->peer);
	pj_done_at(k, r->u.v.t1);
}

/* Waiting is [arrival - wait, arrival] when that lies in [t0, t1] (the receiver
 * waits until the message arrives), else the first wait ns of the call. */
static int pj_recv(pj *c, pj_task *k, const vl_trec *r)
{
	int64_t t0 = r->u.v.t0, t1 = r->u.v.t1, w = r->u.v.t2, w1 = r->u.v.t3, w0;
	int src;
	pj_ev *e;
	if (vlm_recv_src(&c->m, &k->m, r, &src) < 0)
		return -1;
	w0 = w1 - w;
	if (w <= 0 || w0 < t0 || w1 > t1) {
		w0 = t0;
		w1 = t0 + w;
	}
	pj_seg(k, t0, w0, ST_COMM);
	pj_seg(k, w0, w1, ST_WAIT);
	pj_seg(k, w1, t1, ST_COMM);
	if (src >= 0) {
		e = pj_push(k, E_RECV, t1);
		e->m.seq = r->seq;
		e->m.rec = k->m.f->nrec - 1;
		e->m.peer = src;
	}
	pj_done_at(k, t1);
	return 0;
}

static int coll_index(int op)
{
	if (op >= VL_COLL_BARRIER && op <= VL_COLL_LEAVE)
		return op;
	switch (op - VL_COLL_MPI) {
	case VLI_COLL_BARRIER: return 1;
	case VLI_COLL_BCAST: return 2;
	case VLI_COLL_REDUCE: return 3;
	case VLI_COLL_GATHER: return 4;
	case VLI_COLL_SCATTER: return 5;
	case VLI_COLL_ALLREDUCE: return 8;
	case VLI_COLL_ALLGATHER: return 9;
	case VLI_COLL_ALLTOALL: return 10;
	case VLI_COLL_REDUCE_SCATTER: return 11;
	case VLI_COLL_SCAN: return 12;
	case VLI_COLL_EXSCAN: return 13;
	default: return 0;
	}
}

/* A group operation: the Collective state for [t0, t1]; waiting first. */
static void pj_coll(pj_task *k, const vl_trec *r)
{
	int64_t t0 = r->u.v.t0, t1 = r->u.v.t1, w = r->u.v.t2;
	pj_push(k, E_PUSH, t0)->val = (uint8_t)coll_index(r->tag);
	pj_seg(k, t0, t0 + w, ST_WAIT);
	pj_seg(k, t0 + w, t1, ST_COMM);
	pj_push(k, E_POP, t1);
	pj_done_at(k, t1);
}

static void pj_mark(pj_task *k, const vl_trec *r)
{
	pj_ev *e = pj_push(k, E_MARK, r->u.m.t0);
	if (r->u.m.text[0])
		snprintf(e->text, sizeof e->text, "%s", r->u.m.text);
	else
		snprintf(e->text, sizeof e->text, "mark %d", (int)r->peer);
}

/* Queue the events of one record (none for START, END, COMPUTE, PARAM). */
static int pj_map(vlm *m, vlm_task *t, const vl_trec *r)
{
	pj *c = (pj *)m;
	pj_task *k = (pj_task *)t;
	switch (r->type) {
	case VL_EV_SEND:
		pj_send(c, k, r);
		return 0;
	case VL_EV_RECV:
		return pj_recv(c, k, r);
	case VL_EV_MARK:
		pj_mark(k, r);
		return 0;
	case VL_EV_PROBE:
	case VL_EV_SPAWN:
		pj_seg(k, r->u.v.t0, r->u.v.t1, ST_COMM);
		pj_done_at(k, r->u.v.t1);
		return 0;
	case VL_EV_COLL:
		pj_coll(k, r);
		return 0;
	default:
		return 0;
	}
}

static void pj_tinit(vlm *m, vlm_task *t)
{
	(void)m;
	((pj_task *)t)->cur = ST_NONE;
}

static void pj_begin(vlm *m, vlm_task *t)
{
	pj_task *k = (pj_task *)t;
	(void)m;
	pj_push(k, E_CREATE, t->f->hdr.start_ns);
	pj_push(k, E_STATE, t->f->hdr.start_ns)->val = ST_COMP;
	k->cur = ST_COMP;
}

static void pj_end(vlm *m, vlm_task *t)
{
	pj_task *k = (pj_task *)t;
	(void)m;
	if (k->defer && k->defer_t >= t->st->end)
		k->defer = 0;
	pj_push(k, E_DESTROY, t->st->end);
}

static const vlm_ops pj_ops = {
	sizeof(pj_task), offsetof(pj_task, q), sizeof(pj_ev), pj_tinit, pj_begin, pj_map, pj_end
};

static int pj_run(pj *c)
{
	vlm_task *k;
	pj_ev *e;
	int rc;
	while ((e = (pj_ev *)vlm_next(&c->m, &k, &rc)))
		if (pj_emit(c, (pj_task *)k, e) < 0)
			return -1;
	return rc;
}

int vlp_paje_write(vl_tset *set, FILE *out, const vlp_paje_opt *opt, vlp_tstats *st,
		   char *err, size_t errlen)
{
	pj c;
	int rc;
	memset(&c, 0, sizeof c);
	c.m.set = set;
	c.m.ops = &pj_ops;
	c.m.partial = opt->partial;
	c.m.strict = 1;
	c.m.warn = opt->warn;
	c.m.msgmax = 768;
	c.m.st_base = st;
	c.m.err = err;
	c.m.errlen = errlen;
	c.out = out;
	rc = vlm_init(&c.m) < 0 || pj_head(&c) < 0 ? -1 : pj_run(&c);
	if (rc == 0)
		pj_tail(&c);
	if (rc == 0 && (fflush(out) != 0 || ferror(out)))
		rc = vlm_fail(&c.m, "write error");
	vlm_free(&c.m);
	free(c.fly);
	free(c.hosts);
	return rc;
}

/* ---- the command ---- */
const char vlp_paje_usage[] =
	"usage: vlpost paje [-o FILE.paje] [--partial] TRACEDIR\n"
	"\n"
	"Write the traces of TRACEDIR as one Pajé trace (pj_dump, ViTE), sorted by\n"
	"virtual time in seconds with 9 decimals: containers root -> virtual host ->\n"
	"task (\"TID PROGRAM\"); per task a State (Computing, Communicating, Waiting), a\n"
	"Collective state during group operations and a Mark event per vl_mark(); one\n"
	"Message link per message, from its send begin to its receive end.\n"
	"\n"
	"  -o FILE      output file (default: TRACEDIR with .paje appended); written to\n"
	"               FILE.tmp and renamed when complete\n"
	"  --partial    use incomplete traces: truncated files, tasks without END,\n"
	"               corrupt records (the records before them are used); receives\n"
	"               whose send is missing or ends after them get no link\n"
	"               (warnings on stderr instead of errors)\n";

static int pj_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "vlpost: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%.*s (--help for more)\n", (int)strcspn(vlp_paje_usage, "\n"),
		vlp_paje_usage);
	return 2;
}

/* TRACEDIR without trailing slashes, plus ".paje" */
static char *pj_default_out(const char *dir)
{
	size_t n = strlen(dir);
	char *s;
	while (n > 1 && dir[n - 1] == '/')
		n--;
	s = malloc(n + 6);
	if (s) {
		memcpy(s, dir, n);
		memcpy(s + n, ".paje", 6);
	}
	return s;
}

static int pj_to(vl_tset *set, const char *out, int partial, vlp_tstats *st)
{
	vlp_paje_opt opt = { partial, stderr };
	char err[1024], *tmp = malloc(strlen(out) + 5);
	FILE *f;
	int rc;
	if (!tmp)
		return fprintf(stderr, "vlpost: out of memory\n"), 2;
	sprintf(tmp, "%s.tmp", out);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "vlpost: %s: %s\n", tmp, strerror(errno));
		free(tmp);
		return 2;
	}
	setvbuf(f, NULL, _IOFBF, 256u << 10);
	rc = vlp_paje_write(set, f, &opt, st, err, sizeof err);
	if (fclose(f) != 0 && rc == 0)
		rc = -1, snprintf(err, sizeof err, "%s: %s", tmp, strerror(errno));
	if (rc == 0 && rename(tmp, out) != 0)
		rc = -1, snprintf(err, sizeof err, "%s: %s", out, strerror(errno));
	if (rc != 0) {
		unlink(tmp);
		fprintf(stderr, "vlpost: %s\n", err);
	}
	free(tmp);
	return rc ? 2 : 0;
}

int vlp_paje_main(int argc, char **argv)
{
	const char *dir = NULL, *o = NULL;
	int partial = 0, rc;
	vl_tset set;
	vlp_tstats *st;
	char err[1024], *out;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return fputs(vlp_paje_usage, stdout), 0;
		if (strcmp(argv[i], "--partial") == 0)
			partial = 1;
		else if (strcmp(argv[i], "-o") == 0 && i + 1 == argc)
			return pj_usage("%s: missing file name", "-o");
		else if (strcmp(argv[i], "-o") == 0)
			o = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1])
			return pj_usage("paje: unknown option %s", argv[i]);
		else if (dir)
			return pj_usage("paje: extra argument %s", argv[i]);
		else
			dir = argv[i];
	}
	if (!dir)
		return pj_usage("paje: missing TRACEDIR%s", "");
	if (vl_tset_open(&set, dir, partial ? VL_TSET_SKIPBAD : 0, stderr, err, sizeof err) < 0) {
		fprintf(stderr, "vlpost: %s\n", err);
		vl_tset_close(&set);
		return 2;
	}
	out = o ? strdup(o) : pj_default_out(dir);
	st = calloc((size_t)set.n, sizeof *st);
	if (!out || !st)
		rc = (fprintf(stderr, "vlpost: out of memory\n"), 2);
	else
		rc = pj_to(&set, out, partial, st);
	free(st);
	free(out);
	vl_tset_close(&set);
	return rc;
}
