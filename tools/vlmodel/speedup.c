/* speedup.c - the speed-up model of Kredel, Richling, Kruse, Strohmaier and Kruse,
 * "A simple concept for the performance analysis of cluster-computing" (ISC 2013,
 * 002-kredel-speedup-model.txt), and `vlmodel speedup`.
 *
 * Hardware: p processing units of peak l_peak each, network bandwidth b_c.
 * Software: #op operations on #b bytes, #x bytes communicated.  Then
 *   t >= #op / (p l_peak) + #x / b_c,     x = #op b_c / (#x l_peak) = a r / a*
 * with a = #op/#b, r = #b/#x, a* = l_peak/b_c, and (homogeneous case)
 *   S(p) = (1 + x) / (1 + x/p),   l(p) = #op / t = l_peak x / (1 + x/p).
 * p_1/2 is where l = p l_peak / 2, i.e. x(p) = p; p_max maximises l.
 * #op, #b and #x are expressions (expr.c). */
#include "vlmodel.h"
#include "util/diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the paper's kernels (slides 15, 17, 19) ----
 * Linpack's #x is printed garbled in the slides; this form is the one for which
 * the slides' own results hold: x ~ 3 alpha n / 128 (bwGRiD: p_1/2 ~ y) and
 * p_max = 24 ln(2) p_1/2 = (24 ln 2 / 128) n for alpha = 1/3. */
static const vlmod_kernel kernels[] = {
    {"scalar", "scalar product", "2*n", "2*n*w", "p*w", "log2(p)"},
    {"matmul", "matrix multiplication (Cannon)", "2*n^3", "2*n^2*w",
     "2*n^2*sqrt(p)*(1-1/sqrt(p))*w", "2*(sqrt(p)-1)"},
    {"linpack", "Linpack", "2/3*n^3", "2*n^2*w", "(2+log2(p)/12)*n^2*w/(3*alpha)", NULL},
};

const vlmod_kernel *vlmod_kernels(int *n)
{
	*n = (int)(sizeof kernels / sizeof kernels[0]);
	return kernels;
}

const vlmod_kernel *vlmod_kernel_find(const char *name)
{
	for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
		if (!strcmp(kernels[k].name, name))
			return &kernels[k];
	return NULL;
}

/* ---- the model ---- */

static double su_eval(const vlmod_speedup *m, const vlmod_expr *e, double p)
{
	double v[VLMOD_NVARS];
	memcpy(v, m->vars, sizeof v);
	v[VLMOD_VAR_P] = p;
	return vlmod_expr_eval(e, v);
}

double vlmod_su_t(const vlmod_speedup *m, double p)
{
	double t = su_eval(m, m->op, p) / (p * m->lpeak) + su_eval(m, m->x, p) / m->bc;
	return m->m && m->t0 > 0 ? t + su_eval(m, m->m, p) * m->t0 : t;
}

double vlmod_su_x(const vlmod_speedup *m, double p)
{
	double x = su_eval(m, m->x, p);
	if (x == 0)
		return INFINITY;
	return su_eval(m, m->op, p) * m->bc / (x * m->lpeak);
}

double vlmod_su_s(double x, double p)
{
	if (isinf(x))
		return p;
	return (1 + x) / (1 + x / p);
}

double vlmod_su_l(const vlmod_speedup *m, double p)
{
	double x = vlmod_su_x(m, p);
	if (isinf(x))
		return p * m->lpeak;
	return m->lpeak * x / (1 + x / p);
}

/* x(p) - p changes sign at p_1/2 (geometric scan, then bisection). */
int vlmod_su_phalf(const vlmod_speedup *m, double *p)
{
	double lo = 1, hi;
	if (vlmod_su_x(m, 1) < 1)
		return -1;
	for (hi = 2; hi <= VLMOD_SU_PMAX; lo = hi, hi *= 2) {
		double x = vlmod_su_x(m, hi);
		if (isnan(x))
			return 2;
		if (x < hi)
			break;
	}
	if (hi > VLMOD_SU_PMAX)
		return 1;
	for (int k = 0; k < 200 && hi - lo > 1e-12 * hi; k++) {
		double mid = (lo + hi) / 2;
		if (vlmod_su_x(m, mid) < mid)
			hi = mid;
		else
			lo = mid;
	}
	*p = (lo + hi) / 2;
	return 0;
}

