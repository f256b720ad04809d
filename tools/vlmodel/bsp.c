/* bsp.c - the BSP Without Barriers (BSPWB) and Message Passing Machine (MPM)
 * models of Roda, Rodriguez, Morales and Almeida, "Predicting the execution time
 * of message passing models" (Concurrency: Pract. Exper. 11(9), 1999;
 * 003-bspwb-mpm-models.txt), over a program given as M-steps, and `vlmodel bsp`.
 * The M-steps of a trace directory are found by bsp_trace.c. */
#include "vlmodel.h"
#include "util/csv.h"
#include "vlayer/core/vmconfig.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the program ---- */

int vlmod_prog_init(vlmod_prog *m, int p, int r)
{
	size_t n = (size_t)p * (size_t)r;
	memset(m, 0, sizeof *m);
	m->p = p;
	m->r = r;
	m->vlayer_total = -1;
	m->w = calloc(n + 1, sizeof *m->w);
	m->hx = malloc((n + 1) * sizeof *m->hx);
	if (!m->w || !m->hx)
		return -1;
	for (size_t i = 0; i < n; i++)
		m->hx[i] = -1;
	return 0;
}

int vlmod_prog_msg(vlmod_prog *m, int step, int from, int to, double bytes, int out_step)
{
	if (m->nmsg == m->cmsg) {
		size_t c = m->cmsg ? 2 * m->cmsg : 256;
		vlmod_msg *q = realloc(m->msg, c * sizeof *q);
		if (!q)
			return -1;
		m->msg = q;
		m->cmsg = c;
	}
	m->msg[m->nmsg++] = (vlmod_msg){step, from, to, bytes, out_step};
	return 0;
}

