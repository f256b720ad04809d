/* trfcheck.c - validate a PICL 2.0 .trf file (vlpost check).
 *
 * Rules (docs/vlpost.md): line syntax; time never decreases; per processor the
 * first record is -3 -901, the last -4 -901, entries and exits nest properly;
 * every receive end (-4 -51/-52/-60/-61) comes at or after a send begin
 * (-3 -21..-24/-27) of the same (source, destination, tag), matched in FIFO
 * order; processors are numbered 0..P-1 and messages name existing processors.
 */
#include "trf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define CK_MAXPROC (1 << 20)
#define CK_MAXDATA 64
#define CK_MAXSEC INT64_C(4611686018) /* whole seconds of 2^62 ns, the latest time of a trace */

typedef struct ck_open {
	int64_t code;
	uint64_t line;
} ck_open;

typedef struct ck_proc {
	int state;              /* 0 no record yet, 1 open, 2 after -4 -901 */
	ck_open *stk;
	int depth, cap;
} ck_proc;

typedef struct ck_chan {
	int64_t src, dst, tag;
	uint64_t sends, recvs;
	uint64_t line;          /* first line naming this channel */
	uint64_t pend_line;     /* receive end still waiting for its send (0: none) */
	int used;
} ck_chan;

typedef struct ck_rec {
	int64_t rt, ev, t, proc, process, nd;
	int64_t d[CK_MAXDATA];
} ck_rec;

typedef struct ck {
	ck_proc *pr;
	int npr;                /* 1 + highest processor seen */
	ck_chan *ch;
	size_t cap, used;
	size_t *pend;           /* channels with a waiting receive end */
	size_t npend, cpend;
	int64_t now;
	uint64_t line, records;
	vlpost_check_res *res;
	char *err;
	size_t errlen;
} ck;

__attribute__((format(printf, 3, 4)))
static int ck_fail(ck *c, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	c->res->line = line;
	return 1;
}

/* ---- syntax ---- */
static int parse_int(const char **s, int64_t *v)
{
	const char *p = *s;
	int neg = 0;
	uint64_t a = 0;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (a > (UINT64_C(1) << 62) / 10)
			return -1;
		a = a * 10 + (uint64_t)(*p - '0');
	}
	if (a > (UINT64_C(1) << 62))
		return -1;
	*v = neg ? -(int64_t)a : (int64_t)a;
	*s = p;
	return 0;
}

/* seconds with decimals -> ns (digits beyond the ninth decimal are ignored);
 * at most CK_MAXSEC whole seconds */
static int parse_time(const char **s, int64_t *ns)
{
	const char *p = *s;
	int neg = 0, nd = 0;
	int64_t sec = 0, frac = 0;
	if (*p == '-')
		neg = *p++ == '-';
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		sec = sec * 10 + (*p - '0');
		if (sec > CK_MAXSEC)
			return -1;
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (nd < 9) {
				frac = frac * 10 + (*p - '0');
				nd++;
			}
	for (; nd < 9; nd++)
		frac *= 10;
	*ns = (neg ? -1 : 1) * (sec * 1000000000 + frac);
	*s = p;
	return 0;
}

static int field_end(const char **s)
{
	const char *p = *s;
	if (*p != ' ' && *p != '\t' && *p != '\0')
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	*s = p;
	return 0;
}

static int ck_ints(const char **p, int64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		if (parse_int(p, &v[i]) < 0 || field_end(p) < 0)
			return -1;
	return 0;
}

static int ck_parse(ck *c, const char *s, ck_rec *r)
{
	int64_t head[2], rest[3], dt;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0')
		return ck_fail(c, c->line, "empty line");
	if (ck_ints(&s, head, 2) < 0 || parse_time(&s, &r->t) < 0 || field_end(&s) < 0 ||
	    ck_ints(&s, rest, 3) < 0)
		return ck_fail(c, c->line, "syntax: expected <record> <event> <time> "
			       "<processor> <process> <ndata> [2 <data>...]");
	r->rt = head[0];
	r->ev = head[1];
	r->proc = rest[0];
	r->process = rest[1];
	r->nd = rest[2];
	if (r->nd < 0 || r->nd > CK_MAXDATA)
		return ck_fail(c, c->line, "bad data count %lld", (long long)r->nd);
	if (*s && (ck_ints(&s, &dt, 1) < 0 || dt != 2))
		return ck_fail(c, c->line, "data type must be 2 (integers)");
	if (ck_ints(&s, r->d, (int)r->nd) < 0)
		return ck_fail(c, c->line, "expected %lld integer data values", (long long)r->nd);
	if (*s)
		return ck_fail(c, c->line, "extra fields after the data");
	return 0;
}

