/* alphabeta.c - Lin's least-squares method for the latency and bandwidth
 * constants of a message-passing job (000-lsdyna-comm-cost.txt), `vlmodel
 * alphabeta`, and `vlmodel alphabeta-csv`, which writes its input file from
 * the trace directories of vlayer runs. */
#include "vlmodel.h"
#include "util/diag.h"
#include "util/csv.h"
#include "util/lsq.h"
#include "postproc/stats.h"
#include "postproc/tracereader.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage_ab[] =
    "usage: vlmodel alphabeta FILE.csv --a LAT,BW --b LAT,BW [--predict LAT,BW]...\n"
    "                         [--base model|measured] [--table PUBLISHED.csv] [--csv]\n"
    "\n"
    "Lin's method (LS-DYNA, 000-lsdyna-comm-cost.txt): the same jobs ran on two\n"
    "clusters that differ only in their interconnect, a and b.  With the ping-pong\n"
    "latency and bandwidth of both, least squares over the jobs of\n"
    "  M (la - lb) alpha + M s (1/ba - 1/bb) beta = time_a - time_b      (eq. 6)\n"
    "gives the latency constant alpha and the bandwidth constant beta.  Then per\n"
    "job: the communication cost T_comm = M (alpha lat + beta s / bw) (eq. 5) on a\n"
    "and on b, the computation cost comp (time - T_comm, the mean over a and b;\n"
    "resid = their difference, the job's residual of eq. 6) and, for each\n"
    "--predict interconnect, the predicted time: comp + its T_comm (--base model),\n"
    "or, as the paper computes its Table 4, the time measured on b minus the change\n"
    "in T_comm: time_b - T_comm(b) + its T_comm (--base measured).\n"
    "\n"
    "FILE.csv ('-' = stdin): a header row naming the columns, in any order (other\n"
    "columns are ignored), then one row per job:\n"
    "  job        a label\n"
    "  time_a     elapsed seconds on interconnect a\n"
    "  time_b     elapsed seconds on interconnect b\n"
    "  messages   messages per processor, M (mean over the processors)\n"
    "  avg_bytes  average message size in bytes, s\n"
    "`vlmodel alphabeta-csv` writes it from the trace directories of vlayer runs.\n"
    "\n"
    "  --a LAT,BW        ping-pong latency and bandwidth of a, e.g. 43us,112MB/s\n"
    "                    (latency: ns us ms s; bandwidth: B/s KB/s MB/s GB/s KiB/s\n"
    "                    MiB/s GiB/s bit/s kbit/s Mbit/s Gbit/s)\n"
    "  --b LAT,BW        the same for b\n"
    "  --predict LAT,BW  an interconnect to predict, repeatable (at most 16); latency\n"
    "                    0 and bandwidth inf are allowed: 0,inf = infinitely fast\n"
    "  --base B          model (default): predictions from the modelled computation\n"
    "                    cost; measured: from the time measured on b\n"
    "  --table FILE.csv  published predictions to check (columns job and pred1,\n"
    "                    pred2 ... as the --predict options): each cell is compared\n"
    "                    with the formula to the digits it is printed with (rounded\n"
    "                    or cut off), and where it differs, with the formula less the\n"
    "                    change of its latency or of its bandwidth term (text only)\n"
    "  --csv             CSV out: comment lines '# alpha: A', '# beta: B',\n"
    "                    '# rms_s: R', '# base: B', '# predN: LAT,BW', then the job\n"
    "                    table\n";

static const char usage_abcsv[] =
    "usage: vlmodel alphabeta-csv [-o FILE] JOB=DIR_A,DIR_B...\n"
    "\n"
    "Write the input of `vlmodel alphabeta` from vlayer runs: for each job, the\n"
    "trace directory of its run on interconnect a (a VMConfig with a's network)\n"
    "and of its run on b.  time_a and time_b are the predicted elapsed times (as\n"
    "`vlpost stats` prints them: latest end - earliest start); messages is the\n"
    "mean over the tasks of the point-to-point messages each sent, avg_bytes the\n"
    "mean of their average sizes over the tasks that sent (the paper's balanced-\n"
    "job approximation; `vlpost stats --full` prints the same two numbers).\n"
    "Collective operations are not counted as messages.  Both are taken from run\n"
    "a; a warning says when run b sent differently.\n"
    "\n"
    "  -o FILE   write to FILE instead of standard output\n";

