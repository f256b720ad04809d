/* test_vlmodel.c - unit tests of the analytic models of `vlmodel` (models/):
 * Lin's alpha/beta least squares (exact on synthetic jobs, within a stated
 * tolerance with noise, the paper's own eq. 7 from its tables 1-3, the
 * singular cases), the speed-up model of Kredel et al. (hand-worked values of
 * the paper's kernels, the slides' p_1/2 and p_max), BSPWB and MPM (the
 * paper's Figure 1 and PSRS formulas 19-20 by hand), and the M-step file
 * reader's errors. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/vlmodel/vlmodel.h"

#define REL(a, b, tol)                                                                             \
	ck_assert_msg(fabs((a) - (b)) <= (tol)*fabs(b), "%s = %.12g, expected %.12g", #a,          \
	              (double)(a), (double)(b))

/* ---- alphabeta ---- */

static const vlmod_net ge = {43e-6, 112e6}, hf = {22e-6, 216e6};

/* Jobs made with ALPHA, BETA on a and b: M, s and computation vary. */
static void ab_make(vlmod_abjob *j, int n, double alpha, double beta, double noise)
{
	unsigned x = 12345;
	for (int i = 0; i < n; i++) {
		double comp = 1000.0 / (i + 1), e[2];
		j[i].m = 1e6 * (1 + i % 4) + 1e4 * i;
		j[i].s = 400.0 * (1 + (i * 7) % 9);
		for (int k = 0; k < 2; k++) {
			x = x * 1103515245u + 12345u;
			e[k] = noise * (((x >> 8) & 0xffff) / 32767.5 - 1);
		}
		j[i].ta = (comp + vlmod_ab_comm(alpha, beta, ge, j[i].m, j[i].s)) * (1 + e[0]);
		j[i].tb = (comp + vlmod_ab_comm(alpha, beta, hf, j[i].m, j[i].s)) * (1 + e[1]);
	}
}

START_TEST(ab_exact)
{
	vlmod_abjob j[8];
	double a, b, rms;
	ab_make(j, 8, 3.6, 1.6, 0);
	ck_assert_int_eq(vlmod_ab_fit(j, 8, ge, hf, &a, &b, &rms), VLMOD_AB_OK);
	REL(a, 3.6, 1e-9);
	REL(b, 1.6, 1e-9);
	ck_assert(rms < 1e-9);
	/* two jobs determine both */
	ck_assert_int_eq(vlmod_ab_fit(j, 2, ge, hf, &a, &b, NULL), VLMOD_AB_OK);
	REL(a, 3.6, 1e-9);
	REL(b, 1.6, 1e-9);
}
END_TEST

/* 0.1 % noise on every elapsed time (the communication is 2-30 % of it, the
 * difference of a and b a few %): alpha and beta within 5 %. */
START_TEST(ab_noise)
{
	vlmod_abjob j[40];
	double a, b, rms;
	ab_make(j, 40, 3.6, 1.6, 1e-3);
	ck_assert_int_eq(vlmod_ab_fit(j, 40, ge, hf, &a, &b, &rms), VLMOD_AB_OK);
	REL(a, 3.6, 0.05);
	REL(b, 1.6, 0.05);
	ck_assert(rms > 0);
}
END_TEST

/* Lin's tables 1-3 give eq. 7: alpha = 3.6, beta = 1.6 (MB = 10^6 B). */
START_TEST(ab_paper)
{
	static const double t[8][4] = {
	    {9913, 9926, 1232174, 1707}, {5108, 4998, 1760433, 1044},   {2963, 2800, 2419095, 703},
	    {2094, 1799, 3684285, 445},  {11827, 11703, 1231635, 3360}, {6215, 6024, 1760515, 2042},
	    {3582, 3332, 2419646, 1368}, {2441, 2119, 3683544, 866},
	};
	vlmod_abjob j[8];
	double a, b;
	for (int i = 0; i < 8; i++)
		j[i] = (vlmod_abjob){t[i][0], t[i][1], t[i][2], t[i][3]};
	ck_assert_int_eq(vlmod_ab_fit(j, 8, ge, hf, &a, &b, NULL), VLMOD_AB_OK);
	ck_assert_double_eq_tol(a, 3.6, 0.05);
	ck_assert_double_eq_tol(b, 1.6, 0.05);
	REL(a, 3.5781159628, 1e-8);
	REL(b, 1.6069192608, 1e-8);
}
END_TEST