static int msg_cmp(const void *a, const void *b)
{
	const vlmod_msg *x = a, *y = b;
	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

/* in and out of one message (a message to all: the receivers' in is added per
 * step in vlmod_prog_finish). */
static void msg_count(vlmod_prog *m, const vlmod_msg *g, double *bcast)
{
	size_t p = (size_t)m->p;
	if (g->from >= 0 && g->out_step >= 0)
		m->out[(size_t)g->out_step * p + (size_t)g->from] +=
		    g->to == VLM_TO_ALL ? g->bytes * (double)(m->p - 1) : g->bytes;
	if (g->to >= 0)
		m->in[(size_t)g->step * p + (size_t)g->to] += g->bytes;
	else if (g->to == VLM_TO_ALL)
		bcast[(size_t)g->step * p + (size_t)g->from] += g->bytes;
}

/* Adds to the in of every task of step S the messages to all of the others
 * (OWN: those of each task): the sums before and after it, not the step's
 * total minus its own, which cancels (a 100-byte message lost next to 1e18). */
static void bcast_in(vlmod_prog *m, size_t s, const double *own, double *after)
{
	size_t p = (size_t)m->p;
	double before = 0;
	after[p - 1] = 0;
	for (size_t i = p - 1; i-- > 0;)
		after[i] = after[i + 1] + own[i + 1];
	for (size_t i = 0; i < p; i++) {
		m->in[s * p + i] += before + after[i];
		before += own[i];
	}
}

int vlmod_prog_finish(vlmod_prog *m)
{
	size_t p = (size_t)m->p, r = (size_t)m->r;
	double *bc = calloc(r * p + p + 1, sizeof *bc); /* own, then scratch for bcast_in */
	m->in = calloc(r * p + 1, sizeof *m->in);
	m->out = calloc(r * p + 1, sizeof *m->out);
	m->comm = calloc(r + 1, 1);
	m->first = calloc(r + 1, sizeof *m->first);
	if (!bc || !m->in || !m->out || !m->comm || !m->first) {
		free(bc);
		return -1;
	}
	if (m->nmsg) /* msg is NULL then, which qsort must not get */
		qsort(m->msg, m->nmsg, sizeof *m->msg, msg_cmp);
	for (size_t k = 0; k < m->nmsg; k++) {
		msg_count(m, &m->msg[k], bc);
		m->comm[m->msg[k].step] = 1;
		m->first[m->msg[k].step + 1] = k + 1;
	}
	for (size_t s = 0; s < r; s++) {
		if (m->first[s + 1] < m->first[s])
			m->first[s + 1] = m->first[s];
		if (p)
			bcast_in(m, s, bc + s * p, bc + r * p);
		for (size_t i = 0; i < p; i++)
			if (m->hx[s * p + i] >= 0)
				m->comm[s] = 1;
	}
	free(bc);
	return 0;
}

void vlmod_prog_free(vlmod_prog *m)
{
	free(m->w);
	free(m->hx);
	free(m->msg);
	free(m->in);
	free(m->out);
	free(m->comm);
	free(m->first);
	free(m->vlayer_end);
	for (int s = 0; m->label && s < m->r; s++)
		free(m->label[s]);
	free(m->label);
	memset(m, 0, sizeof *m);
}

double vlmod_prog_h(const vlmod_prog *m, int s, int i, int at_max)
{
	size_t k = (size_t)s * (size_t)m->p + (size_t)i;
	if (m->hx[k] >= 0)
		return m->hx[k];
	return at_max ? fmax(m->in[k], m->out[k]) : m->in[k] + m->out[k];
}

/* ---- the models ---- */

void vlmod_bspwb(const vlmod_prog *m, double g, double L, int at_max, double *t)
{
	double prev = 0;
	for (int s = 0; s < m->r; s++) {
		double wmax = 0, hmax = 0;
		for (int i = 0; i < m->p; i++) {
			wmax = fmax(wmax, m->w[(size_t)s * m->p + i]);
			hmax = fmax(hmax, vlmod_prog_h(m, s, i, at_max));
		}
		t[s] = prev + wmax + (m->comm[s] ? g * hmax + L : 0);
		prev = t[s];
	}
}

/* One MPM step: A[i] = Phi[s-1][i] + w[s][i] and H[i] = h[s][i] become, over
 * the incoming partners j of i (and i), the max of A[j] and of H[j]. */
static void mpm_partners(const vlmod_prog *m, int s, const double *a, const double *h, double *ca,
                         double *ch)
{
	double ba = -INFINITY, bh = 0;
	for (int i = 0; i < m->p; i++) {
		ca[i] = a[i];
		ch[i] = h[i];
	}
	for (size_t k = m->first[s]; k < m->first[s + 1]; k++) {
		const vlmod_msg *g = &m->msg[k];
		if (g->from < 0)
			continue;
		if (g->to == VLM_TO_ALL) {
			ba = fmax(ba, a[g->from]);
			bh = fmax(bh, h[g->from]);
		} else if (g->to >= 0) {
			ca[g->to] = fmax(ca[g->to], a[g->from]);
			ch[g->to] = fmax(ch[g->to], h[g->from]);
		}
	}
	for (int i = 0; i < m->p; i++) {
		ca[i] = fmax(ca[i], ba);
		ch[i] = fmax(ch[i], bh);
	}
}

double vlmod_mpm(const vlmod_prog *m, double g, double L, int at_max, double *phi, double *step_max)
{
	size_t p = (size_t)m->p;
	double *a = malloc(4 * p * sizeof *a), *h, *ca, *ch;
	double psi = 0;
	if (!a)
		return NAN;
	h = a + p;
	ca = h + p;
	ch = ca + p;
	for (int s = 0; s < m->r; s++) {
		for (size_t i = 0; i < p; i++) {
			a[i] = (s ? phi[(size_t)(s - 1) * p + i] : 0) + m->w[(size_t)s * p + i];
			h[i] = vlmod_prog_h(m, s, (int)i, at_max);
		}
		if (m->comm[s])
			mpm_partners(m, s, a, h, ca, ch);
		psi = -INFINITY;
		for (size_t i = 0; i < p; i++) {
			double v = m->comm[s] ? ca[i] + g * ch[i] + L : a[i];
			phi[(size_t)s * p + i] = v;
			psi = fmax(psi, v);
		}
		if (step_max)
			step_max[s] = psi;
	}
	free(a);
	return m->r ? psi : 0;
}

/* ---- the M-step CSV file ---- */

enum { F_STEP, F_TASK, F_WORK, NF };
#define VLM_PROG_MAXCELLS 10000000 /* tasks x M-steps of a file */
static const char *const prog_cols[] = {"step", "task", "work", NULL};

typedef struct prow {
	int step, task;
} prow;

/* A whole number >= LO in cell (r, col). */
static int cell_int(const vlu_csv *c, int r, int col, long lo, long *v, char *err, size_t el)
{
	const char *t = vlu_csv_text(c, r, col);
	char *end;
	errno = 0;
	*v = strtol(t, &end, 10);
	if (end == t || *end || errno || *v < lo || *v > 1000000) {
		snprintf(err, el, "%s:%d: column %s: '%s' is not a whole number in %ld..1000000",
		         c->path, c->line[r], c->cols[col], t, lo);
		return -1;
	}
	return 0;
}

/* Pass 1: step and task of every row, P and R. */
static int prog_scan(const vlu_csv *c, const int *idx, int ntasks, prow *rows, int *p, int *r,
                     char *err, size_t el)
{
	*p = ntasks;
	*r = 0;
	for (int k = 0; k < c->nrows; k++) {
		long s, t;
		if (cell_int(c, k, idx[F_STEP], 1, &s, err, el) < 0 ||
		    cell_int(c, k, idx[F_TASK], 0, &t, err, el) < 0)
			return -1;
		if (ntasks > 0 && t >= ntasks) {
			snprintf(err, el, "%s:%d: task %ld: --tasks is %d (tasks 0..%d)", c->path,
			         c->line[k], t, ntasks, ntasks - 1);
			return -1;
		}
		rows[k] = (prow){(int)s - 1, (int)t};
		if (ntasks <= 0 && t + 1 > *p)
			*p = (int)t + 1;
		if (s > *r)
			*r = (int)s;
		if ((long)*p * *r > VLM_PROG_MAXCELLS) { /* else a 1 KiB file takes GiBs */
			snprintf(err, el,
			         "%s:%d: step %ld task %ld: %d tasks x %d M-steps are more than "
			         "the model handles (%d)",
			         c->path, c->line[k], s, t, *p, *r, VLM_PROG_MAXCELLS);
			return -1;
		}
	}
	if (c->nrows == 0) {
		snprintf(err, el, "%s:%d: no M-steps (no data rows)", c->path, c->header_line);
		return -1;
	}
	return 0;
}

/* One "DEST:SIZE" item of a send cell. */
static int send_item(vlmod_prog *m, const vlu_csv *c, int r, const prow *pr, const char *it,
                     char *err, size_t el)
{
	const char *colon = strchr(it, ':');
	char *end;
	long to = VLM_TO_ALL;
	int64_t bytes;
	if (!colon) {
		snprintf(err, el, "%s:%d: column send: '%s' is not DEST:SIZE", c->path, c->line[r],
		         it);
		return -1;
	}
	if (!(colon == it + 1 && *it == '*')) {
		to = strtol(it, &end, 10);
		if (end != colon || end == it || to < 0 || to >= m->p || to == pr->task) {
			snprintf(err, el,
			         "%s:%d: column send: '%s': the destination must be a task "
			         "0..%d other than %d, or *",
			         c->path, c->line[r], it, m->p - 1, pr->task);
			return -1;
		}
	}
	if (vlcfg_parse_size(colon + 1, &bytes) < 0) {
		snprintf(err, el,
		         "%s:%d: column send: '%s': bad size '%s' (bytes, or B KiB MiB "
		         "GiB KB MB GB)",
		         c->path, c->line[r], it, colon + 1);
		return -1;
	}
	return vlmod_prog_msg(m, pr->step, pr->task, (int)to, (double)bytes, pr->step);
}

static int send_cell(vlmod_prog *m, const vlu_csv *c, int r, int col, const prow *pr, char *err,
                     size_t el)
{
	char *copy = strdup(vlu_csv_text(c, r, col)), *save = NULL, *it;
	int rc = copy ? 0 : -1;
	for (it = copy ? strtok_r(copy, " \t;", &save) : NULL; it && !rc;
	     it = strtok_r(NULL, " \t;", &save))
		rc = send_item(m, c, r, pr, it, err, el);
	free(copy);
	return rc;
}

/* Pass 2: work, send, h of row R. */
static int prog_row(vlmod_prog *m, const vlu_csv *c, int r, const int *idx, int csend, int ch,
                    const prow *pr, char *err, size_t el)
{
	size_t k = (size_t)pr->step * (size_t)m->p + (size_t)pr->task;
	const char *t = vlu_csv_text(c, r, idx[F_WORK]);
	int64_t h;
	if (*t && (vlmod_parse_seconds(t, 1, &m->w[k]) < 0 || m->w[k] < 0)) {
		snprintf(err, el,
		         "%s:%d: column work: '%s' is not a time >= 0 (seconds, or with "
		         "a unit: ns, us, ms, s)",
		         c->path, c->line[r], t);
		return -1;
	}
	if (csend >= 0 && send_cell(m, c, r, csend, pr, err, el) < 0)
		return -1;
	t = ch >= 0 ? vlu_csv_text(c, r, ch) : "";
	if (*t && vlcfg_parse_size(t, &h) < 0) {
		snprintf(err, el,
		         "%s:%d: column h: '%s' is not a size (bytes, or B KiB MiB GiB "
		         "KB MB GB)",
		         c->path, c->line[r], t);
		return -1;
	}
	if (*t)
		m->hx[k] = (double)h;
	return 0;
}

/* Every (step, task) at most once, every step 1..R present. */
static int prog_check(const vlu_csv *c, const prow *rows, int p, int r, char *err, size_t el)
{
	int *seen = calloc((size_t)p * (size_t)r + 1, sizeof *seen), rc = 0;
	unsigned char *step = calloc((size_t)r + 1, 1);
	if (!seen || !step)
		rc = -1;
	for (int k = 0; !rc && k < c->nrows; k++) {
		int *s = &seen[(size_t)rows[k].step * (size_t)p + (size_t)rows[k].task];
		if (*s) {
			snprintf(err, el, "%s:%d: step %d task %d is also on line %d", c->path,
			         c->line[k], rows[k].step + 1, rows[k].task, c->line[*s - 1]);
			rc = -1;
		}
		*s = k + 1;
		step[rows[k].step] = 1;
	}
	for (int s = 0; !rc && s < r; s++)
		if (!step[s]) {
			snprintf(err, el, "%s: step %d has no rows (steps are numbered 1..%d)",
			         c->path, s + 1, r);
			rc = -1;
		}
	free(seen);
	free(step);
	return rc;
}

int vlmod_prog_read(const char *path, int ntasks, vlmod_prog *m, char *err, size_t el)
{
	vlu_csv c;
	prow *rows = NULL;
	int idx[NF], p, r, rc = -1;
	memset(m, 0, sizeof *m);
	err[0] = '\0';
	if (vlu_csv_read(path, &c, err, el) < 0)
		return -1;
	if (vlu_csv_need(&c, prog_cols, idx, err, el) < 0)
		goto out;
	rows = calloc((size_t)c.nrows + 1, sizeof *rows);
	if (!rows || prog_scan(&c, idx, ntasks, rows, &p, &r, err, el) < 0 ||
	    prog_check(&c, rows, p, r, err, el) < 0)
		goto out;
	if (vlmod_prog_init(m, p, r) < 0)
		goto out;
	for (int k = 0; k < c.nrows; k++)
		if (prog_row(m, &c, k, idx, vlu_csv_col(&c, "send"), vlu_csv_col(&c, "h"), &rows[k],
		             err, el) < 0)
			goto out;
	rc = vlmod_prog_finish(m);
out:
	if (rc < 0 && !*err)
		snprintf(err, el, "%s: out of memory", path);
	if (rc < 0)
		vlmod_prog_free(m);
	free(rows);
	vlu_csv_free(&c);
	return rc;
}

/* ---- g and L ---- */

int vlmod_parse_g(const char *text, double *g)
{
	static const struct {
		const char *u;
		double f;
	} u[] = {{"", 1},        {"s/B", 1},     {"ms/B", 1e-3},
	         {"us/B", 1e-6}, {"ns/B", 1e-9}, {"ps/B", 1e-12}};
	char *end;
	double v, bw;
	while (isspace((unsigned char)*text))
		text++;
	v = strtod(text, &end);
	if (end != text && isfinite(v) && v >= 0) {
		size_t n;
		while (isspace((unsigned char)*end))
			end++;
		n = strlen(end);
		while (n && isspace((unsigned char)end[n - 1]))
			n--;
		for (size_t k = 0; k < sizeof u / sizeof u[0]; k++)
			if (strlen(u[k].u) == n && !strncmp(end, u[k].u, n)) {
				*g = v * u[k].f;
				return 0;
			}
	}
	if (vlcfg_parse_rate(text, &bw) < 0 || !isfinite(1 / bw)) /* 1e-320B/s: g inf */
		return -1;
	*g = 1 / bw;
	return 0;
}

/* "g", "bsp_g", "BSP g" -> 'g'; the same for L; else 0. */
static int gl_name(const char *s)
{
	if (!strncasecmp(s, "bsp", 3)) {
		s += 3;
		s += strspn(s, "_. ");
	}
	if (!strcmp(s, "g"))
		return 'g';
	if (!strcmp(s, "L") || !strcmp(s, "l"))
		return 'L';
	return 0;
}

static int gl_set(int which, const char *v, const char *unit, double *g, double *L)
{
	char buf[256];
	if (snprintf(buf, sizeof buf, "%s%s%s", v, unit && *unit ? " " : "", unit ? unit : "") >=
	    (int)sizeof buf)
		return -1; /* cut short, it could parse as something else */
	if (which == 'g')
		return vlmod_parse_g(buf, g);
	return vlmod_parse_seconds(buf, 1, L);
}

static int col_any(const vlu_csv *c, const char *const *names)
{
	for (; *names; names++) {
		int k = vlu_csv_col(c, *names);
		if (k >= 0)
			return k;
	}
	return -1;
}

/* The long form of `vlcalib fit --csv`: rows NAME,VALUE[,UNIT] (link, model
 * columns optional).  Rows of models naming bsp only; those of the paper's
 * overall fit "bsp(eq.11)" if there are any; of LINK if given. */
typedef struct gl_cols {
	int name, value, unit, model, link;
} gl_cols;

static int gl_row_ok(const vlu_csv *c, const gl_cols *k, int r, const char *link, int eq11)
{
	const char *model = k->model >= 0 ? vlu_csv_text(c, r, k->model) : "bsp";
	if (!gl_name(vlu_csv_text(c, r, k->name)))
		return 0;
	if (!strcasestr(model, "bsp") && strncasecmp(vlu_csv_text(c, r, k->name), "bsp", 3))
		return 0;
	if (link && k->link >= 0 && strcmp(vlu_csv_text(c, r, k->link), link))
		return 0;
	return !eq11 || !strncmp(model, "bsp(eq.11)", 10);
}

/* Several links among the rows chosen: the caller must pick one. */
static int gl_links(const vlu_csv *c, const gl_cols *k, const char *link, int eq11, char *err,
                    size_t el)
{
	const char *first = NULL;
	if (link || k->link < 0)
		return 0;
	for (int r = 0; r < c->nrows; r++) {
		const char *l;
		if (!gl_row_ok(c, k, r, NULL, eq11))
			continue;
		l = vlu_csv_text(c, r, k->link);
		if (!first)
			first = l;
		else if (strcmp(first, l)) {
			snprintf(err, el,
			         "%s:%d: g and L of links %s and %s: choose one with --link",
			         c->path, c->line[r], first, l);
			return -1;
		}
	}
	return 0;
}

static int gl_long(const vlu_csv *c, const char *link, double *g, double *L, int *found, char *err,
                   size_t el)
{
	static const char *const nm[] = {"parameter", "name", "key", "param", NULL};
	static const char *const md[] = {"model", "section", "method", "group", NULL};
	gl_cols k = {col_any(c, nm), vlu_csv_col(c, "value"), vlu_csv_col(c, "unit"),
	             col_any(c, md), vlu_csv_col(c, "link")};
	int eq11 = 0;
	if (k.name < 0 || k.value < 0)
		return 0;
	for (int r = 0; r < c->nrows && !eq11; r++)
		eq11 = gl_row_ok(c, &k, r, link, 1);
	if (gl_links(c, &k, link, eq11, err, el) < 0)
		return -1;
	for (int r = 0; r < c->nrows; r++) {
		const char *name = vlu_csv_text(c, r, k.name);
		int which = gl_name(name);
		if (!gl_row_ok(c, &k, r, link, eq11))
			continue;
		if (gl_set(which, vlu_csv_text(c, r, k.value),
		           k.unit >= 0 ? vlu_csv_text(c, r, k.unit) : NULL, g, L) < 0) {
			snprintf(err, el, "%s:%d: %s: bad value '%s%s%s'", c->path, c->line[r],
			         name, vlu_csv_text(c, r, k.value), k.unit >= 0 ? " " : "",
			         k.unit >= 0 ? vlu_csv_text(c, r, k.unit) : "");
			return -1;
		}
		*found |= which == 'g' ? 1 : 2;
	}
	return 0;
}

/* Columns g and L (or bsp_g, bsp_L): one row, or the row of an overall fit. */
static int gl_wide(const vlu_csv *c, double *g, double *L, int *found, char *err, size_t el)
{
	static const char *const gn[] = {"g", "bsp_g", NULL}, *const ln[] = {"L", "bsp_L", NULL};
	static const char *const pn[] = {"pattern", "experiment", "fit", NULL};
	int cg = col_any(c, gn), cl = col_any(c, ln), cp = col_any(c, pn), row = -1;
	if (cg < 0 || cl < 0)
		return 0;
	for (int r = 0; r < c->nrows; r++) {
		const char *p = cp >= 0 ? vlu_csv_text(c, r, cp) : "";
		if (c->nrows == 1 || !strcmp(p, "all") || !strcmp(p, "average") ||
		    !strcmp(p, "overall"))
			row = r;
	}
	if (row < 0) {
		snprintf(err, el,
		         "%s:%d: %d rows of g and L: which? (expected one row, or a "
		         "pattern column with a row 'all', 'average' or 'overall')",
		         c->path, c->header_line, c->nrows);
		return -1;
	}
	if (gl_set('g', vlu_csv_text(c, row, cg), NULL, g, L) < 0 ||
	    gl_set('L', vlu_csv_text(c, row, cl), NULL, g, L) < 0) {
		snprintf(err, el, "%s:%d: bad g '%s' or L '%s'", c->path, c->line[row],
		         vlu_csv_text(c, row, cg), vlu_csv_text(c, row, cl));
		return -1;
	}
	*found = 3;
	return 0;
}

int vlmod_read_gl(const char *path, const char *link, double *g, double *L, char *err, size_t el)
{
	vlu_csv c;
	int found = 0, rc;
	if (vlu_csv_read(path, &c, err, el) < 0)
		return -1;
	for (int k = 0; k < c.nmeta; k++) {
		int which = gl_name(c.meta_key[k]);
		if (which && gl_set(which, c.meta_val[k], NULL, g, L) == 0)
			found |= which == 'g' ? 1 : 2;
	}
	rc = gl_long(&c, link, g, L, &found, err, el);
	if (!rc)
		rc = gl_wide(&c, g, L, &found, err, el);
	if (!rc && found != 3) {
		snprintf(err, el,
		         "%s:%d: no BSP %s found (expected rows 'g' and 'L' in columns "
		         "parameter,value[,unit], or columns g and L)",
		         path, c.header_line,
		         found == 1   ? "L"
		         : found == 2 ? "g"
		                      : "g and L");
		rc = -1;
	}
	vlu_csv_free(&c);
	return rc;
}

/* ---- vlmodel bsp ---- */

static const char usage_bsp[] =
    "usage: vlmodel bsp (STEPS.csv | --trace DIR) (--g G --L L | --params FILE) [OPTIONS]\n"
    "\n"
    "BSPWB and MPM predictions (Roda et al. 1999, 003-bspwb-mpm-models.txt) of a\n"
    "program given as its M-steps: in each M-step every task computes (w), then\n"
    "sends and receives (h = in + out bytes, or their max with --op max).\n"
    "  BSPWB (5):  T_s = T_s-1 + max_i w_s,i + max_i (g h_s,i + L)\n"
    "  MPM (8-10): Phi_s,i = max_{j in G_s,i} (Phi_s-1,j + w_s,j) + g h_s,i + L,\n"
    "              G_s,i = {i} and the tasks that send to i in step s,\n"
    "              h_s,i = max_{j in G_s,i} (in_s,j @ out_s,j);  Psi = max_i Phi_R,i\n"
    "A step in which no task communicates costs only its computation (as the\n"
    "last step of the paper's FFT, formula 17).\n"
    "\n"
    "STEPS.csv ('-' = stdin): a header row, then one row per task and step\n"
    "(columns in any order; a task without a row in a step does nothing in it):\n"
    "  step   the M-step, 1..R (every step needs at least one row)\n"
    "  task   the task, 0..P-1\n"
    "  work   its computation: seconds, or a time with a unit (ns us ms s)\n"
    "  send   optional: the messages it sends, DEST:SIZE items separated by\n"
    "         blanks or ';'; DEST a task or * (every other task); SIZE in bytes\n"
    "         or with B KiB MiB GiB KB MB GB (0: a synchronisation, no data)\n"
    "  h      optional: its h-relation in bytes, replacing in @ out\n"
    "Example: two tasks exchange 1 KiB after 2 ms of work, then task 0 works 1 ms:\n"
    "  step,task,work,send\n"
    "  1,0,2ms,1:1KiB\n"
    "  1,1,2ms,0:1KiB\n"
    "  2,0,1ms,\n"
    "\n"
    "--trace DIR: the M-steps of a vlayer trace directory, beside vlayer's own\n"
    "prediction (each step's end in the trace, and the predicted elapsed time as\n"
    "`vlpost stats` prints it).  Where a step ends (--steps):\n"
    "  coll   at each collective operation over all tasks (MPI_COMM_WORLD or a\n"
    "         copy of it; a PVM barrier of all tasks), if every task took part\n"
    "         in the same number of them.  Its data counts as the messages of\n"
    "         its logical pattern: bcast, scatter: root -> every other; gather,\n"
    "         reduce: every other -> root; allgather, allreduce, alltoall: every\n"
    "         task -> every other (alltoall: its block to rank 0, for each);\n"
    "         reduce_scatter: i -> j the block of j; scan, exscan: i -> every\n"
    "         j > i; barrier: 0 bytes from every task to every other.\n"
    "  phase  otherwise: a task's calls that communicate (sends, receives,\n"
    "         probes, waits, collectives over fewer tasks) not separated by at\n"
    "         least --min-gap of computation form a communication phase; its\n"
    "         k-th phase ends the task's k-th step.  Tasks with fewer phases do\n"
    "         empty steps at the end.  Needs computation between the phases\n"
    "         (compute = measured, or vl_compute()).\n"
    "Per task and step: w = the computation in its part of the trace (virtual\n"
    "time outside communication calls, and vl_compute()); out = the bytes it\n"
    "sent, in = the bytes it received, its incoming partners the senders of\n"
    "those.  A message counts in the sender's step for out, and in the\n"
    "receiver's for in and partners.  Computation after the last step's end (at\n"
    "least --min-gap) is a last step of its own.\n"
    "\n"
    "  --g G            the gap: seconds per byte (8.9e-9, 8.9ns/B), or a\n"
    "                   bandwidth (112MB/s: g = 1/bandwidth)\n"
    "  --L L            the start-up per step: seconds or a time with a unit\n"
    "                   (ns us ms s; negative allowed, as fitted values can be)\n"
    "  --params FILE    g and L from FILE: `vlcalib fit --csv` output (the BSP\n"
    "                   rows g and L: of the paper's overall fit bsp(eq.11) if\n"
    "                   present, else the last BSP ones), or any CSV with rows g\n"
    "                   and L in columns parameter,value[,unit], or with columns\n"
    "                   g and L; --g and --L given as well override it\n"
    "  --link NAME      the link of --params's rows (intra, inter), needed when\n"
    "                   it has several\n"
    "  --op sum|max     @ in h = in @ out (default sum, as the paper)\n"
    "  --tasks P        the number of tasks of STEPS.csv (default: largest + 1)\n"
    "  --steps auto|coll|phase\n"
    "                   the rule for --trace (default auto: coll if it applies)\n"
    "  --min-gap TIME   --trace: shorter computation does not end a phase or\n"
    "                   make a last step (default 1us)\n"
    "  --detail         also a table per step and task: w, in, out, h, incoming\n"
    "                   partners (with itself), Phi (with --csv: only this table)\n"
    "  --csv            CSV out: '# key: value' comment lines, then the table\n";

typedef struct bsp_opts {
	const char *file, *trace, *params, *link, *g_text, *l_text;
	double g, L, min_gap;
	int at_max, ntasks, rule, detail, csv;
} bsp_opts;

static int bsp_enum(const char *v, const char *const *names, int *out)
{
	for (int k = 0; names[k]; k++)
		if (!strcmp(v, names[k])) {
			*out = k;
			return 0;
		}
	return -1;
}

static int bsp_value(bsp_opts *o, const char *opt, const char *v)
{
	static const char *const ops[] = {"sum", "max", NULL};
	static const char *const rules[] = {"auto", "coll", "phase", NULL};
	double d;
	if (!strcmp(opt, "--trace"))
		o->trace = v;
	else if (!strcmp(opt, "--params"))
		o->params = v;
	else if (!strcmp(opt, "--link"))
		o->link = v;
	else if (!strcmp(opt, "--g"))
		o->g_text = v;
	else if (!strcmp(opt, "--L"))
		o->l_text = v;
	else if (!strcmp(opt, "--op") && bsp_enum(v, ops, &o->at_max) < 0)
		return vlmod_usage_err("bsp", usage_bsp, "--op '%s': expected sum or max", v);
	else if (!strcmp(opt, "--steps") && bsp_enum(v, rules, &o->rule) < 0)
		return vlmod_usage_err("bsp", usage_bsp, "--steps '%s': expected auto, coll or phase",
		                     v);
	else if (!strcmp(opt, "--min-gap") &&
	         (vlmod_parse_seconds(v, 0, &o->min_gap) < 0 || o->min_gap < 0))
		return vlmod_usage_err("bsp", usage_bsp,
		                     "--min-gap '%s': expected a time >= 0 with a "
		                     "unit (ns, us, ms, s)",
		                     v);
	else if (!strcmp(opt, "--tasks") &&
	         (vlmod_parse_number(v, &d) < 0 || d < 1 || d > 1000000 || d != floor(d)))
		return vlmod_usage_err("bsp", usage_bsp, "--tasks '%s': expected a whole number >= 1",
		                     v);
	else if (!strcmp(opt, "--tasks"))
		o->ntasks = (int)d;
	return 0;
}

static int bsp_value_cb(void *o, const char *opt, const char *v)
{
	return bsp_value(o, opt, v);
}

static int bsp_args(int argc, char **argv, bsp_opts *o)
{
	static const char *const opts[] = {"--trace", "--params", "--link",    "--g",    "--L",
	                                   "--op",    "--steps",  "--min-gap", "--tasks"};
	static const char *const flags[] = {"--csv", "--detail"};
	int *const flagv[] = {&o->csv, &o->detail};
	const vlmod_cmdline c = {"bsp", usage_bsp, opts, 9, flags, flagv, 2, bsp_value_cb, o, &o->file};
	return vlmod_args(argc, argv, &c);
}

/* g and L: --params, then --g and --L. */
static int bsp_gl(bsp_opts *o)
{
	char err[768];
	int have_g = 0, have_l = 0;
	if (o->params) {
		if (vlmod_read_gl(o->params, o->link, &o->g, &o->L, err, sizeof err) < 0)
			return vlmod_die("%s", err);
		have_g = have_l = 1;
	}
	if (o->g_text) {
		if (vlmod_parse_g(o->g_text, &o->g) < 0)
			return vlmod_usage_err("bsp", usage_bsp,
			                     "--g '%s': expected seconds per byte "
			                     "(8.9e-9, 8.9ns/B) or a bandwidth (112MB/s)",
			                     o->g_text);
		have_g = 1;
	}
	if (o->l_text) {
		if (vlmod_parse_seconds(o->l_text, 1, &o->L) < 0)
			return vlmod_usage_err("bsp", usage_bsp,
			                     "--L '%s': expected seconds or a time "
			                     "with a unit (ns, us, ms, s)",
			                     o->l_text);
		have_l = 1;
	}
	if (!have_g || !have_l)
		return vlmod_usage_err("bsp", usage_bsp, "give --g and --L, or --params FILE");
	return 0;
}

static int bsp_check(bsp_opts *o)
{
	if (!o->file == !o->trace)
		return vlmod_usage_err("bsp", usage_bsp,
		                     o->file ? "an input file and --trace: give "
		                               "one"
		                             : "give an M-step file or --trace DIR");
	if (o->link && !o->params)
		return vlmod_usage_err("bsp", usage_bsp, "--link is for --params");
	if (o->trace && o->ntasks)
		return vlmod_usage_err("bsp", usage_bsp,
		                     "--tasks is for an M-step file, not --trace");
	return bsp_gl(o);
}

static const char *const rule_names[] = {"auto", "coll", "phase"};

static void bsp_preamble(const bsp_opts *o, const vlmod_prog *m, int rule)
{
	char g[32], l[32];
	if (o->csv) {
		printf("# steps: %d\n# tasks: %d\n", m->r, m->p);
		if (o->trace)
			printf("# trace: %s\n# rule: %s\n", o->trace, rule_names[rule]);
		printf("# g: %.9g\n# L: %.9g\n# op: %s\n", o->g, o->L, o->at_max ? "max" : "sum");
		return;
	}
	if (o->trace)
		printf("%d M-step%s of %d tasks (trace %s, rule %s)\n", m->r, m->r == 1 ? "" : "s",
		       m->p, o->trace, rule_names[rule]);
	else
		printf("%d M-step%s of %d tasks (%s)\n", m->r, m->r == 1 ? "" : "s", m->p, o->file);
	printf("g = %s s/B, L = %s s, h = in %s out\n\n", vlmod_g(g, sizeof g, o->g),
	       vlmod_g(l, sizeof l, o->L), o->at_max ? "max" : "+");
}

static void bsp_steps(vlmod_tab *t, const bsp_opts *o, const vlmod_prog *m, const double *T,
                      const double *mpm)
{
	static const char *const h[] = {"step",    "closed_by", "max_w_s", "max_h_B",
	                                "bspwb_s", "mpm_s",     "vlayer_s"};
	int tr = m->vlayer_end != NULL;
	vlmod_tab_init(t, tr ? 7 : 5);
	for (int k = 0; k < 7; k++)
		if (tr || (k != 1 && k != 6))
			vlmod_tab_str(t, h[k]);
	for (int s = 0; s < m->r; s++) {
		double wmax = 0, hmax = 0;
		for (int i = 0; i < m->p; i++) {
			wmax = fmax(wmax, m->w[(size_t)s * m->p + i]);
			hmax = fmax(hmax, vlmod_prog_h(m, s, i, o->at_max));
		}
		vlmod_tab_num(t, s + 1);
		if (tr)
			vlmod_tab_str(t, m->label && m->label[s] ? m->label[s] : "-");
		vlmod_tab_num(t, wmax);
		vlmod_tab_num(t, hmax);
		vlmod_tab_num(t, T[s]);
		vlmod_tab_num(t, mpm[s]);
		if (tr)
			vlmod_tab_num(t, m->vlayer_end[s]);
	}
}

/* The incoming partners of every task in step s (with itself) into CNT. */
static void bsp_partners(const vlmod_prog *m, int s, int *cnt, unsigned char *isb)
{
	int nb = 0;
	const vlmod_msg *prev = NULL;
	memset(isb, 0, (size_t)m->p);
	for (size_t k = m->first[s]; k < m->first[s + 1]; k++)
		if (m->msg[k].to == VLM_TO_ALL && m->msg[k].from >= 0 && !isb[m->msg[k].from]) {
			isb[m->msg[k].from] = 1;
			nb++;
		}
	for (int i = 0; i < m->p; i++)
		cnt[i] = 1 + (m->comm[s] ? nb - isb[i] : 0);
	for (size_t k = m->first[s]; k < m->first[s + 1]; k++) {
		const vlmod_msg *g = &m->msg[k];
		if (g->to >= 0 && g->from >= 0 && g->from != g->to && !isb[g->from] &&
		    !(prev && prev->from == g->from && prev->to == g->to))
			cnt[g->to]++;
		prev = g;
	}
}

static int bsp_detail(vlmod_tab *t, const bsp_opts *o, const vlmod_prog *m, const double *phi)
{
	static const char *const h[] = {"step",  "task", "w_s",      "in_B",
	                                "out_B", "h_B",  "partners", "mpm_s"};
	int *cnt = malloc((size_t)m->p * sizeof *cnt);
	unsigned char *isb = malloc((size_t)m->p);
	vlmod_tab_init(t, 8);
	for (int k = 0; k < 8; k++)
		vlmod_tab_str(t, h[k]);
	for (int s = 0; cnt && isb && s < m->r; s++) {
		bsp_partners(m, s, cnt, isb);
		for (int i = 0; i < m->p; i++) {
			size_t k = (size_t)s * m->p + i;
			vlmod_tab_num(t, s + 1);
			vlmod_tab_num(t, i);
			vlmod_tab_num(t, m->w[k]);
			vlmod_tab_num(t, m->in[k]);
			vlmod_tab_num(t, m->out[k]);
			vlmod_tab_num(t, vlmod_prog_h(m, s, i, o->at_max));
			vlmod_tab_num(t, cnt[i]);
			vlmod_tab_num(t, phi[k]);
		}
	}
	free(isb);
	if (!cnt)
		return -1;
	free(cnt);
	return 0;
}

/* 100 (actual - model) / actual, the paper's error (18). */
static double bsp_err(double actual, double model)
{
	return actual != 0 ? 100 * (actual - model) / actual : NAN;
}

static void bsp_totals(const bsp_opts *o, const vlmod_prog *m, double T, double psi)
{
	char a[32], b[32], c[32];
	if (o->csv) {
		printf("# bspwb_s: %.9g\n# mpm_s: %.9g\n", T, psi);
		if (m->vlayer_total >= 0)
			printf("# vlayer_s: %.9g\n", m->vlayer_total);
		return;
	}
	printf("\nBSPWB: T = %s s\nMPM: Psi = %s s\n", vlmod_g(a, sizeof a, T),
	       vlmod_g(b, sizeof b, psi));
	if (m->vlayer_total >= 0)
		printf("vlayer: %s s (error 100 (vlayer - model)/vlayer: BSPWB %.1f %%, MPM %.1f "
		       "%%)\n",
		       vlmod_g(c, sizeof c, m->vlayer_total), bsp_err(m->vlayer_total, T),
		       bsp_err(m->vlayer_total, psi));
}

static int bsp_report(const bsp_opts *o, const vlmod_prog *m, int rule)
{
	size_t rp = (size_t)m->r * (size_t)m->p;
	double *T = calloc((size_t)m->r + 1, sizeof *T), *mpm = calloc((size_t)m->r + 1, sizeof *T);
	double *phi = calloc(rp + 1, sizeof *phi), psi;
	vlmod_tab t = {0}, d = {0};
	int rc = -1;
	if (!T || !mpm || !phi)
		goto out;
	vlmod_bspwb(m, o->g, o->L, o->at_max, T);
	psi = vlmod_mpm(m, o->g, o->L, o->at_max, phi, mpm);
	if (isnan(psi))
		goto out;
	bsp_preamble(o, m, rule);
	if (o->csv)
		bsp_totals(o, m, m->r ? T[m->r - 1] : 0, psi);
	bsp_steps(&t, o, m, T, mpm);
	if (o->detail && bsp_detail(&d, o, m, phi) < 0)
		goto out;
	rc = (!o->csv || !o->detail) ? vlmod_tab_print(stdout, &t, o->csv) : 0;
	if (!rc && o->detail && !o->csv)
		putchar('\n');
	if (!rc && o->detail)
		rc = vlmod_tab_print(stdout, &d, o->csv);
	if (!o->csv)
		bsp_totals(o, m, m->r ? T[m->r - 1] : 0, psi);
out:
	vlmod_tab_free(&t);
	vlmod_tab_free(&d);
	free(T);
	free(mpm);
	free(phi);
	return rc < 0 ? vlmod_die("out of memory or write error") : 0;
}

int vlmod_bsp_main(int argc, char **argv)
{
	bsp_opts o;
	vlmod_prog m;
	char err[1024] = "";
	int rc, rule;
	memset(&o, 0, sizeof o);
	memset(&m, 0, sizeof m);
	o.min_gap = 1e-6;
	rc = bsp_args(argc, argv, &o);
	if (rc)
		return rc == 1 ? 0 : rc;
	if ((rc = bsp_check(&o)))
		return rc;
	rule = o.rule;
	if (o.file)
		rc = vlmod_prog_read(o.file, o.ntasks, &m, err, sizeof err);
	else
		rc = vlmod_prog_from_trace(o.trace, o.rule, o.min_gap, &m, &rule, stderr, err,
		                         sizeof err);
	rc = rc < 0 ? vlmod_die("%s", err) : bsp_report(&o, &m, rule);
	vlmod_prog_free(&m);
	return rc;
}
