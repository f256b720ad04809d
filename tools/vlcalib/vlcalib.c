/* vlcalib.c - `vlcalib fit`: raw ping-pong/BSP measurements (CSV, see
 * models/fit.h and the README) into a VMConfig fragment and the
 * parameters of the classic models; `vlcalib run` starts the measurement
 * driver vlcalib-run found beside this program.
 *
 * What the VMConfig gets, per link kind (intra, inter), is what vlayer's model
 * (vlayer/model.c) will compute: a message costs the sender S(n) (send_model),
 * arrives T(n) after the send ends (trans_model) and costs the receiver the
 * constant R (recv_delay); k sends of a pvm_mcast cost S(n) x f(k) each
 * (contention).  So
 *   S = piecewise-linear fit of `send`,
 *   R = median of `recv` over the sizes <= 1 KiB,
 *   T = piecewise-linear fit of oneway(n) - S(n) - R (else rtt(n)/2 - S(n) - R),
 *       clamped at 0, S the fitted send model, so that S + T + R reproduces
 *       the measured one-way time (a receive time that grows with the size
 *       goes into T: vlayer's R is a constant),
 *   f(k) = least-squares factor of contention(k, n) against k S(n).
 * The errors reported are those of the VMConfig models as vlayer evaluates
 * them (whole bytes and ns, vli_pwl_eval): of S against `send`, and of
 * S + T + R against the one-way time.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib_raw.h"
#include "fit.h"
#include "vlayer/core/engine.h" /* vli_pwl_eval: the model as vlayer evaluates it */
#include "util/outfile.h"

#define LINE_MAX_VMC 199 /* inih's line limit as Debian builds it */

static const char usage[] =
    "usage: vlcalib fit RAW.csv... [--stat median|min] [--penalty P|auto] [--floor T]\n"
    "                   [--link intra|inter|all] [--csv] [-o OUT.ini]\n"
    "       vlcalib run ARGS...      (runs vlcalib-run ARGS... from vlcalib's directory)\n"
    "       vlcalib --help\n";

static const char help[] =
    "\n"
    "vlcalib fit reads raw measurement files (CSV, first line \"# vlcalib raw v1\",\n"
    "columns experiment,link,procs,bytes,h,reps,min_ns,median_ns,...; written by\n"
    "vlcalib run) and fits, per link kind (intra: both tasks on one node, inter:\n"
    "different nodes):\n"
    "  send_model   piecewise-linear fit of the time in the send call\n"
    "  trans_model  piecewise-linear fit of oneway - send_model - recv_delay\n"
    "               (rtt/2 instead of oneway if the file has no oneway rows)\n"
    "  recv_delay   median time in the receive call, sizes <= 1 KiB\n"
    "  contention   k:factor, the send-time factor of a send to k >= 2 tasks at\n"
    "               once (vlayer applies it to pvm_mcast)\n"
    "and prints the Hockney (t0, r_inf, n_1/2), LogGP (L, o_s, o_r, g, G),\n"
    "MSGSETUP/ALCBW (application-to-application bandwidth, 004 eqs. 13-17) and\n"
    "BSP g and L (003 section 3: per pattern and processor count, per pattern,\n"
    "the paper's average over patterns (eq. 11), and the mean of the patterns')\n"
    "parameters.  Several files are combined: the value of a row is the median\n"
    "(or the minimum, with --stat min) of its value in each file.\n"
    "\n"
    "Breakpoints are found by segmented least squares: dynamic programming over\n"
    "the sorted sizes minimising the sum of squared relative errors (see --floor)\n"
    "+ P x the number of segments; neighbouring lines are joined where they\n"
    "cross (two points at a jump), then the values are refitted continuously.\n"
    "At most 32 points, and few enough for the VMConfig's 199-character line.\n"
    "\n"
    "options:\n"
    "  --stat median|min   which column to fit: median_ns (default) or min_ns\n"
    "  --penalty P|auto    P >= 0 in squared relative error per segment; auto\n"
    "                      (default): max(0.01, 6 ln(m) s^2), s the data's own\n"
    "                      relative noise estimated from its m sizes\n"
    "  --floor T           errors are relative to the time, but to T (default 1us)\n"
    "                      for times below T: the clock's resolution and the\n"
    "                      layer's own cost per call make smaller ones moot\n"
    "  --link K            intra, inter or all (default): which rows to use\n"
    "  --csv               print the parameters as CSV (link,model,parameter,\n"
    "                      value,unit) instead of the table and the fragment\n"
    "  -o FILE             also write the VMConfig fragment to FILE (replaced\n"
    "                      atomically); add [host] sections to make it complete\n"
    "\n"
    "Units: times in us, rates in MB/s (10^6 bytes/s), per-byte costs in ns/B,\n"
    "errors in % (relative, root mean square and largest over the sizes).\n"
    "Errors name the file and line; exit status 2 on bad input, 0 on success.\n";