/* Golden-section search for the largest l on [a, b] in log p. */
static double su_golden(const vlmod_speedup *m, double a, double b)
{
	const double r = (sqrt(5.0) - 1) / 2;
	double la = log(a), lb = log(b);
	double c = lb - r * (lb - la), d = la + r * (lb - la);
	for (int k = 0; k < 200 && lb - la > 1e-14; k++) {
		if (vlmod_su_l(m, exp(c)) > vlmod_su_l(m, exp(d)))
			lb = d;
		else
			la = c;
		c = lb - r * (lb - la);
		d = la + r * (lb - la);
	}
	return exp((la + lb) / 2);
}

int vlmod_su_pmax(const vlmod_speedup *m, double *p, double *l)
{
	const int steps = 3000;
	const double f = pow(VLMOD_SU_PMAX, 1.0 / steps);
	double best = vlmod_su_l(m, 1), q = 1;
	int kbest = 0;
	for (int k = 1; k <= steps; k++) {
		double v;
		q *= f;
		v = vlmod_su_l(m, q);
		if (v > best) {
			best = v;
			kbest = k;
		}
	}
	if (isnan(vlmod_su_l(m, VLMOD_SU_PMAX)))
		return -1;
	if (kbest == steps || !(vlmod_su_l(m, VLMOD_SU_PMAX) < best * (1 - 1e-12)))
		return 1;
	*p = su_golden(m, kbest ? pow(f, kbest - 1) : 1, pow(f, kbest + 1));
	if (*p < 1 || vlmod_su_l(m, *p) < vlmod_su_l(m, 1))
		*p = 1;
	*l = vlmod_su_l(m, *p);
	return isnan(*l) ? -1 : 0;
}

/* ---- processor lists ---- */

#define VLMOD_PLIST_MAX 1000000 /* values in a list */

static int plist_add(double **p, int *n, int *cap, double v)
{
	if (*n == *cap) {
		int c = *cap ? 2 * *cap : 64;
		double *q;
		if (*n == VLMOD_PLIST_MAX)
			return -1;
		if (c > VLMOD_PLIST_MAX) /* not 524288 (a power of 2 below) */
			c = VLMOD_PLIST_MAX;
		q = realloc(*p, (size_t)c * sizeof *q);
		if (!q)
			return -1;
		*p = q;
		*cap = c;
	}
	(*p)[(*n)++] = v;
	return 0;
}

/* One item: N, A-B, A-B:S, A-B:*F. */
static int plist_item(const char *it, double **p, int *n, int *cap)
{
	char *end;
	double a = strtod(it, &end), b = a, step = 1;
	int geo = 0;
	if (end == it || !(a >= 1) || !isfinite(a))
		return -1;
	if (*end == '-') {
		it = end + 1;
		b = strtod(it, &end);
		if (end == it || !(b >= a) || !isfinite(b))
			return -1;
		if (*end == ':') {
			geo = end[1] == '*';
			it = end + 1 + geo;
			step = strtod(it, &end);
			if (end == it || !(geo ? step > 1 : step > 0))
				return -1;
		}
	}
	if (*end)
		return -1;
	for (double v = a; v <= b * (1 + 1e-12); v = geo ? v * step : v + step)
		if (plist_add(p, n, cap, v) < 0)
			return -1;
	return 0;
}

int vlmod_parse_plist(const char *text, double **p, int *n, char *err, size_t errlen)
{
	char *copy = strdup(text), *save = NULL, *tok;
	int cap = 0, rc = 0;
	*p = NULL;
	*n = 0;
	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
		if (plist_item(tok, p, n, &cap) < 0) {
			snprintf(err, errlen,
			         "'%s': bad item '%s' (N, A-B, A-B:STEP or A-B:*FACTOR, "
			         "numbers >= 1, at most 1000000 values)",
			         text, tok);
			rc = -1;
		}
	if (!rc && *n == 0) {
		snprintf(err, errlen, "'%s': no processor counts", text);
		rc = -1;
	}
	free(copy);
	if (rc) {
		free(*p);
		*p = NULL;
	}
	return rc;
}

/* ---- vlmodel speedup ---- */

