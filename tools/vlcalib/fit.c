/* fit.c - see fit.h */
#include "fit.h"
#include "util/lsq.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *vlcal_fit_strerror(int code)
{
	switch (code) {
	case VLCAL_FIT_OK:
		return "ok";
	case VLCAL_FIT_FEW:
		return "too few sizes for a fit";
	case VLCAL_FIT_SINGULAR:
		return "singular fit";
	case VLCAL_FIT_BADARG:
		return "invalid input (sizes not increasing or a value not finite)";
	case VLCAL_FIT_DEGENERATE:
		return "degenerate fit";
	}
	return "unknown error";
}

/* The floor below which |y| does not raise a relative weight further. */
static double rel_floor(const double *y, int m)
{
	double mx = 0;

	for (int i = 0; i < m; i++)
		if (fabs(y[i]) > mx)
			mx = fabs(y[i]);
	return mx > 0 ? 1e-6 * mx : 1;
}

/* Relative-error weights 1 / max(|y|, floor)^2 into W (M values). */
static void rel_weights(const double *y, int m, double *w)
{
	double fl = rel_floor(y, m);

	for (int i = 0; i < m; i++) {
		double d = fabs(y[i]) > fl ? fabs(y[i]) : fl;
		w[i] = 1 / (d * d);
	}
}

static int finite_increasing(const double *x, const double *y, int m)
{
	for (int i = 0; i < m; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]))
			return 0;
		if (i && !(x[i] > x[i - 1]))
			return 0;
	}
	return 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* ---- segmented least squares ---- */

/* Weighted running moments of one segment (West's update, numerically stable). */
typedef struct moments {
	double w, mx, my, sxx, sxy, syy;
} moments;

static void mom_add(moments *s, double x, double y, double w)
{
	double wn = s->w + w, dx, dy;

	if (w <= 0)
		return;
	dx = x - s->mx;
	dy = y - s->my;
	s->mx += dx * w / wn;
	s->my += dy * w / wn;
	s->sxx += w * dx * (x - s->mx);
	s->sxy += w * dx * (y - s->my);
	s->syy += w * dy * (y - s->my);
	s->w = wn;
}

static double mom_sse(const moments *s)
{
	double e;

	if (!(s->sxx > 0))
		return INFINITY;
	e = s->syy - s->sxy * s->sxy / s->sxx;
	return e > 0 ? e : 0;
}

/* The weighted least-squares line through points I..J: y = c0 + c1 x. */
static int seg_line(const double *x, const double *y, const double *w, int i, int j, double *c0,
                    double *c1)
{
	moments s = {0, 0, 0, 0, 0, 0};

	for (int k = i; k <= j; k++)
		mom_add(&s, x[k], y[k], w[k]);
	if (!(s.sxx > 0))
		return -1;
	*c1 = s.sxy / s.sxx;
	*c0 = s.my - *c1 * s.mx;
	return 0;
}

/* The dynamic programme's tables: COST[i*m+j] the SSE of one segment i..j,
 * BEST[k*m+j] the least cost of points 0..j in k segments, FROM[k*m+j] where
 * the last of those segments starts. */
typedef struct dp {
	int m, kmax;
	double *cost, *best;
	int *from;
} dp;

