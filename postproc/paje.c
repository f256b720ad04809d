/* paje.c - vlayer traces -> Pajé (pj_dump, ViTE).
 *
 * The same streaming k-way merge as trf.c: each task generates its Pajé events
 * in time order (a few per record, queued in the task), a tournament tree (merge.c) over the
 * tasks, keyed by (time of the task's next event, processor), merges them, so
 * the file is globally time-sorted as pajeng requires.  Memory: one reader
 * buffer and a small state per task, plus the messages in flight (link started,
 * not yet ended) and the receives that wait for a send begin at the same time.
 */
#include "paje.h"
#include "util/outfile.h"
#include "vltrace.h"
#include "merge.h"
#include "states.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { E_CREATE, E_DESTROY, E_STATE, E_PUSH, E_POP, E_MARK, E_SEND, E_RECV };

static const char *const st_alias[] = { "comp", "comm", "wait" };

/* collective values: PVM group operations, then the MPI kinds (coll.h) */
static const char *const coll_name[] = {
	"other", "barrier", "bcast", "reduce", "gather", "scatter", "join", "leave",
	"allreduce", "allgather", "alltoall", "reduce_scatter", "scan", "exscan",
};
#define NCOLL ((int)(sizeof coll_name / sizeof coll_name[0]))

/* val: state, collective index; text: E_MARK */
typedef vlpost_st_ev pj_ev;

#define QMAX 10