/* ---- channels: (src, dst, tag) -> counts ---- */
static size_t ch_hash(int64_t a, int64_t b, int64_t t)
{
	uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15u;
	h ^= (uint64_t)b * 0xc2b2ae3d27d4eb4fu + (h >> 29);
	h ^= (uint64_t)t * 0x165667b19e3779f9u + (h >> 31);
	return (size_t)(h ^ (h >> 33));
}

static int ch_grow(ck *c)
{
	size_t ncap = c->cap ? 2 * c->cap : 64, i;
	ck_chan *nt = calloc(ncap, sizeof *nt), *old = c->ch;
	if (!nt)
		return -1;
	for (i = 0; i < c->cap; i++) {
		size_t j;
		if (!old[i].used)
			continue;
		j = ch_hash(old[i].src, old[i].dst, old[i].tag) & (ncap - 1);
		while (nt[j].used)
			j = (j + 1) & (ncap - 1);
		nt[j] = old[i];
	}
	free(old);
	c->ch = nt;
	c->cap = ncap;
	/* indices changed: the waiting list is rebuilt from the table */
	c->npend = 0;
	for (i = 0; i < ncap; i++)
		if (nt[i].used && nt[i].pend_line)
			c->pend[c->npend++] = i;
	return 0;
}

static ck_chan *ch_get(ck *c, int64_t src, int64_t dst, int64_t tag)
{
	size_t j;
	if ((c->used + 1) * 2 > c->cap && ch_grow(c) < 0)
		return NULL;
	j = ch_hash(src, dst, tag) & (c->cap - 1);
	while (c->ch[j].used) {
		ck_chan *h = &c->ch[j];
		if (h->src == src && h->dst == dst && h->tag == tag)
			return h;
		j = (j + 1) & (c->cap - 1);
	}
	c->ch[j] = (ck_chan){ src, dst, tag, 0, 0, c->line, 0, 1 };
	c->used++;
	return &c->ch[j];
}

static int pend_add(ck *c, const ck_chan *h)
{
	if (c->npend == c->cpend) {
		size_t n = c->cpend ? 2 * c->cpend : 16;
		size_t *p = realloc(c->pend, n * sizeof *p);
		if (!p)
			return -1;
		c->pend = p;
		c->cpend = n;
	}
	c->pend[c->npend++] = (size_t)(h - c->ch);
	return 0;
}

/* Receive ends still unmatched when time moves on (or at EOF) are errors. */
static int pend_check(ck *c)
{
	for (size_t i = 0; i < c->npend; i++) {
		ck_chan *h = &c->ch[c->pend[i]];
		if (h->pend_line && h->recvs > h->sends)
			return ck_fail(c, h->pend_line, "receive end before any matching send begin "
				       "(source %lld, destination %lld, tag %lld)", (long long)h->src,
				       (long long)h->dst, (long long)h->tag);
		h->pend_line = 0;
	}
	c->npend = 0;
	return 0;
}

static int is_send(int64_t ev)
{
	return (ev <= -21 && ev >= -24) || ev == -27;
}

static int is_recv_end(int64_t ev)
{
	return ev == -51 || ev == -52 || ev == -60 || ev == -61;
}

static int ck_message(ck *c, const ck_rec *r)
{
	ck_chan *h;
	int send = r->rt == -3 && is_send(r->ev);
	if (!send && !(r->rt == -4 && is_recv_end(r->ev)))
		return 0;
	if (r->nd < 3)
		return ck_fail(c, c->line, "message record needs 3 data values "
			       "(bytes, tag, processor)");
	if (r->d[2] < 0 || r->d[2] >= CK_MAXPROC)
		return ck_fail(c, c->line, "bad partner processor %lld", (long long)r->d[2]);
	h = send ? ch_get(c, r->proc, r->d[2], r->d[1]) : ch_get(c, r->d[2], r->proc, r->d[1]);
	if (!h)
		return ck_fail(c, c->line, "out of memory");
	if (send) {
		if (++h->sends >= h->recvs)
			h->pend_line = 0;
		return 0;
	}
	h->recvs++;
	if (h->recvs > h->sends && !h->pend_line) {
		h->pend_line = c->line;
		if (pend_add(c, h) < 0)
			return ck_fail(c, c->line, "out of memory");
	}
	return 0;
}

/* ---- nesting per processor ---- */
static ck_proc *pr_get(ck *c, int64_t p)
{
	if (p >= c->npr) {
		ck_proc *n = realloc(c->pr, (size_t)(p + 1) * sizeof *n);
		if (!n)
			return NULL;
		memset(n + c->npr, 0, (size_t)(p + 1 - c->npr) * sizeof *n);
		c->pr = n;
		c->npr = (int)p + 1;
	}
	return &c->pr[p];
}