START_TEST(ab_singular)
{
	vlmod_abjob j[4];
	double a, b;
	vlmod_net same_bw = {10e-6, 112e6};
	ab_make(j, 4, 3.6, 1.6, 0);
	ck_assert_int_eq(vlmod_ab_fit(j, 1, ge, hf, &a, &b, NULL), VLMOD_AB_FEW);
	ck_assert_int_eq(vlmod_ab_fit(j, 4, ge, ge, &a, &b, NULL), VLMOD_AB_SAMELAT);
	ck_assert_int_eq(vlmod_ab_fit(j, 4, ge, same_bw, &a, &b, NULL), VLMOD_AB_SAMEBW);
	for (int i = 0; i < 4; i++)
		j[i].s = 1000; /* the same ratio of the two terms in every job */
	ck_assert_int_eq(vlmod_ab_fit(j, 4, ge, hf, &a, &b, NULL), VLMOD_AB_SINGULAR);
	for (int i = 0; i < 4; i++)
		j[i].m = 0;
	ck_assert_int_eq(vlmod_ab_fit(j, 4, ge, hf, &a, &b, NULL), VLMOD_AB_SINGULAR);
}
END_TEST

START_TEST(ab_units)
{
	vlmod_net n;
	char err[256];
	ck_assert_int_eq(vlmod_parse_net("43us,112MB/s", 0, &n, err, sizeof err), 0);
	REL(n.lat, 43e-6, 1e-15);
	REL(n.bw, 112e6, 1e-15);
	ck_assert_int_eq(vlmod_parse_net("0,inf", 1, &n, err, sizeof err), 0);
	ck_assert(n.lat == 0 && isinf(n.bw));
	ck_assert_double_eq(vlmod_ab_comm(3.6, 1.6, n, 1e6, 1000), 0);
	ck_assert_int_eq(vlmod_parse_net("0,inf", 0, &n, err, sizeof err), -1);
	ck_assert_int_eq(vlmod_parse_net("43,112MB/s", 0, &n, err, sizeof err), -1);
	ck_assert_str_eq(err, "'43,112MB/s': bad latency '43' (a time >= 0 with a unit: ns, us, "
	                      "ms, s)");
	ck_assert_int_eq(vlmod_parse_net("43us,112MB", 0, &n, err, sizeof err), -1);
	ck_assert_int_eq(vlmod_parse_net("43us", 0, &n, err, sizeof err), -1);
	ck_assert_int_eq(vlmod_parse_net("-1us,1MB/s", 0, &n, err, sizeof err), -1);
	ck_assert_int_eq(vlmod_parse_net("1ms,1Gbit/s", 0, &n, err, sizeof err), 0);
	REL(n.bw, 125e6, 1e-15);
}
END_TEST

/* Times as doubles, correctly rounded, not to whole nanoseconds. */
START_TEST(units_seconds)
{
	double s;
	ck_assert_int_eq(vlmod_parse_seconds("43us", 0, &s), 0);
	ck_assert_double_eq(s, 43e-6);
	ck_assert_int_eq(vlmod_parse_seconds(" 2.124593769 us ", 0, &s), 0);
	ck_assert_double_eq(s, 2.124593769e-6);
	ck_assert_int_eq(vlmod_parse_seconds("-39.3ms", 0, &s), 0);
	ck_assert_double_eq(s, -39.3e-3);
	ck_assert_int_eq(vlmod_parse_seconds("0.5ns", 0, &s), 0);
	ck_assert_double_eq(s, 0.5e-9);
	ck_assert_int_eq(vlmod_parse_seconds("0", 0, &s), 0);
	ck_assert_double_eq(s, 0);
	ck_assert_int_eq(vlmod_parse_seconds("1.5", 1, &s), 0);
	ck_assert_double_eq(s, 1.5);
	ck_assert_int_eq(vlmod_parse_seconds("1.5", 0, &s), -1);
	ck_assert_int_eq(vlmod_parse_seconds("1.5 min", 1, &s), -1);
	ck_assert_int_eq(vlmod_parse_seconds("inf", 1, &s), -1);
	ck_assert_int_eq(vlmod_parse_seconds("1us 2us", 1, &s), -1);
	ck_assert_int_eq(vlmod_parse_seconds("us", 1, &s), -1);
}
END_TEST