static int dp_init(dp *d, const double *x, const double *y, const double *w, int m, int kmax)
{
	d->m = m;
	d->kmax = kmax;
	d->cost = malloc(sizeof(double) * (size_t)m * (size_t)m);
	d->best = malloc(sizeof(double) * (size_t)(kmax + 1) * (size_t)m);
	d->from = malloc(sizeof(int) * (size_t)(kmax + 1) * (size_t)m);
	if (!d->cost || !d->best || !d->from)
		return -1;
	for (int i = 0; i < m; i++) {
		moments s = {0, 0, 0, 0, 0, 0};

		for (int j = i; j < m; j++) {
			mom_add(&s, x[j], y[j], w[j]);
			d->cost[i * m + j] = j > i ? mom_sse(&s) : INFINITY;
		}
	}
	for (int k = 0; k <= kmax; k++)
		for (int j = 0; j < m; j++) {
			d->best[k * m + j] = INFINITY;
			d->from[k * m + j] = -1;
		}
	for (int j = 1; j < m; j++) {
		d->best[1 * m + j] = d->cost[j];
		d->from[1 * m + j] = 0;
	}
	for (int k = 2; k <= kmax; k++)
		for (int j = 2 * k - 1; j < m; j++)
			for (int i = 2 * k - 2; i < j; i++) {
				double c = d->best[(k - 1) * m + i - 1] + d->cost[i * m + j];

				if (c < d->best[k * m + j]) {
					d->best[k * m + j] = c;
					d->from[k * m + j] = i;
				}
			}
	return 0;
}

static void dp_free(dp *d)
{
	free(d->cost);
	free(d->best);
	free(d->from);
}

/* The number of segments (<= KLIM) minimising cost + PENALTY * k, or 0. */
static int dp_choose(const dp *d, double penalty, int klim)
{
	int kbest = 0;
	double vbest = INFINITY;

	for (int k = 1; k <= klim && k <= d->kmax; k++) {
		double v = d->best[k * d->m + d->m - 1] + penalty * k;

		if (v < vbest) {
			vbest = v;
			kbest = k;
		}
	}
	return kbest;
}

/* The K segments of the chosen solution: index ranges and lines. */
typedef struct segs {
	int k, start[VLCAL_PWL_MAX], end[VLCAL_PWL_MAX];
	double c0[VLCAL_PWL_MAX], c1[VLCAL_PWL_MAX];
} segs;

static int dp_segs(const dp *d, const double *x, const double *y, const double *w, int k, segs *s)
{
	s->k = k;
	for (int i = k, j = d->m - 1; i >= 1; i--) {
		s->start[i - 1] = d->from[i * d->m + j];
		s->end[i - 1] = j;
		j = s->start[i - 1] - 1;
	}
	for (int i = 0; i < k; i++)
		if (seg_line(x, y, w, s->start[i], s->end[i], &s->c0[i], &s->c1[i]))
			return -1;
	return 0;
}

/* The knots joining segments S into a continuous function, into KX (the
 * lines' values into KY: the fallback when the refit is singular).  Boundary
 * b (between segments b and b+1) is one knot where the two lines cross,
 * clamped into [last size of b, first size of b+1] and rounded to a whole
 * byte; or, if JUMP[b], two knots, at those two sizes.  Returns the number of
 * knots, or MAXK + 1 if there would be more than MAXK. */
static int seg_knots(const segs *s, const double *x, int m, const int *jump, double *kx, double *ky,
                     int maxk)
{
	int n = 0;

#define KNOT(px, py)                                                                               \
	do {                                                                                       \
		if (n >= maxk)                                                                     \
			return maxk + 1;                                                           \
		kx[n] = (px);                                                                      \
		ky[n++] = (py);                                                                    \
	} while (0)
	KNOT(x[0], s->c0[0] + s->c1[0] * x[0]);
	for (int b = 0; b + 1 < s->k; b++) {
		double xa = x[s->end[b]], xb = x[s->start[b + 1]];
		double ds = s->c1[b] - s->c1[b + 1], t = NAN;

		if (jump[b]) {
			KNOT(xa, s->c0[b] + s->c1[b] * xa);
			KNOT(xb, s->c0[b + 1] + s->c1[b + 1] * xb);
			continue;
		}
		if (ds != 0)
			t = (s->c0[b + 1] - s->c0[b]) / ds;
		if (!isfinite(t))
			t = (xa + xb) / 2;
		t = round(t);
		t = t < xa ? xa : t > xb ? xb : t;
		KNOT(t, s->c0[b] + s->c1[b] * t);
	}
	KNOT(x[m - 1], s->c0[s->k - 1] + s->c1[s->k - 1] * x[m - 1]);
#undef KNOT
	return n;
}

