/* fit_topo.c - the [topology] of `vlcalib fit`: the sharing fit (fit_share.h)
 * of the share_* rows of one link kind, its rows in the table, and the values
 * the fragment writes (fit_vmconfig.c). */
#include "vlcalib.h"
#include "util/diag.h"
#include "vlayer/core/engine.h" /* vli_pwl_eval: the model as vlayer evaluates it */

#include <math.h>
#include <stdio.h>

/* RATE bytes per ns as a VMConfig rate (MB/s, 6 digits) into OUT. */
static void fmt_rate(char *out, size_t len, double bpns)
{
	snprintf(out, len, "%.6gMB/s", bpns * 1e3);
}

/* The table's name of experiment E ("share_fanout(k=2)"). */
static void exp_name(const vlcal_share_exp *e, char *out, size_t len)
{
	const char *x = vlcal_raw_xname[e->x];

	switch (e->x - VLCAL_X_SHARE) {
	case 0:
		snprintf(out, len, "%s", x);
		break;
	case 3:
		snprintf(out, len, "%s(p=%d)", x, e->procs);
		break;
	default:
		snprintf(out, len, "%s(k=%d)", x, e->procs - 1);
		break;
	}
}

static void put_rows(const vlcal_topofit *t)
{
	const vlcal_share *s = &t->sh;
	int k = s->link;

	vlcal_put_word(k, "topology", "kind", s->backplane > 0 ? "switch" : "star");
	vlcal_put_word(k, "topology", "duplex", s->half ? "half" : "full");
	vlcal_put(k, "topology", "bandwidth", s->bw * 1e3, "MB/s");
	vlcal_put(k, "topology", "backplane", s->backplane > 0 ? s->backplane * 1e3 : NAN, "MB/s");
	vlcal_put(k, "topology", "latency", (double)t->latency_ns / 1e3, "us");
	vlcal_put(k, "topology", "intercept", s->latency / 1e3, "us");
	vlcal_put_pct(k, "topology", "slope_error(full)", s->err[0]);
	vlcal_put_pct(k, "topology", "slope_error(half)", s->err[1]);
	if (s->sharing_decided) {
		vlcal_put_word(k, "topology", "sharing", s->fifo ? "fifo" : "fair");
		vlcal_put_pct(k, "topology", "slope_error(fair)", s->serr[0]);
		vlcal_put_pct(k, "topology", "slope_error(fifo)", s->serr[1]);
	}
	vlcal_put_pct(k, "topology", "rms_error", s->rms_rel);
	vlcal_put_pct(k, "topology", "max_error", s->max_rel);
	for (int i = 0; i < s->ne; i++) {
		const vlcal_share_exp *e = &s->e[i];
		char m[40];

		exp_name(e, m, sizeof m);
		vlcal_put(k, m, "slope", e->b, "ns/B");
		vlcal_put(k, m, "model_slope", e->s, "ns/B");
		vlcal_put_word(k, m, "bound", e->backplane_bound ? "backplane" : "link");
		vlcal_put_pct(k, m, "rms_error", e->rms_rel);
		vlcal_put_pct(k, m, "max_error", e->max_rel);
	}
}

/* Whether LINK has share_* rows. */
static int has_share(const vlcal_input *in, int link)
{
	for (int x = VLCAL_X_SHARE; x < VLCAL_NX; x++)
		if (vlcal_has_rows(in, link, x))
			return 1;
	return 0;
}

void vlcal_fit_topology(const vlcal_input *in, const vlcal_linkfit *const lf[2], vlcal_topofit *t)
{
	vlcal_share *s = &t->sh;
	int link = has_share(in, 1), rc;

	t->ok = 0;
	if (vlcal_share_load(s, &in->raw, link) < 0)
		vlu_die(VLCAL_EXIT_BAD, "out of memory");
	if (!s->ne)
		return;
	rc = vlcal_share_fit(s, in->floor_ns);
	if (rc) {
		const vlcal_share_exp *e = s->bad >= 0 ? &s->e[s->bad] : &s->e[0];

		vlu_warn("%s:%d: %s (link %s, %d tasks): %s (%d size%s): no [topology] written",
		         in->files[e->row->file], e->row->line, vlcal_raw_xname[e->x],
		         vlcal_raw_lname[link], e->procs, vlcal_fit_strerror(rc), e->m,
		         e->m == 1 ? "" : "s");
		return;
	}
	if (lf[link]) {
		t->latency_ns = (long long)vli_pwl_eval(&lf[link]->tm, 0);
		t->lat_src = "trans_model at 0 B";
	} else {
		t->latency_ns = s->latency > 0 ? llround(s->latency) : 0;
		t->lat_src = "the experiments' common intercept (no one-way or rtt rows)";
	}
	fmt_rate(t->bw, sizeof t->bw, s->bw);
	t->bp[0] = 0;
	if (s->backplane > 0)
		fmt_rate(t->bp, sizeof t->bp, s->backplane);
	t->ok = 1;
	put_rows(t);
}