static const char usage_su[] =
    "usage: vlmodel speedup [--kernel NAME] [--n N] [--w BYTES] [--alpha A]\n"
    "                       [--op EXPR] [--b EXPR] [--x EXPR] [--p LIST]\n"
    "                       [--lpeak RATE] [--bc RATE] [--t0 TIME [--m EXPR]] [--csv]\n"
    "\n"
    "The speed-up model of Kredel et al. (ISC 2013, 002-kredel-speedup-model.txt).\n"
    "Hardware: p processing units of peak l_peak, network bandwidth b_c; software:\n"
    "#op operations on #b bytes, #x bytes communicated.  With\n"
    "  x = #op b_c / (#x l_peak)   (= a r / a*: a = #op/#b, r = #b/#x, a* = l_peak/b_c)\n"
    "the speed-up is S(p) = (1 + x)/(1 + x/p), the efficiency E = S/p, and the\n"
    "performance l(p) = #op / (#op/(p l_peak) + #x/b_c) = l_peak x/(1 + x/p).\n"
    "p_1/2 is where l = p l_peak / 2 (x(p) = p), p_max where l is largest.\n"
    "Prints a table over p, then p_1/2 and p_max.\n"
    "\n"
    "  --kernel NAME  a kernel of the paper, as functions of n (w = word bytes):\n"
    "                 scalar   scalar product: #op = 2*n, #b = 2*n*w, #x = p*w\n"
    "                 matmul   Cannon matrix multiplication: #op = 2*n^3,\n"
    "                          #b = 2*n^2*w, #x = 2*n^2*sqrt(p)*(1-1/sqrt(p))*w\n"
    "                 linpack  #op = 2/3*n^3, #b = 2*n^2*w,\n"
    "                          #x = (2+log2(p)/12)*n^2*w/(3*alpha)\n"
    "  --n N          the problem size (needed when an expression uses n)\n"
    "  --w BYTES      bytes per word (default 8)\n"
    "  --alpha A      Linpack's communication parameter (default 1/3, the paper's)\n"
    "  --op EXPR, --b EXPR, --x EXPR\n"
    "                 #op, #b, #x as expressions of n, p, w, alpha (numbers, + - * /\n"
    "                 ^, parentheses, sqrt log2 ln log10 exp); they replace the\n"
    "                 kernel's; without --kernel, --op and --x are required (#b is\n"
    "                 optional: it only gives a and r)\n"
    "  --p LIST       processor counts: N, A-B, A-B:STEP, A-B:*FACTOR, joined by\n"
    "                 commas (default 1-1024:*2)\n"
    "  --lpeak RATE   peak per unit: a number of Flop/s or with kFlop/s MFlop/s\n"
    "                 GFlop/s TFlop/s (default 8GFlop/s, the paper's bwGRiD core)\n"
    "  --bc RATE      network bandwidth, B/s KB/s MB/s GB/s KiB/s MiB/s GiB/s bit/s\n"
    "                 kbit/s Mbit/s Gbit/s (default 1.5GB/s, bwGRiD's InfiniBand)\n"
    "  --t0 TIME      a latency per message (s, or with ns us ms s), which the\n"
    "                 paper's model has not: the table also gives\n"
    "                   t_s   = #op/(p l_peak) + #x/b_c + m(p) t0\n"
    "                   S_t0  = t(1)/t(p), with t(1) from the same formula\n"
    "  --m EXPR       the messages on the critical path, an expression of p (and\n"
    "                 n, w, alpha); default for scalar log2(p) (the binomial tree\n"
    "                 of samples/mpi/scalarprod.c, p a power of two), for matmul\n"
    "                 2*(sqrt(p)-1) (Cannon's shifts); needed for other kernels\n"
    "  --csv          CSV out: comment lines '# key: value' (the parameters,\n"
    "                 p_half, p_max, l_max), then p,x,S,E,l_flops (and t_s,\n"
    "                 S_t0 with --t0)\n";

typedef struct su_opts {
	const char *kernel;
	const char *ex[3]; /* op, b, x texts */
	const char *n_text, *p_text, *m_text, *t0_text;
	double lpeak, bc;
	int csv;
	vlmod_speedup m;
	vlmod_expr *e[3], *em;
	double *p;
	int np;
} su_opts;

/* "8GFlop/s", "8e9". */
static int su_flops(const char *t, double *v)
{
	static const struct {
		const char *u;
		double f;
	} u[] = {
	    {"Flop/s", 1}, {"kFlop/s", 1e3}, {"MFlop/s", 1e6}, {"GFlop/s", 1e9}, {"TFlop/s", 1e12}};
	char *end;
	double x = strtod(t, &end);
	if (end == t || !isfinite(x) || x <= 0)
		return -1;
	while (*end == ' ')
		end++;
	if (!*end) {
		*v = x;
		return 0;
	}
	for (size_t k = 0; k < sizeof u / sizeof u[0]; k++)
		if (!strcmp(end, u[k].u)) {
			*v = x * u[k].f;
			return 0;
		}
	return -1;
}