/* ---- errors ---- */

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("vlcalib: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* Scratch memory: every block stays listed in LIVE until xfree, so that
 * whatever die() leaves behind is still reachable (LeakSanitizer stays quiet
 * about error exits). */
static void **live;
static size_t nlive, caplive;

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	if (nlive == caplive) {
		caplive = caplive ? 2 * caplive : 64;
		live = realloc(live, sizeof(void *) * caplive);
		if (!live)
			die("out of memory");
	}
	live[nlive++] = p;
	return p;
}

static void xfree(void *p)
{
	for (size_t i = nlive; i-- > 0;)
		if (live[i] == p) {
			live[i] = live[--nlive];
			break;
		}
	free(p);
}

/* ---- raw rows (calib_raw.c) ---- */

static const char **files;
static double floor_ns = 1000; /* --floor: times below count as this when weighting */
static vlcal_raw raw;            /* every row of every file, merged */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* ---- series: the rows of one experiment as arrays ---- */

typedef struct series {
	int m;
	double *n, *t, *h;
	int *procs;
	const vlcal_raw_row *first; /* for messages; NULL if m == 0 */
} series;

/* The rows of (LINK, X), of PROCS tasks (0: any), sorted by procs and bytes. */
static series get(int link, int x, int procs)
{
	series s = {0, NULL, NULL, NULL, NULL, NULL};

	s.n = xmalloc(sizeof(double) * (size_t)(raw.n + 1));
	s.t = xmalloc(sizeof(double) * (size_t)(raw.n + 1));
	s.h = xmalloc(sizeof(double) * (size_t)(raw.n + 1));
	s.procs = xmalloc(sizeof(int) * (size_t)(raw.n + 1));
	for (int i = 0; i < raw.n; i++) {
		const vlcal_raw_row *r = &raw.row[i];

		if (r->link != link || r->x != x || (procs && r->procs != procs))
			continue;
		if (!s.first)
			s.first = r;
		s.n[s.m] = (double)r->bytes;
		s.t[s.m] = r->v;
		s.h[s.m] = r->h;
		s.procs[s.m++] = r->procs;
	}
	return s;
}

static void sfree(series *s)
{
	xfree(s->n);
	xfree(s->t);
	xfree(s->h);
	xfree(s->procs);
}

/* Dies with "FILE:LINE: WHAT (link L): the fit's error (M sizes)" (BSP: rows). */
static void fit_fail(const series *s, int link, const char *what, int rc)
{
	const char *unit = s->h && !strncmp(what, "bsp", 3) ? "row" : "size";

	die("%s:%d: %s (link %s): %s (%d %s%s)", files[s->first->file], s->first->line, what,
	    vlcal_raw_lname[link], vlcal_fit_strerror(rc), s->m, unit, s->m == 1 ? "" : "s");
}

/* The first row of LINK, for messages about a whole link. */
static const vlcal_raw_row *link_first(int link)
{
	for (int i = 0; i < raw.n; i++)
		if (raw.row[i].link == link)
			return &raw.row[i];
	return NULL;
}

/* The smallest value in the series at its smallest size. */
static double at_smallest(const series *s)
{
	return s->t[0];
}

/* ---- VMConfig values in their shortest exact form ---- */

/* V / UNIT with at most DMAX decimals if exact, as text with SUFFIX into BUF;
 * returns its length, or INT_MAX if V / UNIT needs more decimals. */
static int fmt_exact(char *buf, size_t len, long long v, long long unit, int dmax,
                     const char *suffix)
{
	long long p = 1;

	for (int d = 0; d <= dmax; d++, p *= 10) {
		long long q;

		if (v > LLONG_MAX / p)
			break;
		if ((v * p) % unit)
			continue;
		q = v * p / unit;
		if (d == 0)
			return snprintf(buf, len, "%lld%s", q, suffix);
		return snprintf(buf, len, "%lld.%0*lld%s", q / p, d, q % p, suffix);
	}
	return INT_MAX;
}

/* The shortest of the forms (a tie goes to the larger unit). */
static void fmt_best(char *out, size_t len, long long v, const long long *unit,
                     const char *const *suffix, int nu, int dmax)
{
	int best = INT_MAX;

	for (int i = 0; i < nu; i++) {
		char b[64];
		int n = fmt_exact(b, sizeof b, v, unit[i], dmax, suffix[i]);

		if (n <= best && n < (int)sizeof b) {
			best = n;
			snprintf(out, len, "%s", b);
		}
	}
}

static void fmt_size(char *out, size_t len, long long bytes)
{
	static const long long u[] = {1, 1024, 1048576, 1073741824LL};
	static const char *const s[] = {"", "KiB", "MiB", "GiB"};
	int64_t back;

	fmt_best(out, len, bytes, u, s, 4, 4);
	if (vlcfg_parse_size(out, &back) || back != bytes)
		snprintf(out, len, "%lld", bytes);
}