int vlmod_parse_net(const char *text, int extremes, vlmod_net *net, char *err, size_t errlen)
{
	const char *comma = strchr(text, ',');
	char lat[128];
	size_t n;
	int cut;
	if (!comma || strchr(comma + 1, ',')) {
		snprintf(err, errlen, "'%s': expected LATENCY,BANDWIDTH (e.g. 43us,112MB/s)", text);
		return -1;
	}
	n = (size_t)(comma - text);
	cut = n >= sizeof lat; /* cut short, "000...01us" would be 0 */
	if (cut)
		n = sizeof lat - 1;
	memcpy(lat, text, n);
	lat[n] = '\0';
	if (cut || vlmod_parse_seconds(lat, 0, &net->lat) < 0 || net->lat < 0) {
		snprintf(err, errlen,
		         "'%s': bad latency '%s' (a time >= 0 with a unit: ns, us, "
		         "ms, s)",
		         text, lat);
		return -1;
	}
	if (vlmod_parse_bandwidth(comma + 1, extremes, &net->bw) < 0) {
		snprintf(err, errlen,
		         "'%s': bad bandwidth '%s' (a rate > 0 with a unit: B/s, "
		         "KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s, bit/s, kbit/s, Mbit/s, Gbit/s%s)",
		         text, comma + 1, extremes ? ", or inf" : "");
		return -1;
	}
	return 0;
}

double vlmod_ab_comm(double alpha, double beta, vlmod_net net, double m, double s)
{
	if (m == 0)
		return 0;
	return m * (alpha * net.lat + (isinf(net.bw) ? 0 : beta * s / net.bw));
}

static double inv(double bw)
{
	return isinf(bw) ? 0 : 1 / bw;
}

int vlmod_ab_fit(const vlmod_abjob *jobs, int n, vlmod_net a, vlmod_net b, double *alpha,
                 double *beta, double *rms)
{
	double *A, *y, x[2], sse;
	int rc;
	if (n < 2)
		return VLMOD_AB_FEW;
	if (a.lat == b.lat)
		return VLMOD_AB_SAMELAT;
	if (inv(a.bw) == inv(b.bw))
		return VLMOD_AB_SAMEBW;
	A = malloc(sizeof *A * 2 * (size_t)n);
	y = malloc(sizeof *y * (size_t)n);
	if (!A || !y) {
		free(A);
		free(y);
		return VLMOD_AB_SINGULAR;
	}
	for (int i = 0; i < n; i++) {
		A[2 * i] = jobs[i].m * (a.lat - b.lat);
		A[2 * i + 1] = jobs[i].m * jobs[i].s * (inv(a.bw) - inv(b.bw));
		y[i] = jobs[i].ta - jobs[i].tb;
	}
	rc = vlu_lsq(A, y, NULL, n, 2, x, &sse);
	free(A);
	free(y);
	if (rc < 0)
		return VLMOD_AB_SINGULAR;
	*alpha = x[0];
	*beta = x[1];
	if (rms)
		*rms = sqrt(sse / n);
	return VLMOD_AB_OK;
}

/* ---- vlmodel alphabeta ---- */

#define AB_MAXPRED 16

typedef struct ab_opts {
	const char *file;
	const char *a_text, *b_text;
	vlmod_net a, b;
	int npred;
	const char *pred_text[AB_MAXPRED];
	vlmod_net pred[AB_MAXPRED];
	int csv;
	int measured;      /* --base measured */
	const char *table; /* --table */
	double scale; /* the largest elapsed time: residuals far below it are 0 */
} ab_opts;