static int su_value(su_opts *o, const char *opt, const char *v)
{
	static const char *const exn[3] = {"--op", "--b", "--x"};
	double *num = !strcmp(opt, "--w")       ? &o->m.vars[VLMOD_VAR_W]
	              : !strcmp(opt, "--alpha") ? &o->m.vars[VLMOD_VAR_ALPHA]
	                                        : NULL;
	for (int k = 0; k < 3; k++)
		if (!strcmp(opt, exn[k]))
			o->ex[k] = v;
	if (!strcmp(opt, "--kernel"))
		o->kernel = v;
	else if (!strcmp(opt, "--n"))
		o->n_text = v;
	else if (!strcmp(opt, "--p"))
		o->p_text = v;
	else if (!strcmp(opt, "--m"))
		o->m_text = v;
	else if (!strcmp(opt, "--t0") && (vlmod_parse_seconds(v, 1, &o->m.t0) < 0 || o->m.t0 < 0))
		return vlmod_usage_err("speedup", usage_su,
		                       "--t0 '%s': expected a time >= 0 (s, or with ns, us, ms, s)",
		                       v);
	else if (!strcmp(opt, "--t0"))
		o->t0_text = v;
	else if (!strcmp(opt, "--lpeak") && su_flops(v, &o->lpeak) < 0)
		return vlmod_usage_err("speedup", usage_su,
		                       "--lpeak '%s': expected a rate > 0 in "
		                       "Flop/s, kFlop/s, MFlop/s, GFlop/s or TFlop/s",
		                       v);
	else if (!strcmp(opt, "--bc") && vlmod_parse_bandwidth(v, 0, &o->bc) < 0)
		return vlmod_usage_err("speedup", usage_su,
		                       "--bc '%s': expected a rate > 0 with a "
		                       "unit (B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s, bit/s, "
		                       "kbit/s, Mbit/s, Gbit/s)",
		                       v);
	if (num && (vlmod_parse_number(v, num) < 0 || *num <= 0))
		return vlmod_usage_err("speedup", usage_su, "%s '%s': expected a number > 0", opt,
		                       v);
	return 0;
}

static int su_value_cb(void *o, const char *opt, const char *v)
{
	return su_value(o, opt, v);
}

static int su_args(int argc, char **argv, su_opts *o)
{
	static const char *const opts[] = {"--kernel", "--n",  "--w",     "--alpha",
	                                   "--op",     "--b",  "--x",     "--p",
	                                   "--lpeak",  "--bc", "--t0",    "--m"};
	static const char *const flags[] = {"--csv"};
	int *const flagv[] = {&o->csv};
	const vlmod_cmdline c = {"speedup", usage_su, opts,        12, flags,
	                         flagv,     1,        su_value_cb, o,  NULL};
	return vlmod_args(argc, argv, &c);
}

/* The expressions (kernel's, replaced by --op/--b/--x) compiled into o->e. */
static int su_exprs(su_opts *o)
{
	static const char *const exn[3] = {"--op", "--b", "--x"};
	const vlmod_kernel *k = NULL;
	char err[256];
	if (o->kernel && !(k = vlmod_kernel_find(o->kernel)))
		return vlmod_usage_err("speedup", usage_su,
		                       "--kernel '%s': unknown (scalar, matmul, "
		                       "linpack)",
		                       o->kernel);
	for (int j = 0; j < 3; j++) {
		const char *t = o->ex[j] ? o->ex[j]
		                : !k     ? NULL
		                : j == 0 ? k->op
		                : j == 1 ? k->b
		                         : k->x;
		if (!t && j != 1)
			return vlmod_usage_err("speedup", usage_su,
			                       "give --kernel, or --op and --x");
		if (!t)
			continue;
		o->ex[j] = t;
		if (!(o->e[j] = vlmod_expr_parse(t, err, sizeof err)))
			return vlmod_usage_err("speedup", usage_su, "%s '%s': %s", exn[j], t, err);
		if (vlmod_expr_uses(o->e[j], VLMOD_VAR_N) && !o->n_text)
			return vlmod_usage_err("speedup", usage_su, "%s '%s' uses n: give --n",
			                       exn[j], t);
	}
	o->m.op = o->e[0];
	o->m.b = o->e[1];
	o->m.x = o->e[2];
	if (o->m_text && !o->t0_text)
		return vlmod_usage_err("speedup", usage_su, "--m is for --t0");
	if (!o->t0_text)
		return 0;
	if (!o->m_text && !(o->m_text = k ? k->m : NULL))
		return vlmod_usage_err("speedup", usage_su,
		                       "--t0: give --m (the messages on the critical path)");
	if (!(o->em = vlmod_expr_parse(o->m_text, err, sizeof err)))
		return vlmod_usage_err("speedup", usage_su, "--m '%s': %s", o->m_text, err);
	if (vlmod_expr_uses(o->em, VLMOD_VAR_N) && !o->n_text)
		return vlmod_usage_err("speedup", usage_su, "--m '%s' uses n: give --n", o->m_text);
	o->m.m = o->em;
	return 0;
}