/* Whether the lines of boundary B cross between its two sizes (half a byte
 * of slack, for rounding). */
static int seg_cross(const segs *s, const double *x, int b)
{
	double xa = x[s->end[b]], xb = x[s->start[b + 1]];
	double ds = s->c1[b] - s->c1[b + 1], t;

	if (ds == 0)
		return 0;
	t = (s->c0[b + 1] - s->c0[b]) / ds;
	return isfinite(t) && t >= xa - 0.5 && t <= xb + 0.5;
}

/* Hat-function values of the knots KX (N of them) at X: the interval index
 * into *K, the weight of knot k into *A (knot k+1 gets 1 - *A); left of the
 * first knot all weight is on it, right of the last the last segment extends. */
static void hat(const double *kx, int n, double x, int *k, double *a)
{
	int i = 0;

	if (n == 1 || x <= kx[0]) {
		*k = 0;
		*a = 1;
		return;
	}
	while (i < n - 2 && x > kx[i + 1])
		i++;
	*k = i;
	*a = (kx[i + 1] - x) / (kx[i + 1] - kx[i]);
}

/* Continuous weighted least squares of the values at the fixed knots KX (N):
 * row-by-row Givens rotations into an N x N triangle.  Returns 0 with KY
 * filled, or -1 if singular. */
static int refit(const double *x, const double *y, const double *w, int m, const double *kx, int n,
                 double *ky)
{
	double r[VLCAL_PWL_MAX][VLCAL_PWL_MAX + 1], row[VLCAL_PWL_MAX + 1], scale = 0;

	memset(r, 0, sizeof r);
	for (int i = 0; i < m; i++) {
		double sw = sqrt(w[i] > 0 ? w[i] : 0), a;
		int k;

		if (sw == 0)
			continue;
		memset(row, 0, sizeof row);
		hat(kx, n, x[i], &k, &a);
		row[k] = sw * a;
		if (n > 1)
			row[k + 1] = sw * (1 - a);
		row[n] = sw * y[i];
		for (int c = k; c < n; c++) {
			double h, cs, sn;

			if (row[c] == 0)
				continue;
			if (fabs(row[c]) > scale)
				scale = fabs(row[c]);
			h = hypot(r[c][c], row[c]);
			cs = r[c][c] / h;
			sn = row[c] / h;
			for (int j = c; j <= n; j++) {
				double t = cs * r[c][j] + sn * row[j];

				row[j] = -sn * r[c][j] + cs * row[j];
				r[c][j] = t;
			}
		}
	}
	for (int c = n - 1; c >= 0; c--) {
		double s = r[c][n];

		if (!(fabs(r[c][c]) > 1e-12 * scale))
			return -1;
		for (int j = c + 1; j < n; j++)
			s -= r[c][j] * ky[j];
		ky[c] = s / r[c][c];
	}
	return 0;
}

static void pwl_quality(vlcal_pwl *f, const double *x, const double *y, const double *w, int m)
{
	double fl = rel_floor(y, m), s2 = 0;

	f->sse = 0;
	f->max_rel = 0;
	for (int i = 0; i < m; i++) {
		double r = vlcal_pwl_eval(f, x[i]) - y[i];
		double rel = r / (fabs(y[i]) > fl ? fabs(y[i]) : fl);

		f->sse += w[i] * r * r;
		s2 += rel * rel;
		if (fabs(rel) > f->max_rel)
			f->max_rel = fabs(rel);
	}
	f->rms_rel = sqrt(s2 / m);
}

/* F = the continuous fit with knots KX (N; KY the fallback values); returns
 * its weighted SSE. */
static double candidate(const double *x, const double *y, const double *w, int m, const double *kx,
                        const double *ky, int n, vlcal_pwl *f)
{
	f->n = n;
	memcpy(f->x, kx, sizeof(double) * (size_t)n);
	if (refit(x, y, w, m, kx, n, f->y))
		memcpy(f->y, ky, sizeof(double) * (size_t)n);
	pwl_quality(f, x, y, w, m);
	return f->sse;
}

