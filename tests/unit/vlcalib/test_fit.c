/* test_fit.c - unit tests of the calibration fits (models/fit.c).
 *
 * Every fit gets synthetic data made from known parameters and must give them
 * back: exactly (relative 1e-9) for noise-free data, within a stated tolerance
 * with seeded pseudo-random noise; degenerate inputs must be errors.
 */
#include "tools/vlcalib/fit.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define EXACT 1e-9

/* |got - want| <= tol * max(|want|, 1) */
#define ck_rel(got, want, tol)                                                                     \
	do {                                                                                       \
		double g_ = (got), w_ = (want);                                                    \
		ck_assert_msg(fabs(g_ - w_) <= (tol) * (fabs(w_) > 1 ? fabs(w_) : 1),              \
		              "%s = %.15g, expected %.15g (tolerance %g)", #got, g_, w_,           \
		              (double)(tol));                                                      \
	} while (0)

/* ---- synthetic data ---- */

/* The ping-pong sizes of the raw format: 0, then powers of two 1 .. 4 MiB and
 * their 1.5x midpoints (45 sizes). */
static int grid(double *x)
{
	int n = 0;

	x[n++] = 0;
	for (int p = 0; p <= 22; p++) {
		x[n++] = ldexp(1, p);
		if (p >= 1 && p < 22)
			x[n++] = 1.5 * ldexp(1, p);
	}
	for (int i = 1; i < n; i++) /* 1.5 * 2^p goes after 2^p ... sort */
		for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
			double t = x[j];
			x[j] = x[j - 1];
			x[j - 1] = t;
		}
	return n;
}

/* A deterministic generator (xorshift64*) and normal deviates (Box-Muller). */
static uint64_t rng_state;

