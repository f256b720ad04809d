/* vlmodel.h - the analytic models behind `vlmodel` (models/vlmodel.c):
 *
 *   alphabeta.c  the latency and bandwidth constants alpha, beta of Lin's LS-DYNA
 *                method (000-lsdyna-comm-cost.txt, eqs. 5 and 6)
 *   speedup.c    the speed-up model of Kredel et al. (002-kredel-speedup-model.txt):
 *                S(p), p_1/2, p_max from (p, l_peak, b_c) and (#op, #b, #x), the
 *                latter as expressions (expr.c, expr.h)
 *   bsp.c        BSPWB and MPM predictions of a program given as M-steps
 *                (003-bspwb-mpm-models.txt, formulas 5 and 8-10); the program
 *                (bsp_prog.c, bsp_prog.h) from a CSV file (bsp_csv.c) or from a
 *                vlayer trace directory (bsp_trace.c); g and L from a parameter
 *                file (bsp_params.c)
 *
 * The model functions are plain computations on arrays (tested by
 * tests/unit/test_vlmodel.c); each file also has the `vlmodel SUBCOMMAND`
 * front end (vlm_*_main: argument vector without the program name, returns
 * the exit status: 0, or 2 for bad usage or bad input).  Times are seconds,
 * sizes bytes, rates per second. */
#ifndef VLMOD_VLMODEL_H
#define VLMOD_VLMODEL_H

#include <stddef.h>
#include <stdio.h>

#include "bsp_prog.h"
#include "expr.h"

#define VLMOD_EXIT_BAD 2

/* ---- shared by the front ends (vlmodel_util.c) ----
 * Errors: vlu_err(VLMOD_EXIT_BAD, ...) (util/diag.h) prints "vlmodel: ...". */

/* "vlmodel CMD: " + message, then the first line of USAGE, on stderr; returns
 * VLMOD_EXIT_BAD. */
__attribute__((format(printf, 3, 4))) int vlmod_usage_err(const char *cmd, const char *usage,
                                                          const char *fmt, ...);

/* The value of option NAME at argv[*i] ("--name VALUE" or "--name=VALUE"): NULL
 * if argv[*i] is not that option; else the value, with *i advanced past it.
 * *missing is set to 1 (and NULL returned) when the value is missing. */
const char *vlmod_opt(int argc, char **argv, int *i, const char *name, int *missing);

/* One command's arguments, for vlmod_args. */
typedef struct vlmod_cmdline {
	const char *cmd, *usage; /* for messages and --help */
	const char *const *opts; /* options that take a value */
	int nopts;
	const char *const *flags; /* options without a value: flagv[k] is set to 1 */
	int *const *flagv;
	int nflags;
	/* an option's value: 0 to go on, else the return value of vlmod_args */
	int (*value)(void *ctx, const char *opt, const char *v);
	void *ctx;
	const char **file; /* the one positional argument; NULL: none allowed */
} vlmod_cmdline;

/* The argument loop shared by the subcommands: --help/-h prints the usage and
 * returns 1; otherwise 0, or VLMOD_EXIT_BAD after a usage message ("%s needs a
 * value", "unknown option", "unknown argument", "more than one input file"). */
int vlmod_args(int argc, char **argv, const vlmod_cmdline *c);

/* A time: "0", or a number with a unit ns, us, ms, s (a plain number is an
 * error unless PLAIN_SECONDS, then it is seconds), as a double: no rounding to
 * nanoseconds.  Negative values are the caller's to refuse.  0 or -1. */
int vlmod_parse_seconds(const char *text, int plain_seconds, double *s);

/* A rate: "inf" (if ALLOW_INF) or a number with a unit B/s, KB/s, MB/s, GB/s,
 * KiB/s, MiB/s, GiB/s, bit/s, kbit/s, Mbit/s, Gbit/s (vlcfg_parse_rate).  0 or -1. */
int vlmod_parse_bandwidth(const char *text, int allow_inf, double *bytes_per_s);

/* A finite number (strtod, the whole text).  0 or -1. */
int vlmod_parse_number(const char *text, double *v);

/* V as text: a whole number (below 1e15) in full, else "%.6g"; "inf", "-inf". */
const char *vlmod_g(char *buf, size_t len, double v);

/* V, or 0 if |V| is below 1e-12 |SCALE| (round-off in a residual). */
double vlmod_clean(double v, double scale);

/* A table printed as aligned text (first column left-aligned, the others
 * right-aligned, two blanks apart; numbers as vlmod_g) or as CSV (numbers with 9
 * significant digits, text quoted when needed).  Cells are added row by row,
 * the first row being the header. */