static void fmt_time(char *out, size_t len, long long ns)
{
	static const long long u[] = {1, 1000, 1000000, 1000000000LL};
	static const char *const s[] = {"ns", "us", "ms", "s"};
	int64_t back;

	if (ns == 0) {
		snprintf(out, len, "0ns");
		return;
	}
	fmt_best(out, len, ns, u, s, 4, 6);
	if (vlcfg_parse_time(out, &back) || back != ns)
		snprintf(out, len, "%lldns", ns);
}

/* F rounded to what a VMConfig holds: whole bytes, whole ns >= 0. */
static void to_vl(const vlcal_pwl *f, vlcfg_pwl *m)
{
	memset(m, 0, sizeof *m);
	m->n = f->n;
	for (int i = 0; i < f->n; i++) {
		m->bytes[i] = llround(f->x[i]);
		m->ns[i] = f->y[i] > 0 ? llround(f->y[i] < 1e17 ? f->y[i] : 1e17) : 0;
	}
}

/* "KEY = SIZE:TIME, ..." into LINE; its length. */
static size_t fmt_model(char *line, size_t len, const char *key, const vlcfg_pwl *m, const char *sep)
{
	size_t o = (size_t)snprintf(line, len, "%-11s = ", key);

	for (int i = 0; i < m->n && o < len; i++) {
		char s[64], t[64];

		fmt_size(s, sizeof s, m->bytes[i]);
		fmt_time(t, sizeof t, m->ns[i]);
		o += (size_t)snprintf(line + o, len - o, "%s%s:%s", i ? sep : "", s, t);
	}
	return o;
}

/* Fits series S into a model whose VMConfig line fits: at most 32 points,
 * fewer while the line is too long. */
static void fit_model(const series *s, int link, const char *what, const double *w, double pen,
                      const char *key, vlcal_pwl *f, vlcfg_pwl *m, char *line, size_t len)
{
	for (int mp = VLM_PWL_MAX;;) {
		int rc = vlcal_segfit(s->n, s->t, w, s->m, pen, mp, f);

		if (rc)
			fit_fail(s, link, what, rc);
		to_vl(f, m);
		if (fmt_model(line, len, key, m, ", ") <= LINE_MAX_VMC)
			return;
		if (fmt_model(line, len, key, m, ",") <= LINE_MAX_VMC)
			return;
		if (f->n <= 2)
			die("%s:%d: %s (link %s): the model does not fit on one VMConfig line",
			    files[s->first->file], s->first->line, what, vlcal_raw_lname[link]);
		mp = f->n - 1;
	}
}

/* ---- the fits of one link ---- */

typedef struct linkfit {
	int link;
	series send, total, recv, gap;
	double pen_send, pen_trans, sig_send, sig_trans;
	int fixed_pen;
	vlcal_pwl sf, tf;
	vlcfg_pwl sm, tm;
	double s_rms, s_max, t_rms, t_max; /* relative errors of the rounded models */
	char sline[1024], tline[1024], cline[1024];
	int has_recv;
	long long recv_ns;
	const char *total_src;
	int ncont, cont_k[VLM_PWL_MAX];
	double cont_f[VLM_PWL_MAX];
	vlcal_hockney hock;
	int has_gap;
	vlcal_loggp lg;
	double msgsetup, alcbw, ns_used, nl_used;
} linkfit;

static int has_rows(int link, int x)
{
	for (int i = 0; i < raw.n; i++)
		if (raw.row[i].link == link && raw.row[i].x == x)
			return 1;
	return 0;
}

/* The weights of a fit whose error is relative to REF (M values): 1 /
 * max(REF, floor)^2, so that below the floor errors count as absolute. */
static double *weights(const double *ref, int m)
{
	double *w = xmalloc(sizeof(double) * (size_t)(m + 1));

	for (int i = 0; i < m; i++) {
		double d = ref[i] > floor_ns ? ref[i] : floor_ns;
		w[i] = 1 / (d * d);
	}
	return w;
}

/* The user's penalty, or the automatic one for S (weights W); *SIGMA the
 * noise estimate (0 for a fixed penalty). */
static double penalty_for(const linkfit *L, const series *s, const double *w, double *sigma)
{
	*sigma = 0;
	if (L->fixed_pen)
		return L->pen_send; /* the user's, set for all fits */
	return vlcal_penalty_auto(s->n, s->t, w, s->m, sigma);
}

/* Relative rms and largest error of MODEL(n) against S->t (sizes S->n),
 * relative to the floor for times below it. */
static void model_error(const series *s, const double *model, double *rms, double *mx)
{
	double s2 = 0;

	*mx = 0;
	for (int i = 0; i < s->m; i++) {
		double r = fabs(model[i] - s->t[i]) / (s->t[i] > floor_ns ? s->t[i] : floor_ns);

		s2 += r * r;
		*mx = r > *mx ? r : *mx;
	}
	*rms = sqrt(s2 / s->m);
}