/* ---- speed-up ---- */

static double ev(const char *text)
{
	char err[128];
	double v[VLMOD_NVARS] = {10, 4, 8, 0.5};
	vlmod_expr *e = vlmod_expr_parse(text, err, sizeof err);
	double r;
	ck_assert_msg(e != NULL, "%s: %s", text, err);
	r = vlmod_expr_eval(e, v);
	vlmod_expr_free(e);
	return r;
}

static const char *ev_err(const char *text)
{
	static char err[128];
	vlmod_expr *e = vlmod_expr_parse(text, err, sizeof err);
	ck_assert_ptr_null(e);
	return err;
}

START_TEST(su_expr)
{
	ck_assert_double_eq(ev("2+3*4^2"), 50);
	ck_assert_double_eq(ev("-2^2"), -4);
	ck_assert_double_eq(ev("2^3^2"), 512);
	ck_assert_double_eq(ev("(1 - 2) - 3"), -4);
	ck_assert_double_eq(ev("12/3/2"), 2);
	ck_assert_double_eq(ev("n*p + w/alpha"), 56);
	ck_assert_double_eq(ev("sqrt(p) + log2(8) + ln(exp(2)) + log10(1e3)"), 10);
	ck_assert_double_eq(ev("2.5e1"), 25);
	ck_assert_str_eq(ev_err("2*q"), "unknown name (variables: n, p, w, alpha; functions: "
	                                "sqrt, log2, ln, log10, exp) at column 3");
	ck_assert_str_eq(ev_err("(1"), "')' expected at column 3");
	ck_assert_str_eq(ev_err("sqrt 4"), "'(' expected after a function name at column 6");
	ck_assert_str_eq(ev_err("1 2"), "operator expected at column 3");
	ck_assert_str_eq(ev_err("3*"), "unexpected end at column 3");
}
END_TEST

typedef struct su_fix {
	vlmod_expr *e[3];
	vlmod_speedup m;
} su_fix;

/* Kernel NAME of size N on the paper's bwGRiD (8 GFlop/s, 1.5 GB/s). */
static void su_kernel(su_fix *f, const char *name, double n)
{
	const vlmod_kernel *k = vlmod_kernel_find(name);
	char err[128];
	ck_assert_ptr_nonnull(k);
	f->e[0] = vlmod_expr_parse(k->op, err, sizeof err);
	f->e[1] = vlmod_expr_parse(k->b, err, sizeof err);
	f->e[2] = vlmod_expr_parse(k->x, err, sizeof err);
	ck_assert(f->e[0] && f->e[1] && f->e[2]);
	f->m = (vlmod_speedup){f->e[0], f->e[1], f->e[2], {n, 1, 8, 1.0 / 3}, 8e9, 1.5e9, NULL, 0};
}

static void su_free(su_fix *f)
{
	for (int k = 0; k < 3; k++)
		vlmod_expr_free(f->e[k]);
}

/* Slide 15: x = (3/64) n/p; S = (1+x)/(1+x/p); l = l_peak/(1/p + 1/x) has its
 * maximum where p^2 = 3n/64, and there x = p: p_1/2 = p_max = sqrt(3n/64). */
START_TEST(su_scalar)
{
	su_fix f;
	double p, l, x;
	su_kernel(&f, "scalar", 1e7);
	x = vlmod_su_x(&f.m, 100);
	ck_assert_double_eq(x, 4687.5);
	REL(vlmod_su_s(x, 100), 4688.5 / 47.875, 1e-14);
	REL(vlmod_su_l(&f.m, 100), 8e9 * 4687.5 / 47.875, 1e-14);
	ck_assert_int_eq(vlmod_su_phalf(&f.m, &p), 0);
	REL(p, sqrt(468750), 1e-9);
	ck_assert_int_eq(vlmod_su_pmax(&f.m, &p, &l), 0);
	REL(p, sqrt(468750), 1e-6);
	REL(l, 8e9 * sqrt(468750) / 2, 1e-9);
	ck_assert_double_eq(vlmod_su_s(x, 1), 1);
	su_free(&f);
}
END_TEST