typedef struct pj_task {
	vlpost_st_task s;
	pj_ev q[QMAX];
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
	const vlpost_tset *s = set;
	int x = *(const int *)a, y = *(const int *)b;
	int32_t hx = s->f[x].hdr.host, hy = s->f[y].hdr.host;
	if (hx != hy)
		return hx < hy ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int pj_head(pj *c)
{
	vlpost_tset *s = c->m.set;
	int *ix = malloc((size_t)s->n * sizeof *ix);
	int64_t t0 = 0;
	char tb[32];
	c->hosts = malloc((size_t)s->n * sizeof *c->hosts);
	if (!ix || !c->hosts) {
		free(ix);
		return vlpost_mg_fail(&c->m, "out of memory");
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
	return vlpost_mg_recv_end(&c->m, &e->m, receiver);
}

static int pj_send_begin(pj *c, pj_task *k, const pj_ev *e)
{
	int matched = 0, proc = k->s.m.proc, peer = e->m.peer;
	if (vlpost_mg_send_begin(&c->m, &k->s.m, &e->m, &matched) < 0)
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
	if (vlpost_mg_tk(&c->m, peer)->state >= VLM_FINAL) {
		vlpost_mg_warn(&c->m, "%s: record %llu: message %u to task 0x%x is never received (no link)",
			 k->s.m.f->path, (unsigned long long)e->m.rec, e->m.seq,
			 (unsigned)vlpost_mg_tk(&c->m, peer)->f->hdr.tid);
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
		if (!m->key || m->key == FLY_DEL || m->receiver != k->s.m.proc)
			continue;
		sender = (int)(m->key >> 32) - 1;
		seq = (uint32_t)m->key;
		vlpost_mg_warn(&c->m, "%s: message %u of task 0x%x is never received: its link ends with the task",
			 k->s.m.f->path, seq, (unsigned)vlpost_mg_tk(&c->m, sender)->f->hdr.tid);
		out_link_end(c, t, sender, seq, k->s.m.proc);
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
		fprintf(o, "5 %s p%d T h%d ", tb, k->s.m.proc, (int)k->s.m.f->hdr.host);
		snprintf(nm, sizeof nm, "0x%x %s", (unsigned)k->s.m.f->hdr.tid,
			 k->s.m.f->hdr.program[0] ? k->s.m.f->hdr.program : "?");
		pj_str(o, nm);
		fputc('\n', o);
		return 0;
	}
	case E_DESTROY:
		pj_close_links(c, k, e->m.t);
		fprintf(o, "6 %s T p%d\n", tb, k->s.m.proc);
		return 0;
	case E_STATE:
		fprintf(o, "7 %s p%d S %s\n", tb, k->s.m.proc, st_alias[e->val]);
		return 0;
	case E_PUSH:
		fprintf(o, "8 %s p%d C c%d\n", tb, k->s.m.proc, e->val);
		return 0;
	case E_POP:
		fprintf(o, "9 %s p%d C\n", tb, k->s.m.proc);
		return 0;
	case E_MARK:
		fprintf(o, "10 %s p%d M ", tb, k->s.m.proc);
		pj_str(o, e->text);
		fputc('\n', o);
		return 0;
	case E_SEND:
		return pj_send_begin(c, k, e);
	default:
		return pj_recv_end(c, e, k->s.m.proc);
	}
}

/* ---- event generation (states.c) ---- */
static vlpost_st_ev *pj_push(vlpost_st_task *k, int kind, int64_t t)
{
	pj_ev *e = &((pj_task *)k)->q[k->m.qn++];
	memset(e, 0, sizeof *e);
	e->m.t = t;
	e->kind = (uint8_t)kind;
	return e;
}

static void pj_change(vlpost_st_task *k, int64_t t, int s)
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
static void pj_coll_begin(vlm *m, vlpost_st_task *k, const vl_trec *r)
{
	(void)m;
	vlpost_st_push(k, E_PUSH, r->u.v.t0)->val = (uint8_t)coll_index(r->tag);
}

static void pj_coll_end(vlm *m, vlpost_st_task *k, const vl_trec *r)
{
	(void)m;
	vlpost_st_push(k, E_POP, r->u.v.t1);
}

/* no events for PARAM records */
static const vlpost_st_ops pj_sops = {
	E_SEND, E_RECV, E_MARK, -1, -1, -1, pj_push, pj_change, pj_coll_begin, pj_coll_end
};

static int pj_map(vlm *m, vlpost_mg_task *t, const vl_trec *r)
{
	return vlpost_st_map(m, (vlpost_st_task *)t, r);
}

static void pj_tinit(vlm *m, vlpost_mg_task *t)
{
	(void)m;
	vlpost_st_init((vlpost_st_task *)t, &pj_sops);
}

static void pj_begin(vlm *m, vlpost_mg_task *t)
{
	vlpost_st_task *k = (vlpost_st_task *)t;
	(void)m;
	vlpost_st_push(k, E_CREATE, t->f->hdr.start_ns);
	vlpost_st_state(k, t->f->hdr.start_ns, VLS_COMP);
}

static void pj_end(vlm *m, vlpost_mg_task *t)
{
	vlpost_st_task *k = (vlpost_st_task *)t;
	(void)m;
	vlpost_st_end_at(k, t->st->end);
	vlpost_st_push(k, E_DESTROY, t->st->end);
}

static const vlpost_mg_ops pj_ops = {
	sizeof(pj_task), offsetof(pj_task, q), sizeof(pj_ev), pj_tinit, pj_begin, pj_map, pj_end
};

static int pj_run(pj *c)
{
	vlpost_mg_task *k;
	pj_ev *e;
	int rc;
	while ((e = (pj_ev *)vlpost_mg_next(&c->m, &k, &rc)))
		if (pj_emit(c, (pj_task *)k, e) < 0)
			return -1;
	return rc;
}

int vlpost_paje_write(vlpost_tset *set, FILE *out, const vlpost_paje_opt *opt, vlpost_tstats *st,
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
	rc = vlpost_mg_init(&c.m) < 0 || pj_head(&c) < 0 ? -1 : pj_run(&c);
	if (rc == 0)
		pj_tail(&c);
	if (rc == 0 && (fflush(out) != 0 || ferror(out)))
		rc = vlpost_mg_fail(&c.m, "write error");
	vlpost_mg_free(&c.m);
	free(c.fly);
	free(c.hosts);
	return rc;
}

/* ---- the command ---- */
const char vlpost_paje_usage[] =
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

struct pj_out {
	vlpost_tset *set;
	vlpost_paje_opt opt;
	vlpost_tstats *st;
};

static int pj_write_cb(FILE *f, void *ctx, char *err, size_t errlen)
{
	struct pj_out *c = ctx;
	return vlpost_paje_write(c->set, f, &c->opt, c->st, err, errlen);
}

static int pj_to(vlpost_tset *set, const char *out, int partial, vlpost_tstats *st)
{
	struct pj_out c = { set, { partial, stderr }, st };
	char err[1024];

	if (vlu_write_atomic(out, pj_write_cb, &c, err, sizeof err) == 0)
		return 0;
	fprintf(stderr, "vlpost: %s\n", err);
	return 2;
}

int vlpost_paje_main(int argc, char **argv)
{
	static const vlpost_mg_cmd cmd = { "paje", vlpost_paje_usage, "file name", ".paje", pj_to };
	return vlpost_mg_main(&cmd, argc, argv);
}
