/* stats_text.c - the stats table and the report as text (stats_print.h). */
#include "stats_print.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- the table ---- */
enum { NCOL = 12 };

typedef struct st_row {
	char c[NCOL][VLPOST_CELL];
} st_row;

static const char *const st_head[NCOL] = {
	"proc", "tid", "host", "program", "comp_us", "comm_us",
	"wait_us", "total_us", "sent", "bytes_sent", "recv", "bytes_recv",
};

static void st_fill(st_row *w, const vlpost_tstats *s)
{
	int e = !s->has_end;
	snprintf(w->c[0], VLPOST_CELL, "%d", s->proc);
	snprintf(w->c[1], VLPOST_CELL, "0x%x", (unsigned)s->tid);
	snprintf(w->c[2], VLPOST_CELL, "%.*s", VLPOST_CELL - 1, s->host_name[0] ? s->host_name : "?");
	snprintf(w->c[3], VLPOST_CELL, "%.*s", VLPOST_CELL - 1, s->program[0] ? s->program : "?");
	vlpost_rp_us(w->c[4], s->comp, e);
	vlpost_rp_us(w->c[5], s->comm, e);
	vlpost_rp_us(w->c[6], s->wait, e);
	vlpost_rp_us(w->c[7], s->end - s->start, 0);
	snprintf(w->c[8], VLPOST_CELL, "%" PRIu64, s->nsent);
	snprintf(w->c[9], VLPOST_CELL, "%" PRIu64, s->bsent);
	snprintf(w->c[10], VLPOST_CELL, "%" PRIu64, s->nrecv);
	snprintf(w->c[11], VLPOST_CELL, "%" PRIu64, s->brecv);
}