static int su_setup(su_opts *o)
{
	char err[256];
	int rc = su_exprs(o);
	if (rc)
		return rc;
	if (o->n_text &&
	    (vlmod_parse_number(o->n_text, &o->m.vars[VLMOD_VAR_N]) < 0 || o->m.vars[VLMOD_VAR_N] <= 0))
		return vlmod_usage_err("speedup", usage_su, "--n '%s': expected a number > 0",
		                       o->n_text);
	if (vlmod_parse_plist(o->p_text, &o->p, &o->np, err, sizeof err) < 0)
		return vlmod_usage_err("speedup", usage_su, "--p %s", err);
	o->m.lpeak = o->lpeak;
	o->m.bc = o->bc;
	return 0;
}

/* The parameters: "key: value" lines (CSV: as '# key: value' comments). */
static void su_params(const su_opts *o)
{
	const char *pre = o->csv ? "# " : "";
	const vlmod_kernel *k = o->kernel ? vlmod_kernel_find(o->kernel) : NULL;
	char b[32];
	printf("%smodel: Kredel et al. 2013, S(p) = (1 + x)/(1 + x/p), x = #op b_c/(#x l_peak)\n",
	       pre);
	if (k)
		printf("%skernel: %s\n", pre, k->title);
	if (o->n_text)
		printf("%sn: %s\n", pre, vlmod_g(b, sizeof b, o->m.vars[VLMOD_VAR_N]));
	printf("%sw: %s B\n", pre, vlmod_g(b, sizeof b, o->m.vars[VLMOD_VAR_W]));
	if (vlmod_expr_uses(o->m.x, VLMOD_VAR_ALPHA) || vlmod_expr_uses(o->m.op, VLMOD_VAR_ALPHA))
		printf("%salpha: %s\n", pre, vlmod_g(b, sizeof b, o->m.vars[VLMOD_VAR_ALPHA]));
	printf("%sop: %s\n", pre, o->ex[0]);
	if (o->ex[1])
		printf("%sb: %s\n", pre, o->ex[1]);
	printf("%sx: %s\n", pre, o->ex[2]);
	printf("%sl_peak: %s Flop/s\n", pre, vlmod_g(b, sizeof b, o->lpeak));
	printf("%sb_c: %s B/s\n", pre, vlmod_g(b, sizeof b, o->bc));
	printf("%sa_star: %s Flop/B\n", pre, vlmod_g(b, sizeof b, o->lpeak / o->bc));
	if (o->m.m) {
		printf("%st0: %s s\n", pre, vlmod_g(b, sizeof b, o->m.t0));
		printf("%sm: %s\n", pre, o->m_text);
	}
}

/* a = #op/#b (if #b is given and does not depend on p). */
static void su_intensity(const su_opts *o)
{
	double v[VLMOD_NVARS];
	char b[32];
	if (!o->m.b || vlmod_expr_uses(o->m.b, VLMOD_VAR_P) || vlmod_expr_uses(o->m.op, VLMOD_VAR_P))
		return;
	memcpy(v, o->m.vars, sizeof v);
	v[VLMOD_VAR_P] = 1;
	printf("%sa: %s Flop/B\n", o->csv ? "# " : "",
	       vlmod_g(b, sizeof b, vlmod_expr_eval(o->m.op, v) / vlmod_expr_eval(o->m.b, v)));
}