/* The latency term (--t0): t(p) = #op/(p l_peak) + #x/b_c + m(p) t0; the scalar
 * kernel's default m = log2(p) (samples/mpi/scalarprod.c's tree).  n = 10^6,
 * l_peak = 1 GFlop/s, b_c = 128 MB/s, t0 = 60 us (tests/e2e/model_exact.ini:
 * S + T(0) + R): t(1) = 2 ms + 8/128e6 s, t(4) = 0.5 ms + 32/128e6 s + 2 t0;
 * without t0 (or m) the paper's t. */
START_TEST(su_latency)
{
	su_fix f;
	char err[128];
	vlmod_expr *m;
	const vlmod_kernel *k = vlmod_kernel_find("scalar");
	su_kernel(&f, "scalar", 1e6);
	f.m.lpeak = 1e9;
	f.m.bc = 128e6;
	REL(vlmod_su_t(&f.m, 4), 0.5e-3 + 32 / 128e6, 1e-14);
	ck_assert_str_eq(k->m, "log2(p)");
	m = vlmod_expr_parse(k->m, err, sizeof err);
	ck_assert_ptr_nonnull(m);
	f.m.m = m;
	REL(vlmod_su_t(&f.m, 4), 0.5e-3 + 32 / 128e6, 1e-14); /* t0 = 0 */
	f.m.t0 = 60e-6;
	REL(vlmod_su_t(&f.m, 1), 2e-3 + 8 / 128e6, 1e-14);
	REL(vlmod_su_t(&f.m, 2), 1e-3 + 16 / 128e6 + 60e-6, 1e-14);
	REL(vlmod_su_t(&f.m, 4), 0.5e-3 + 32 / 128e6 + 120e-6, 1e-14);
	ck_assert_ptr_null(vlmod_kernel_find("linpack")->m);
	ck_assert_str_eq(vlmod_kernel_find("matmul")->m, "2*(sqrt(p)-1)");
	vlmod_expr_free(m);
	su_free(&f);
}
END_TEST

/* Slides 19 and 21 (alpha = 1/3, n = 10000): x = (3 alpha n/128)/(1 + log2(p)/24);
 * y = 3 alpha n/128 = 78.125 (the slide's p_1/2 ~ y ~ 80, which neglects the
 * log term); p_max = 24 ln(2) y = 1299.6 (the slide's 1300). */
START_TEST(su_linpack)
{
	su_fix f;
	double p, l, y = 78.125, pm = 24 * log(2) * 78.125;
	su_kernel(&f, "linpack", 1e4);
	ck_assert_double_eq_tol(vlmod_su_x(&f.m, 1), y, 1e-12);
	REL(vlmod_su_x(&f.m, 256), y / (1 + 8.0 / 24), 1e-14);
	ck_assert_int_eq(vlmod_su_pmax(&f.m, &p, &l), 0);
	REL(p, pm, 1e-6);
	ck_assert_double_eq_tol(p, 1300, 1);
	REL(l, 8e9 * y / (1 + log2(pm) / 24 + 1 / (24 * log(2))), 1e-9);
	ck_assert_int_eq(vlmod_su_phalf(&f.m, &p), 0);
	REL(vlmod_su_x(&f.m, p), p, 1e-9);
	ck_assert_double_eq_tol(p, 62.568, 0.001);
	su_free(&f);
}
END_TEST

/* Slide 17, exact #x = 2 n^2 (sqrt(p) - 1) w: x = (3n/128)/(sqrt(p) - 1);
 * l = l_peak/(1/p + (sqrt(p)-1)/y) is largest at p^1.5 = 2y. */
START_TEST(su_matmul)
{
	su_fix f;
	double p, l, y = 3 * 4e4 / 128;
	su_kernel(&f, "matmul", 4e4);
	ck_assert(isinf(vlmod_su_x(&f.m, 1)));
	ck_assert_double_eq(vlmod_su_s(vlmod_su_x(&f.m, 1), 1), 1);
	ck_assert_double_eq_tol(vlmod_su_x(&f.m, 16), y / 3, 1e-9);
	ck_assert_int_eq(vlmod_su_pmax(&f.m, &p, &l), 0);
	REL(p, pow(2 * y, 2.0 / 3), 1e-6);
	su_free(&f);
}
END_TEST

