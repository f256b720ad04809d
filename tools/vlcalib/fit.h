/* fit.h - the fits behind `vlcalib fit`: piecewise-linear models with
 * automatically found breakpoints (for VMConfig send_model/trans_model),
 * Hockney, LogGP, MSGSETUP/ALCBW (004, eqs. 13-17), BSP g and L (003,
 * section 3) and contention factors.  Plain functions on arrays, no I/O.
 *
 * Units are the caller's: sizes in bytes, times in any one unit (vlcalib uses
 * ns); a rate comes out in bytes per that unit, a per-byte cost in that unit
 * per byte.
 *
 * Every function returns VLCAL_FIT_OK (0) or one of the negative codes below;
 * vlcal_fit_strerror() names them.  On an error the outputs are unspecified.
 */
#ifndef VLCAL_FIT_H
#define VLCAL_FIT_H

#define VLCAL_PWL_MAX  32   /* points of a VMConfig model (vlayer's VLCFG_MAX_BP) */
#define VLCAL_SEG_MAXM 2000 /* sizes vlcal_segfit takes (its tables are M x M) */

enum {
	VLCAL_FIT_OK = 0,
	VLCAL_FIT_FEW = -1,        /* too few points (sizes) for the fit */
	VLCAL_FIT_SINGULAR = -2,   /* the least-squares problem is singular */
	VLCAL_FIT_BADARG = -3,     /* sizes not increasing, a value not finite, ... */
	VLCAL_FIT_DEGENERATE = -4, /* fits, but the result is meaningless (e.g. a
	                            transfer time that falls with the size) */
};

/* A short English description of CODE ("too few sizes", ...). */
const char *vlcal_fit_strerror(int code);

/* ---- segmented least squares ---- */

/* The least PENALTY of vlcal_segfit with relative weights: a segment must
 * remove 0.01 of squared relative error, e.g. one size off by 10 % or four off
 * by 5 %.  Noisier data needs more: see vlcal_penalty_auto. */
#define VLCAL_PENALTY_DEFAULT 0.01

/* A continuous piecewise-linear function through N points (X increasing),
 * evaluated as vlayer evaluates a VMConfig model: constant Y[0] left of X[0],
 * linear interpolation between points, the last segment extended right of
 * X[N-1] (N == 1: constant). */
typedef struct vlcal_pwl {
	int n;
	double x[VLCAL_PWL_MAX];
	double y[VLCAL_PWL_MAX];
	int segments;   /* segments the dynamic programme chose (n - 1 unless jumps) */
	double sse;     /* weighted sum of squared residuals of the final fit */
	double rms_rel; /* root mean square of the relative residuals (r_i / y_i) */
	double max_rel; /* largest |relative residual| */
} vlcal_pwl;

/* Fits a continuous piecewise-linear function to the M points (X[i], Y[i]),
 * X strictly increasing.
 *
 * Method: (1) dynamic programming over the sorted points (Bellman 1961;
 * Kleinberg-Tardos "segmented least squares") chooses a partition into
 * segments of at least 2 consecutive points, each fitted by its own weighted
 * least-squares line, minimising  sum of weighted squared residuals +
 * PENALTY * number of segments; (2) neighbouring lines are joined: one
 * breakpoint where they cross, clamped to [last size of the one, first size
 * of the next] and rounded to a whole byte; where they do not cross there,
 * two points (a jump: one at each of those sizes) if that lowers the SSE by
 * more than PENALTY; (3) with the breakpoints fixed, the values at all points
 * are fitted again by continuous weighted least squares (Givens QR).  The
 * first and last points are at X[0] and X[M-1].
 *
 * Weights W (M values >= 0), or NULL for relative-error weighting
 * w_i = 1 / max(|y_i|, 1e-6 * max|y|)^2 (so PENALTY is in units of squared
 * relative error).  At most MAX_POINTS (2..VLCAL_PWL_MAX) points come out.
 * Needs 2 <= M <= VLCAL_SEG_MAXM; time O(M^2 MAX_POINTS), memory O(M^2).
 * Noise-free data made of K segments of at least 3 points each, with whole-
 * byte breakpoints, comes back exactly (to rounding). */
int vlcal_segfit(const double *x, const double *y, const double *w, int m, double penalty,
               int max_points, vlcal_pwl *out);

