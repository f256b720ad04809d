/* fit_share.c - see fit_share.h */
#include "fit_share.h"
#include "util/lsq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void vlcal_share_free(vlcal_share *s)
{
	free(s->e);
	memset(s, 0, sizeof *s);
}

/* The all-to-all among P hosts under fifo sharing: equal messages leaving
 * together, in the order (sender, receiver), each taking its whole route if
 * no earlier one holds a link of it, else waiting; the rounds until all are
 * through (duplex HALF: a host's link carries both directions). */
static int fifo_rounds(int p, int half)
{
	int left = p * (p - 1), rounds = 0;
	char *done = calloc((size_t)(p * p), 1), *busy = calloc((size_t)(2 * p), 1);

	if (!done || !busy)
		left = 0, rounds = p - 1;
	while (left > 0) {
		memset(busy, 0, (size_t)(2 * p));
		for (int a = 0; a < p; a++)
			for (int b = 0; b < p; b++) {
				char *up = &busy[a], *down = &busy[half ? b : p + b];

				if (a == b || done[a * p + b] || *up || *down)
					continue;
				*up = *down = 1;
				done[a * p + b] = 1;
				left--;
			}
		rounds++;
	}
	free(done);
	free(busy);
	return rounds;
}

/* The flows of experiment E on the busiest host link (both duplexes) and on
 * the backplane (the table in fit_share.h), under fifo sharing if FIFO. */
static void flows(vlcal_share_exp *e, int fifo)
{
	double k = e->procs - 1, p = e->procs;

	switch (e->x - VLCAL_X_SHARE) {
	case 0: /* exchange */
		e->c[0] = 1;
		e->c[1] = 2;
		e->g = 2;
		break;
	case 3: /* all-to-all */
		e->c[0] = fifo ? fifo_rounds(e->procs, 0) : p - 1;
		e->c[1] = fifo ? fifo_rounds(e->procs, 1) : 2 * (p - 1);
		e->g = p * (p - 1);
		break;
	case 4: /* the first of a fan-out */
		e->c[0] = e->c[1] = e->g = fifo ? 1 : k;
		break;
	default: /* fan-out, fan-in */
		e->c[0] = e->c[1] = e->g = k;
		break;
	}
}

int vlcal_share_load(vlcal_share *s, const vlcal_raw *raw, int link)
{
	int pvm = raw->library && !strcmp(raw->library, "pvm");

	memset(s, 0, sizeof *s);
	s->link = link;
	s->bad = -1;
	for (int i = 0; i < raw->n; i++) {
		const vlcal_raw_row *r = &raw->row[i];
		vlcal_share_exp *e = s->ne ? &s->e[s->ne - 1] : NULL;

		if (r->link != link || r->x < VLCAL_X_SHARE || r->x >= VLCAL_NX)
			continue;
		if (pvm && r->x == VLCAL_X_SHARE + 3) {
			s->a2a_left_out += !(i && raw->row[i - 1].x == r->x &&
			                     raw->row[i - 1].procs == r->procs &&
			                     raw->row[i - 1].link == r->link);
			continue;
		}
		if (e && e->x == r->x && e->procs == r->procs && e->row + e->m == r) {
			e->m++;
			continue;
		}
		e = realloc(s->e, sizeof *e * (size_t)(s->ne + 1));
		if (!e) {
			vlcal_share_free(s);
			return -1;
		}
		s->e = e;
		e = &s->e[s->ne++];
		memset(e, 0, sizeof *e);
		e->x = r->x;
		e->procs = r->procs;
		e->row = r;
		e->m = 1;
		flows(e, 0);
	}
	return s->ne;
}

/* Weight of time T: errors relative to max(T, FLOOR). */
static double wt(double t, double floor_ns)
{
	double d = t > floor_ns ? t : floor_ns;

	return 1 / (d * d);
}

/* Experiment E's own line (E->a, E->b): through its rows of at least
 * SHARE_BIG bytes if it has two, else all - sharing is a matter of bytes, and
 * small messages on a real network often pass at once (a token bucket's
 * burst, socket buffers), which would bend the slope of the whole line. */
