/* stats.c - per-task summary of a trace set. */
#include "stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void vlp_stats_init(vlp_tstats *s, int proc, const vl_thdr *h)
{
	memset(s, 0, sizeof *s);
	s->proc = proc;
	s->tid = h->tid;
	s->host = h->host;
	memcpy(s->host_name, h->host_name, sizeof s->host_name);
	s->host_name[sizeof s->host_name - 1] = '\0';
	memcpy(s->program, h->program, sizeof s->program);
	s->program[sizeof s->program - 1] = '\0';
	s->start = s->end = s->last = h->start_ns;
}

static void st_send(vlp_tstats *s, const vl_trec *r)
{
	int shared = (r->flags & VL_TF_MCAST) && s->mc_on && r->u.v.t0 == s->mc_t0 &&
		     r->u.v.t1 == s->mc_t1;
	s->nsent++;
	s->bsent += (uint64_t)r->u.v.bytes;
	if (!shared)
		s->rcomm += r->u.v.t1 - r->u.v.t0;
	s->mc_on = (r->flags & VL_TF_MCAST) != 0;
	s->mc_t0 = r->u.v.t0;
	s->mc_t1 = r->u.v.t1;
}

void vlp_stats_add(vlp_tstats *s, const vl_trec *r)
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
		s->rcomm += d - r->u.v.t2;
		s->rwait += r->u.v.t2;
		break;
	case VL_EV_PROBE:
	case VL_EV_SPAWN:
		s->rcomm += d;
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

void vlp_stats_done(vlp_tstats *s)
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

static int st_read_task(vl_tfile *f, vlp_tstats *s, FILE *warn, char *err, size_t errlen)
{
	vl_trec r;
	int rc;
	while ((rc = vl_tfile_next(f, &r)) == 1)
		vlp_stats_add(s, &r);
	vlp_stats_done(s);
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

int vlp_stats_collect(vl_tset *set, vlp_tstats *st, FILE *warn, char *err, size_t errlen)
{
	for (int i = 0; i < set->n; i++) {
		vlp_stats_init(&st[i], i, &set->f[i].hdr);
		if (st_read_task(&set->f[i], &st[i], warn, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int64_t vlp_stats_elapsed(const vlp_tstats *st, int n)
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

int vlp_fmt_sec(char *buf, int64_t ns)
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

static void st_fill(st_row *w, const vlp_tstats *s)
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

static void st_total(st_row *w, const vlp_tstats *st, int n)
{
	vlp_tstats t;
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

static int st_print_text(FILE *out, st_row *rows, const vlp_tstats *st, int n)
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
	vlp_fmt_sec(el, vlp_stats_elapsed(st, n));
	fprintf(out, "predicted elapsed time: %s s\n", el);
	if (est)
		fprintf(out, "* no END record: components estimated from the records\n");
	return 0;
}

static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void st_print_csv(FILE *out, const vlp_tstats *st, int n)
{
	char a[CELL], b[CELL], c[CELL], d[CELL];
	fputs("proc,tid,host,host_name,program,comp_us,comm_us,wait_us,total_us,"
	      "msgs_sent,bytes_sent,msgs_recv,bytes_recv,estimated\n", out);
	for (int i = 0; i < n; i++) {
		const vlp_tstats *s = &st[i];
		fmt_us(a, s->comp, 0);
		fmt_us(b, s->comm, 0);
		fmt_us(c, s->wait, 0);
		fmt_us(d, s->end - s->start, 0);
		fprintf(out, "%d,0x%x,%d,", s->proc, (unsigned)s->tid, (int)s->host);
		csv_field(out, s->host_name);
		fputc(',', out);
		csv_field(out, s->program);
		fprintf(out, ",%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d\n", a,
			b, c, d, s->nsent, s->bsent, s->nrecv, s->brecv, !s->has_end);
	}
}

int vlp_stats_print(FILE *out, const vlp_tstats *st, int n, int csv)
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
