/* fit_link.c - the ping-pong fits of one link kind in `vlcalib fit` (what
 * they compute and why: vlcalib.c): the VMConfig models send_model,
 * recv_delay, trans_model and contention, then Hockney, LogGP and
 * MSGSETUP/ALCBW. */
#include "vlcalib.h"
#include "util/diag.h"
#include "vlayer/core/engine.h" /* vli_pwl_eval: the model as vlayer evaluates it */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The smallest value in the series at its smallest size. */
static double at_smallest(const vlcal_series *s)
{
	return s->t[0];
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

/* Fits series S into a model whose VMConfig line fits: at most 32 points,
 * fewer while the line is too long. */
static void fit_model(const vlcal_series *s, int link, const char *what, const double *w,
                      double pen, const char *key, vlcal_pwl *f, vlcfg_pwl *m, char *line,
                      size_t len)
{
	for (int mp = VLCAL_PWL_MAX;;) {
		int rc = vlcal_segfit(s->n, s->t, w, s->m, pen, mp, f);

		if (rc)
			vlcal_fit_fail(s, link, what, rc);
		to_vl(f, m);
		if (vlcal_fmt_model(line, len, key, m, ", ") <= VLCAL_LINE_MAX)
			return;
		if (vlcal_fmt_model(line, len, key, m, ",") <= VLCAL_LINE_MAX)
			return;
		if (f->n <= 2)
			vlu_die(VLCAL_EXIT_BAD,
			        "%s:%d: %s (link %s): the model does not fit on one VMConfig line",
			        s->in->files[s->first->file], s->first->line, what,
			        vlcal_raw_lname[link]);
		mp = f->n - 1;
	}
}

/* The weights of a fit whose error is relative to S's times: 1 /
 * max(REF, floor)^2, so that below the floor errors count as absolute. */
static double *weights(const vlcal_series *s)
{
	const double *ref = s->t, floor_ns = s->in->floor_ns;
	double *w = vlcal_xmalloc(sizeof(double) * (size_t)(s->m + 1));

	for (int i = 0; i < s->m; i++) {
		double d = ref[i] > floor_ns ? ref[i] : floor_ns;
		w[i] = 1 / (d * d);
	}
	return w;
}

/* The user's penalty, or the automatic one for S (weights W); *SIGMA the
 * noise estimate (0 for a fixed penalty). */
static double penalty_for(const vlcal_linkfit *L, const vlcal_series *s, const double *w,
                          double *sigma)
{
	*sigma = 0;
	if (L->fixed_pen)
		return L->pen_send; /* the user's, set for all fits */
	return vlcal_penalty_auto(s->n, s->t, w, s->m, sigma);
}

/* Relative rms and largest error of MODEL(n) against S->t (sizes S->n),
 * relative to the floor for times below it. */
static void model_error(const vlcal_series *s, const double *model, double *rms, double *mx)
{
	double s2 = 0, floor_ns = s->in->floor_ns;

	*mx = 0;
	for (int i = 0; i < s->m; i++) {
		double r = fabs(model[i] - s->t[i]) / (s->t[i] > floor_ns ? s->t[i] : floor_ns);

		s2 += r * r;
		*mx = r > *mx ? r : *mx;
	}
	*rms = sqrt(s2 / s->m);
}

/* The one-way time of size n (oneway, else rtt / 2); < 0 if not measured. */
static double total_at(const vlcal_linkfit *L, double n)
{
	vlcal_series o = vlcal_series_get(L->in, L->link, VLCAL_X_ONEWAY, 2);
	double v = -1, div = 1;

	if (!o.m) {
		vlcal_series_free(&o);
		o = vlcal_series_get(L->in, L->link, VLCAL_X_RTT, 2);
		div = 2;
	}
	for (int i = 0; i < o.m; i++)
		if (o.n[i] == n)
			v = o.t[i] / div;
	vlcal_series_free(&o);
	return v;
}

/* Sends that last until their data are in: an MPI library's rendezvous, at
 * or above its eager limit (the layer's model too).  Then send = S + T, and
 * the one-way time S + T + R: the send model is fitted below them only, and
 * T = one-way - S - R uses the send model carried on.  Found as the sizes
 * from which on (above 1 KiB) every send takes at least 80% of the one-way
 * time less the receive cost, with at least two sizes below them. */
static void find_rendezvous(vlcal_linkfit *L)
{
	int i, first = -1;

	L->rdv_from = L->rdv_below = 0;
	for (i = L->send.m - 1; i >= 0; i--) {
		double tot = total_at(L, L->send.n[i]);

		if (tot <= 0 || L->send.n[i] <= 1024 ||
		    L->send.t[i] < 0.8 * (tot - (double)L->recv_ns))
			break;
		first = i;
	}
	if (first < 2)
		return;
	L->rdv_from = L->send.n[first];
	L->rdv_below = L->send.n[first - 1];
	L->send.m = first; /* the send model from the eager sizes */
}

/* PVM's pvm_send over a slow link returns only once its socket has taken all
 * but the last of the data: such a send holds the transfer, which the layer
 * gives to the links after the send (the transfer would count twice).  So
 * from a PVM file the sizes above 1 KiB whose send takes more than 5 % of the
 * one-way time less the receive cost are left out of the send model
 * (counted in L->pvm_waits), if two sizes stay; the model of the others is
 * carried on, and the one-way time less it is the transfer. */
static int send_waits(vlcal_linkfit *L, int i)
{
	double tot = total_at(L, L->send.n[i]);

	return L->send.n[i] > 1024 && tot > 0 && L->send.t[i] > 0.05 * (tot - (double)L->recv_ns);
}

static void drop_waits(vlcal_linkfit *L)
{
	const char *lib = L->in->raw.library;
	int i, k = 0, keep = 0;

	L->pvm_waits = 0;
	if (!lib || strcmp(lib, "pvm"))
		return;
	for (i = 0; i < L->send.m; i++)
		keep += !send_waits(L, i);
	if (keep < 2 || keep == L->send.m)
		return;
	for (i = 0; i < L->send.m; i++) {
		if (send_waits(L, i))
			continue;
		L->send.n[k] = L->send.n[i];
		L->send.t[k] = L->send.t[i];
		if (L->send.h)
			L->send.h[k] = L->send.h[i];
		if (L->send.procs)
			L->send.procs[k] = L->send.procs[i];
		k++;
	}
	L->pvm_waits = L->send.m - k;
	L->send.m = k;
}

static void fit_send(vlcal_linkfit *L)
{
	const vlcal_raw_row *r0 = vlcal_link_first(L->in, L->link);
	double *w;

	L->send = vlcal_series_get(L->in, L->link, VLCAL_X_SEND, 2);
	if (!L->send.m)
		vlu_die(VLCAL_EXIT_BAD, "%s:%d: link %s: no send rows (send_model needs them)",
		        L->in->files[r0->file], r0->line, vlcal_raw_lname[L->link]);
	find_rendezvous(L);
	drop_waits(L);
	if (L->send.m < 2)
		vlcal_fit_fail(&L->send, L->link, "send", VLCAL_FIT_FEW);
	w = weights(&L->send);
	L->pen_send = penalty_for(L, &L->send, w, &L->sig_send);
	fit_model(&L->send, L->link, "send", w, L->pen_send, "send_model", &L->sf, &L->sm, L->sline,
	          sizeof L->sline);
	vlcal_xfree(w);
	{
		double *mod = vlcal_xmalloc(sizeof(double) * (size_t)L->send.m);

		for (int i = 0; i < L->send.m; i++)
			mod[i] = (double)vli_pwl_eval(&L->sm, (int64_t)L->send.n[i]);
		model_error(&L->send, mod, &L->s_rms, &L->s_max);
		vlcal_xfree(mod);
	}
}

/* recv_delay: the median of recv over the sizes <= 1 KiB (else the smallest). */
static void fit_recv(vlcal_linkfit *L)
{
	double v[4096];
	int n = 0;

	L->recv = vlcal_series_get(L->in, L->link, VLCAL_X_RECV, 2);
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

static void fit_trans(vlcal_linkfit *L)
{
	const vlcal_raw_row *r0 = vlcal_link_first(L->in, L->link);
	vlcal_series tr;
	double *w;

	L->total = vlcal_series_get(L->in, L->link, VLCAL_X_ONEWAY, 2);
	L->total_src = "oneway";
	if (!L->total.m) {
		vlcal_series_free(&L->total);
		L->total = vlcal_series_get(L->in, L->link, VLCAL_X_RTT, 2);
		L->total_src = "rtt/2";
		for (int i = 0; i < L->total.m; i++)
			L->total.t[i] /= 2;
	}
	if (!L->total.m)
		vlu_die(VLCAL_EXIT_BAD,
		        "%s:%d: link %s: no oneway or rtt rows (trans_model needs them)",
		        L->in->files[r0->file], r0->line, vlcal_raw_lname[L->link]);
	if (L->total.m < 2)
		vlcal_fit_fail(&L->total, L->link, L->total_src, VLCAL_FIT_FEW);
	/* T = total - S - R, fitted with weights relative to the total time */
	tr = L->total;
	tr.t = vlcal_xmalloc(sizeof(double) * (size_t)tr.m);
	w = weights(&L->total);
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
	vlcal_xfree(tr.t);
	vlcal_xfree(w);
}

/* contention = k:f(k) for every k >= 2 measured */
static void fit_contention(vlcal_linkfit *L)
{
	int procs = 0;
	size_t o = (size_t)snprintf(L->cline, sizeof L->cline, "%-11s = ", "contention");

	for (int i = 0; i < L->in->raw.n; i++) {
		const vlcal_raw_row *r = &L->in->raw.row[i];
		vlcal_series c;
		double *s, f;
		int rc;
		char e[64];

		if (r->link != L->link || r->x != VLCAL_X_CONT || r->procs == procs)
			continue;
		procs = r->procs;
		if (procs < 3 || L->ncont == VLCAL_PWL_MAX)
			continue;
		c = vlcal_series_get(L->in, L->link, VLCAL_X_CONT, procs);
		s = vlcal_xmalloc(sizeof(double) * (size_t)c.m);
		for (int j = 0; j < c.m; j++)
			s[j] = vlcal_pwl_eval(&L->sf, c.n[j]);
		rc = vlcal_contention_fit(procs - 1, s, c.t, c.m, &f);
		if (rc)
			vlcal_fit_fail(&c, L->link, "contention", rc);
		snprintf(e, sizeof e, "%s%d:%.6g", L->ncont ? ", " : "", procs - 1, f);
		if (o + strlen(e) <= VLCAL_LINE_MAX) {
			L->cont_k[L->ncont] = procs - 1;
			L->cont_f[L->ncont++] = f;
			o += (size_t)snprintf(L->cline + o, sizeof L->cline - o, "%s", e);
		} else {
			vlu_err(0, "link %s: contention for k = %d left out (VMConfig line full)",
			        vlcal_raw_lname[L->link], procs - 1);
		}
		vlcal_xfree(s);
		vlcal_series_free(&c);
	}
}

static void fit_classic(vlcal_linkfit *L)
{
	int rc = vlcal_hockney_fit(L->total.n, L->total.t, L->total.m, &L->hock);

	if (rc)
		vlcal_fit_fail(&L->total, L->link, "Hockney fit", rc);
	rc = vlcal_msgsetup_series(L->total.n, L->total.t, L->total.m, &L->msgsetup, &L->alcbw,
	                           &L->ns_used, &L->nl_used);
	if (rc)
		vlcal_fit_fail(&L->total, L->link, "MSGSETUP/ALCBW", rc);
	L->gap = vlcal_series_get(L->in, L->link, VLCAL_X_GAP, 2);
	L->has_gap = L->gap.m > 0;
	if (L->has_gap) {
		double sig, *w = weights(&L->gap);
		double pen = penalty_for(L, &L->gap, w, &sig);

		rc = vlcal_loggp_fit(at_smallest(&L->send), L->has_recv ? at_smallest(&L->recv) : 0,
		                     at_smallest(&L->total), L->gap.n, L->gap.t, w, L->gap.m, pen,
		                     &L->lg);
		if (rc)
			vlcal_fit_fail(&L->gap, L->link, "gap (LogGP)", rc);
		vlcal_xfree(w);
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

int vlcal_ping_family(const vlcal_input *in, int link)
{
	static const int xs[] = {VLCAL_X_RTT,  VLCAL_X_ONEWAY, VLCAL_X_SEND,
	                         VLCAL_X_RECV, VLCAL_X_GAP,    VLCAL_X_CONT};

	for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
		if (vlcal_has_rows(in, link, xs[i]))
			return 1;
	return 0;
}

void vlcal_fit_link(vlcal_linkfit *L)
{
	fit_recv(L); /* first: the rendezvous test of fit_send needs it */
	fit_send(L);
	fit_trans(L);
	fit_contention(L);
	fit_classic(L);
}