#define SHARE_BIG 65536
static int own_line(vlcal_share_exp *e, double floor_ns)
{
	double *x = malloc(sizeof(double) * 3 * (size_t)e->m), *y, *w;
	int rc, n = 0, big = 0;

	if (!x)
		return VLCAL_FIT_SINGULAR;
	y = x + e->m;
	w = y + e->m;
	for (int i = 0; i < e->m; i++)
		big += e->row[i].bytes >= SHARE_BIG;
	for (int i = 0; i < e->m; i++) {
		if (big >= 2 && e->row[i].bytes < SHARE_BIG)
			continue;
		x[n] = (double)e->row[i].bytes;
		y[n] = e->row[i].v;
		w[n] = wt(y[n], floor_ns);
		n++;
	}
	rc = vlu_line(x, y, w, n, &e->a, &e->b, NULL) ? VLCAL_FIT_SINGULAR : VLCAL_FIT_OK;
	free(x);
	if (rc == VLCAL_FIT_OK && !(e->b > 0 && isfinite(e->b)))
		rc = VLCAL_FIT_DEGENERATE;
	return rc;
}

/* The closed form's slope with BETA, GAMMA under duplex H. */
static double slope(const vlcal_share_exp *e, int h, double beta, double gamma)
{
	double l = e->c[h] * beta, p = e->g * gamma;

	return p >= l && gamma > 0 ? p : l;
}

/* The sum of squared relative slope errors. */
static double misfit(const vlcal_share *s, int h, double beta, double gamma)
{
	double sum = 0;

	for (int i = 0; i < s->ne; i++) {
		double r = 1 - slope(&s->e[i], h, beta, gamma) / s->e[i].b;

		sum += r * r;
	}
	return sum;
}

/* The x minimising the sum over the experiments with IN[i] == WANT of
 * (1 - q_i x / b_i)^2, q_i their link (G = 0: c[H]) or backplane (G = 1)
 * flows; 0 if there are none. */
static double ls1(const vlcal_share *s, const int *in, int want, int h, int g)
{
	double num = 0, den = 0;

	for (int i = 0; i < s->ne; i++) {
		double r;

		if (in[i] != want)
			continue;
		r = (g ? s->e[i].g : s->e[i].c[h]) / s->e[i].b;
		num += r;
		den += r * r;
	}
	return den > 0 ? num / den : 0;
}

/* what cmp_ratio compares under */
typedef struct ratio_ctx {
	const vlcal_share *s;
	int h;
} ratio_ctx;

/* experiment indices by c / g, the ratio gamma / beta from which on an
 * experiment is backplane-bound */
static int cmp_ratio(const void *a, const void *b, void *arg)
{
	const ratio_ctx *r = arg;
	const vlcal_share_exp *x = &r->s->e[*(const int *)a], *y = &r->s->e[*(const int *)b];
	double u = x->c[r->h] / x->g, v = y->c[r->h] / y->g;

	return u < v ? -1 : u > v;
}

/* A candidate with the first J experiments of ORDER backplane-bound (BOUND:
 * scratch), iterated until the bound set stays; its beta and gamma; 0 if no
 * experiment stays bound. */
static int candidate(const vlcal_share *s, int h, const int *order, int j, int *bound, double *beta,
                     double *gamma)
{
	for (int i = 0; i < s->ne; i++)
		bound[order[i]] = i < j;
	for (int it = 0; it < 100; it++) {
		double gm = ls1(s, bound, 1, h, 1), bt = ls1(s, bound, 0, h, 0), lo = INFINITY;
		int changed = 0, any = 0;

		if (bt == 0) { /* all bound: the largest beta that leaves them so */
			for (int i = 0; i < s->ne; i++)
				if (s->e[i].g / s->e[i].c[h] < lo)
					lo = s->e[i].g / s->e[i].c[h];
			bt = gm * lo;
		}
		*beta = bt;
		*gamma = gm;
		for (int i = 0; i < s->ne; i++) {
			int nb = s->e[i].g * gm >= s->e[i].c[h] * bt;

			changed |= nb != bound[i];
			any |= nb;
			bound[i] = nb;
		}
		if (!any)
			return 0;
		if (!changed)
			break;
	}
	return 1;
}

/* The best beta and gamma under duplex H; returns their misfit plus the
 * backplane's penalty, *RAW the misfit alone. */