static void su_limits(const su_opts *o)
{
	const char *pre = o->csv ? "# " : "";
	char b[32], c[32];
	double p, l;
	int rc = vlmod_su_phalf(&o->m, &p);
	if (rc == 0)
		printf("%sp_half: %s\n", pre, vlmod_g(b, sizeof b, p));
	else
		printf("%sp_half: %s\n", pre,
		       rc < 0    ? "< 1 (x(1) < 1: below half of the peak "
		                   "on one unit)"
		       : rc == 1 ? "> 1e+15"
		                 : "undefined (#op or #x is not a "
		                   "number >= 0 somewhere)");
	rc = vlmod_su_pmax(&o->m, &p, &l);
	if (rc == 0)
		printf("%sp_max: %s\n%sl_max: %s Flop/s\n", pre, vlmod_g(b, sizeof b, p), pre,
		       vlmod_g(c, sizeof c, l));
	else
		printf("%sp_max: %s\n", pre,
		       rc > 0 ? "> 1e+15 (l does not decrease)"
		              : "undefined (#op or #x is not a number >= 0 somewhere)");
}

/* #op and #x at the table's p: numbers >= 0. */
static int su_check(const su_opts *o)
{
	static const char *const exn[3] = {"--op", "--b", "--x"};
	for (int i = 0; i < o->np; i++)
		for (int k = 0; k < 3; k++) {
			double v[VLMOD_NVARS], x;
			if (!o->e[k])
				continue;
			memcpy(v, o->m.vars, sizeof v);
			v[VLMOD_VAR_P] = o->p[i];
			x = vlmod_expr_eval(o->e[k], v);
			if (!(x >= 0)) {
				char b[32], c[32];
				return vlmod_usage_err("speedup", usage_su,
				                       "%s '%s' is %s at p = %s: "
				                       "expected a number >= 0",
				                       exn[k], o->ex[k], vlmod_g(b, sizeof b, x),
				                       vlmod_g(c, sizeof c, o->p[i]));
			}
		}
	for (int i = 0; o->em && i < o->np; i++) {
		double v[VLMOD_NVARS], x;
		memcpy(v, o->m.vars, sizeof v);
		v[VLMOD_VAR_P] = o->p[i];
		x = vlmod_expr_eval(o->em, v);
		if (!(x >= 0)) {
			char b[32], c[32];
			return vlmod_usage_err("speedup", usage_su,
			                       "--m '%s' is %s at p = %s: expected a number >= 0",
			                       o->m_text, vlmod_g(b, sizeof b, x),
			                       vlmod_g(c, sizeof c, o->p[i]));
		}
	}
	return 0;
}

static int su_table(const su_opts *o)
{
	static const char *const h[] = {"p", "x", "S", "E", "l_flops", "t_s", "S_t0"};
	int nc = o->m.m ? 7 : 5, rc;
	double t1 = o->m.m ? vlmod_su_t(&o->m, 1) : 0;
	vlmod_tab t;
	vlmod_tab_init(&t, nc);
	for (int k = 0; k < nc; k++)
		vlmod_tab_str(&t, h[k]);
	for (int i = 0; i < o->np; i++) {
		double p = o->p[i], x = vlmod_su_x(&o->m, p);
		vlmod_tab_num(&t, p);
		vlmod_tab_num(&t, x);
		vlmod_tab_num(&t, vlmod_su_s(x, p));
		vlmod_tab_num(&t, vlmod_su_s(x, p) / p);
		vlmod_tab_num(&t, vlmod_su_l(&o->m, p));
		if (o->m.m) {
			vlmod_tab_num(&t, vlmod_su_t(&o->m, p));
			vlmod_tab_num(&t, t1 / vlmod_su_t(&o->m, p));
		}
	}
	rc = vlmod_tab_print(stdout, &t, o->csv);
	vlmod_tab_free(&t);
	return rc;
}

int vlmod_speedup_main(int argc, char **argv)
{
	su_opts o;
	int rc;
	memset(&o, 0, sizeof o);
	o.m.vars[VLMOD_VAR_W] = 8;
	o.m.vars[VLMOD_VAR_ALPHA] = 1.0 / 3;
	o.lpeak = 8e9;
	o.bc = 1.5e9;
	o.p_text = "1-1024:*2";
	rc = su_args(argc, argv, &o);
	if (!rc)
		rc = su_setup(&o);
	if (!rc)
		rc = su_check(&o);
	if (!rc) {
		su_params(&o);
		su_intensity(&o);
		su_limits(&o);
		if (!o.csv)
			putchar('\n');
		if (su_table(&o) < 0)
			rc = vlu_err(VLMOD_EXIT_BAD, "write error");
	}
	for (int k = 0; k < 3; k++)
		vlmod_expr_free(o.e[k]);
	vlmod_expr_free(o.em);
	free(o.p);
	return rc == 1 ? 0 : rc;
}