typedef struct vlmod_cell {
	char *s;  /* text cell, or NULL */
	double v; /* number cell */
	int num;
} vlmod_cell;

typedef struct vlmod_tab {
	int ncol;
	size_t n, cap;
	vlmod_cell *cell;
} vlmod_tab;

void vlmod_tab_init(vlmod_tab *t, int ncol);
int vlmod_tab_str(vlmod_tab *t, const char *s); /* 0 or -1 (out of memory) */
int vlmod_tab_num(vlmod_tab *t, double v);
int vlmod_tab_print(FILE *out, const vlmod_tab *t, int csv); /* 0 or -1 (write error) */
void vlmod_tab_free(vlmod_tab *t);

/* ---- alphabeta.c: Lin's least squares ----
 * T_comm = M (alpha t_lat + beta s / t_bw)            (eq. 5)
 * M (la - lb) alpha + M s (1/ba - 1/bb) beta = Ta - Tb  (eq. 6), one row per job */

typedef struct vlmod_net {
	double lat; /* ping-pong latency, s (>= 0) */
	double bw;  /* ping-pong bandwidth, B/s (> 0, may be INFINITY) */
} vlmod_net;

typedef struct vlmod_abjob {
	double ta, tb; /* elapsed seconds on interconnects a and b */
	double m;      /* messages per processor */
	double s;      /* average message size, bytes */
} vlmod_abjob;

enum {
	VLMOD_AB_OK = 0,
	VLMOD_AB_FEW = -1,
	VLMOD_AB_SAMELAT = -2,
	VLMOD_AB_SAMEBW = -3,
	VLMOD_AB_SINGULAR = -4
};

/* Least squares of eq. 6 over the N jobs: *ALPHA, *BETA and the root mean
 * square residual *RMS (s; may be NULL).  Returns VLMOD_AB_OK, VLMOD_AB_FEW (fewer
 * than 2 jobs), VLMOD_AB_SAMELAT / VLMOD_AB_SAMEBW (a and b have the same latency /
 * bandwidth: that constant is undetermined) or VLMOD_AB_SINGULAR (the jobs'
 * equations are linearly dependent, e.g. every job has the same avg_bytes). */
int vlmod_ab_fit(const vlmod_abjob *jobs, int n, vlmod_net a, vlmod_net b, double *alpha,
                 double *beta, double *rms);

/* T_comm of eq. 5: M (alpha lat + beta s / bw); 0 when M is 0. */
double vlmod_ab_comm(double alpha, double beta, vlmod_net net, double m, double s);

/* "LATENCY,BANDWIDTH" (e.g. "43us,112MB/s"); with EXTREMES, latency "0" and
 * bandwidth "inf" are allowed (latency 0 is always allowed).  0, or -1 with a
 * message in ERR. */
int vlmod_parse_net(const char *text, int extremes, vlmod_net *net, char *err, size_t errlen);

int vlmod_alphabeta_main(int argc, char **argv);
int vlmod_abcsv_main(int argc, char **argv);

/* ---- speedup.c: Kredel et al. ----
 * t = #op / (p l_peak) + #x / b_c;  x = #op b_c / (#x l_peak);
 * S(p) = (1 + x) / (1 + x / p);  l(p) = #op / t = l_peak x / (1 + x / p);
 * p_1/2: x(p) = p (l = p l_peak / 2);  p_max: the p of the largest l. */

/* The expressions (vlmod_expr): expr.h. */

/* A built-in kernel of the paper: its software parameters as expressions. */
typedef struct vlmod_kernel {
	const char *name;  /* "scalar", "matmul", "linpack" */
	const char *title; /* "scalar product" */
	const char *op, *b, *x;
	const char *m; /* messages on the critical path (for --t0), or NULL */
} vlmod_kernel;

/* The kernel called NAME, or NULL; vlmod_kernels(&n) lists all. */
const vlmod_kernel *vlmod_kernel_find(const char *name);
const vlmod_kernel *vlmod_kernels(int *n);

typedef struct vlmod_speedup {
	const vlmod_expr *op, *b, *x; /* b may be NULL */
	double vars[VLMOD_NVARS];       /* n, w, alpha (p is set per call) */
	double lpeak;                 /* Flop/s per processing unit */
	double bc;                    /* network bandwidth, B/s */
	const vlmod_expr *m;          /* messages on the critical path, or NULL */
	double t0;                    /* latency per message, s (0: the paper's model) */
} vlmod_speedup;