static double fit_duplex(const vlcal_share *s, int h, int *scratch, double *beta, double *gamma,
                         double *raw)
{
	int *order = scratch, *bound = scratch + s->ne;
	ratio_ctx ctx = {s, h};
	double best;

	for (int i = 0; i < s->ne; i++) {
		order[i] = i;
		bound[i] = 0;
	}
	*beta = ls1(s, bound, 0, h, 0);
	*gamma = 0;
	best = *raw = misfit(s, h, *beta, 0);
	qsort_r(order, (size_t)s->ne, sizeof *order, cmp_ratio, &ctx);
	for (int j = 1; j <= s->ne; j++) {
		double bt, gm, e;

		if (!candidate(s, h, order, j, bound, &bt, &gm))
			continue;
		e = misfit(s, h, bt, gm);
		if (e + VLCAL_PENALTY_DEFAULT < best) {
			best = e + VLCAL_PENALTY_DEFAULT;
			*raw = e;
			*beta = bt;
			*gamma = gm;
		}
	}
	return best;
}

/* Every experiment's slope, intercept and errors, and the common intercept,
 * under the chosen duplex and BETA, GAMMA. */
static void finish(vlcal_share *s, double beta, double gamma, double floor_ns)
{
	double sw = 0, swr = 0, s2 = 0;
	int n = 0;

	s->max_rel = 0;
	for (int i = 0; i < s->ne; i++) {
		vlcal_share_exp *e = &s->e[i];
		double w0 = 0, wr = 0, e2 = 0;

		e->s = slope(e, s->half, beta, gamma);
		e->backplane_bound = gamma > 0 && e->g * gamma >= e->c[s->half] * beta;
		for (int j = 0; j < e->m; j++) {
			double w = wt(e->row[j].v, floor_ns);

			w0 += w;
			wr += w * (e->row[j].v - e->s * (double)e->row[j].bytes);
		}
		e->icpt = wr / w0;
		sw += w0;
		swr += wr;
		e->max_rel = 0;
		for (int j = 0; j < e->m; j++) {
			double t = e->row[j].v, d = t > floor_ns ? t : floor_ns;
			double r = fabs(e->icpt + e->s * (double)e->row[j].bytes - t) / d;

			e2 += r * r;
			e->max_rel = r > e->max_rel ? r : e->max_rel;
		}
		e->rms_rel = sqrt(e2 / e->m);
		s2 += e2;
		n += e->m;
		s->max_rel = e->max_rel > s->max_rel ? e->max_rel : s->max_rel;
	}
	s->latency = swr / sw;
	s->rms_rel = sqrt(s2 / n);
}

int vlcal_share_fit(vlcal_share *s, double floor_ns)
{
	double beta[2], gamma[2], pen[2];
	int *scratch;

	s->bad = -1;
	if (s->ne < 1)
		return VLCAL_FIT_SINGULAR;
	for (int i = 0; i < s->ne; i++) {
		int rc = s->e[i].m < 2 ? VLCAL_FIT_FEW : own_line(&s->e[i], floor_ns);

		s->bad = i;
		if (rc != VLCAL_FIT_OK)
			return rc;
	}
	s->bad = -1;
	scratch = malloc(sizeof(int) * 2 * (size_t)s->ne); /* order, bound */
	if (!scratch)
		return VLCAL_FIT_SINGULAR;
	s->decided = 0;
	s->sharing_decided = 0;
	for (int i = 0; i < s->ne; i++) {
		s->decided |= s->e[i].c[0] != s->e[i].c[1];
		s->sharing_decided |= s->e[i].x == VLCAL_X_SHARE + 4;
	}
	/* fair (and fifo if share_first tells them apart): the smaller sum of
	 * the duplex chosen wins, fair on a tie */
	s->fifo = 0;
	for (int f = 0; f <= s->sharing_decided; f++) {
		double fb[2], fg[2], fp[2], fr[2];
		int h;

		for (int i = 0; i < s->ne; i++)
			flows(&s->e[i], f);
		for (h = 0; h < 2; h++)
			fp[h] = fit_duplex(s, h, scratch, &fb[h], &fg[h], &fr[h]);
		h = s->decided && fp[1] < fp[0];
		s->serr[f] = sqrt(fr[h] / s->ne);
		if (f == 0 || fp[h] < pen[s->half]) {
			s->fifo = f;
			s->half = h;
			for (h = 0; h < 2; h++) {
				beta[h] = fb[h];
				gamma[h] = fg[h];
				pen[h] = fp[h];
				s->err[h] = sqrt(fr[h] / s->ne);
			}
		}
	}
	for (int i = 0; i < s->ne; i++)
		flows(&s->e[i], s->fifo);
	free(scratch);
	s->bw = 1 / beta[s->half];
	s->backplane = gamma[s->half] > 0 ? 1 / gamma[s->half] : 0;
	finish(s, beta[s->half], gamma[s->half], floor_ns);
	return VLCAL_FIT_OK;
}