START_TEST(su_plist)
{
	double *p;
	int n;
	char err[256];
	ck_assert_int_eq(vlmod_parse_plist("1-1024:*2", &p, &n, err, sizeof err), 0);
	ck_assert_int_eq(n, 11);
	ck_assert_double_eq(p[10], 1024);
	free(p);
	ck_assert_int_eq(vlmod_parse_plist("8-64:8,100,3-5", &p, &n, err, sizeof err), 0);
	ck_assert_int_eq(n, 12);
	ck_assert_double_eq(p[7], 64);
	ck_assert_double_eq(p[8], 100);
	ck_assert_double_eq(p[11], 5);
	free(p);
	ck_assert_int_eq(vlmod_parse_plist("0", &p, &n, err, sizeof err), -1);
	ck_assert_int_eq(vlmod_parse_plist("5-2", &p, &n, err, sizeof err), -1);
	ck_assert_int_eq(vlmod_parse_plist("1-4:*1", &p, &n, err, sizeof err), -1);
	ck_assert_int_eq(vlmod_parse_plist("1,x", &p, &n, err, sizeof err), -1);
	ck_assert_str_eq(err, "'1,x': bad item 'x' (N, A-B, A-B:STEP or A-B:*FACTOR, numbers "
	                      ">= 1, at most 1000000 values)");
}
END_TEST

/* ---- BSPWB and MPM ---- */

/* The paper's Figure 1: 4 processors, 2 steps; step 1: 0 and 1 heavy (4 s), 2 and
 * 3 light (2 s), exchanges 0<->1, 2<->3; step 2 inverted, exchanges 0<->2, 1<->3.
 * g h + L = 0.5 * 2 + 1 = 2 s per step.  BSPWB: (4 + 2) + (4 + 2) = 12 s;
 * MPM: Phi_1 = (6, 6, 4, 4), Phi_2,0 = max(6 + 2, 4 + 4) + 2 = 10 s. */
static void fig1(vlmod_prog *m)
{
	static const double w[2][4] = {{4, 4, 2, 2}, {2, 2, 4, 4}};
	static const int peer[2][4] = {{1, 0, 3, 2}, {2, 3, 0, 1}};
	ck_assert_int_eq(vlmod_prog_init(m, 4, 2), 0);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < 4; i++) {
			m->w[s * 4 + i] = w[s][i];
			ck_assert_int_eq(vlmod_prog_msg(m, s, i, peer[s][i], 1, s), 0);
		}
	ck_assert_int_eq(vlmod_prog_finish(m), 0);
}

START_TEST(bsp_fig1)
{
	vlmod_prog m;
	double t[2], phi[8], smax[2];
	fig1(&m);
	ck_assert_double_eq(vlmod_prog_h(&m, 0, 0, 0), 2);
	ck_assert_double_eq(vlmod_prog_h(&m, 0, 0, 1), 1);
	vlmod_bspwb(&m, 0.5, 1, 0, t);
	ck_assert_double_eq(t[0], 6);
	ck_assert_double_eq(t[1], 12);
	ck_assert_double_eq(vlmod_mpm(&m, 0.5, 1, 0, phi, smax), 10);
	ck_assert_double_eq(phi[0], 6);
	ck_assert_double_eq(phi[2], 4);
	ck_assert_double_eq(phi[4], 10);
	ck_assert_double_eq(smax[0], 6);
	/* with @ = max, h = 1: one second less per step */
	vlmod_bspwb(&m, 0.5, 1, 1, t);
	ck_assert_double_eq(t[1], 11);
	ck_assert_double_eq(vlmod_mpm(&m, 0.5, 1, 1, phi, NULL), 9);
	/* with h = out (VLMOD_OP_OUT): each task sends 1, as with max here */
	ck_assert_double_eq(vlmod_prog_h(&m, 0, 0, VLMOD_OP_OUT), 1);
	vlmod_bspwb(&m, 0.5, 1, VLMOD_OP_OUT, t);
	ck_assert_double_eq(t[1], 11);
	vlmod_prog_free(&m);
}
END_TEST

/* A gather (tasks 1..3 send 2 bytes to 0, no work; g = 1 s/B, L = 0.5 s): the
 * paper's h = in + out is 6 at the root (T = 6.5 s), in max out too; h = out is
 * 2 for every sender and 0 for the root (T = 2.5 s: only senders' ports). */