static int pr_push(ck *c, ck_proc *p, int64_t code)
{
	if (p->depth == p->cap) {
		int n = p->cap ? 2 * p->cap : 8;
		ck_open *s = realloc(p->stk, (size_t)n * sizeof *s);
		if (!s)
			return ck_fail(c, c->line, "out of memory");
		p->stk = s;
		p->cap = n;
	}
	p->stk[p->depth++] = (ck_open){ code, c->line };
	return 0;
}

static int ck_exit(ck *c, ck_proc *p, const ck_rec *r)
{
	ck_open *top;
	if (p->depth == 0)
		return ck_fail(c, c->line, "-4 %lld without -3", (long long)r->ev);
	top = &p->stk[p->depth - 1];
	if (top->code != r->ev)
		return ck_fail(c, c->line, "-4 %lld does not close -3 %lld of line %llu",
			       (long long)r->ev, (long long)top->code, (unsigned long long)top->line);
	p->depth--;
	if (r->ev == -901)
		p->state = 2;
	return 0;
}

static int ck_nesting(ck *c, const ck_rec *r)
{
	ck_proc *p;
	if (r->proc < 0 || r->proc >= CK_MAXPROC)
		return ck_fail(c, c->line, "bad processor %lld", (long long)r->proc);
	p = pr_get(c, r->proc);
	if (!p)
		return ck_fail(c, c->line, "out of memory");
	if (p->state == 0 && !(r->rt == -3 && r->ev == -901))
		return ck_fail(c, c->line, "processor %lld: first record is not -3 -901",
			       (long long)r->proc);
	if (p->state == 2)
		return ck_fail(c, c->line, "processor %lld: record after -4 -901", (long long)r->proc);
	if (r->rt == -3 && r->ev == -901 && p->state == 1)
		return ck_fail(c, c->line, "processor %lld: second -3 -901", (long long)r->proc);
	p->state = 1;
	if (r->rt == -3)
		return pr_push(c, p, r->ev);
	if (r->rt == -4)
		return ck_exit(c, p, r);
	return 0;
}

static int ck_line(ck *c, const char *s)
{
	ck_rec r;
	int rc = ck_parse(c, s, &r);
	if (rc)
		return rc;
	if (r.rt != -2 && r.rt != -3 && r.rt != -4)
		return ck_fail(c, c->line, "unsupported record type %lld", (long long)r.rt);
	if (c->records && r.t < c->now) {
		char a[32], b[32];
		vlpost_fmt_sec(a, r.t);
		vlpost_fmt_sec(b, c->now);
		return ck_fail(c, c->line, "time goes backwards (%s after %s)", a, b);
	}
	if (r.t > c->now && c->npend && (rc = pend_check(c)) != 0)
		return rc;
	c->now = r.t;
	c->records++;
	if ((rc = ck_nesting(c, &r)) != 0)
		return rc;
	return ck_message(c, &r);
}

static int ck_finish(ck *c)
{
	int rc = pend_check(c);
	if (rc)
		return rc;
	if (c->npr == 0)
		return ck_fail(c, c->line, "no records");
	for (int i = 0; i < c->npr; i++) {
		if (c->pr[i].state == 0)
			return ck_fail(c, c->line, "processor %d has no records "
				       "(processors must be numbered 0..P-1)", i);
		if (c->pr[i].state != 2)
			return ck_fail(c, c->line, "processor %d: no -4 -901 at its end", i);
	}
	for (size_t j = 0; j < c->cap; j++) {
		ck_chan *h = &c->ch[j];
		if (h->used && (h->src >= c->npr || h->dst >= c->npr))
			return ck_fail(c, h->line, "message names processor %lld, which has no records",
				       (long long)(h->src >= c->npr ? h->src : h->dst));
	}
	return 0;
}

static void ck_free(ck *c)
{
	for (int i = 0; i < c->npr; i++)
		free(c->pr[i].stk);
	free(c->pr);
	free(c->ch);
	free(c->pend);
}

int vlpost_trf_check(FILE *in, vlpost_check_res *res, char *err, size_t errlen)
{
	ck c;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;
	memset(&c, 0, sizeof c);
	memset(res, 0, sizeof *res);
	c.res = res;
	c.err = err;
	c.errlen = errlen;
	while (rc == 0 && (n = getline(&buf, &cap, in)) >= 0) {
		c.line++;
		if (n > 0 && buf[n - 1] == '\n')
			buf[--n] = '\0';
		if ((size_t)n != strlen(buf))
			rc = ck_fail(&c, c.line, "NUL byte in line");
		else
			rc = ck_line(&c, buf);
	}
	if (rc == 0 && ferror(in)) {
		snprintf(err, errlen, "read error: %s", strerror(errno));
		rc = -1;
	}
	if (rc == 0)
		rc = ck_finish(&c);
	res->records = c.records;
	res->procs = c.npr;
	free(buf);
	ck_free(&c);
	return rc;
}
