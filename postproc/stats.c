/* stats.c - per-task summary of a trace set. */
#include "stats.h"
#include "util/outfile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void vlpost_stats_init(vlpost_tstats *s, int proc, const vl_thdr *h)
{
	memset(s, 0, sizeof *s);
	s->proc = proc;
	s->tid = h->tid;
	s->ptid = h->ptid;
	s->host = h->host;
	memcpy(s->host_name, h->host_name, sizeof s->host_name);
	s->host_name[sizeof s->host_name - 1] = '\0';
	memcpy(s->program, h->program, sizeof s->program);
	s->program[sizeof s->program - 1] = '\0';
	s->start = s->end = s->last = h->start_ns;
}

static void st_send(vlpost_tstats *s, const vl_trec *r)
{
	int shared = (r->flags & VL_TF_MCAST) && s->mc_on && r->u.v.t0 == s->mc_t0 &&
		     r->u.v.t1 == s->mc_t1;
	s->nsent++;
	s->bsent += (uint64_t)r->u.v.bytes;
	if (!shared) {
		/* a blocking rendezvous send waits t4 ns at the end of its call */
		int64_t w = r->flags & VL_TF_NB ? 0 : r->u.v.t4;
		s->rcomm += r->u.v.t1 - r->u.v.t0 - w;
		s->rwait += w;
	}
	s->mc_on = (r->flags & VL_TF_MCAST) != 0;
	s->mc_t0 = r->u.v.t0;
	s->mc_t1 = r->u.v.t1;
}

void vlpost_stats_add(vlpost_tstats *s, const vl_trec *r)
{
	int64_t d = r->u.v.t1 - r->u.v.t0;
	if (r->u.v.t1 > s->last)
		s->last = r->u.v.t1;
	if (r->type != VL_EV_SEND)
		s->mc_on = 0;
	switch (r->type) {
	case VL_EV_SEND:
		st_send(s, r);
		break;
	case VL_EV_RECV:
		s->nrecv++;
		s->brecv += (uint64_t)r->u.v.bytes;
		s->rcomm += d - r->u.v.t2;
		s->rwait += r->u.v.t2;
		break;
	case VL_EV_COLL:
	case VL_EV_WAIT:
		s->rcomm += d - r->u.v.t2;
		s->rwait += r->u.v.t2;
		break;
	case VL_EV_PROBE:
		if (r->flags & VL_TF_FOUND) {
			s->rcomm += d - r->u.v.t2;
			s->rwait += r->u.v.t2;
		} else {
			s->rcomm += d;
		}
		break;
	case VL_EV_SPAWN:
	case VL_EV_IRECV:
		s->rcomm += d;
		break;
	case VL_EV_SLEEP:
		s->rwait += d;
		break;
	case VL_EV_END:
		s->has_end = 1;
		s->end = r->u.v.t0;
		s->comp = r->u.v.bytes;
		s->comm = r->u.v.t2;
		s->wait = r->u.v.t3;
		break;
	default:
		break;
	}
}

void vlpost_stats_done(vlpost_tstats *s)
{
	if (s->has_end)
		return;
	s->end = s->last;
	s->comm = s->rcomm;
	s->wait = s->rwait;
	s->comp = s->end - s->start - s->comm - s->wait;
	if (s->comp < 0)
		s->comp = 0;
}