START_TEST(bsp_op_out)
{
	vlmod_prog m;
	double t[1];
	ck_assert_int_eq(vlmod_prog_init(&m, 4, 1), 0);
	for (int i = 1; i < 4; i++)
		ck_assert_int_eq(vlmod_prog_msg(&m, 0, i, 0, 2, 0), 0);
	ck_assert_int_eq(vlmod_prog_finish(&m), 0);
	ck_assert_double_eq(vlmod_prog_h(&m, 0, 0, VLMOD_OP_SUM), 6);
	ck_assert_double_eq(vlmod_prog_h(&m, 0, 0, VLMOD_OP_MAX), 6);
	ck_assert_double_eq(vlmod_prog_h(&m, 0, 0, VLMOD_OP_OUT), 0);
	ck_assert_double_eq(vlmod_prog_h(&m, 0, 3, VLMOD_OP_OUT), 2);
	vlmod_bspwb(&m, 1, 0.5, VLMOD_OP_SUM, t);
	ck_assert_double_eq(t[0], 6.5);
	vlmod_bspwb(&m, 1, 0.5, VLMOD_OP_OUT, t);
	ck_assert_double_eq(t[0], 2.5);
	vlmod_prog_free(&m);
}
END_TEST

/* PSRS (formulas 19, 20): P = 4, N = 4096; step 1: processor 0 sends N/P items
 * (4 bytes each) to each other: T1 = g (P-1) N/P 4 + L; step 2: every processor
 * sorts (w = 3 ms, processor 0: 3.5 ms) and sends P samples to processor 0:
 * T2 = T1 + 3.5 ms + g P (P-1) 4 + L.  MPM: processor 0 waits for all, so
 * Psi = T2; processor 1's Phi_2 = Phi_1 + 3 ms + g (P 4) + L (it only sends). */
START_TEST(bsp_psrs)
{
	const double g = 1e-8, L = 2e-5, N = 4096;
	vlmod_prog m;
	double t[2], phi[8], t1 = g * 3 * N / 4 * 4 + L;
	ck_assert_int_eq(vlmod_prog_init(&m, 4, 2), 0);
	for (int i = 1; i < 4; i++) {
		ck_assert_int_eq(vlmod_prog_msg(&m, 0, 0, i, N / 4 * 4, 0), 0);
		ck_assert_int_eq(vlmod_prog_msg(&m, 1, i, 0, 4 * 4, 1), 0);
		m.w[4 + i] = 3e-3;
	}
	m.w[4] = 3.5e-3;
	ck_assert_int_eq(vlmod_prog_finish(&m), 0);
	vlmod_bspwb(&m, g, L, 0, t);
	REL(t[0], t1, 1e-14);
	REL(t[1], t1 + 3.5e-3 + g * 4 * 3 * 4 + L, 1e-14);
	REL(vlmod_mpm(&m, g, L, 0, phi, NULL), t[1], 1e-14);
	/* processor 1, step 1: partners {0, 1}, h = max(h0 = 12288, h1 = 4096) */
	REL(phi[1], t1, 1e-14);
	REL(phi[5], t1 + 3e-3 + g * 16 + L, 1e-14);
	vlmod_prog_free(&m);
}
END_TEST

/* A step without messages costs only its computation; an explicit h replaces
 * in @ out; a message to all counts p - 1 times out and once in each other. */
START_TEST(bsp_rules)
{
	vlmod_prog m;
	double t[3], phi[9];
	ck_assert_int_eq(vlmod_prog_init(&m, 3, 3), 0);
	m.w[0] = 1;
	m.w[3 + 1] = 2;
	m.hx[3 + 2] = 100;
	ck_assert_int_eq(vlmod_prog_msg(&m, 2, 1, VLMOD_TO_ALL, 10, 2), 0);
	ck_assert_int_eq(vlmod_prog_finish(&m), 0);
	ck_assert_int_eq(m.comm[0], 0);
	ck_assert_int_eq(m.comm[1], 1);
	ck_assert_double_eq(m.out[6 + 1], 20);
	ck_assert_double_eq(m.in[6 + 0], 10);
	ck_assert_double_eq(m.in[6 + 1], 0);
	vlmod_bspwb(&m, 0.01, 0.5, 0, t);
	ck_assert_double_eq(t[0], 1);
	ck_assert_double_eq(t[1], 1 + 2 + 1 + 0.5);
	ck_assert_double_eq_tol(t[2], 4.5 + 0.2 + 0.5, 1e-12);
	/* MPM: step 2 has no messages, so each task is alone: Phi_2 = Phi_1 + w + g h + L */
	vlmod_mpm(&m, 0.01, 0.5, 0, phi, NULL);
	ck_assert_double_eq(phi[3 + 0], 1 + 0.5);
	ck_assert_double_eq(phi[3 + 1], 2 + 0.5);
	ck_assert_double_eq(phi[3 + 2], 1 + 0.5);
	/* step 3: every task has task 1 as partner: max(Phi) + g max(h) + L */
	ck_assert_double_eq_tol(phi[6 + 0], 2.5 + 0.2 + 0.5, 1e-12);
	vlmod_prog_free(&m);
}
END_TEST