static int ab_value(void *ctx, const char *opt, const char *v)
{
	ab_opts *o = ctx;
	char err[512];
	if (!strcmp(opt, "--a")) {
		o->a_text = v;
		if (vlmod_parse_net(v, 0, &o->a, err, sizeof err) < 0)
			return vlmod_usage_err("alphabeta", usage_ab, "--a %s", err);
	} else if (!strcmp(opt, "--base")) {
		if (strcmp(v, "model") && strcmp(v, "measured"))
			return vlmod_usage_err("alphabeta", usage_ab,
			                       "--base %s: expected model or measured", v);
		o->measured = !strcmp(v, "measured");
	} else if (!strcmp(opt, "--table")) {
		o->table = v;
	} else if (!strcmp(opt, "--b")) {
		o->b_text = v;
		if (vlmod_parse_net(v, 0, &o->b, err, sizeof err) < 0)
			return vlmod_usage_err("alphabeta", usage_ab, "--b %s", err);
	} else {
		if (o->npred == AB_MAXPRED)
			return vlmod_usage_err("alphabeta", usage_ab,
			                       "more than %d --predict options", AB_MAXPRED);
		if (vlmod_parse_net(v, 1, &o->pred[o->npred], err, sizeof err) < 0)
			return vlmod_usage_err("alphabeta", usage_ab, "--predict %s", err);
		o->pred_text[o->npred++] = v;
	}
	return 0;
}

/* 0, 1 (--help printed) or VLMOD_EXIT_BAD. */
static int ab_args(int argc, char **argv, ab_opts *o)
{
	static const char *const opts[] = {"--a", "--b", "--predict", "--base", "--table"};
	static const char *const flags[] = {"--csv"};
	int *const flagv[] = {&o->csv};
	const vlmod_cmdline c = {"alphabeta", usage_ab, opts,     5, flags,
	                         flagv,       1,        ab_value, o, &o->file};
	int rc;
	memset(o, 0, sizeof *o);
	if ((rc = vlmod_args(argc, argv, &c)))
		return rc;
	if (!o->file)
		return vlmod_usage_err("alphabeta", usage_ab, "no input file");
	if (!o->a_text || !o->b_text)
		return vlmod_usage_err("alphabeta", usage_ab, "--a and --b are required");
	if (o->table && o->csv)
		return vlmod_usage_err("alphabeta", usage_ab, "--table is for the text report, not --csv");
	if (o->table && !o->npred)
		return vlmod_usage_err("alphabeta", usage_ab, "--table needs the --predict options");
	return 0;
}

enum { C_JOB, C_TA, C_TB, C_M, C_S, NC };
static const char *const ab_cols[] = {"job", "time_a", "time_b", "messages", "avg_bytes", NULL};

/* One job of row R: its numbers, each >= 0 (messages and avg_bytes finite). */
static int ab_row(const vlu_csv *c, int r, const int *idx, vlmod_abjob *j, char *err, size_t errlen)
{
	double *v[NC] = {NULL, &j->ta, &j->tb, &j->m, &j->s};
	for (int k = C_TA; k < NC; k++) {
		if (vlu_csv_num(c, r, idx[k], v[k], err, errlen) < 0)
			return -1;
		if (*v[k] < 0) {
			snprintf(err, errlen, "%s:%d: column %s: %s is negative", c->path,
			         c->line[r], ab_cols[k], vlu_csv_text(c, r, idx[k]));
			return -1;
		}
	}
	return 0;
}

static const char *ab_singular(int rc, const vlu_csv *c, const vlmod_abjob *j)
{
	int same_s = 1;
	switch (rc) {
	case VLMOD_AB_FEW:
		return "the fit needs at least 2 jobs";
	case VLMOD_AB_SAMELAT:
		return "singular fit: --a and --b have the same latency, so alpha is undetermined";
	case VLMOD_AB_SAMEBW:
		return "singular fit: --a and --b have the same bandwidth, so beta is undetermined";
	default:
		break;
	}
	for (int r = 1; r < c->nrows; r++)
		same_s &= j[r].s == j[0].s;
	if (same_s)
		return "singular fit: every job has the same avg_bytes, so the latency and the "
		       "bandwidth term cannot be told apart";
	return "singular fit: the jobs' equations (6) are linearly dependent (every job "
	       "has M = 0, or the same avg_bytes)";
}

static void ab_head(vlmod_tab *t, const ab_opts *o)
{
	static const char *const h[] = {"job",      "messages", "avg_bytes", "time_a_s", "time_b_s",
	                                "comm_a_s", "comm_b_s", "comp_s",    "resid_s"};
	char b[32];
	for (size_t k = 0; k < sizeof h / sizeof h[0]; k++)
		vlmod_tab_str(t, h[k]);
	for (int k = 0; k < o->npred; k++) {
		snprintf(b, sizeof b, "pred%d_s", k + 1);
		vlmod_tab_str(t, b);
	}
}

