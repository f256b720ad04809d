/* bsp.c - the BSP Without Barriers (BSPWB) and Message Passing Machine (MPM)
 * models of Roda, Rodriguez, Morales and Almeida, "Predicting the execution time
 * of message passing models" (Concurrency: Pract. Exper. 11(9), 1999;
 * 003-bspwb-mpm-models.txt), over a program given as M-steps (bsp_prog.c), and
 * `vlmodel bsp`.  The M-steps come from a CSV file (bsp_csv.c) or a trace
 * directory (bsp_trace.c); g and L may come from a file (bsp_params.c). */
#include "vlmodel.h"
#include "util/diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the models ---- */

void vlmod_bspwb(const vlmod_prog *m, double g, double L, int op, double *t)
{
	double prev = 0;
	for (int s = 0; s < m->r; s++) {
		double wmax = 0, hmax = 0;
		for (int i = 0; i < m->p; i++) {
			wmax = fmax(wmax, m->w[(size_t)s * m->p + i]);
			hmax = fmax(hmax, vlmod_prog_h(m, s, i, op));
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
		if (g->to == VLMOD_TO_ALL) {
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

double vlmod_mpm(const vlmod_prog *m, double g, double L, int op, double *phi, double *step_max)
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
			h[i] = vlmod_prog_h(m, s, (int)i, op);
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

/* ---- vlmodel bsp ---- */

static const char usage_bsp[] =
    "usage: vlmodel bsp (STEPS.csv | --trace DIR) (--g G --L L | --params FILE) [OPTIONS]\n"
    "\n"
    "BSPWB and MPM predictions (Roda et al. 1999, 003-bspwb-mpm-models.txt) of a\n"
    "program given as its M-steps: in each M-step every task computes (w), then\n"
    "sends and receives (h = in + out bytes; --op: their max, or out only).\n"
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
    "  --op sum|max|out @ in h = in @ out (default sum, as the paper); out: h =\n"
    "                   the bytes a task sends (only the sender's port\n"
    "                   serialises, as in vlayer's model: a receiver pays a\n"
    "                   constant per message and transfers overlap)\n"
    "  --tasks P        the number of tasks of STEPS.csv (default: largest + 1)\n"
    "  --steps auto|coll|phase\n"
    "                   the rule for --trace (default auto: coll if it applies)\n"
    "  --min-gap TIME   --trace: shorter computation does not end a phase or\n"
    "                   make a last step (default 1us)\n"
    "  --terms          the step table also gives each step's terms: gh_s = g\n"
    "                   max_i h (the h-relation's time), L_s (L, or 0 in a step\n"
    "                   without communication), the step's BSPWB time\n"
    "                   (bspwb_step_s) and, with --trace, vlayer's (vlayer_step_s)\n"
    "  --detail         also a table per step and task: w, in, out, h, incoming\n"
    "                   partners (with itself), Phi (with --csv: only this table)\n"
    "  --csv            CSV out: '# key: value' comment lines, then the table\n";

typedef struct bsp_opts {
	const char *file, *trace, *params, *link, *g_text, *l_text;
	double g, L, min_gap;
	int op, ntasks, rule, detail, csv, terms;
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
	static const char *const ops[] = {"sum", "max", "out", NULL};
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
	else if (!strcmp(opt, "--op") && bsp_enum(v, ops, &o->op) < 0)
		return vlmod_usage_err("bsp", usage_bsp, "--op '%s': expected sum, max or out", v);
	else if (!strcmp(opt, "--steps") && bsp_enum(v, rules, &o->rule) < 0)
		return vlmod_usage_err("bsp", usage_bsp,
		                       "--steps '%s': expected auto, coll or phase", v);
	else if (!strcmp(opt, "--min-gap") &&
	         (vlmod_parse_seconds(v, 0, &o->min_gap) < 0 || o->min_gap < 0))
		return vlmod_usage_err("bsp", usage_bsp,
		                       "--min-gap '%s': expected a time >= 0 with a "
		                       "unit (ns, us, ms, s)",
		                       v);
	else if (!strcmp(opt, "--tasks") &&
	         (vlmod_parse_number(v, &d) < 0 || d < 1 || d > 1000000 || d != floor(d)))
		return vlmod_usage_err("bsp", usage_bsp,
		                       "--tasks '%s': expected a whole number >= 1", v);
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
	static const char *const flags[] = {"--csv", "--detail", "--terms"};
	int *const flagv[] = {&o->csv, &o->detail, &o->terms};
	const vlmod_cmdline c = {"bsp", usage_bsp, opts,         9, flags,
	                         flagv, 3,         bsp_value_cb, o, &o->file};
	return vlmod_args(argc, argv, &c);
}

/* g and L: --params, then --g and --L. */
static int bsp_gl(bsp_opts *o)
{
	char err[768];
	int have_g = 0, have_l = 0;
	if (o->params) {
		if (vlmod_read_gl(o->params, o->link, &o->g, &o->L, err, sizeof err) < 0)
			return vlu_err(VLMOD_EXIT_BAD, "%s", err);
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
static const char *const op_names[] = {"sum", "max", "out"};
static const char *const op_h[] = {"in + out", "in max out", "out"};

static void bsp_preamble(const bsp_opts *o, const vlmod_prog *m, int rule)
{
	char g[32], l[32];
	if (o->csv) {
		printf("# steps: %d\n# tasks: %d\n", m->r, m->p);
		if (o->trace)
			printf("# trace: %s\n# rule: %s\n", o->trace, rule_names[rule]);
		printf("# g: %.9g\n# L: %.9g\n# op: %s\n", o->g, o->L, op_names[o->op]);
		return;
	}
	if (o->trace)
		printf("%d M-step%s of %d tasks (trace %s, rule %s)\n", m->r, m->r == 1 ? "" : "s",
		       m->p, o->trace, rule_names[rule]);
	else
		printf("%d M-step%s of %d tasks (%s)\n", m->r, m->r == 1 ? "" : "s", m->p, o->file);
	printf("g = %s s/B, L = %s s, h = %s\n\n", vlmod_g(g, sizeof g, o->g),
	       vlmod_g(l, sizeof l, o->L), op_h[o->op]);
}

static void bsp_steps(vlmod_tab *t, const bsp_opts *o, const vlmod_prog *m, const double *T,
                      const double *mpm)
{
	/* the columns; with --terms 4 more after max_h_B (the last only with a trace) */
	static const char *const h[] = {"step",    "closed_by",    "max_w_s",       "max_h_B",
	                                "gh_s",    "L_s",          "bspwb_step_s",  "vlayer_step_s",
	                                "bspwb_s", "mpm_s",        "vlayer_s"};
	int tr = m->vlayer_end != NULL, n = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < 11; k++)
			if ((tr || (k != 1 && k != 7 && k != 10)) && (o->terms || k < 4 || k > 7)) {
				if (pass)
					vlmod_tab_str(t, h[k]);
				else
					n++;
			}
		if (!pass)
			vlmod_tab_init(t, n);
	}
	for (int s = 0; s < m->r; s++) {
		double wmax = 0, hmax = 0;
		for (int i = 0; i < m->p; i++) {
			wmax = fmax(wmax, m->w[(size_t)s * m->p + i]);
			hmax = fmax(hmax, vlmod_prog_h(m, s, i, o->op));
		}
		vlmod_tab_num(t, s + 1);
		if (tr)
			vlmod_tab_str(t, m->label && m->label[s] ? m->label[s] : "-");
		vlmod_tab_num(t, wmax);
		vlmod_tab_num(t, hmax);
		if (o->terms) {
			vlmod_tab_num(t, m->comm[s] ? o->g * hmax : 0);
			vlmod_tab_num(t, m->comm[s] ? o->L : 0);
			vlmod_tab_num(t, T[s] - (s ? T[s - 1] : 0));
			if (tr)
				vlmod_tab_num(t, m->vlayer_end[s] - (s ? m->vlayer_end[s - 1] : 0));
		}
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
		if (m->msg[k].to == VLMOD_TO_ALL && m->msg[k].from >= 0 && !isb[m->msg[k].from]) {
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
			vlmod_tab_num(t, vlmod_prog_h(m, s, i, o->op));
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
	vlmod_bspwb(m, o->g, o->L, o->op, T);
	psi = vlmod_mpm(m, o->g, o->L, o->op, phi, mpm);
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
	return rc < 0 ? vlu_err(VLMOD_EXIT_BAD, "out of memory or write error") : 0;
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
	rc = rc < 0 ? vlu_err(VLMOD_EXIT_BAD, "%s", err) : bsp_report(&o, &m, rule);
	vlmod_prog_free(&m);
	return rc;
}