static void fit_send(linkfit *L)
{
	const vlcal_raw_row *r0 = link_first(L->link);
	double *w;

	L->send = get(L->link, VLM_X_SEND, 2);
	if (!L->send.m)
		die("%s:%d: link %s: no send rows (send_model needs them)", files[r0->file],
		    r0->line, vlcal_raw_lname[L->link]);
	if (L->send.m < 2)
		fit_fail(&L->send, L->link, "send", VLM_FIT_FEW);
	w = weights(L->send.t, L->send.m);
	L->pen_send = penalty_for(L, &L->send, w, &L->sig_send);
	fit_model(&L->send, L->link, "send", w, L->pen_send, "send_model", &L->sf, &L->sm, L->sline,
	          sizeof L->sline);
	xfree(w);
	{
		double *mod = xmalloc(sizeof(double) * (size_t)L->send.m);

		for (int i = 0; i < L->send.m; i++)
			mod[i] = (double)vli_pwl_eval(&L->sm, (int64_t)L->send.n[i]);
		model_error(&L->send, mod, &L->s_rms, &L->s_max);
		xfree(mod);
	}
}

/* recv_delay: the median of recv over the sizes <= 1 KiB (else the smallest). */
static void fit_recv(linkfit *L)
{
	double v[4096];
	int n = 0;

	L->recv = get(L->link, VLM_X_RECV, 2);
	if (!L->recv.m)
		return;
	L->has_recv = 1;
	for (int i = 0; i < L->recv.m && n < 4096; i++)
		if (L->recv.n[i] <= 1024)
			v[n++] = L->recv.t[i];
	if (!n)
		v[n++] = L->recv.t[0];
	qsort(v, (size_t)n, sizeof(double), cmp_dbl);
	L->recv_ns = llround(n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

static void fit_trans(linkfit *L)
{
	const vlcal_raw_row *r0 = link_first(L->link);
	series tr;
	double *w;

	L->total = get(L->link, VLM_X_ONEWAY, 2);
	L->total_src = "oneway";
	if (!L->total.m) {
		sfree(&L->total);
		L->total = get(L->link, VLM_X_RTT, 2);
		L->total_src = "rtt/2";
		for (int i = 0; i < L->total.m; i++)
			L->total.t[i] /= 2;
	}
	if (!L->total.m)
		die("%s:%d: link %s: no oneway or rtt rows (trans_model needs them)",
		    files[r0->file], r0->line, vlcal_raw_lname[L->link]);
	if (L->total.m < 2)
		fit_fail(&L->total, L->link, L->total_src, VLM_FIT_FEW);
	/* T = total - S - R, fitted with weights relative to the total time */
	tr = L->total;
	tr.t = xmalloc(sizeof(double) * (size_t)tr.m);
	w = weights(L->total.t, L->total.m);
	for (int i = 0; i < tr.m; i++) {
		double t = L->total.t[i] - vlcal_pwl_eval(&L->sf, tr.n[i]) - (double)L->recv_ns;

		tr.t[i] = t > 0 ? t : 0;
	}
	L->pen_trans = penalty_for(L, &L->total, w, &L->sig_trans);
	fit_model(&tr, L->link, "trans", w, L->pen_trans, "trans_model", &L->tf, &L->tm, L->tline,
	          sizeof L->tline);
	for (int i = 0; i < tr.m; i++)
		tr.t[i] = (double)(vli_pwl_eval(&L->sm, (int64_t)tr.n[i]) +
		                   vli_pwl_eval(&L->tm, (int64_t)tr.n[i]) + L->recv_ns);
	model_error(&L->total, tr.t, &L->t_rms, &L->t_max);
	xfree(tr.t);
	xfree(w);
}

/* contention = k:f(k) for every k >= 2 measured */
static void fit_contention(linkfit *L)
{
	int procs = 0;
	size_t o = (size_t)snprintf(L->cline, sizeof L->cline, "%-11s = ", "contention");

	for (int i = 0; i < raw.n; i++) {
		const vlcal_raw_row *r = &raw.row[i];
		series c;
		double *s, f;
		int rc;
		char e[64];

		if (r->link != L->link || r->x != VLM_X_CONT || r->procs == procs)
			continue;
		procs = r->procs;
		if (procs < 3 || L->ncont == VLM_PWL_MAX)
			continue;
		c = get(L->link, VLM_X_CONT, procs);
		s = xmalloc(sizeof(double) * (size_t)c.m);
		for (int j = 0; j < c.m; j++)
			s[j] = vlcal_pwl_eval(&L->sf, c.n[j]);
		rc = vlcal_contention_fit(procs - 1, s, c.t, c.m, &f);
		if (rc)
			fit_fail(&c, L->link, "contention", rc);
		snprintf(e, sizeof e, "%s%d:%.6g", L->ncont ? ", " : "", procs - 1, f);
		if (o + strlen(e) <= LINE_MAX_VMC) {
			L->cont_k[L->ncont] = procs - 1;
			L->cont_f[L->ncont++] = f;
			o += (size_t)snprintf(L->cline + o, sizeof L->cline - o, "%s", e);
		} else {
			fprintf(stderr,
			        "vlcalib: link %s: contention for k = %d left out "
			        "(VMConfig line full)\n",
			        vlcal_raw_lname[L->link], procs - 1);
		}
		xfree(s);
		sfree(&c);
	}
}

static void fit_classic(linkfit *L)
{
	int rc = vlcal_hockney_fit(L->total.n, L->total.t, L->total.m, &L->hock);

	if (rc)
		fit_fail(&L->total, L->link, "Hockney fit", rc);
	rc = vlcal_msgsetup_series(L->total.n, L->total.t, L->total.m, &L->msgsetup, &L->alcbw,
	                         &L->ns_used, &L->nl_used);
	if (rc)
		fit_fail(&L->total, L->link, "MSGSETUP/ALCBW", rc);
	L->gap = get(L->link, VLM_X_GAP, 2);
	L->has_gap = L->gap.m > 0;
	if (L->has_gap) {
		double sig, *w = weights(L->gap.t, L->gap.m);
		double pen = penalty_for(L, &L->gap, w, &sig);

		rc = vlcal_loggp_fit(at_smallest(&L->send), L->has_recv ? at_smallest(&L->recv) : 0,
		                   at_smallest(&L->total), L->gap.n, L->gap.t, w, L->gap.m, pen,
		                   &L->lg);
		if (rc)
			fit_fail(&L->gap, L->link, "gap (LogGP)", rc);
		xfree(w);
	} else {
		/* no gap rows: L and the overheads as usual, G from the one-way fit */
		const vlcal_pwl *f = &L->tf;

		L->lg.o_s = at_smallest(&L->send);
		L->lg.o_r = L->has_recv ? at_smallest(&L->recv) : 0;
		L->lg.L = at_smallest(&L->total) - L->lg.o_s - L->lg.o_r;
		L->lg.g = NAN;
		L->lg.G = (f->y[f->n - 1] - f->y[f->n - 2]) / (f->x[f->n - 1] - f->x[f->n - 2]);
		L->lg.G += (L->sf.y[L->sf.n - 1] - L->sf.y[L->sf.n - 2]) /
		           (L->sf.x[L->sf.n - 1] - L->sf.x[L->sf.n - 2]);
	}
}

static int ping_family(int link)
{
	static const int xs[] = {VLM_X_RTT,  VLM_X_ONEWAY, VLM_X_SEND,
	                         VLM_X_RECV, VLM_X_GAP,    VLM_X_CONT};

	for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
		if (has_rows(link, xs[i]))
			return 1;
	return 0;
}

/* ---- output: parameter rows, then table or CSV ---- */

typedef struct prow {
	char link[8], model[40], param[24], value[40], unit[8];
} prow;

static prow *prows;
static int nprows, capprows, csv_out;

static void put_text(int link, const char *model, const char *param, const char *value,
                     const char *unit)
{
	prow *p;

	if (nprows == capprows) {
		capprows = capprows ? 2 * capprows : 64;
		prows = realloc(prows, sizeof(prow) * (size_t)capprows);
		if (!prows)
			die("out of memory");
	}
	p = &prows[nprows++];
	snprintf(p->link, sizeof p->link, "%s", vlcal_raw_lname[link]);
	snprintf(p->model, sizeof p->model, "%s", model);
	snprintf(p->param, sizeof p->param, "%s", param);
	snprintf(p->value, sizeof p->value, "%s", value);
	snprintf(p->unit, sizeof p->unit, "%s", unit);
}

/* A value: 6 significant digits in the table, 10 in CSV; NaN is "-". */
static void put(int link, const char *model, const char *param, double v, const char *unit)
{
	char b[40];

	if (isnan(v))
		snprintf(b, sizeof b, "-");
	else
		snprintf(b, sizeof b, csv_out ? "%.10g" : "%.6g", v);
	put_text(link, model, param, b, unit);
}

/* A count or a size: all digits. */
static void put_int(int link, const char *model, const char *param, double v, const char *unit)
{
	char b[40];

	snprintf(b, sizeof b, "%.0f", v);
	put_text(link, model, param, b, unit);
}

/* A relative error or noise level FRAC, as a percentage with fixed decimals
 * (so that round-off far below them does not show). */
static void put_pct(int link, const char *model, const char *param, double frac)
{
	char b[40];

	snprintf(b, sizeof b, csv_out ? "%.6f" : "%.3f", 100 * frac);
	put_text(link, model, param, b, "%");
}

static void put_pwl(int link, const char *model, const vlcal_pwl *f, int m, double rms, double mx,
                    const linkfit *L, double pen, double sig)
{
	put_int(link, model, "points", f->n, "");
	put_int(link, model, "sizes", m, "");
	put_pct(link, model, "rms_error", rms);
	put_pct(link, model, "max_error", mx);
	put(link, model, "penalty", pen, "");
	if (!L->fixed_pen)
		put_pct(link, model, "noise", sig);
}

static void put_link(const linkfit *L)
{
	char m[40];
	int k = L->link;

	put_pwl(k, "send_model", &L->sf, L->send.m, L->s_rms, L->s_max, L, L->pen_send,
	        L->sig_send);
	snprintf(m, sizeof m, "trans_model(%s)", L->total_src);
	put_pwl(k, m, &L->tf, L->total.m, L->t_rms, L->t_max, L, L->pen_trans, L->sig_trans);
	put(k, "recv_delay", "R", L->has_recv ? L->recv_ns / 1e3 : NAN, "us");
	for (int i = 0; i < L->ncont; i++) {
		char p[24];

		snprintf(p, sizeof p, "k=%d", L->cont_k[i]);
		put(k, "contention", p, L->cont_f[i], "x");
	}
	put(k, "hockney", "t0", L->hock.t0 / 1e3, "us");
	put(k, "hockney", "r_inf", L->hock.r_inf * 1e3, "MB/s");
	put(k, "hockney", "n_half", L->hock.n_half, "B");
	put_pct(k, "hockney", "rms_error", L->hock.rms_rel);
	put(k, "loggp", "L", L->lg.L / 1e3, "us");
	put(k, "loggp", "o_s", L->lg.o_s / 1e3, "us");
	put(k, "loggp", "o_r", L->lg.o_r / 1e3, "us");
	put(k, "loggp", "g", L->lg.g / 1e3, "us");
	put(k, "loggp", "G", L->lg.G, "ns/B");
	put(k, "a2a(004)", "MSGSETUP", L->msgsetup / 1e3, "us");
	put(k, "a2a(004)", "ALCBW", L->alcbw * 1e3, "MB/s");
	put_int(k, "a2a(004)", "n_small", L->ns_used, "B");
	put_int(k, "a2a(004)", "n_large", L->nl_used, "B");
}

static void put_bsp_line(int link, const char *model, const vlcal_bsp *b)
{
	put(link, model, "g", b->g, "ns/B");
	put(link, model, "L", b->L / 1e3, "us");
	{
		char v[40];

		snprintf(v, sizeof v, csv_out ? "%.6f" : "%.3f", b->rms / 1e3);
		put_text(link, model, "rms_error", v, "us");
	}
}

/* BSP: per pattern and processor count, per pattern, eq. 11, the mean. */
static void fit_bsp(int link)
{
	int *pat = xmalloc(sizeof(int) * (size_t)(raw.n + 1)), np = 0, npat = 0;
	double *h = xmalloc(sizeof(double) * (size_t)(raw.n + 1));
	double *t = xmalloc(sizeof(double) * (size_t)(raw.n + 1)), gs = 0, ls = 0;
	const vlcal_raw_row *first = NULL;
	vlcal_bsp b;
	int rc;

	for (int x = VLM_X_BSP; x < VLM_X_BSP + 5; x++) {
		series s = get(link, x, 0);
		char m[40];

		if (!s.m) {
			sfree(&s);
			continue;
		}
		if (!first)
			first = s.first;
		for (int i = 0; i < s.m;) {
			int j = i;
			series one = s;

			while (j < s.m && s.procs[j] == s.procs[i])
				j++;
			one.m = j - i;
			one.h += i;
			one.t += i;
			rc = vlcal_bsp_fit(one.h, one.t, one.m, &b);
			if (rc) {
				one.first = s.first;
				fit_fail(&one, link, vlcal_raw_xname[x], rc);
			}
			snprintf(m, sizeof m, "%s(p=%d)", vlcal_raw_xname[x], s.procs[i]);
			put_bsp_line(link, m, &b);
			i = j;
		}
		rc = vlcal_bsp_fit(s.h, s.t, s.m, &b);
		if (rc)
			fit_fail(&s, link, vlcal_raw_xname[x], rc);
		put_bsp_line(link, vlcal_raw_xname[x], &b);
		gs += b.g;
		ls += b.L;
		npat++;
		for (int i = 0; i < s.m; i++) {
			pat[np] = x;
			h[np] = s.h[i];
			t[np++] = s.t[i];
		}
		sfree(&s);
	}
	if (npat) {
		series all = {np, NULL, t, h, NULL, first};

		rc = vlcal_bsp_overall(pat, h, t, np, &b);
		if (rc)
			fit_fail(&all, link, "bsp average (eq. 11)", rc);
		put_bsp_line(link, "bsp(eq.11)", &b);
		put(link, "bsp(mean)", "g", gs / npat, "ns/B");
		put(link, "bsp(mean)", "L", ls / npat / 1e3, "us");
	}
	{
		series s = get(link, VLM_X_BARRIER, 0);

		for (int i = 0; i < s.m;) {
			int j = i;
			double sum = 0;
			char m[40];

			while (j < s.m && s.procs[j] == s.procs[i])
				sum += s.t[j++];
			snprintf(m, sizeof m, "bsp_barrier(p=%d)", s.procs[i]);
			put(link, m, "L_min", sum / (j - i) / 1e3, "us");
			i = j;
		}
		sfree(&s);
	}
	xfree(pat);
	xfree(h);
	xfree(t);
}

static void print_table(FILE *f)
{
	int w[4] = {5, 5, 9, 5};

	for (int i = 0; i < nprows; i++) {
		const prow *p = &prows[i];
		int l[4] = {(int)strlen(p->link), (int)strlen(p->model), (int)strlen(p->param),
		            (int)strlen(p->value)};
		for (int j = 0; j < 4; j++)
			w[j] = l[j] > w[j] ? l[j] : w[j];
	}
	fprintf(f, "%-*s  %-*s  %-*s  %*s  %s\n", w[0], "link", w[1], "model", w[2], "parameter",
	        w[3], "value", "unit");
	for (int i = 0; i < nprows; i++) {
		const prow *p = &prows[i];

		fprintf(f, "%-*s  %-*s  %-*s  %*s  %s\n", w[0], p->link, w[1], p->model, w[2],
		        p->param, w[3], p->value, p->unit);
	}
}

static void print_csv(FILE *f)
{
	fprintf(f, "link,model,parameter,value,unit\n");
	for (int i = 0; i < nprows; i++) {
		const prow *p = &prows[i];

		vlu_csv_str(f, p->link);
		fputc(',', f);
		vlu_csv_str(f, p->model);
		fputc(',', f);
		vlu_csv_str(f, p->param);
		fputc(',', f);
		vlu_csv_str(f, p->value);
		fputc(',', f);
		vlu_csv_str(f, p->unit);
		fputc('\n', f);
	}
}

/* ---- the VMConfig fragment ---- */

typedef struct fragment {
	const linkfit *lf[2];
	int nfiles, use_min;
	const char *pen_text, *floor_text;
} fragment;

static int write_fragment(FILE *f, void *ctx, char *err, size_t errlen)
{
	const fragment *fr = ctx;

	(void)err;
	(void)errlen;
	fprintf(f, "; VMConfig fragment written by vlcalib fit from %d raw file%s\n", fr->nfiles,
	        fr->nfiles == 1 ? "" : "s");
	fprintf(f, "; (statistic %s, penalty %s, floor %s); add [host] or [hosts] sections\n",
	        fr->use_min ? "min" : "median", fr->pen_text, fr->floor_text);
	for (int k = 0; k < 2; k++) {
		const linkfit *L = fr->lf[k];
		char tv[64];

		if (!L)
			continue;
		fprintf(f, "\n[network %s]\n", vlcal_raw_lname[k]);
		fprintf(f, "; send_model: %d points, error rms %.3f %%, max %.3f %%\n", L->sf.n,
		        100 * L->s_rms, 100 * L->s_max);
		fprintf(f,
		        "; trans_model from %s: %d points; send + trans + recv_delay against "
		        "the one-way time: error rms %.3f %%, max %.3f %%\n",
		        L->total_src, L->tf.n, 100 * L->t_rms, 100 * L->t_max);
		fprintf(f, "%s\n%s\n", L->sline, L->tline);
		fmt_time(tv, sizeof tv, L->recv_ns);
		if (L->has_recv)
			fprintf(f, "%-11s = %s\n", "recv_delay", tv);
		else
			fprintf(f, "; no recv rows: recv_delay 0, the receive cost is in "
			           "trans_model\n");
		if (L->ncont)
			fprintf(f, "%s\n", L->cline);
	}
	return 0;
}

/* ---- commands ---- */

static int cmd_run(int argc, char **argv)
{
	char self[4096], *slash, **av;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 32);

	if (n <= 0)
		die("cannot find my own directory: %s", strerror(errno));
	self[n] = 0;
	slash = strrchr(self, '/');
	strcpy(slash ? slash + 1 : self, "vlcalib-run");
	if (access(self, X_OK) != 0)
		die("%s: %s (build it with make)", self, strerror(errno));
	av = xmalloc(sizeof(char *) * (size_t)(argc + 1));
	av[0] = self;
	for (int i = 1; i < argc; i++)
		av[i] = argv[i];
	av[argc] = NULL;
	execv(self, av);
	die("%s: %s", self, strerror(errno));
	return 2;
}

typedef struct opts {
	int use_min, linkmask, fixed_pen;
	double pen;
	const char *out, *pen_text, *floor_text;
} opts;

/* The value of option ARGV[*I] (--opt VALUE or --opt=VALUE). */
static const char *optval(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (*i + 1 >= argc)
		die("%s needs a value (see vlcalib --help)", name);
	return argv[++*i];
}

static int is_opt(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arg, name, n) && (arg[n] == 0 || arg[n] == '=');
}