/* Job j's predicted time on interconnect p.  part: 0 the formula; 1 with
 * only its latency term changed from b's (the bandwidth term kept at b's), 2
 * with only its bandwidth term changed. */
static double ab_pred(const ab_opts *o, const vlmod_abjob *j, double alpha, double beta,
                      vlmod_net p, int part)
{
	double ca = vlmod_ab_comm(alpha, beta, o->a, j->m, j->s);
	double cb = vlmod_ab_comm(alpha, beta, o->b, j->m, j->s);
	double comp = ((j->ta - ca) + (j->tb - cb)) / 2;
	vlmod_net q = p;
	if (part == 1)
		q.bw = o->b.bw;
	else if (part == 2)
		q.lat = o->b.lat;
	return (o->measured ? j->tb - cb : comp) + vlmod_ab_comm(alpha, beta, q, j->m, j->s);
}

static void ab_job(vlmod_tab *t, const ab_opts *o, const char *name, const vlmod_abjob *j,
                   double alpha, double beta)
{
	double ca = vlmod_ab_comm(alpha, beta, o->a, j->m, j->s);
	double cb = vlmod_ab_comm(alpha, beta, o->b, j->m, j->s);
	double comp = ((j->ta - ca) + (j->tb - cb)) / 2;
	vlmod_tab_str(t, name);
	vlmod_tab_num(t, j->m);
	vlmod_tab_num(t, j->s);
	vlmod_tab_num(t, j->ta);
	vlmod_tab_num(t, j->tb);
	vlmod_tab_num(t, ca);
	vlmod_tab_num(t, cb);
	vlmod_tab_num(t, comp);
	vlmod_tab_num(t, vlmod_clean((j->ta - ca) - (j->tb - cb), j->ta + j->tb));
	for (int k = 0; k < o->npred; k++)
		vlmod_tab_num(t, ab_pred(o, j, alpha, beta, o->pred[k], 0));
}

static void ab_net_text(FILE *out, const char *what, vlmod_net n)
{
	char l[32], b[32];
	fprintf(out, "%s: latency %s s, bandwidth %s B/s\n", what, vlmod_g(l, sizeof l, n.lat),
	        vlmod_g(b, sizeof b, n.bw));
}

static void ab_preamble(const ab_opts *o, int njobs, double alpha, double beta, double rms)
{
	char b[32];
	if (o->csv) {
		printf("# alpha: %.9g\n# beta: %.9g\n# rms_s: %.9g\n# base: %s\n", alpha, beta,
		       vlmod_clean(rms, o->scale), o->measured ? "measured" : "model");
		for (int k = 0; k < o->npred; k++)
			printf("# pred%d: %s\n", k + 1, o->pred_text[k]);
		return;
	}
	printf("%d jobs from %s\n", njobs, o->file);
	ab_net_text(stdout, "a", o->a);
	ab_net_text(stdout, "b", o->b);
	printf("alpha = %s  (latency constant: effective latency = alpha x ping-pong latency)\n",
	       vlmod_g(b, sizeof b, alpha));
	printf("beta = %s  (bandwidth constant: effective bandwidth = ping-pong bandwidth / "
	       "beta)\n",
	       vlmod_g(b, sizeof b, beta));
	printf("rms residual of eq. 6: %s s\n", vlmod_g(b, sizeof b, vlmod_clean(rms, o->scale)));
	printf("predictions: %s\n", o->measured ? "time measured on b - T_comm(b) + T_comm (--base measured)"
	                                         : "comp + T_comm (--base model)");
	for (int k = 0; k < o->npred; k++) {
		char w[16];
		snprintf(w, sizeof w, "pred%d", k + 1);
		ab_net_text(stdout, w, o->pred[k]);
	}
	putchar('\n');
}

/* ---- --table: published predictions against the formula ---- */

/* Whether v, printed with d decimals as the paper does (rounded, or cut
 * off: *cut set), is the published value p. */
static int ab_agrees(double v, double p, int d, int *cut)
{
	double f = pow(10, d), want = nearbyint(p * f);
	*cut = 0;
	if (nearbyint(v * f) == want)
		return 1;
	/* cut off: floor of a positive value (a tiny tolerance for round-off) */
	if (floor(v * f + 1e-9) == want) {
		*cut = 1;
		return 1;
	}
	return 0;
}