/* ---- the M-step file ---- */

static char tmpl[64];

static const char *write_file(const char *text)
{
	int fd;
	strcpy(tmpl, "/tmp/test_vlmodel.XXXXXX");
	fd = mkstemp(tmpl);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return tmpl;
}

static const char *read_err(const char *text, int ntasks)
{
	static char err[512], msg[512];
	vlmod_prog m;
	const char *path = write_file(text);
	int rc = vlmod_prog_read(path, ntasks, &m, err, sizeof err);
	unlink(path);
	ck_assert_int_eq(rc, -1);
	/* the path is random: keep what follows it */
	snprintf(msg, sizeof msg, "%s", err + strlen(path));
	return msg;
}

START_TEST(bsp_read)
{
	vlmod_prog m;
	char err[512];
	const char *path = write_file("# a comment\nwork,task,step,send,h\n"
	                              "2ms,0,1,1:1KiB *:10,\n1e-3,1,1,0:100;0:24,\n"
	                              "0.5,0,2,,64\n");
	int rc = vlmod_prog_read(path, 0, &m, err, sizeof err);
	unlink(path);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_int_eq(m.p, 2);
	ck_assert_int_eq(m.r, 2);
	ck_assert_double_eq_tol(m.w[0], 2e-3, 1e-18);
	ck_assert_double_eq(m.w[1], 1e-3);
	ck_assert_double_eq(m.w[2], 0.5);
	ck_assert_double_eq(m.out[0], 1034);
	ck_assert_double_eq(m.in[0], 124);
	ck_assert_double_eq(m.in[1], 1034);
	ck_assert_double_eq(vlmod_prog_h(&m, 1, 0, 0), 64);
	ck_assert_int_eq(m.comm[1], 1);
	vlmod_prog_free(&m);
}
END_TEST

START_TEST(bsp_read_errors)
{
	ck_assert_str_eq(read_err("step,task\n1,0\n", 0),
	                 ":1: missing column 'work' (have: step, task)");
	ck_assert_str_eq(read_err("step,task,work\n1,0\n", 0),
	                 ":2: 2 fields, but the header has 3 columns");
	ck_assert_str_eq(read_err("step,task,work\n1,0,fast\n", 0),
	                 ":2: column work: 'fast' is not a time >= 0 (seconds, or with a unit: ns, "
	                 "us, ms, s)");
	ck_assert_str_eq(read_err("step,task,work\n0,0,1\n", 0),
	                 ":2: column step: '0' is not a whole number in 1..1000000");
	ck_assert_str_eq(read_err("step,task,work\n1,0,1\n1,0,2\n", 0),
	                 ":3: step 1 task 0 is also on line 2");
	ck_assert_str_eq(read_err("step,task,work\n2,0,1\n", 0),
	                 ": step 1 has no rows (steps are numbered 1..2)");
	ck_assert_str_eq(read_err("step,task,work,send\n1,0,1,1:10\n", 0),
	                 ":2: column send: '1:10': the destination must be a task 0..0 other "
	                 "than 0, or *");
	ck_assert_str_eq(read_err("step,task,work,send\n1,0,1,1:10x\n", 2),
	                 ":2: column send: '1:10x': bad size '10x' (bytes, or B KiB MiB GiB KB MB "
	                 "GB)");
	ck_assert_str_eq(read_err("step,task,work\n1,3,1\n", 2),
	                 ":2: task 3: --tasks is 2 (tasks 0..1)");
	ck_assert_str_eq(read_err("step,task,work,h\n1,0,1,-5\n", 0),
	                 ":2: column h: '-5' is not a size (bytes, or B KiB MiB GiB KB MB GB)");
	ck_assert_str_eq(read_err("step,task,work\n", 0), ":1: no M-steps (no data rows)");
}
END_TEST