/* x at P (INFINITY when #x is 0), S(P), and l(P) in Flop/s. */
double vlmod_su_x(const vlmod_speedup *m, double p);
double vlmod_su_s(double x, double p);
double vlmod_su_l(const vlmod_speedup *m, double p);
/* The time with the latency term: t(p) = #op/(p l_peak) + #x/b_c + m(p) t0
 * (the paper's t when t0 = 0 or m is NULL). */
double vlmod_su_t(const vlmod_speedup *m, double p);

#define VLMOD_SU_PMAX 1e15 /* the largest p searched */
/* p_1/2 into *P: returns 0, -1 if x(1) < 1 (below one PU), 1 if x(p) > p up to
 * VLMOD_SU_PMAX, or 2 if x is not a number somewhere on the way.  p_max into *P (l(*P) into *L):
 * returns 0, 1 if l does not decrease up to VLMOD_SU_PMAX, or -1 if l is not a number there (an
 * expression undefined for some p). */
int vlmod_su_phalf(const vlmod_speedup *m, double *p);
int vlmod_su_pmax(const vlmod_speedup *m, double *p, double *l);

/* A list of processor counts "1,2,4", "1-64" (every integer), "8-64:8" (step
 * 8), "1-1024:*2" (times 2), items joined by commas, into *P (malloc'd, *N
 * values, sorted as given).  0, or -1 with a message in ERR. */
int vlmod_parse_plist(const char *text, double **p, int *n, char *err, size_t errlen);

int vlmod_speedup_main(int argc, char **argv);

/* ---- bsp.c: BSPWB and MPM ----
 * The program (vlmod_prog, its M-steps and messages): bsp_prog.h. */

/* BSPWB (formula 5): T[s] for s = 0..r-1 (T[r-1] is the program's time).  OP:
 * @ in h = in @ out, VLMOD_OP_SUM (the paper's), _MAX or _OUT (bsp_prog.h). */
void vlmod_bspwb(const vlmod_prog *m, double g, double L, int op, double *t);

/* MPM (formulas 8-10): PHI[s * p + i], and the program's time Psi (the
 * return value; NAN if out of memory).  STEP_MAX (r values, may be NULL) gets
 * max_i PHI[s][i]. */
double vlmod_mpm(const vlmod_prog *m, double g, double L, int op, double *phi,
                 double *step_max);

/* Read an M-step CSV file (see `vlmodel bsp --help`): columns step, task, work,
 * and optionally send and h.  NTASKS > 0 fixes P (else 1 + the largest task
 * number); P x R at most 10^7.  0, or -1 with "PATH:LINE: what" (or "PATH:
 * step S has no rows") in ERR. */
int vlmod_prog_read(const char *path, int ntasks, vlmod_prog *m, char *err, size_t errlen);

enum { VLMOD_STEPS_AUTO, VLMOD_STEPS_COLL, VLMOD_STEPS_PHASE };
/* The M-steps of the traces in DIR (bsp_trace.c; the rules are in `vlmodel bsp
 * --help`), with the trace's own step ends and predicted time.  RULE: one of
 * the above; MIN_GAP (s): computation shorter than this does not end a
 * communication phase.  Sets *RULE_USED.  0, or -1 with a message in ERR;
 * warnings go to WARN. */
int vlmod_prog_from_trace(const char *dir, int rule, double min_gap, vlmod_prog *m, int *rule_used,
                          FILE *warn, char *err, size_t errlen);

/* g (s/B) and L (s) from a parameter file: `vlcalib fit --csv` (columns
 * link,model,parameter,value,unit: the rows g and L of the BSP models, those of
 * the paper's overall fit bsp(eq.11) if present, else the last ones; of link
 * LINK if not NULL, which must be given when the file has several links), any
 * table with rows g and L in columns parameter (or name, key), value and
 * optionally unit; columns g and L (one row, or the row whose pattern is all,
 * average or overall); or comments '# g: ' and '# L: '.  0, or -1 with a
 * message in ERR. */
int vlmod_read_gl(const char *path, const char *link, double *g, double *L, char *err,
                  size_t errlen);

/* g: a number of seconds per byte ("5e-9"), a time per byte ("5ns/B", also
 * s/B ms/B us/B ps/B), or a bandwidth whose inverse it is ("200MB/s").  0 or -1. */
int vlmod_parse_g(const char *text, double *g);

int vlmod_bsp_main(int argc, char **argv);

#endif