/* The number of decimals text is printed with (after its '.'). */
static int ab_decimals(const char *text)
{
	const char *dot = strchr(text, '.');
	int d = 0;
	if (dot)
		while (dot[1 + d] >= '0' && dot[1 + d] <= '9')
			d++;
	return d;
}

/* Print the comparison with the published table; 0, or VLMOD_EXIT_BAD. */
static int ab_compare(const ab_opts *o, const vlu_csv *c, const int *idx, const vlmod_abjob *j,
                      double alpha, double beta)
{
	vlu_csv t;
	vlmod_tab tab;
	char err[768], col[16], b[64];
	int tj, k, r, rc = 0, n[AB_MAXPRED][4] = {{0}}; /* rows: agree, latency only, bw only, other */
	int pc[AB_MAXPRED];
	static const char *const h[] = {"job", "pred", "published", "formula", "verdict"};

	if (vlu_csv_read(o->table, &t, err, sizeof err) < 0)
		return vlu_err(VLMOD_EXIT_BAD, "%s", err);
	if ((tj = vlu_csv_col(&t, "job")) < 0) {
		rc = vlu_err(VLMOD_EXIT_BAD, "%s:%d: no column 'job'", t.path, t.header_line);
		goto out;
	}
	for (k = 0; k < o->npred; k++) {
		snprintf(col, sizeof col, "pred%d", k + 1);
		pc[k] = vlu_csv_col(&t, col);
	}
	vlmod_tab_init(&tab, 5);
	for (size_t x = 0; x < sizeof h / sizeof h[0]; x++)
		vlmod_tab_str(&tab, h[x]);
	for (r = 0; r < t.nrows; r++) {
		const char *name = vlu_csv_text(&t, r, tj);
		int jr;
		for (jr = 0; jr < c->nrows && strcmp(vlu_csv_text(c, jr, idx[C_JOB]), name); jr++)
			;
		if (jr == c->nrows) {
			rc = vlu_err(VLMOD_EXIT_BAD, "%s:%d: job '%s' is not in %s", t.path, t.line[r],
			             name, c->path);
			break;
		}
		for (k = 0; k < o->npred; k++) {
			const char *pt;
			double p, v, alt;
			int d, cut, part;
			if (pc[k] < 0 || !*(pt = vlu_csv_text(&t, r, pc[k])))
				continue;
			if (vlu_csv_num(&t, r, pc[k], &p, err, sizeof err) < 0) {
				rc = vlu_err(VLMOD_EXIT_BAD, "%s", err);
				break;
			}
			d = ab_decimals(pt);
			v = ab_pred(o, &j[jr], alpha, beta, o->pred[k], 0);
			snprintf(col, sizeof col, "pred%d", k + 1);
			vlmod_tab_str(&tab, name);
			vlmod_tab_str(&tab, col);
			vlmod_tab_str(&tab, pt);
			snprintf(b, sizeof b, "%.*f", d + 2, v);
			vlmod_tab_str(&tab, b);
			if (ab_agrees(v, p, d, &cut)) {
				vlmod_tab_str(&tab, cut ? "agrees (cut off)" : "agrees");
				n[k][0]++;
				continue;
			}
			for (part = 1; part <= 2; part++) {
				alt = ab_pred(o, &j[jr], alpha, beta, o->pred[k], part);
				if (ab_agrees(alt, p, d, &cut))
					break;
			}
			if (part <= 2) {
				snprintf(b, sizeof b, "differs; %.*f%s with the %s term's change alone",
				         d + 2, alt, cut ? " (cut off)" : "",
				         part == 1 ? "latency" : "bandwidth");
				n[k][part]++;
			} else {
				snprintf(b, sizeof b, "differs by %.*f", d + 2, p - v);
				n[k][3]++;
			}
			vlmod_tab_str(&tab, b);
		}
		if (rc)
			break;
	}
	if (!rc) {
		printf("\ncomparison with %s (published predictions, to the digits printed):\n",
		       o->table);
		if (vlmod_tab_print(stdout, &tab, 0) < 0)
			rc = vlu_err(VLMOD_EXIT_BAD, "write error");
	}
	for (k = 0; !rc && k < o->npred; k++) {
		int all = n[k][0] + n[k][1] + n[k][2] + n[k][3];
		if (!all)
			continue;
		printf("pred%d (%s): %d of %d published rows follow eq. 5", k + 1, o->pred_text[k],
		       n[k][0], all);
		if (n[k][1])
			printf("; %d only with the latency term's change (the bandwidth term's left out)",
			       n[k][1]);
		if (n[k][2])
			printf("; %d only with the bandwidth term's change (the latency term's left out)",
			       n[k][2]);
		if (n[k][3])
			printf("; %d follow neither", n[k][3]);
		printf("%s\n", n[k][0] == all ? "" : ": the published rows are inconsistent with the formula");
	}
	vlmod_tab_free(&tab);
out:
	vlu_csv_free(&t);
	return rc;
}