static void st_total(st_row *w, const vlpost_tstats *st, int n)
{
	vlpost_tstats t;
	vlpost_rp_sum(&t, st, n);
	st_fill(w, &t);
	snprintf(w->c[0], VLPOST_CELL, "all");
	snprintf(w->c[1], VLPOST_CELL, "-");
	snprintf(w->c[2], VLPOST_CELL, "-");
	snprintf(w->c[3], VLPOST_CELL, "%d tasks", n);
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

/* Measured computation: what the layer could not keep out of the CPU times
 * (the END records' real-time interference), if any task recorded it. */
static void st_interference(FILE *out, const vlpost_tstats *st, int n)
{
	int64_t real = 0, steal = 0;
	uint32_t pmin = UINT32_MAX, pmax = 0;
	int k = 0;

	for (int i = 0; i < n; i++) {
		if (!st[i].has_end || st[i].real_ns <= 0)
			continue;
		k++;
		if (st[i].real_ns > real)
			real = st[i].real_ns;
		if (st[i].steal_ms > steal)
			steal = st[i].steal_ms;
		if (st[i].preempted < pmin)
			pmin = st[i].preempted;
		if (st[i].preempted > pmax)
			pmax = st[i].preempted;
	}
	if (!k)
		return;
	fprintf(out, "real-time interference (measured computation): the longest task ran %.3f s "
		"of real time, the machine's CPU steal meanwhile %lld ms, tasks preempted %u to %u "
		"times%s\n", (double)real / 1e9, (long long)steal, pmin, pmax,
		steal * 1000000 > real / 100 ? "; steal above 1% of that time: measured computation "
					       "may not repeat" : "");
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
	st_interference(out, st, n);
	return 0;
}

int vlpost_rp_text_table(FILE *out, const vlpost_tstats *st, int n)
{
	st_row *rows = calloc((size_t)n + 1, sizeof *rows);
	if (!rows)
		return -1;
	for (int i = 0; i < n; i++)
		st_fill(&rows[i], &st[i]);
	st_print_text(out, rows, st, n);
	free(rows);
	return 0;
}

/* ---- the report ---- */
/* A right-aligned text table (columns in left: left-aligned), two blanks apart. */
static void tab_print(FILE *out, int ncol, const char *const *head, char (*c)[VLPOST_CELL], int nrows,
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
	char (*c)[VLPOST_CELL] = calloc((size_t)(n + 1) * 5, VLPOST_CELL);
	vlpost_tstats t;
	vlpost_rp_derived d;
	double m, s;
	int ns;
	if (!c)
		return -1;
	vlpost_rp_sum(&t, st, n);
	for (int i = 0; i <= n; i++) {
		const vlpost_tstats *x = i < n ? &st[i] : &t;
		vlpost_rp_derive(&d, x, 4, "-");
		if (i < n)
			snprintf(c[i * 5], VLPOST_CELL, "%d", x->proc);
		else
			snprintf(c[i * 5], VLPOST_CELL, "all");
		memcpy(c[i * 5 + 1], d.comm_comp, VLPOST_CELL);
		memcpy(c[i * 5 + 2], d.busy_total, VLPOST_CELL);
		snprintf(c[i * 5 + 3], VLPOST_CELL, "%" PRIu64, x->nsent);
		memcpy(c[i * 5 + 4], d.avg, VLPOST_CELL);
	}
	fprintf(out, "\nmessages sent per task (LS-DYNA inputs: M = sent, s = avg_bytes_sent):\n");
	tab_print(out, 5, head, c, n + 1, 0);
	free(c);
	vlpost_rp_lsdyna(st, n, &m, &s, &ns);
	fprintf(out, "balanced-job approximation: M = %.2f messages (mean over %d tasks), "
		"s = %.2f bytes (mean over the %d tasks that sent)\n", m, n, s, ns);
	return 0;
}

static void fmt_bucket(char *b, int k)
{
	if (k <= 1)
		snprintf(b, VLPOST_CELL, "%d", k);
	else if (k == VLPOST_HIST_N - 1)
		snprintf(b, VLPOST_CELL, "%" PRIu64 "-", vlpost_hist_lo(k));
	else
		snprintf(b, VLPOST_CELL, "%" PRIu64 "-%" PRIu64, vlpost_hist_lo(k), vlpost_hist_hi(k));
}

static int txt_hist(FILE *out, const vlpost_report *rep)
{
	static const char *const head[3] = { "size", "msgs", "bytes" };
	char c[VLPOST_HIST_N * 3][VLPOST_CELL];
	int top = vlpost_rp_hist_top(rep);
	fprintf(out, "\nmessage sizes (bytes, sent):\n");
	if (top < 0)
		return fprintf(out, "no messages\n"), 0;
	for (int k = 0; k <= top; k++) {
		fmt_bucket(c[k * 3], k);
		snprintf(c[k * 3 + 1], VLPOST_CELL, "%" PRIu64, rep->hist_n[k]);
		snprintf(c[k * 3 + 2], VLPOST_CELL, "%" PRIu64, rep->hist_bytes[k]);
	}
	tab_print(out, 3, head, c, top + 1, 0);
	return 0;
}

static int txt_matrix(FILE *out, const vlpost_report *rep, unsigned flags)
{
	static const char *const head[4] = { "from", "to", "msgs", "bytes" };
	char (*c)[VLPOST_CELL];
	fprintf(out, "\nmessages by sender and receiver (processors):\n");
	if (rep->npairs == 0)
		return fprintf(out, "no messages\n"), 0;
	if (rep->n > VLPOST_MATRIX_AUTO && !(flags & VLPOST_REP_MATRIX))
		return fprintf(out, "%zu pairs of %d tasks (--matrix prints them)\n", rep->npairs,
			       rep->n), 0;
	c = calloc(rep->npairs * 4, VLPOST_CELL);
	if (!c)
		return -1;
	for (size_t i = 0; i < rep->npairs; i++) {
		const vlpost_pair *p = &rep->pairs[i];
		snprintf(c[i * 4], VLPOST_CELL, "%d", p->from);
		if (p->to >= 0)
			snprintf(c[i * 4 + 1], VLPOST_CELL, "%d", p->to);
		else
			snprintf(c[i * 4 + 1], VLPOST_CELL, "tid 0x%x", (unsigned)p->to_tid);
		snprintf(c[i * 4 + 2], VLPOST_CELL, "%" PRIu64, p->n);
		snprintf(c[i * 4 + 3], VLPOST_CELL, "%" PRIu64, p->bytes);
	}
	tab_print(out, 4, head, c, (int)rep->npairs, 0);
	free(c);
	return 0;
}

static void txt_critpath(FILE *out, const vlpost_critpath *cp)
{
	char a[VLPOST_CELL], b[VLPOST_CELL], d[VLPOST_CELL], e[VLPOST_CELL], f[VLPOST_CELL], g[VLPOST_CELL];
	fprintf(out, "\ncritical path:");
	if (cp->end_proc < 0) {
		fprintf(out, " no tasks\n");
		return;
	}
	vlpost_rp_us(a, cp->end - cp->start, 0);
	vlpost_rp_us(b, cp->start, 0);
	vlpost_rp_us(d, cp->end, 0);
	fprintf(out, " %s us, from %s us (proc %d) to %s us (end of proc %d)%s\n", a, b,
		cp->procs[0], d, cp->end_proc, cp->cut ? ", cut at an inconsistent trace" : "");
	vlpost_rp_us(e, cp->comp, 0);
	vlpost_rp_us(f, cp->comm, 0);
	vlpost_rp_us(g, cp->wait, 0);
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

int vlpost_rp_text(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		   unsigned flags)
{
	if (vlpost_rp_text_table(out, st, n) < 0 || ferror(out))
		return -1;
	if (flags & VLPOST_REP_BRIEF)
		return 0;
	if (txt_tasks(out, st, n) < 0 || txt_hist(out, rep) < 0 ||
	    txt_matrix(out, rep, flags) < 0)
		return -1;
	txt_critpath(out, &rep->cp);
	return 0;
}