/* The penalty vlcalib uses unless told otherwise, for data (X increasing, Y)
 * whose relative noise is unknown: max(VLCAL_PENALTY_DEFAULT, 6 ln(M) s^2),
 * where s (into *SIGMA, may be NULL) is a robust estimate of the relative noise
 * per point: 1.4826 x the median absolute deviation of each interior point
 * from the straight line through its two neighbours, times sqrt(W[i]) (W as
 * in vlcal_segfit; NULL: relative to the point), scaled to unit variance.  A
 * straight line (or a piecewise-linear function, whose few bends the median
 * ignores) gives s = 0.
 *
 * Why: the best split of a segment that needs none lowers the relative SSE by
 * about 2 ln(M) s^2 (the largest of M chi-square(2) variables), so the
 * penalty must be a few times that.  On the 45 ping-pong sizes with normal
 * relative noise of 1 to 5 % (1000 seeds each): a straight line got a false
 * breakpoint in at most 2 % of the trials, and a model with 3 breakpoints
 * (tests/unit/test_fit.c) was found with the right number of points in at
 * least 98 %.  A fixed 0.01 alone gives 7 % false breakpoints at 3 % noise and
 * 60 % at 4 %. */
double vlcal_penalty_auto(const double *x, const double *y, const double *w, int m, double *sigma);

/* The value of F at X (see vlcal_pwl). */
double vlcal_pwl_eval(const vlcal_pwl *f, double x);

/* ---- Hockney: t(n) = t0 + n / r_inf ---- */

typedef struct vlcal_hockney {
	double t0;      /* start-up time */
	double r_inf;   /* asymptotic bandwidth, bytes per time unit */
	double n_half;  /* t0 * r_inf: the size that reaches half of r_inf */
	double rms_rel; /* root mean square relative residual */
} vlcal_hockney;

/* Least squares with relative-error weighting (as vlcal_segfit) over M >= 2
 * sizes N (not all equal) and times T.  VLCAL_FIT_DEGENERATE if the slope is
 * <= 0 (no finite bandwidth).  t0 is reported as fitted, even if negative. */
int vlcal_hockney_fit(const double *n, const double *t, int m, vlcal_hockney *h);

/* ---- LogGP ---- */

typedef struct vlcal_loggp {
	double L;   /* latency: oneway(small) - o_s - o_r */
	double o_s; /* send overhead: send(small) */
	double o_r; /* receive overhead: recv(small) */
	double g;   /* gap between small messages: the gap fit at the smallest size */
	double G;   /* gap per byte: slope of the last segment of the gap fit */
} vlcal_loggp;

/* From the send, receive and one-way times of a small message and the gap
 * series (GN sizes increasing, GT time per message in a stream; GM >= 2): the
 * gap series is fitted with vlcal_segfit (weights GW, NULL: relative; PENALTY)
 * and g, G are taken from that fit. */
int vlcal_loggp_fit(double send_small, double recv_small, double oneway_small, const double *gn,
                  const double *gt, const double *gw, int gm, double penalty, vlcal_loggp *out);

/* ---- application-to-application bandwidth (004, eqs. 13-17) ----
 * A2ABW(N) = N / (MSGSETUP + N / ALCBW)                      (eq. 16)
 * Two measurements (a small size NS, a large size NL) determine both:
 * ALCBW = (NL - NS) / (t(NL) - t(NS)),  MSGSETUP = t(NS) - NS / ALCBW (eq. 17).
 * (The paper takes ALCBW = NL / t(NL), the limit NL -> infinity of the same.) */
int vlcal_msgsetup(double ns, double ts, double nl, double tl, double *msgsetup, double *alcbw);

/* The same from a series (N increasing, M >= 2): NS = the size > 0 nearest to
 * 100 bytes on a log scale (the paper's "perhaps 100 bytes"), NL the largest;
 * *NS_USED and *NL_USED (may be NULL) get them. */
int vlcal_msgsetup_series(const double *n, const double *t, int m, double *msgsetup, double *alcbw,
                        double *ns_used, double *nl_used);

/* ---- BSP: T(h) = g h + L (003, section 3) ---- */

typedef struct vlcal_bsp {
	double g, L;
	double rms; /* root mean square residual (time unit) */
	int npts;   /* points fitted */
} vlcal_bsp;

/* Unweighted least-squares line T = g h + L through M >= 2 points (not all h
 * equal), as the paper's "linear fit". */
int vlcal_bsp_fit(const double *h, const double *t, int m, vlcal_bsp *out);

/* The paper's overall fit (eq. 11): for each h, the time averaged over the
 * processor counts of each pattern, then over the patterns present at that h;
 * a line through those averages.  Row i: PATTERN[i] (any small integer >= 0),
 * H[i], T[i]; one row per (pattern, processor count, h). */
int vlcal_bsp_overall(const int *pattern, const double *h, const double *t, int m, vlcal_bsp *out);

/* ---- contention ---- */

/* vlayer times a send to K destinations at once as K sends of S(n) * f(K)
 * each (pvm_mcast).  Given the whole send phase C[i] measured at M sizes and
 * the model's send time S[i] there, the factor minimising the relative error
 * sum_i ((C_i - f K S_i) / C_i)^2:  f = sum r_i / sum r_i^2,  r_i = K S_i / C_i.
 * Needs C > 0, K >= 1, M >= 1 and some S > 0. */
int vlcal_contention_fit(int k, const double *s, const double *c, int m, double *f);

#endif