static int ab_report(ab_opts *o, const vlu_csv *c, const int *idx, const vlmod_abjob *j,
                     double alpha, double beta, double rms)
{
	vlmod_tab t;
	int rc;
	for (int r = 0; r < c->nrows; r++)
		o->scale = fmax(o->scale, fmax(j[r].ta, j[r].tb));
	vlmod_tab_init(&t, 9 + o->npred);
	ab_head(&t, o);
	for (int r = 0; r < c->nrows; r++)
		ab_job(&t, o, vlu_csv_text(c, r, idx[C_JOB]), &j[r], alpha, beta);
	ab_preamble(o, c->nrows, alpha, beta, rms);
	rc = vlmod_tab_print(stdout, &t, o->csv);
	vlmod_tab_free(&t);
	if (rc < 0)
		return vlu_err(VLMOD_EXIT_BAD, "write error");
	return o->table ? ab_compare(o, c, idx, j, alpha, beta) : 0;
}

int vlmod_alphabeta_main(int argc, char **argv)
{
	ab_opts o;
	vlu_csv c;
	vlmod_abjob *j;
	int idx[NC], rc;
	char err[768];
	double alpha, beta, rms;
	rc = ab_args(argc, argv, &o);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (vlu_csv_read(o.file, &c, err, sizeof err) < 0)
		return vlu_err(VLMOD_EXIT_BAD, "%s", err);
	if (vlu_csv_need(&c, ab_cols, idx, err, sizeof err) < 0) {
		vlu_csv_free(&c);
		return vlu_err(VLMOD_EXIT_BAD, "%s", err);
	}
	j = calloc((size_t)c.nrows + 1, sizeof *j);
	rc = j ? 0 : vlu_err(VLMOD_EXIT_BAD, "out of memory");
	for (int r = 0; !rc && r < c.nrows; r++)
		if (ab_row(&c, r, idx, &j[r], err, sizeof err) < 0)
			rc = vlu_err(VLMOD_EXIT_BAD, "%s", err);
	if (!rc) {
		int f = vlmod_ab_fit(j, c.nrows, o.a, o.b, &alpha, &beta, &rms);
		if (f != VLMOD_AB_OK)
			rc = vlu_err(VLMOD_EXIT_BAD, "%s:%d: %s", c.path, c.header_line,
			             ab_singular(f, &c, j));
		else
			rc = ab_report(&o, &c, idx, j, alpha, beta, rms);
	}
	free(j);
	vlu_csv_free(&c);
	return rc;
}

/* ---- vlmodel alphabeta-csv ---- */

typedef struct ab_run {
	double t;    /* predicted elapsed s */
	double m, s; /* balanced-job M and s */
} ab_run;

/* The run in DIR: as vlpost stats, and its M and s as `vlpost stats --full`. */
static int ab_read_run(const char *dir, ab_run *run, char *err, size_t errlen)
{
	vlpost_tset set;
	vlpost_tstats *st = NULL;
	double sm = 0, ss = 0;
	int nsend = 0, rc = -1;
	if (vlpost_tset_open(&set, dir, 0, stderr, err, errlen) < 0)
		goto out;
	st = calloc((size_t)set.n, sizeof *st);
	if (!st) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (vlpost_stats_collect(&set, st, stderr, err, errlen) < 0)
		goto out;
	for (int i = 0; i < set.n; i++) {
		sm += (double)st[i].nsent;
		if (st[i].nsent) {
			ss += (double)st[i].bsent / (double)st[i].nsent;
			nsend++;
		}
	}
	run->t = (double)vlpost_stats_elapsed(st, set.n) * 1e-9;
	run->m = sm / set.n;
	run->s = nsend ? ss / nsend : 0;
	rc = 0;
out:
	free(st);
	vlpost_tset_close(&set);
	return rc;
}