START_TEST(bsp_params)
{
	double g = 0, L = 0;
	char err[512];
	const char *path;
	ck_assert_int_eq(vlmod_parse_g("5e-9", &g), 0);
	ck_assert_double_eq(g, 5e-9);
	ck_assert_int_eq(vlmod_parse_g("5ns/B", &g), 0);
	REL(g, 5e-9, 1e-15);
	ck_assert_int_eq(vlmod_parse_g("200MB/s", &g), 0);
	REL(g, 5e-9, 1e-15);
	ck_assert_int_eq(vlmod_parse_g("fast", &g), -1);
	path = write_file("model,parameter,value,unit\nhockney,L,99,s\nbsp,g,4,ns/B\n"
	                  "bsp,L,-15,us\n");
	ck_assert_int_eq(vlmod_read_gl(path, NULL, &g, &L, err, sizeof err), 0);
	unlink(path);
	REL(g, 4e-9, 1e-15);
	REL(L, -15e-6, 1e-15);
	path = write_file("pattern,g,L\nexchange,1e-9,1e-5\naverage,2e-9,3e-5\n");
	ck_assert_int_eq(vlmod_read_gl(path, NULL, &g, &L, err, sizeof err), 0);
	unlink(path);
	ck_assert_double_eq(g, 2e-9);
	ck_assert_double_eq(L, 3e-5);
	/* vlcalib fit --csv: the overall fit (eq. 11) of the link asked for */
	path = write_file("link,model,parameter,value,unit\n"
	                  "intra,loggp,g,9,us\nintra,loggp,L,9,us\n"
	                  "intra,bsp_exchange,g,1.5,ns/B\nintra,bsp_exchange,L,30,us\n"
	                  "intra,bsp(eq.11),g,1.25,ns/B\nintra,bsp(eq.11),L,20,us\n"
	                  "intra,bsp(mean),g,1.75,ns/B\nintra,bsp(mean),L,25,us\n"
	                  "inter,bsp(eq.11),g,8.5,ns/B\ninter,bsp(eq.11),L,-40,us\n");
	ck_assert_int_eq(vlmod_read_gl(path, "inter", &g, &L, err, sizeof err), 0);
	REL(g, 8.5e-9, 1e-15);
	REL(L, -40e-6, 1e-15);
	ck_assert_int_eq(vlmod_read_gl(path, "intra", &g, &L, err, sizeof err), 0);
	REL(g, 1.25e-9, 1e-15);
	REL(L, 20e-6, 1e-15);
	ck_assert_int_eq(vlmod_read_gl(path, NULL, &g, &L, err, sizeof err), -1);
	ck_assert_str_eq(err + strlen(path), ":10: g and L of links intra and inter: choose one "
	                                     "with --link");
	unlink(path);
	path = write_file("parameter,value\ng,1e-9\n");
	ck_assert_int_eq(vlmod_read_gl(path, NULL, &g, &L, err, sizeof err), -1);
	unlink(path);
	ck_assert_str_eq(err + strlen(path), ":1: no BSP L found (expected rows 'g' and 'L' in "
	                                     "columns parameter,value[,unit], or columns g and L)");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vlmodel");
	TCase *ab = tcase_create("alphabeta"), *su = tcase_create("speedup");
	TCase *bsp = tcase_create("bsp");
	tcase_add_test(ab, ab_exact);
	tcase_add_test(ab, ab_noise);
	tcase_add_test(ab, ab_paper);
	tcase_add_test(ab, ab_singular);
	tcase_add_test(ab, ab_units);
	tcase_add_test(ab, units_seconds);
	tcase_add_test(su, su_expr);
	tcase_add_test(su, su_scalar);
	tcase_add_test(su, su_latency);
	tcase_add_test(su, su_linpack);
	tcase_add_test(su, su_matmul);
	tcase_add_test(su, su_plist);
	tcase_add_test(bsp, bsp_fig1);
	tcase_add_test(bsp, bsp_op_out);
	tcase_add_test(bsp, bsp_psrs);
	tcase_add_test(bsp, bsp_rules);
	tcase_add_test(bsp, bsp_read);
	tcase_add_test(bsp, bsp_read_errors);
	tcase_add_test(bsp, bsp_params);
	suite_add_tcase(s, ab);
	suite_add_tcase(s, su);
	suite_add_tcase(s, bsp);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