/* Joins the segments S into OUT: one knot per boundary, except where the
 * lines do not cross between the neighbouring sizes and two knots (a jump)
 * lower the SSE by more than PENALTY. */
static void join(const segs *s, const double *x, const double *y, const double *w, int m,
                 double penalty, int max_points, vlcal_pwl *out)
{
	int jump[VLCAL_PWL_MAX] = {0}, n;
	double kx[VLCAL_PWL_MAX], ky[VLCAL_PWL_MAX], sse;
	vlcal_pwl f;

	n = seg_knots(s, x, m, jump, kx, ky, max_points);
	sse = candidate(x, y, w, m, kx, ky, n, out);
	for (int b = 0; b + 1 < s->k; b++) {
		if (seg_cross(s, x, b))
			continue;
		jump[b] = 1;
		n = seg_knots(s, x, m, jump, kx, ky, max_points);
		if (n <= max_points && candidate(x, y, w, m, kx, ky, n, &f) + penalty < sse) {
			*out = f;
			sse = f.sse;
		} else {
			jump[b] = 0;
		}
	}
}

int vlcal_segfit(const double *x, const double *y, const double *w, int m, double penalty,
               int max_points, vlcal_pwl *out)
{
	double *wr = NULL;
	int kmax, k, rc = VLCAL_FIT_OK;
	dp d = {0, 0, NULL, NULL, NULL};
	segs s;

	if (m < 2)
		return VLCAL_FIT_FEW;
	if (m > VLCAL_SEG_MAXM || !finite_increasing(x, y, m) || !(penalty >= 0) || max_points < 2)
		return VLCAL_FIT_BADARG;
	if (max_points > VLCAL_PWL_MAX)
		max_points = VLCAL_PWL_MAX;
	wr = malloc(sizeof(double) * (size_t)m);
	if (!wr)
		return VLCAL_FIT_SINGULAR;
	if (w) {
		for (int i = 0; i < m; i++)
			if (!(w[i] >= 0) || !isfinite(w[i])) {
				free(wr);
				return VLCAL_FIT_BADARG;
			}
		memcpy(wr, w, sizeof(double) * (size_t)m);
	} else {
		rel_weights(y, m, wr);
	}
	/* k segments join into k + 1 knots at least */
	kmax = m / 2 < max_points - 1 ? m / 2 : max_points - 1;
	if (dp_init(&d, x, y, wr, m, kmax)) {
		rc = VLCAL_FIT_SINGULAR;
		goto out;
	}
	k = dp_choose(&d, penalty, kmax);
	if (k == 0 || dp_segs(&d, x, y, wr, k, &s)) {
		rc = VLCAL_FIT_SINGULAR;
		goto out;
	}
	join(&s, x, y, wr, m, penalty, max_points, out);
	out->segments = k;
out:
	dp_free(&d);
	free(wr);
	return rc;
}

double vlcal_penalty_auto(const double *x, const double *y, const double *w, int m, double *sigma)
{
	double *r = m > 2 ? malloc(sizeof(double) * (size_t)m) : NULL, s = 0, p;

	if (r) {
		double fl = rel_floor(y, m);
		int n = 0;

		for (int i = 1; i + 1 < m; i++) {
			double a = (x[i + 1] - x[i]) / (x[i + 1] - x[i - 1]), b = 1 - a;
			double lin = a * y[i - 1] + b * y[i + 1];
			double sw =
			    w ? sqrt(w[i] > 0 ? w[i] : 0) : 1 / (fabs(y[i]) > fl ? fabs(y[i]) : fl);

			r[n++] = fabs(y[i] - lin) * sw / sqrt(1 + a * a + b * b);
		}
		qsort(r, (size_t)n, sizeof(double), cmp_double);
		s = 1.4826 * (n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2);
		free(r);
	}
	if (!isfinite(s))
		s = 0;
	if (sigma)
		*sigma = s;
	p = 6 * log(m > 1 ? m : 1) * s * s;
	return p > VLCAL_PENALTY_DEFAULT ? p : VLCAL_PENALTY_DEFAULT;
}