/* "JOB=DIR_A,DIR_B" into its three parts (in BUF). */
static int ab_split_spec(const char *spec, char *buf, size_t len, char **job, char **da, char **db)
{
	char *eq, *comma;
	snprintf(buf, len, "%s", spec);
	eq = strchr(buf, '=');
	comma = eq ? strchr(eq + 1, ',') : NULL;
	if (!eq || eq == buf || !comma || comma == eq + 1 || !comma[1])
		return -1;
	*eq = *comma = '\0';
	*job = buf;
	*da = eq + 1;
	*db = comma + 1;
	return 0;
}

/* Job SPEC ("JOB=DIR_A,DIR_B") as a CSV row into ROW. */
static int ab_csv_job(const char *spec, char *row, size_t len)
{
	char buf[4096], err[768], *job, *da, *db;
	ab_run a, b;
	if (ab_split_spec(spec, buf, sizeof buf, &job, &da, &db) < 0)
		return vlmod_usage_err("alphabeta-csv", usage_abcsv,
		                       "'%s': expected JOB=DIR_A,DIR_B", spec);
	if (strpbrk(job, ",\"") || job[0] == '#' || job[0] == ' ')
		return vlmod_usage_err("alphabeta-csv", usage_abcsv,
		                       "job label '%s': no commas, quotes, or leading '#'", job);
	if (ab_read_run(da, &a, err, sizeof err) < 0 || ab_read_run(db, &b, err, sizeof err) < 0)
		return vlu_err(VLMOD_EXIT_BAD, "%s", err);
	if (fabs(a.m - b.m) > 1e-9 * (a.m + b.m) || fabs(a.s - b.s) > 1e-9 * (a.s + b.s))
		vlu_warn("job %s: the runs sent differently (a: M = %.6g, s = %.6g; b: M = %.6g, "
		         "s = %.6g); using a's",
		         job, a.m, a.s, b.m, b.s);
	snprintf(row, len, "%s,%.9g,%.9g,%.9g,%.9g\n", job, a.t, b.t, a.m, a.s);
	return 0;
}

/* Every job's row, then the file (nothing is written if a job fails). */
static int ab_csv_write(const char *ofile, char **specs, int n)
{
	char(*rows)[4200] = calloc((size_t)n, sizeof *rows);
	FILE *out = stdout;
	int rc = rows ? 0 : vlu_err(VLMOD_EXIT_BAD, "out of memory");
	for (int k = 0; k < n && !rc; k++)
		rc = ab_csv_job(specs[k], rows[k], sizeof rows[k]);
	if (!rc && ofile && !(out = fopen(ofile, "w")))
		rc = vlu_err(VLMOD_EXIT_BAD, "%s: cannot write", ofile);
	if (!rc) {
		fputs("job,time_a,time_b,messages,avg_bytes\n", out);
		for (int k = 0; k < n; k++)
			fputs(rows[k], out);
		if ((out == stdout ? fflush(out) : fclose(out)) != 0)
			rc = vlu_err(VLMOD_EXIT_BAD, "%s: write error",
			             ofile ? ofile : "standard output");
	}
	free(rows);
	return rc;
}

int vlmod_abcsv_main(int argc, char **argv)
{
	const char *ofile = NULL;
	int i = 0, miss;
	for (int k = 0; k < argc; k++)
		if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
			fputs(usage_abcsv, stdout);
			return 0;
		}
	while (i < argc && argv[i][0] == '-') {
		const char *v = vlmod_opt(argc, argv, &i, "-o", &miss);
		if (!v)
			return vlmod_usage_err("alphabeta-csv", usage_abcsv,
			                       miss ? "%s needs a value" : "unknown option '%s'",
			                       argv[i]);
		ofile = v;
	}
	if (i == argc)
		return vlmod_usage_err("alphabeta-csv", usage_abcsv, "no JOB=DIR_A,DIR_B given");
	return ab_csv_write(ofile, argv + i, argc - i);
}