static int st_read_task(vlpost_tfile *f, vlpost_tstats *s, vlpost_report *rep, FILE *warn, char *err,
			size_t errlen)
{
	vl_trec r;
	int rc;
	while ((rc = vlpost_tfile_next(f, &r)) == 1) {
		vlpost_stats_add(s, &r);
		if (rep && vlpost_report_add(rep, s->proc, &r) < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	vlpost_stats_done(s);
	if (rc == 0)
		return 0;
	if (f->err == VL_TR_ETRUNC || f->err == VL_TR_ENOEND) {
		if (warn)
			fprintf(warn, "vlpost: warning: %s\n", f->errmsg);
		return 0;
	}
	snprintf(err, errlen, "%s", f->errmsg);
	return -1;
}

int vlpost_stats_collect(vlpost_tset *set, vlpost_tstats *st, FILE *warn, char *err, size_t errlen)
{
	for (int i = 0; i < set->n; i++) {
		vlpost_stats_init(&st[i], i, &set->f[i].hdr);
		if (st_read_task(&set->f[i], &st[i], NULL, warn, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int64_t vlpost_stats_elapsed(const vlpost_tstats *st, int n)
{
	int64_t lo = 0, hi = 0;
	for (int i = 0; i < n; i++) {
		if (i == 0 || st[i].start < lo)
			lo = st[i].start;
		if (i == 0 || st[i].end > hi)
			hi = st[i].end;
	}
	return hi - lo;
}

int vlpost_fmt_sec(char *buf, int64_t ns)
{
	int neg = ns < 0;
	uint64_t a = neg ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t us = (a + 500) / 1000;
	return snprintf(buf, 32, "%s%" PRIu64 ".%06" PRIu64, neg ? "-" : "", us / 1000000,
			us % 1000000);
}

/* ---- the table ---- */
enum { NCOL = 12 };
#define CELL 48

typedef struct st_row {
	char c[NCOL][CELL];
} st_row;

static const char *const st_head[NCOL] = {
	"proc", "tid", "host", "program", "comp_us", "comm_us",
	"wait_us", "total_us", "sent", "bytes_sent", "recv", "bytes_recv",
};

/* ns as microseconds with 3 decimals (exact). */
static void fmt_us(char *b, int64_t ns, int star)
{
	uint64_t a = ns < 0 ? 0 : (uint64_t)ns;
	snprintf(b, CELL, "%" PRIu64 ".%03" PRIu64 "%s", a / 1000, a % 1000, star ? "*" : "");
}

static void st_fill(st_row *w, const vlpost_tstats *s)
{
	int e = !s->has_end;
	snprintf(w->c[0], CELL, "%d", s->proc);
	snprintf(w->c[1], CELL, "0x%x", (unsigned)s->tid);
	snprintf(w->c[2], CELL, "%.*s", CELL - 1, s->host_name[0] ? s->host_name : "?");
	snprintf(w->c[3], CELL, "%.*s", CELL - 1, s->program[0] ? s->program : "?");
	fmt_us(w->c[4], s->comp, e);
	fmt_us(w->c[5], s->comm, e);
	fmt_us(w->c[6], s->wait, e);
	fmt_us(w->c[7], s->end - s->start, 0);
	snprintf(w->c[8], CELL, "%" PRIu64, s->nsent);
	snprintf(w->c[9], CELL, "%" PRIu64, s->bsent);
	snprintf(w->c[10], CELL, "%" PRIu64, s->nrecv);
	snprintf(w->c[11], CELL, "%" PRIu64, s->brecv);
}

static void st_total(st_row *w, const vlpost_tstats *st, int n)
{
	vlpost_tstats t;
	int est = 0;
	memset(&t, 0, sizeof t);
	for (int i = 0; i < n; i++) {
		t.comp += st[i].comp;
		t.comm += st[i].comm;
		t.wait += st[i].wait;
		t.end += st[i].end - st[i].start;
		t.nsent += st[i].nsent;
		t.bsent += st[i].bsent;
		t.nrecv += st[i].nrecv;
		t.brecv += st[i].brecv;
		est |= !st[i].has_end;
	}
	t.has_end = !est;
	st_fill(w, &t);
	snprintf(w->c[0], CELL, "all");
	snprintf(w->c[1], CELL, "-");
	snprintf(w->c[2], CELL, "-");
	snprintf(w->c[3], CELL, "%d tasks", n);
}

static void st_widths(const st_row *rows, int nrows, int *wd)
{
	for (int j = 0; j < NCOL; j++)
		wd[j] = (int)strlen(st_head[j]);
	for (int i = 0; i < nrows; i++)
		for (int j = 0; j < NCOL; j++) {
			int l = (int)strlen(rows[i].c[j]);
			if (l > wd[j])
				wd[j] = l;
		}
}

/* Strings (host, program) left-aligned, numbers right-aligned (a '*' mark, or a
 * blank in its place, follows the number). */
static void st_line(FILE *out, const char *const *cells, const int *wd)
{
	for (int j = 0; j < NCOL; j++) {
		const char *sep = j ? "  " : "";
		if (j == 2 || j == 3)
			fprintf(out, "%s%-*s", sep, wd[j], cells[j]);
		else
			fprintf(out, "%s%*s", sep, wd[j], cells[j]);
	}
	fputc('\n', out);
}

static int st_print_text(FILE *out, st_row *rows, const vlpost_tstats *st, int n)
{
	int wd[NCOL], est = 0;
	const char *cells[NCOL];
	char el[32];
	st_total(&rows[n], st, n);
	for (int i = 0; i < n; i++)
		est |= !st[i].has_end;
	for (int i = 0; est && i <= n; i++)
		for (int j = 4; j < 7; j++)
			if (!strchr(rows[i].c[j], '*'))
				strcat(rows[i].c[j], " ");
	st_widths(rows, n + 1, wd);
	st_line(out, st_head, wd);
	for (int i = 0; i <= n; i++) {
		for (int j = 0; j < NCOL; j++)
			cells[j] = rows[i].c[j];
		st_line(out, cells, wd);
	}
	vlpost_fmt_sec(el, vlpost_stats_elapsed(st, n));
	fprintf(out, "predicted elapsed time: %s s\n", el);
	if (est)
		fprintf(out, "* no END record: components estimated from the records\n");
	return 0;
}


static void st_print_csv(FILE *out, const vlpost_tstats *st, int n)
{
	char a[CELL], b[CELL], c[CELL], d[CELL];
	fputs("proc,tid,host,host_name,program,comp_us,comm_us,wait_us,total_us,"
	      "msgs_sent,bytes_sent,msgs_recv,bytes_recv,estimated\n", out);
	for (int i = 0; i < n; i++) {
		const vlpost_tstats *s = &st[i];
		fmt_us(a, s->comp, 0);
		fmt_us(b, s->comm, 0);
		fmt_us(c, s->wait, 0);
		fmt_us(d, s->end - s->start, 0);
		fprintf(out, "%d,0x%x,%d,", s->proc, (unsigned)s->tid, (int)s->host);
		vlu_csv_str(out, s->host_name);
		fputc(',', out);
		vlu_csv_str(out, s->program);
		fprintf(out, ",%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d\n", a,
			b, c, d, s->nsent, s->bsent, s->nrecv, s->brecv, !s->has_end);
	}
}

int vlpost_stats_print(FILE *out, const vlpost_tstats *st, int n, int csv)
{
	st_row *rows;
	if (csv) {
		st_print_csv(out, st, n);
		return ferror(out) ? -1 : 0;
	}
	rows = calloc((size_t)n + 1, sizeof *rows);
	if (!rows)
		return -1;
	for (int i = 0; i < n; i++)
		st_fill(&rows[i], &st[i]);
	st_print_text(out, rows, st, n);
	free(rows);
	return ferror(out) ? -1 : 0;
}

/* ---- the report: histogram, matrix, critical path ---- */
struct vlpost_crec {
	int64_t t0, t1;
	int64_t wait; /* RECV, COLL: waiting ns */
	int64_t arr;  /* RECV: the message's arrival */
	int32_t peer;
	uint32_t seq;
	uint16_t type, flags;
};

struct vlpost_tidx {
	int32_t tid;
	int proc;
};

struct vlpost_ctask {
	vlpost_crec *r;      /* the records that take time or carry a dependency */
	size_t n, cap;
	size_t *sends;    /* indices in r of the SEND records (seq increasing) */
	size_t ns, scap;
};

int vlpost_hist_bucket(uint64_t bytes)
{
	int k = 0;
	while (bytes) {
		k++;
		bytes >>= 1;
	}
	return k < VLP_HIST_N ? k : VLP_HIST_N - 1;
}

uint64_t vlpost_hist_lo(int k)
{
	return k <= 0 ? 0 : (uint64_t)1 << (k - 1);
}

uint64_t vlpost_hist_hi(int k)
{
	if (k <= 0)
		return 0;
	return k >= VLP_HIST_N - 1 ? UINT64_MAX : ((uint64_t)1 << k) - 1;
}

static int tidx_cmp(const void *a, const void *b)
{
	const struct vlpost_tidx *x = a, *y = b;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Processor of tid, or -1. */
static int rep_proc(const vlpost_report *rep, int32_t tid)
{
	struct vlpost_tidx key = { tid, 0 }, *e;
	if (!rep->tids)
		return -1;
	e = bsearch(&key, rep->tids, (size_t)rep->n, sizeof key, tidx_cmp);
	return e ? e->proc : -1;
}

int vlpost_report_init(vlpost_report *rep, const vlpost_tstats *st, int n)
{
	memset(rep, 0, sizeof *rep);
	rep->n = n;
	rep->cp.end_proc = -1;
	if (n <= 0)
		return 0;
	rep->tids = calloc((size_t)n, sizeof *rep->tids);
	rep->tk = calloc((size_t)n, sizeof *rep->tk);
	if (!rep->tids || !rep->tk)
		return -1;
	for (int i = 0; i < n; i++)
		rep->tids[i] = (struct vlpost_tidx){ st[i].tid, i };
	qsort(rep->tids, (size_t)n, sizeof *rep->tids, tidx_cmp);
	return 0;
}

static uint64_t pair_hash(int from, int32_t tid)
{
	uint64_t k = ((uint64_t)(uint32_t)from << 32) | (uint32_t)tid;
	k *= 0x9E3779B97F4A7C15ull;
	return k ^ (k >> 29);
}

static int pair_grow(vlpost_report *rep)
{
	size_t cap = rep->pcap ? rep->pcap * 2 : 64;
	vlpost_pair *p = calloc(cap, sizeof *p);
	if (!p)
		return -1;
	for (size_t i = 0; i < rep->pcap; i++) {
		const vlpost_pair *o = &rep->pairs[i];
		size_t h;
		if (!o->n)
			continue;
		h = pair_hash(o->from, o->to_tid) & (cap - 1);
		while (p[h].n)
			h = (h + 1) & (cap - 1);
		p[h] = *o;
	}
	free(rep->pairs);
	rep->pairs = p;
	rep->pcap = cap;
	return 0;
}

/* The table has no empty-slot marker other than n == 0: every used slot has n >= 1. */
static int pair_add(vlpost_report *rep, int from, int32_t tid, uint64_t bytes)
{
	size_t h;
	vlpost_pair *e;
	if (2 * (rep->npairs + 1) > rep->pcap && pair_grow(rep) < 0)
		return -1;
	h = pair_hash(from, tid) & (rep->pcap - 1);
	while (rep->pairs[h].n && (rep->pairs[h].from != from || rep->pairs[h].to_tid != tid))
		h = (h + 1) & (rep->pcap - 1);
	e = &rep->pairs[h];
	if (!e->n) {
		e->from = from;
		e->to_tid = tid;
		e->to = rep_proc(rep, tid);
		rep->npairs++;
	}
	e->n++;
	e->bytes += bytes;
	return 0;
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

/* Keep what the critical path needs: SEND, RECV and SPAWN (dependencies), and the
 * records that take time (COMPUTE, PROBE, COLL).  START, END, MARK, PARAM take none. */
static int keep(struct vlpost_ctask *k, const vl_trec *r)
{
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

int vlpost_report_add(vlpost_report *rep, int proc, const vl_trec *r)
{
	if (proc < 0 || proc >= rep->n)
		return 0;
	if (r->type == VL_EV_SEND) {
		uint64_t b = (uint64_t)r->u.v.bytes;
		int k = vlpost_hist_bucket(b);
		rep->hist_n[k]++;
		rep->hist_bytes[k] += b;
		if (pair_add(rep, proc, r->peer, b) < 0)
			return -1;
	}
	return keep(&rep->tk[proc], r);
}

static int pair_cmp(const void *a, const void *b)
{
	const vlpost_pair *x = a, *y = b;
	int64_t kx = x->to >= 0 ? x->to : INT32_MAX, ky = y->to >= 0 ? y->to : INT32_MAX;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x->to_tid < y->to_tid ? -1 : x->to_tid > y->to_tid;
}

/* ---- critical path ---- */
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
	q = rep_proc(rep, c->peer);
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
	int q = rep_proc(rep, st[w->p].ptid);
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

static int cp_compute(vlpost_report *rep, const vlpost_tstats *st)
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

int vlpost_report_finish(vlpost_report *rep, const vlpost_tstats *st)
{
	size_t m = 0;
	for (size_t i = 0; i < rep->pcap; i++)
		if (rep->pairs[i].n)
			rep->pairs[m++] = rep->pairs[i];
	if (m)
		qsort(rep->pairs, m, sizeof *rep->pairs, pair_cmp);
	rep->npairs = m;
	rep->pcap = 0; /* no longer a hash table */
	return cp_compute(rep, st);
}

int vlpost_report_collect(vlpost_tset *set, vlpost_tstats *st, vlpost_report *rep, FILE *warn, char *err,
		       size_t errlen)
{
	for (int i = 0; i < set->n; i++)
		vlpost_stats_init(&st[i], i, &set->f[i].hdr);
	if (vlpost_report_init(rep, st, set->n) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < set->n; i++)
		if (st_read_task(&set->f[i], &st[i], rep, warn, err, errlen) < 0)
			return -1;
	if (vlpost_report_finish(rep, st) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void vlpost_report_free(vlpost_report *rep)
{
	for (int i = 0; rep->tk && i < rep->n; i++) {
		free(rep->tk[i].r);
		free(rep->tk[i].sends);
	}
	free(rep->tk);
	free(rep->tids);
	free(rep->pairs);
	free(rep->cp.procs);
	memset(rep, 0, sizeof *rep);
}

/* ---- printing the report ---- */
/* num / den with prec decimals, or none (den == 0). */
static void fmt_ratio(char *b, uint64_t num, uint64_t den, int prec, const char *none)
{
	if (!den)
		snprintf(b, CELL, "%s", none);
	else
		snprintf(b, CELL, "%.*f", prec, (double)num / (double)den);
}

static uint64_t nn(int64_t v)
{
	return v < 0 ? 0 : (uint64_t)v;
}

/* The derived columns of one task (or the totals t). */
typedef struct st_derived {
	char comm_comp[CELL], busy_total[CELL], avg[CELL];
} st_derived;

static void st_derive(st_derived *d, const vlpost_tstats *s, int prec, const char *none)
{
	fmt_ratio(d->comm_comp, nn(s->comm), nn(s->comp), prec, none);
	fmt_ratio(d->busy_total, nn(s->comm) + nn(s->wait), nn(s->end - s->start), prec, none);
	fmt_ratio(d->avg, s->bsent, s->nsent, prec == 4 ? 2 : prec, none);
}

/* Sums over the tasks, as one vlpost_tstats (start 0, end = sum of totals). */
static void st_sum(vlpost_tstats *t, const vlpost_tstats *st, int n)
{
	memset(t, 0, sizeof *t);
	t->has_end = 1;
	for (int i = 0; i < n; i++) {
		t->comp += st[i].comp;
		t->comm += st[i].comm;
		t->wait += st[i].wait;
		t->end += st[i].end - st[i].start;
		t->nsent += st[i].nsent;
		t->bsent += st[i].bsent;
		t->nrecv += st[i].nrecv;
		t->brecv += st[i].brecv;
		t->has_end &= st[i].has_end;
	}
}

/* The LS-DYNA method's approximation for a balanced job: M = mean of the tasks'
 * message counts, s = mean of their average message sizes (tasks that sent). */
static void lsdyna_means(const vlpost_tstats *st, int n, double *m, double *s, int *nsend)
{
	double sm = 0, ss = 0;
	*nsend = 0;
	for (int i = 0; i < n; i++) {
		sm += (double)st[i].nsent;
		if (st[i].nsent) {
			ss += (double)st[i].bsent / (double)st[i].nsent;
			(*nsend)++;
		}
	}
	*m = n ? sm / n : 0;
	*s = *nsend ? ss / *nsend : 0;
}

/* A right-aligned text table (columns in left: left-aligned), two blanks apart. */
static void tab_print(FILE *out, int ncol, const char *const *head, char (*c)[CELL], int nrows,
		      unsigned left)
{
	int wd[8];
	for (int j = 0; j < ncol; j++)
		wd[j] = (int)strlen(head[j]);
	for (int i = 0; i < nrows; i++)
		for (int j = 0; j < ncol; j++)
			if ((int)strlen(c[i * ncol + j]) > wd[j])
				wd[j] = (int)strlen(c[i * ncol + j]);
	for (int i = -1; i < nrows; i++) {
		for (int j = 0; j < ncol; j++) {
			const char *v = i < 0 ? head[j] : c[i * ncol + j];
			int l = (left >> j) & 1u;
			fprintf(out, "%s%*s", j ? "  " : "", l ? -wd[j] : wd[j], v);
		}
		fputc('\n', out);
	}
}

static int txt_tasks(FILE *out, const vlpost_tstats *st, int n)
{
	static const char *const head[5] = { "proc", "comm/comp", "(comm+wait)/total", "sent",
					     "avg_bytes_sent" };
	char (*c)[CELL] = calloc((size_t)(n + 1) * 5, CELL);
	vlpost_tstats t;
	st_derived d;
	double m, s;
	int ns;
	if (!c)
		return -1;
	st_sum(&t, st, n);
	for (int i = 0; i <= n; i++) {
		const vlpost_tstats *x = i < n ? &st[i] : &t;
		st_derive(&d, x, 4, "-");
		if (i < n)
			snprintf(c[i * 5], CELL, "%d", x->proc);
		else
			snprintf(c[i * 5], CELL, "all");
		memcpy(c[i * 5 + 1], d.comm_comp, CELL);
		memcpy(c[i * 5 + 2], d.busy_total, CELL);
		snprintf(c[i * 5 + 3], CELL, "%" PRIu64, x->nsent);
		memcpy(c[i * 5 + 4], d.avg, CELL);
	}
	fprintf(out, "\nmessages sent per task (LS-DYNA inputs: M = sent, s = avg_bytes_sent):\n");
	tab_print(out, 5, head, c, n + 1, 0);
	free(c);
	lsdyna_means(st, n, &m, &s, &ns);
	fprintf(out, "balanced-job approximation: M = %.2f messages (mean over %d tasks), "
		"s = %.2f bytes (mean over the %d tasks that sent)\n", m, n, s, ns);
	return 0;
}

static int hist_top(const vlpost_report *rep)
{
	int top = -1;
	for (int k = 0; k < VLP_HIST_N; k++)
		if (rep->hist_n[k])
			top = k;
	return top;
}

static void fmt_bucket(char *b, int k)
{
	if (k <= 1)
		snprintf(b, CELL, "%d", k);
	else if (k == VLP_HIST_N - 1)
		snprintf(b, CELL, "%" PRIu64 "-", vlpost_hist_lo(k));
	else
		snprintf(b, CELL, "%" PRIu64 "-%" PRIu64, vlpost_hist_lo(k), vlpost_hist_hi(k));
}

static int txt_hist(FILE *out, const vlpost_report *rep)
{
	static const char *const head[3] = { "size", "msgs", "bytes" };
	char c[VLP_HIST_N * 3][CELL];
	int top = hist_top(rep);
	fprintf(out, "\nmessage sizes (bytes, sent):\n");
	if (top < 0)
		return fprintf(out, "no messages\n"), 0;
	for (int k = 0; k <= top; k++) {
		fmt_bucket(c[k * 3], k);
		snprintf(c[k * 3 + 1], CELL, "%" PRIu64, rep->hist_n[k]);
		snprintf(c[k * 3 + 2], CELL, "%" PRIu64, rep->hist_bytes[k]);
	}
	tab_print(out, 3, head, c, top + 1, 0);
	return 0;
}

static int txt_matrix(FILE *out, const vlpost_report *rep, unsigned flags)
{
	static const char *const head[4] = { "from", "to", "msgs", "bytes" };
	char (*c)[CELL];
	fprintf(out, "\nmessages by sender and receiver (processors):\n");
	if (rep->npairs == 0)
		return fprintf(out, "no messages\n"), 0;
	if (rep->n > VLP_MATRIX_AUTO && !(flags & VLP_REP_MATRIX))
		return fprintf(out, "%zu pairs of %d tasks (--matrix prints them)\n", rep->npairs,
			       rep->n), 0;
	c = calloc(rep->npairs * 4, CELL);
	if (!c)
		return -1;
	for (size_t i = 0; i < rep->npairs; i++) {
		const vlpost_pair *p = &rep->pairs[i];
		snprintf(c[i * 4], CELL, "%d", p->from);
		if (p->to >= 0)
			snprintf(c[i * 4 + 1], CELL, "%d", p->to);
		else
			snprintf(c[i * 4 + 1], CELL, "tid 0x%x", (unsigned)p->to_tid);
		snprintf(c[i * 4 + 2], CELL, "%" PRIu64, p->n);
		snprintf(c[i * 4 + 3], CELL, "%" PRIu64, p->bytes);
	}
	tab_print(out, 4, head, c, (int)rep->npairs, 0);
	free(c);
	return 0;
}

static void txt_critpath(FILE *out, const vlpost_critpath *cp)
{
	char a[CELL], b[CELL], d[CELL], e[CELL], f[CELL], g[CELL];
	fprintf(out, "\ncritical path:");
	if (cp->end_proc < 0) {
		fprintf(out, " no tasks\n");
		return;
	}
	fmt_us(a, cp->end - cp->start, 0);
	fmt_us(b, cp->start, 0);
	fmt_us(d, cp->end, 0);
	fprintf(out, " %s us, from %s us (proc %d) to %s us (end of proc %d)%s\n", a, b,
		cp->procs[0], d, cp->end_proc, cp->cut ? ", cut at an inconsistent trace" : "");
	fmt_us(e, cp->comp, 0);
	fmt_us(f, cp->comm, 0);
	fmt_us(g, cp->wait, 0);
	fprintf(out, "  computation %s us, communication %s us, waiting %s us\n", e, f, g);
	fprintf(out, "  edges: %" PRIu64 " messages, %" PRIu64 " spawns; tasks", cp->messages,
		cp->spawns);
	if (cp->nprocs > 21)
		fprintf(out, " (%d segments)", cp->nprocs);
	fputc(':', out);
	for (int i = 0; i < cp->nprocs; i++) {
		if (cp->nprocs > 21 && i == 10) {
			fprintf(out, " -> ...");
			i = cp->nprocs - 11;
			continue;
		}
		fprintf(out, "%s%d", i ? " -> " : " ", cp->procs[i]);
	}
	fputc('\n', out);
}

static int print_text(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		      unsigned flags)
{
	if (vlpost_stats_print(out, st, n, 0) < 0)
		return -1;
	if (flags & VLP_REP_BRIEF)
		return 0;
	if (txt_tasks(out, st, n) < 0 || txt_hist(out, rep) < 0 ||
	    txt_matrix(out, rep, flags) < 0)
		return -1;
	txt_critpath(out, &rep->cp);
	return 0;
}

/* The task with the most communication time, or -1 (no tasks). */
static int max_comm_proc(const vlpost_tstats *st, int n)
{
	int mx = -1;
	for (int i = 0; i < n; i++)
		if (mx < 0 || st[i].comm > st[mx].comm)
			mx = i;
	return mx;
}

/* ---- CSV: the task table, then each section after an empty line, with its own
 * header row (first columns: proc, tasks, bucket, from, critical_path_us) ---- */
static void csv_tasks(FILE *out, const vlpost_tstats *st, int n)
{
	char a[CELL], b[CELL], c[CELL], d[CELL];
	fputs("proc,tid,host,host_name,program,comp_us,comm_us,wait_us,total_us,"
	      "msgs_sent,bytes_sent,msgs_recv,bytes_recv,estimated,"
	      "comm_comp_ratio,commwait_total_ratio,avg_bytes_sent\n", out);
	for (int i = 0; i < n; i++) {
		const vlpost_tstats *s = &st[i];
		st_derived x;
		fmt_us(a, s->comp, 0);
		fmt_us(b, s->comm, 0);
		fmt_us(c, s->wait, 0);
		fmt_us(d, s->end - s->start, 0);
		st_derive(&x, s, 6, "");
		fprintf(out, "%d,0x%x,%d,", s->proc, (unsigned)s->tid, (int)s->host);
		vlu_csv_str(out, s->host_name);
		fputc(',', out);
		vlu_csv_str(out, s->program);
		fprintf(out, ",%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d,%s,%s,%s\n",
			a, b, c, d, s->nsent, s->bsent, s->nrecv, s->brecv, !s->has_end,
			x.comm_comp, x.busy_total, x.avg);
	}
}

/* The totals, the LS-DYNA approximation and the predicted elapsed time. */
static void csv_totals(FILE *out, const vlpost_tstats *st, int n)
{
	char a[CELL], b[CELL], c[CELL], d[CELL], el[32];
	vlpost_tstats t;
	st_derived x;
	double m, s;
	int ns;
	st_sum(&t, st, n);
	st_derive(&x, &t, 6, "");
	lsdyna_means(st, n, &m, &s, &ns);
	fmt_us(a, t.comp, 0);
	fmt_us(b, t.comm, 0);
	fmt_us(c, t.wait, 0);
	fmt_us(d, t.end, 0);
	vlpost_fmt_sec(el, vlpost_stats_elapsed(st, n));
	fputs("\ntasks,comp_us,comm_us,wait_us,total_us,msgs_sent,bytes_sent,msgs_recv,"
	      "bytes_recv,estimated,comm_comp_ratio,commwait_total_ratio,avg_bytes_sent,"
	      "mean_msgs_sent,mean_avg_bytes_sent,tasks_that_sent,max_comm_proc,"
	      "predicted_elapsed_s\n", out);
	fprintf(out, "%d,%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%d,%s,%s,%s,%.6f,%.6f,%d,%d,%s\n", n, a, b, c, d, t.nsent, t.bsent, t.nrecv,
		t.brecv, !t.has_end, x.comm_comp, x.busy_total, x.avg, m, s, ns,
		max_comm_proc(st, n), el);
}

static void csv_hist(FILE *out, const vlpost_report *rep)
{
	int top = hist_top(rep);
	fputs("\nbucket,size_lo,size_hi,msgs,bytes\n", out);
	for (int k = 0; k <= top; k++)
		fprintf(out, "%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", k,
			vlpost_hist_lo(k), vlpost_hist_hi(k), rep->hist_n[k], rep->hist_bytes[k]);
}

/* to is empty for a task without trace (to_tid names it). */
static void csv_matrix(FILE *out, const vlpost_report *rep)
{
	fputs("\nfrom,to,to_tid,msgs,bytes\n", out);
	for (size_t i = 0; i < rep->npairs; i++) {
		const vlpost_pair *p = &rep->pairs[i];
		fprintf(out, "%d,", p->from);
		if (p->to >= 0)
			fprintf(out, "%d", p->to);
		fprintf(out, ",0x%x,%" PRIu64 ",%" PRIu64 "\n", (unsigned)p->to_tid, p->n,
			p->bytes);
	}
}

/* One row (none without tasks); procs: the path's tasks, blank-separated. */
static void csv_critpath(FILE *out, const vlpost_critpath *cp)
{
	char a[CELL], b[CELL], c[CELL], d[CELL], e[CELL], f[CELL];
	fputs("\ncritical_path_us,start_us,end_us,end_proc,comp_us,comm_us,wait_us,messages,"
	      "spawns,cut,procs\n", out);
	if (cp->end_proc < 0)
		return;
	fmt_us(a, cp->end - cp->start, 0);
	fmt_us(b, cp->start, 0);
	fmt_us(c, cp->end, 0);
	fmt_us(d, cp->comp, 0);
	fmt_us(e, cp->comm, 0);
	fmt_us(f, cp->wait, 0);
	fprintf(out, "%s,%s,%s,%d,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%d,", a, b, c, cp->end_proc, d,
		e, f, cp->messages, cp->spawns, cp->cut);
	for (int i = 0; i < cp->nprocs; i++)
		fprintf(out, "%s%d", i ? " " : "", cp->procs[i]);
	fputc('\n', out);
}

static int print_csv(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		     unsigned flags)
{
	csv_tasks(out, st, n);
	if (flags & VLP_REP_BRIEF)
		return 0;
	csv_totals(out, st, n);
	csv_hist(out, rep);
	csv_matrix(out, rep);
	csv_critpath(out, &rep->cp);
	return 0;
}

/* ---- JSON ---- */
static void j_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

/* The fields shared by a task and the totals (after "{" and the identity). */
static void j_times(FILE *out, const vlpost_tstats *s)
{
	st_derived d;
	st_derive(&d, s, 6, "null");
	fprintf(out, "\"comp_ns\": %" PRId64 ", \"comm_ns\": %" PRId64 ", \"wait_ns\": %" PRId64
		", \"total_ns\": %" PRId64 ", \"msgs_sent\": %" PRIu64 ", \"bytes_sent\": %" PRIu64
		", \"msgs_recv\": %" PRIu64 ", \"bytes_recv\": %" PRIu64 ", \"avg_bytes_sent\": %s"
		", \"comm_comp_ratio\": %s, \"commwait_total_ratio\": %s, \"estimated\": %s",
		s->comp, s->comm, s->wait, s->end - s->start, s->nsent, s->bsent, s->nrecv,
		s->brecv, d.avg, d.comm_comp, d.busy_total, s->has_end ? "false" : "true");
}

static void j_tasks(FILE *out, const vlpost_tstats *st, int n)
{
	fprintf(out, "  \"tasks\": [");
	for (int i = 0; i < n; i++) {
		const vlpost_tstats *s = &st[i];
		fprintf(out, "%s\n    {\"proc\": %d, \"tid\": %" PRId32 ", \"tid_hex\": \"0x%x\", "
			"\"host\": %" PRId32 ", \"host_name\": ", i ? "," : "", s->proc, s->tid,
			(unsigned)s->tid, s->host);
		j_str(out, s->host_name);
		fprintf(out, ", \"program\": ");
		j_str(out, s->program);
		fprintf(out, ", \"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64 ", ", s->start,
			s->end);
		j_times(out, s);
		fputc('}', out);
	}
	fprintf(out, "%s],\n", n ? "\n  " : "");
}

static void j_totals(FILE *out, const vlpost_tstats *st, int n)
{
	vlpost_tstats t;
	double m, s;
	int ns, mx = max_comm_proc(st, n);
	st_sum(&t, st, n);
	lsdyna_means(st, n, &m, &s, &ns);
	fprintf(out, "  \"totals\": {\"tasks\": %d, ", n);
	j_times(out, &t);
	fprintf(out, ",\n    \"lsdyna\": {\"mean_msgs_sent\": %.6f, \"mean_avg_bytes_sent\": %.6f, "
		"\"tasks_that_sent\": %d, \"max_comm_proc\": %d}},\n", m, s, ns, mx);
}

static void j_hist(FILE *out, const vlpost_report *rep)
{
	int top = hist_top(rep);
	fprintf(out, "  \"histogram\": [");
	for (int k = 0; k <= top; k++)
		fprintf(out, "%s\n    {\"bucket\": %d, \"lo\": %" PRIu64 ", \"hi\": %" PRIu64
			", \"msgs\": %" PRIu64 ", \"bytes\": %" PRIu64 "}", k ? "," : "", k,
			vlpost_hist_lo(k), vlpost_hist_hi(k), rep->hist_n[k], rep->hist_bytes[k]);
	fprintf(out, "%s],\n", top >= 0 ? "\n  " : "");
}

static void j_matrix(FILE *out, const vlpost_report *rep)
{
	fprintf(out, "  \"matrix\": [");
	for (size_t i = 0; i < rep->npairs; i++) {
		const vlpost_pair *p = &rep->pairs[i];
		fprintf(out, "%s\n    {\"from\": %d, \"to\": ", i ? "," : "", p->from);
		if (p->to >= 0)
			fprintf(out, "%d", p->to);
		else
			fprintf(out, "null");
		fprintf(out, ", \"to_tid\": %" PRId32 ", \"msgs\": %" PRIu64 ", \"bytes\": %" PRIu64
			"}", p->to_tid, p->n, p->bytes);
	}
	fprintf(out, "%s],\n", rep->npairs ? "\n  " : "");
}

static void j_critpath(FILE *out, const vlpost_critpath *cp)
{
	fprintf(out, "  \"critical_path\": ");
	if (cp->end_proc < 0) {
		fprintf(out, "null,\n");
		return;
	}
	fprintf(out, "{\"length_ns\": %" PRId64 ", \"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64
		", \"end_proc\": %d, \"comp_ns\": %" PRId64 ", \"comm_ns\": %" PRId64
		", \"wait_ns\": %" PRId64 ", \"messages\": %" PRIu64 ", \"spawns\": %" PRIu64
		", \"cut\": %s,\n    \"tasks\": [", cp->end - cp->start, cp->start, cp->end,
		cp->end_proc, cp->comp, cp->comm, cp->wait, cp->messages, cp->spawns,
		cp->cut ? "true" : "false");
	for (int i = 0; i < cp->nprocs; i++)
		fprintf(out, "%s%d", i ? ", " : "", cp->procs[i]);
	fprintf(out, "]},\n");
}

static int print_json(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		      unsigned flags)
{
	char el[32];
	int64_t e = vlpost_stats_elapsed(st, n);
	fprintf(out, "{\n");
	j_tasks(out, st, n);
	j_totals(out, st, n);
	if (!(flags & VLP_REP_BRIEF)) {
		j_hist(out, rep);
		j_matrix(out, rep);
		j_critpath(out, &rep->cp);
	}
	vlpost_fmt_sec(el, e);
	fprintf(out, "  \"predicted_elapsed_ns\": %" PRId64 ",\n  \"predicted_elapsed_s\": %s\n}\n",
		e, el);
	return 0;
}

int vlpost_report_print(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		     enum vlpost_fmt fmt, unsigned flags)
{
	int rc;
	if (fmt == VLP_FMT_JSON)
		rc = print_json(out, st, n, rep, flags);
	else if (fmt == VLP_FMT_CSV)
		rc = print_csv(out, st, n, rep, flags);
	else
		rc = print_text(out, st, n, rep, flags);
	return rc < 0 || ferror(out) ? -1 : 0;
}