double vlcal_pwl_eval(const vlcal_pwl *f, double x)
{
	int k;
	double a;

	if (f->n <= 0)
		return 0;
	hat(f->x, f->n, x, &k, &a);
	if (f->n == 1)
		return f->y[0];
	return a * f->y[k] + (1 - a) * f->y[k + 1];
}

/* ---- Hockney ---- */

int vlcal_hockney_fit(const double *n, const double *t, int m, vlcal_hockney *h)
{
	double *w, c0, c1, s2 = 0, fl, nmax = 0;

	if (m < 2)
		return VLCAL_FIT_FEW;
	for (int i = 0; i < m; i++) {
		if (!isfinite(n[i]) || !isfinite(t[i]))
			return VLCAL_FIT_BADARG;
		nmax = fabs(n[i]) > nmax ? fabs(n[i]) : nmax;
	}
	w = malloc(sizeof(double) * (size_t)m);
	if (!w)
		return VLCAL_FIT_SINGULAR;
	rel_weights(t, m, w);
	if (vlu_line(n, t, w, m, &c0, &c1, NULL)) {
		free(w);
		return VLCAL_FIT_SINGULAR;
	}
	free(w);
	/* the size-dependent part must matter: at the largest size more than
	 * 1e-9 of the time */
	if (!(c1 * nmax > 1e-9 * fabs(c0 + c1 * nmax)))
		return VLCAL_FIT_DEGENERATE;
	h->t0 = c0;
	h->r_inf = 1 / c1;
	h->n_half = c0 / c1;
	fl = rel_floor(t, m);
	for (int i = 0; i < m; i++) {
		double r = (c0 + c1 * n[i] - t[i]) / (fabs(t[i]) > fl ? fabs(t[i]) : fl);
		s2 += r * r;
	}
	h->rms_rel = sqrt(s2 / m);
	return VLCAL_FIT_OK;
}

/* ---- LogGP ---- */

int vlcal_loggp_fit(double send_small, double recv_small, double oneway_small, const double *gn,
                  const double *gt, const double *gw, int gm, double penalty, vlcal_loggp *out)
{
	vlcal_pwl f;
	int rc;

	if (!isfinite(send_small) || !isfinite(recv_small) || !isfinite(oneway_small))
		return VLCAL_FIT_BADARG;
	rc = vlcal_segfit(gn, gt, gw, gm, penalty, VLCAL_PWL_MAX, &f);
	if (rc)
		return rc;
	out->o_s = send_small;
	out->o_r = recv_small;
	out->L = oneway_small - send_small - recv_small;
	out->g = vlcal_pwl_eval(&f, gn[0]);
	out->G = (f.y[f.n - 1] - f.y[f.n - 2]) / (f.x[f.n - 1] - f.x[f.n - 2]);
	return VLCAL_FIT_OK;
}

/* ---- MSGSETUP / ALCBW ---- */

int vlcal_msgsetup(double ns, double ts, double nl, double tl, double *msgsetup, double *alcbw)
{
	if (!isfinite(ns) || !isfinite(ts) || !isfinite(nl) || !isfinite(tl) || ns < 0)
		return VLCAL_FIT_BADARG;
	if (!(nl > ns))
		return VLCAL_FIT_FEW;
	if (!(tl > ts))
		return VLCAL_FIT_DEGENERATE;
	*alcbw = (nl - ns) / (tl - ts);
	*msgsetup = ts - ns / *alcbw;
	return VLCAL_FIT_OK;
}