static int parse_fit_args(int argc, char **argv, opts *o)
{
	int nf = 0, dashdash = 0;

	files = xmalloc(sizeof(char *) * (size_t)argc);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v;

		if (dashdash || a[0] != '-' || !strcmp(a, "-")) {
			files[nf++] = a;
		} else if (!strcmp(a, "--")) {
			dashdash = 1;
		} else if (is_opt(a, "--stat")) {
			v = optval(argc, argv, &i, "--stat");
			if (strcmp(v, "median") && strcmp(v, "min"))
				die("--stat: '%s' is not median or min", v);
			o->use_min = !strcmp(v, "min");
		} else if (is_opt(a, "--penalty")) {
			char *end;

			v = optval(argc, argv, &i, "--penalty");
			o->pen_text = v;
			if (!strcmp(v, "auto")) {
				o->fixed_pen = 0;
				continue;
			}
			o->pen = strtod(v, &end);
			if (!*v || *end || !isfinite(o->pen) || o->pen < 0)
				die("--penalty: '%s' is not a number >= 0 or auto", v);
			o->fixed_pen = 1;
		} else if (is_opt(a, "--link")) {
			v = optval(argc, argv, &i, "--link");
			if (!strcmp(v, "intra"))
				o->linkmask = 1;
			else if (!strcmp(v, "inter"))
				o->linkmask = 2;
			else if (!strcmp(v, "all"))
				o->linkmask = 3;
			else
				die("--link: '%s' is not intra, inter or all", v);
		} else if (is_opt(a, "--floor")) {
			int64_t ns;

			v = optval(argc, argv, &i, "--floor");
			if (vlcfg_parse_time(v, &ns))
				die("--floor: '%s' is not a time (a number with ns, us, ms or s)",
				    v);
			floor_ns = ns > 0 ? (double)ns : 1;
			o->floor_text = v;
		} else if (!strcmp(a, "--csv")) {
			csv_out = 1;
		} else if (!strcmp(a, "-o") || is_opt(a, "--output")) {
			o->out = optval(argc, argv, &i, !strcmp(a, "-o") ? "-o" : "--output");
		} else {
			die("unknown option '%s' (see vlcalib --help)", a);
		}
	}
	if (!nf)
		die("fit: no raw file given\n%s", usage);
	return nf;
}