static double urand(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double nrand(void)
{
	double u = urand(), v = urand();

	if (u < 1e-300)
		u = 1e-300;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* The piecewise-linear function through (KX, KY) (N points) at X. */
static double truth(const double *kx, const double *ky, int n, double x)
{
	vlcal_pwl f = {0};

	f.n = n;
	for (int i = 0; i < n; i++) {
		f.x[i] = kx[i];
		f.y[i] = ky[i];
	}
	return vlcal_pwl_eval(&f, x);
}

/* Fits the noise-free data of the model (KX, KY) on the grid and checks the
 * model comes back: same points, same values, hence same slopes. */
static void exact_case(const double *kx, const double *ky, int n)
{
	double x[64], y[64];
	int m = grid(x);
	vlcal_pwl f;

	for (int i = 0; i < m; i++)
		y[i] = truth(kx, ky, n, x[i]);
	ck_assert_int_eq(vlcal_segfit(x, y, NULL, m, VLCAL_PENALTY_DEFAULT, VLCAL_PWL_MAX, &f), 0);
	ck_assert_int_eq(f.n, n);
	ck_assert_int_eq(f.segments, n - 1);
	for (int i = 0; i < n; i++) {
		ck_assert_msg(f.x[i] == kx[i], "point %d at %.17g, expected %.17g", i, f.x[i],
		              kx[i]);
		ck_rel(f.y[i], ky[i], EXACT);
	}
	for (int i = 0; i + 1 < n; i++)
		ck_rel((f.y[i + 1] - f.y[i]) / (f.x[i + 1] - f.x[i]),
		       (ky[i + 1] - ky[i]) / (kx[i + 1] - kx[i]), EXACT);
	ck_assert(f.rms_rel < 1e-12);
	ck_assert(f.max_rel < 1e-12);
}

/* ---- piecewise linear ---- */

START_TEST(seg_line_exact)
{
	/* 2 us + 1 GB/s: one segment, two points at the ends of the grid */
	const double kx[] = {0, 4194304}, ky[] = {2000, 2000 + 4194304 * 1.0};
	exact_case(kx, ky, 2);
}
END_TEST

START_TEST(seg_one_break)
{
	/* flat-ish up to 1 KiB (a grid size), then 0.5 ns/B */
	const double kx[] = {0, 1024, 4194304};
	const double ky[] = {5000, 5000 + 1024 * 0.05, 5000 + 1024 * 0.05 + (4194304 - 1024) * 0.5};
	exact_case(kx, ky, 3);
}
END_TEST

START_TEST(seg_two_breaks_off_grid)
{
	/* breakpoints at 1000 B (between the grid sizes 768 and 1024) and 64 KiB */
	const double kx[] = {0, 1000, 65536, 4194304};
	const double ky[] = {3000, 3200, 3200 + 64536 * 0.8, 3200 + 64536 * 0.8 + 4128768 * 0.25};
	exact_case(kx, ky, 4);
}
END_TEST

START_TEST(seg_three_breaks)
{
	/* 1 KiB, 40000 B (off the grid), 1 MiB: slopes 0.02, 0.3, 1.2, 0.4 ns/B */
	double kx[] = {0, 1024, 40000, 1048576, 4194304}, ky[5];
	const double sl[] = {0.02, 0.3, 1.2, 0.4};

	ky[0] = 800;
	for (int i = 0; i < 4; i++)
		ky[i + 1] = ky[i] + sl[i] * (kx[i + 1] - kx[i]);
	exact_case(kx, ky, 5);
}
END_TEST

START_TEST(seg_jump)
{
	/* eager up to 48 KiB, rendezvous (+20 us) from 64 KiB: a jump between two
	 * grid sizes is two points, one at each side */
	double x[64], y[64];
	int m = grid(x);
	vlcal_pwl f;

	for (int i = 0; i < m; i++)
		y[i] = x[i] <= 49152 ? 1000 + 0.1 * x[i] : 21000 + 0.1 * x[i];
	ck_assert_int_eq(vlcal_segfit(x, y, NULL, m, VLCAL_PENALTY_DEFAULT, VLCAL_PWL_MAX, &f), 0);
	ck_assert_int_eq(f.segments, 2);
	ck_assert_int_eq(f.n, 4);
	ck_assert(f.x[0] == 0 && f.x[1] == 49152 && f.x[2] == 65536 && f.x[3] == 4194304);
	ck_rel(f.y[0], 1000, EXACT);
	ck_rel(f.y[1], 1000 + 0.1 * 49152, EXACT);
	ck_rel(f.y[2], 21000 + 0.1 * 65536, EXACT);
	ck_rel(f.y[3], 21000 + 0.1 * 4194304, EXACT);
	for (int i = 0; i < m; i++)
		ck_rel(vlcal_pwl_eval(&f, x[i]), y[i], EXACT);
}
END_TEST

/* 2 % multiplicative normal noise on the three-breakpoint model: the number
 * of segments is right, every breakpoint within a factor 1.5 of the true size
 * (one grid step), and the fitted function within 2 % rms and 5 % at worst of
 * the noise-free one, for 20 seeds. */
START_TEST(seg_noise)
{
	double kx[] = {0, 1024, 40000, 1048576, 4194304}, ky[5], x[64], y[64];
	const double sl[] = {0.02, 0.3, 1.2, 0.4};
	int m = grid(x);

	ky[0] = 800;
	for (int i = 0; i < 4; i++)
		ky[i + 1] = ky[i] + sl[i] * (kx[i + 1] - kx[i]);
	for (int seed = 1; seed <= 20; seed++) {
		vlcal_pwl f;
		double s2 = 0, mx = 0;

		rng_state = 0x9e3779b97f4a7c15ULL * (uint64_t)seed;
		for (int i = 0; i < m; i++)
			y[i] = truth(kx, ky, 5, x[i]) * (1 + 0.02 * nrand());
		ck_assert_int_eq(vlcal_segfit(x, y, NULL, m, VLCAL_PENALTY_DEFAULT, VLCAL_PWL_MAX, &f),
		                 0);
		ck_assert_msg(f.n == 5, "seed %d: %d points", seed, f.n);
		for (int i = 1; i < 4; i++)
			ck_assert_msg(f.x[i] >= kx[i] / 1.5 && f.x[i] <= kx[i] * 1.5,
			              "seed %d: breakpoint %d at %g, true %g", seed, i, f.x[i],
			              kx[i]);
		for (int i = 0; i < m; i++) {
			double t = truth(kx, ky, 5, x[i]), r = fabs(vlcal_pwl_eval(&f, x[i]) - t) / t;

			s2 += r * r;
			if (r > mx)
				mx = r;
		}
		ck_assert_msg(sqrt(s2 / m) < 0.02, "seed %d: rms %g", seed, sqrt(s2 / m));
		ck_assert_msg(mx < 0.05, "seed %d: max %g", seed, mx);
	}
}
END_TEST

/* Pure noise around a straight line must not make breakpoints (2 % noise,
 * default penalty, 50 seeds). */
START_TEST(seg_noise_no_false_breaks)
{
	double x[64], y[64];
	int m = grid(x);

	for (int seed = 1; seed <= 50; seed++) {
		vlcal_pwl f;

		rng_state = 0x2545f4914f6cdd1dULL * (uint64_t)seed;
		for (int i = 0; i < m; i++)
			y[i] = (3000 + 0.7 * x[i]) * (1 + 0.02 * nrand());
		ck_assert_int_eq(vlcal_segfit(x, y, NULL, m, VLCAL_PENALTY_DEFAULT, VLCAL_PWL_MAX, &f),
		                 0);
		ck_assert_msg(f.n == 2, "seed %d: %d points", seed, f.n);
	}
}
END_TEST

/* The automatic penalty: no noise in a piecewise-linear function (its bends
 * are outliers the median ignores), the right level in a noisy line. */
START_TEST(penalty_auto)
{
	double kx[] = {0, 1024, 40000, 1048576, 4194304}, ky[5], x[64], y[64], sig;
	const double sl[] = {0.02, 0.3, 1.2, 0.4};
	int m = grid(x);

	ky[0] = 800;
	for (int i = 0; i < 4; i++)
		ky[i + 1] = ky[i] + sl[i] * (kx[i + 1] - kx[i]);
	for (int i = 0; i < m; i++)
		y[i] = truth(kx, ky, 5, x[i]);
	ck_assert(vlcal_penalty_auto(x, y, NULL, m, &sig) == VLCAL_PENALTY_DEFAULT);
	ck_assert(sig < 1e-12);
	rng_state = 7;
	for (int i = 0; i < m; i++)
		y[i] = (3000 + 0.7 * x[i]) * (1 + 0.03 * nrand());
	ck_rel(vlcal_penalty_auto(x, y, NULL, m, &sig), 6 * log(m) * sig * sig, EXACT);
	ck_assert_msg(sig > 0.02 && sig < 0.04, "sigma %g for 3 %% noise", sig);
	ck_assert(vlcal_penalty_auto(x, y, NULL, 2, &sig) == VLCAL_PENALTY_DEFAULT && sig == 0);
}
END_TEST

/* 4 % noise on the three-breakpoint model with the automatic penalty: the
 * number of points right, breakpoints within a factor 3 (two grid steps), the
 * function within 4 % rms (the noise level) of the noise-free one, 20 seeds. */
START_TEST(seg_noise_auto)
{
	double kx[] = {0, 1024, 40000, 1048576, 4194304}, ky[5], x[64], y[64];
	const double sl[] = {0.02, 0.3, 1.2, 0.4};
	int m = grid(x);

	ky[0] = 800;
	for (int i = 0; i < 4; i++)
		ky[i + 1] = ky[i] + sl[i] * (kx[i + 1] - kx[i]);
	for (int seed = 1; seed <= 20; seed++) {
		vlcal_pwl f;
		double s2 = 0;

		rng_state = 0x51ed270b27ULL * (uint64_t)seed;
		for (int i = 0; i < m; i++)
			y[i] = truth(kx, ky, 5, x[i]) * (1 + 0.04 * nrand());
		ck_assert_int_eq(vlcal_segfit(x, y, NULL, m, vlcal_penalty_auto(x, y, NULL, m, NULL),
		                            VLCAL_PWL_MAX, &f),
		                 0);
		ck_assert_msg(f.n == 5, "seed %d: %d points", seed, f.n);
		for (int i = 1; i < 4; i++)
			ck_assert_msg(f.x[i] >= kx[i] / 3 && f.x[i] <= kx[i] * 3,
			              "seed %d: breakpoint %d at %g, true %g", seed, i, f.x[i],
			              kx[i]);
		for (int i = 0; i < m; i++) {
			double t = truth(kx, ky, 5, x[i]), r = (vlcal_pwl_eval(&f, x[i]) - t) / t;

			s2 += r * r;
		}
		ck_assert_msg(sqrt(s2 / m) < 0.04, "seed %d: rms %g", seed, sqrt(s2 / m));
	}
}
END_TEST

/* With penalty 0 the fit takes as many segments as it may: MAX_POINTS holds. */
START_TEST(seg_max_points)
{
	double x[64], y[64];
	int m = grid(x);

	rng_state = 42;
	for (int i = 0; i < m; i++)
		y[i] = (3000 + 0.7 * x[i]) * (1 + 0.05 * nrand());
	for (int mp = 2; mp <= VLCAL_PWL_MAX; mp += 5) {
		vlcal_pwl f;

		ck_assert_int_eq(vlcal_segfit(x, y, NULL, m, 0, mp, &f), 0);
		ck_assert_int_le(f.n, mp);
		ck_assert_int_ge(f.n, 2);
		for (int i = 1; i < f.n; i++)
			ck_assert(f.x[i] > f.x[i - 1]);
		ck_assert(f.x[0] == x[0] && f.x[f.n - 1] == x[m - 1]);
	}
}
END_TEST

/* Given weights (all 1): still exact. */
START_TEST(seg_weights)
{
	const double x[] = {0, 10, 20, 30, 40, 50, 60}, w[] = {1, 1, 1, 1, 1, 1, 1};
	double y[7];
	vlcal_pwl f;

	for (int i = 0; i < 7; i++)
		y[i] = x[i] <= 30 ? 100 + 2 * x[i] : 160 + 10 * (x[i] - 30);
	ck_assert_int_eq(vlcal_segfit(x, y, w, 7, 1e-6, VLCAL_PWL_MAX, &f), 0);
	ck_assert_int_eq(f.n, 3);
	ck_assert(f.x[1] == 30);
	ck_rel(f.y[1], 160, EXACT);
	ck_rel(f.y[2], 460, EXACT);
}
END_TEST

START_TEST(seg_errors)
{
	const double x[] = {0, 1, 2, 3}, y[] = {1, 2, 3, 4}, xd[] = {0, 1, 1, 3};
	const double yn[] = {1, NAN, 3, 4}, w0[] = {0, 0, 0, 0}, wneg[] = {1, -1, 1, 1};
	vlcal_pwl f;

	ck_assert_int_eq(vlcal_segfit(x, y, NULL, 1, 0.01, 32, &f), VLCAL_FIT_FEW);
	ck_assert_int_eq(vlcal_segfit(x, y, NULL, 0, 0.01, 32, &f), VLCAL_FIT_FEW);
	ck_assert_int_eq(vlcal_segfit(xd, y, NULL, 4, 0.01, 32, &f), VLCAL_FIT_BADARG);
	ck_assert_int_eq(vlcal_segfit(x, yn, NULL, 4, 0.01, 32, &f), VLCAL_FIT_BADARG);
	ck_assert_int_eq(vlcal_segfit(x, y, NULL, 4, -1, 32, &f), VLCAL_FIT_BADARG);
	ck_assert_int_eq(vlcal_segfit(x, y, NULL, 4, 0.01, 1, &f), VLCAL_FIT_BADARG);
	ck_assert_int_eq(vlcal_segfit(x, y, wneg, 4, 0.01, 32, &f), VLCAL_FIT_BADARG);
	ck_assert_int_eq(vlcal_segfit(x, y, w0, 4, 0.01, 32, &f), VLCAL_FIT_SINGULAR);
	{
		static double bx[VLCAL_SEG_MAXM + 1], by[VLCAL_SEG_MAXM + 1];

		for (int i = 0; i <= VLCAL_SEG_MAXM; i++)
			bx[i] = i, by[i] = 1 + i;
		ck_assert_int_eq(vlcal_segfit(bx, by, NULL, VLCAL_SEG_MAXM + 1, 0.01, 32, &f),
		                 VLCAL_FIT_BADARG);
	}
	/* two sizes: the line through them */
	ck_assert_int_eq(vlcal_segfit(x, y, NULL, 2, 0.01, 32, &f), 0);
	ck_assert_int_eq(f.n, 2);
	ck_rel(f.y[0], 1, EXACT);
	ck_rel(f.y[1], 2, EXACT);
	ck_assert_str_eq(vlcal_fit_strerror(VLCAL_FIT_FEW), "too few sizes for a fit");
	ck_assert_str_eq(vlcal_fit_strerror(VLCAL_FIT_SINGULAR), "singular fit");
}
END_TEST

/* Evaluation as vlayer does: constant left of the first point, the last
 * segment extended right of the last. */
START_TEST(pwl_eval_outside)
{
	vlcal_pwl f = {0};

	f.n = 3;
	f.x[0] = 10, f.y[0] = 100;
	f.x[1] = 20, f.y[1] = 200;
	f.x[2] = 40, f.y[2] = 260;
	ck_rel(vlcal_pwl_eval(&f, 0), 100, EXACT);
	ck_rel(vlcal_pwl_eval(&f, 15), 150, EXACT);
	ck_rel(vlcal_pwl_eval(&f, 30), 230, EXACT);
	ck_rel(vlcal_pwl_eval(&f, 60), 320, EXACT);
	f.n = 1;
	ck_rel(vlcal_pwl_eval(&f, 60), 100, EXACT);
}
END_TEST

/* ---- Hockney ---- */

START_TEST(hockney_exact)
{
	double x[64], t[64];
	int m = grid(x);
	vlcal_hockney h;

	/* t0 = 25 us, r_inf = 0.117 B/ns (117 MB/s) */
	for (int i = 0; i < m; i++)
		t[i] = 25000 + x[i] / 0.117;
	ck_assert_int_eq(vlcal_hockney_fit(x, t, m, &h), 0);
	ck_rel(h.t0, 25000, EXACT);
	ck_rel(h.r_inf, 0.117, EXACT);
	ck_rel(h.n_half, 25000 * 0.117, EXACT);
	ck_assert(h.rms_rel < 1e-12);
}
END_TEST

/* 2 % noise: t0 and r_inf within 2 %, 20 seeds */
START_TEST(hockney_noise)
{
	double x[64], t[64];
	int m = grid(x);

	for (int seed = 1; seed <= 20; seed++) {
		vlcal_hockney h;

		rng_state = 0xabcdef12345ULL * (uint64_t)seed;
		for (int i = 0; i < m; i++)
			t[i] = (25000 + x[i] / 0.117) * (1 + 0.02 * nrand());
		ck_assert_int_eq(vlcal_hockney_fit(x, t, m, &h), 0);
		ck_rel(h.t0, 25000, 0.02);
		ck_assert_msg(fabs(h.r_inf - 0.117) <= 0.02 * 0.117, "seed %d r_inf %g", seed,
		              h.r_inf);
	}
}
END_TEST

START_TEST(hockney_errors)
{
	const double n[] = {0, 100, 200}, flat[] = {5, 5, 5}, same[] = {64, 64, 64};
	const double falling[] = {9, 8, 7};
	vlcal_hockney h;

	ck_assert_int_eq(vlcal_hockney_fit(n, flat, 1, &h), VLCAL_FIT_FEW);
	ck_assert_int_eq(vlcal_hockney_fit(same, flat, 3, &h), VLCAL_FIT_SINGULAR);
	ck_assert_int_eq(vlcal_hockney_fit(n, flat, 3, &h), VLCAL_FIT_DEGENERATE);
	ck_assert_int_eq(vlcal_hockney_fit(n, falling, 3, &h), VLCAL_FIT_DEGENERATE);
}
END_TEST

/* ---- LogGP ---- */

START_TEST(loggp_exact)
{
	double x[64], gap[64];
	int m = grid(x);
	vlcal_loggp p;

	/* o_s 1.5 us, o_r 1.2 us, L 4 us; gap g = 2 us up to 1 KiB, then G =
	 * 0.25 ns/B */
	for (int i = 0; i < m; i++)
		gap[i] = x[i] <= 1024 ? 2000 : 2000 + 0.25 * (x[i] - 1024);
	ck_assert_int_eq(
	    vlcal_loggp_fit(1500, 1200, 1500 + 1200 + 4000, x, gap, NULL, m, VLCAL_PENALTY_DEFAULT, &p),
	    0);
	ck_rel(p.o_s, 1500, EXACT);
	ck_rel(p.o_r, 1200, EXACT);
	ck_rel(p.L, 4000, EXACT);
	ck_rel(p.g, 2000, EXACT);
	ck_rel(p.G, 0.25, EXACT);
}
END_TEST

START_TEST(loggp_noise)
{
	double x[64], gap[64];
	int m = grid(x);

	for (int seed = 1; seed <= 20; seed++) {
		vlcal_loggp p;

		rng_state = 0x1234567ULL * (uint64_t)seed;
		for (int i = 0; i < m; i++)
			gap[i] = (x[i] <= 1024 ? 2000 : 2000 + 0.25 * (x[i] - 1024)) *
			         (1 + 0.02 * nrand());
		ck_assert_int_eq(
		    vlcal_loggp_fit(1500, 1200, 6700, x, gap, NULL, m, VLCAL_PENALTY_DEFAULT, &p), 0);
		ck_rel(p.g, 2000, 0.03);
		ck_assert_msg(fabs(p.G - 0.25) <= 0.03 * 0.25, "seed %d G %g", seed, p.G);
	}
}
END_TEST

START_TEST(loggp_errors)
{
	const double n[] = {0, 8}, g[] = {100, 101};
	vlcal_loggp p;

	ck_assert_int_eq(vlcal_loggp_fit(1, 1, 5, n, g, NULL, 1, 0.01, &p), VLCAL_FIT_FEW);
	ck_assert_int_eq(vlcal_loggp_fit(NAN, 1, 5, n, g, NULL, 2, 0.01, &p), VLCAL_FIT_BADARG);
}
END_TEST

/* ---- MSGSETUP / ALCBW (004 eq. 16-17) ---- */

START_TEST(msgsetup_exact)
{
	/* the paper's LAM/MPI values: MSGSETUP 0.47 ms, ALCBW 2.1 MB/s, in ns and
	 * bytes per ns */
	const double ms = 470000, bw = 2.1e6 / 1e9;
	double x[64], t[64], m1, a1, nsu, nlu;
	int m = grid(x);

	for (int i = 0; i < m; i++)
		t[i] = ms + x[i] / bw;
	ck_assert_int_eq(vlcal_msgsetup(200, ms + 200 / bw, 640000, ms + 640000 / bw, &m1, &a1), 0);
	ck_rel(m1, ms, EXACT);
	ck_rel(a1, bw, EXACT);
	ck_assert_int_eq(vlcal_msgsetup_series(x, t, m, &m1, &a1, &nsu, &nlu), 0);
	ck_rel(m1, ms, EXACT);
	ck_rel(a1, bw, EXACT);
	ck_assert(nsu == 96); /* nearest to 100 B on a log scale among 64, 96, 128 */
	ck_assert(nlu == 4194304);
	/* A2ABW(N) = N / (MSGSETUP + N / ALCBW) at 20000 B: the paper's 2.01 MB/s */
	ck_rel(20000 / (m1 + 20000 / a1) * 1e3, 2.00124, 1e-5);
}
END_TEST

START_TEST(msgsetup_errors)
{
	const double n[] = {0, 100}, t[] = {5, 10}, tf[] = {10, 10};
	double m1, a1;

	ck_assert_int_eq(vlcal_msgsetup(100, 5, 100, 9, &m1, &a1), VLCAL_FIT_FEW);
	ck_assert_int_eq(vlcal_msgsetup(100, 9, 1000, 9, &m1, &a1), VLCAL_FIT_DEGENERATE);
	ck_assert_int_eq(vlcal_msgsetup(-1, 9, 1000, 19, &m1, &a1), VLCAL_FIT_BADARG);
	/* only 0 besides the largest: no small size > 0 */
	ck_assert_int_eq(vlcal_msgsetup_series(n, t, 2, &m1, &a1, NULL, NULL), VLCAL_FIT_FEW);
	ck_assert_int_eq(vlcal_msgsetup_series(n, t, 1, &m1, &a1, NULL, NULL), VLCAL_FIT_FEW);
	ck_assert_int_eq(vlcal_msgsetup_series(n, tf, 2, &m1, &a1, NULL, NULL), VLCAL_FIT_FEW);
}
END_TEST

/* ---- BSP ---- */

START_TEST(bsp_exact)
{
	/* five patterns, p = 2, 4, 6, 8 (E, PP) or 4, 6, 8 (OA, AO, AA), each its
	 * own g and L slightly depending on p */
	const double hs[] = {1024, 4096, 16384, 65536, 262144};
	int pat[200], m = 0;
	double h[200], t[200], gsum = 0, lsum = 0;
	vlcal_bsp b;

	for (int r = 0; r < 5; r++) {
		int p0 = r < 2 ? 2 : 4;
		double gp = 0, lp = 0, hh[5], tt[5];
		int np = 0;

		for (int p = p0; p <= 8; p += 2, np++) {
			double g = 0.1 * (r + 1) + 0.01 * p, L = 10000 * (r + 1) + 500 * p;

			gp += g;
			lp += L;
			for (int i = 0; i < 5; i++) {
				pat[m] = r;
				h[m] = hs[i];
				t[m++] = L + g * hs[i];
				/* one (pattern, p) fitted alone */
				hh[i] = hs[i];
				tt[i] = L + g * hs[i];
			}
			ck_assert_int_eq(vlcal_bsp_fit(hh, tt, 5, &b), 0);
			ck_rel(b.g, g, EXACT);
			ck_rel(b.L, L, EXACT);
			ck_assert_int_eq(b.npts, 5);
		}
		gsum += gp / np;
		lsum += lp / np;
	}
	/* eq. 11: the average over p and patterns of linear functions */
	ck_assert_int_eq(vlcal_bsp_overall(pat, h, t, m, &b), 0);
	ck_rel(b.g, gsum / 5, EXACT);
	ck_rel(b.L, lsum / 5, EXACT);
	ck_assert_int_eq(b.npts, 5);
	ck_assert(b.rms < 1e-6);
}
END_TEST

/* 2 % noise, unweighted as in the paper: g within 4 %, L (small against the
 * times at large h) within 25 %, 20 seeds */
START_TEST(bsp_noise)
{
	double h[40], t[40];

	for (int seed = 1; seed <= 20; seed++) {
		vlcal_bsp b;

		rng_state = 0x77ULL * (uint64_t)seed;
		for (int i = 0; i < 40; i++) {
			h[i] = 4096.0 * (i + 1);
			t[i] = (50000 + 0.8 * h[i]) * (1 + 0.02 * nrand());
		}
		ck_assert_int_eq(vlcal_bsp_fit(h, t, 40, &b), 0);
		ck_assert_msg(fabs(b.g - 0.8) < 0.04 * 0.8, "seed %d g %g", seed, b.g);
		ck_assert_msg(fabs(b.L - 50000) < 0.25 * 50000, "seed %d L %g", seed, b.L);
	}
}
END_TEST

START_TEST(bsp_errors)
{
	const int pat[] = {0, 1, 0};
	const double h[] = {64, 64, 64}, t[] = {5, 6, 7};
	vlcal_bsp b;

	ck_assert_int_eq(vlcal_bsp_fit(h, t, 1, &b), VLCAL_FIT_FEW);
	ck_assert_int_eq(vlcal_bsp_fit(h, t, 3, &b), VLCAL_FIT_SINGULAR);
	ck_assert_int_eq(vlcal_bsp_overall(pat, h, t, 3, &b), VLCAL_FIT_FEW);
}
END_TEST

/* ---- contention ---- */

START_TEST(contention_exact)
{
	double x[64], s[64], c[64], f;
	int m = grid(x);

	for (int i = 0; i < m; i++) {
		s[i] = 1000 + 0.3 * x[i];
		c[i] = 4 * s[i] * 1.7; /* k = 4, factor 1.7 */
	}
	ck_assert_int_eq(vlcal_contention_fit(4, s, c, m, &f), 0);
	ck_rel(f, 1.7, EXACT);
}
END_TEST

START_TEST(contention_noise)
{
	double x[64], s[64], c[64], f;
	int m = grid(x);

	for (int seed = 1; seed <= 20; seed++) {
		rng_state = 0x5151ULL * (uint64_t)seed;
		for (int i = 0; i < m; i++) {
			s[i] = 1000 + 0.3 * x[i];
			c[i] = 3 * s[i] * 1.25 * (1 + 0.02 * nrand());
		}
		ck_assert_int_eq(vlcal_contention_fit(3, s, c, m, &f), 0);
		ck_assert_msg(fabs(f - 1.25) < 0.01 * 1.25, "seed %d f %g", seed, f);
	}
}
END_TEST

START_TEST(contention_errors)
{
	const double s[] = {10, 20}, z[] = {0, 0}, c[] = {30, 50}, c0[] = {30, 0};
	double f;

	ck_assert_int_eq(vlcal_contention_fit(2, s, c, 0, &f), VLCAL_FIT_FEW);
	ck_assert_int_eq(vlcal_contention_fit(0, s, c, 2, &f), VLCAL_FIT_BADARG);
	ck_assert_int_eq(vlcal_contention_fit(2, s, c0, 2, &f), VLCAL_FIT_BADARG);
	ck_assert_int_eq(vlcal_contention_fit(2, z, c, 2, &f), VLCAL_FIT_SINGULAR);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("fit");
	TCase *t = tcase_create("core");

	tcase_set_timeout(t, 30);
	tcase_add_test(t, seg_line_exact);
	tcase_add_test(t, seg_one_break);
	tcase_add_test(t, seg_two_breaks_off_grid);
	tcase_add_test(t, seg_three_breaks);
	tcase_add_test(t, seg_jump);
	tcase_add_test(t, seg_noise);
	tcase_add_test(t, seg_noise_no_false_breaks);
	tcase_add_test(t, penalty_auto);
	tcase_add_test(t, seg_noise_auto);
	tcase_add_test(t, seg_max_points);
	tcase_add_test(t, seg_weights);
	tcase_add_test(t, seg_errors);
	tcase_add_test(t, pwl_eval_outside);
	tcase_add_test(t, hockney_exact);
	tcase_add_test(t, hockney_noise);
	tcase_add_test(t, hockney_errors);
	tcase_add_test(t, loggp_exact);
	tcase_add_test(t, loggp_noise);
	tcase_add_test(t, loggp_errors);
	tcase_add_test(t, msgsetup_exact);
	tcase_add_test(t, msgsetup_errors);
	tcase_add_test(t, bsp_exact);
	tcase_add_test(t, bsp_noise);
	tcase_add_test(t, bsp_errors);
	tcase_add_test(t, contention_exact);
	tcase_add_test(t, contention_noise);
	tcase_add_test(t, contention_errors);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