int vlcal_msgsetup_series(const double *n, const double *t, int m, double *msgsetup, double *alcbw,
                        double *ns_used, double *nl_used)
{
	int is = -1;

	if (m < 2)
		return VLCAL_FIT_FEW;
	if (!finite_increasing(n, t, m))
		return VLCAL_FIT_BADARG;
	for (int i = 0; i < m - 1; i++)
		if (n[i] > 0 && (is < 0 || fabs(log(n[i] / 100)) < fabs(log(n[is] / 100))))
			is = i;
	if (is < 0)
		return VLCAL_FIT_FEW;
	if (ns_used)
		*ns_used = n[is];
	if (nl_used)
		*nl_used = n[m - 1];
	return vlcal_msgsetup(n[is], t[is], n[m - 1], t[m - 1], msgsetup, alcbw);
}

/* ---- BSP ---- */

int vlcal_bsp_fit(const double *h, const double *t, int m, vlcal_bsp *out)
{
	double c0, c1, sse;

	if (m < 2)
		return VLCAL_FIT_FEW;
	for (int i = 0; i < m; i++)
		if (!isfinite(h[i]) || !isfinite(t[i]))
			return VLCAL_FIT_BADARG;
	if (vlu_line(h, t, NULL, m, &c0, &c1, &sse))
		return VLCAL_FIT_SINGULAR;
	out->g = c1;
	out->L = c0;
	out->rms = sqrt(sse / m);
	out->npts = m;
	return VLCAL_FIT_OK;
}

/* The average over patterns of the mean time of each pattern at H. */
static double bsp_avg_at(const int *pattern, const double *h, const double *t, int m, double hv)
{
	double sum = 0;
	int npat = 0;

	for (int i = 0; i < m; i++) {
		double s = 0;
		int c = 0, seen = 0;

		if (h[i] != hv)
			continue;
		for (int j = 0; j < i; j++)
			if (h[j] == hv && pattern[j] == pattern[i])
				seen = 1;
		if (seen)
			continue;
		for (int j = i; j < m; j++)
			if (h[j] == hv && pattern[j] == pattern[i]) {
				s += t[j];
				c++;
			}
		sum += s / c;
		npat++;
	}
	return sum / npat;
}

int vlcal_bsp_overall(const int *pattern, const double *h, const double *t, int m, vlcal_bsp *out)
{
	double *hs, *avg;
	int nh = 0, rc;

	if (m < 2)
		return VLCAL_FIT_FEW;
	for (int i = 0; i < m; i++)
		if (!isfinite(h[i]) || !isfinite(t[i]))
			return VLCAL_FIT_BADARG;
	hs = malloc(sizeof(double) * (size_t)m);
	avg = malloc(sizeof(double) * (size_t)m);
	if (!hs || !avg) {
		free(hs);
		free(avg);
		return VLCAL_FIT_SINGULAR;
	}
	memcpy(hs, h, sizeof(double) * (size_t)m);
	qsort(hs, (size_t)m, sizeof(double), cmp_double);
	for (int i = 0; i < m; i++)
		if (!nh || hs[i] != hs[nh - 1])
			hs[nh++] = hs[i];
	for (int i = 0; i < nh; i++)
		avg[i] = bsp_avg_at(pattern, h, t, m, hs[i]);
	rc = nh < 2 ? VLCAL_FIT_FEW : vlcal_bsp_fit(hs, avg, nh, out);
	free(hs);
	free(avg);
	return rc;
}

/* ---- contention ---- */

int vlcal_contention_fit(int k, const double *s, const double *c, int m, double *f)
{
	double s1 = 0, s2 = 0;

	if (m < 1)
		return VLCAL_FIT_FEW;
	if (k < 1)
		return VLCAL_FIT_BADARG;
	for (int i = 0; i < m; i++) {
		double r;

		if (!isfinite(s[i]) || !isfinite(c[i]) || !(c[i] > 0) || s[i] < 0)
			return VLCAL_FIT_BADARG;
		r = k * s[i] / c[i];
		s1 += r;
		s2 += r * r;
	}
	if (!(s2 > 0))
		return VLCAL_FIT_SINGULAR;
	*f = s1 / s2;
	return VLCAL_FIT_OK;
}