static int cmd_fit(int argc, char **argv)
{
	opts o = {0, 3, 0, 0, NULL, "auto", "1us"};
	static linkfit lf[2];
	fragment fr = {{NULL, NULL}, 0, 0, NULL, NULL};
	int nf = parse_fit_args(argc, argv, &o), any = 0;
	char err[1024];
	static char *msg; /* static: still reachable when die() leaves */

	for (int i = 0; i < nf; i++)
		if (vlcal_raw_load(&raw, files[i], i, o.use_min, o.linkmask, &msg))
			die("%s", msg ? msg : "out of memory");
	if (vlcal_raw_merge(&raw, files, o.use_min, &msg))
		die("%s", msg ? msg : "out of memory");
	if (!raw.n)
		die("%s: no rows%s", files[0],
		    o.linkmask == 3   ? ""
		    : o.linkmask == 1 ? " for link intra"
		                      : " for link inter");
	for (int k = 0; k < 2; k++) {
		linkfit *L = &lf[k];

		L->link = k;
		L->fixed_pen = o.fixed_pen;
		L->pen_send = o.pen;
		if (!ping_family(k)) {
			fit_bsp(k);
			continue;
		}
		fit_send(L);
		fit_recv(L);
		fit_trans(L);
		fit_contention(L);
		fit_classic(L);
		put_link(L);
		fit_bsp(k);
		fr.lf[k] = L;
		any = 1;
	}
	if (o.out && !any)
		die("-o %s: no ping-pong rows (send, oneway or rtt), so no VMConfig section to "
		    "write",
		    o.out);
	fr.nfiles = nf;
	fr.use_min = o.use_min;
	fr.pen_text = o.pen_text;
	fr.floor_text = o.floor_text;
	if (csv_out) {
		print_csv(stdout);
	} else {
		/* library and hosts cut at 63 and 255 bytes */
		printf("vlcalib fit: %d raw file%s, library %.63s, hosts %.255s; statistic %s, "
		       "penalty %s, floor %s\n\n",
		       nf, nf == 1 ? "" : "s", raw.library && raw.library[0] ? raw.library : "?",
		       raw.hosts && raw.hosts[0] ? raw.hosts : "?", o.use_min ? "min" : "median",
		       o.pen_text, o.floor_text);
		print_table(stdout);
		if (any) {
			putchar('\n');
			write_fragment(stdout, &fr, err, sizeof err);
		}
	}
	if (o.out) {
		if (vlu_write_atomic(o.out, write_fragment, &fr, err, sizeof err))
			die("%s", err);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		die("standard output: %s", strerror(errno));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (argc > 2 && !strcmp(argv[1], "fit") &&
	     (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")))) {
		fputs(usage, stdout);
		fputs(help, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "fit"))
		return cmd_fit(argc, argv);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	die("unknown command '%s'\n%s", argv[1], usage);
	return 2;
}
