/* model.c - the delay model: what a send, a transmission, a receive, a spawn
 * and a second of CPU cost on the modelled machine.  Every front end uses
 * these functions; no other file computes a cost.
 *
 * Precedence for one value: a per-host override in [host] > the link's
 * piecewise-linear model > the link's constants.
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "vlayer/core/engine.h"

/* Costs saturate at VLI_TIME_MAX (engine.h) instead of wrapping. */

static int64_t sat(__int128 v)
{
	return v < 0 ? 0 : v > VLI_TIME_MAX ? VLI_TIME_MAX : (int64_t)v;
}

int64_t vli_pwl_eval(const vlcfg_pwl *m, int64_t bytes)
{
	int i;
	__int128 dy, dx, num;

	if (m->n <= 0)
		return 0;
	if (m->n == 1 || bytes <= m->bytes[0])
		return m->ns[0];
	for (i = 0; i < m->n - 2 && bytes > m->bytes[i + 1]; i++)
		;
	dy = (__int128)m->ns[i + 1] - m->ns[i];
	dx = (__int128)m->bytes[i + 1] - m->bytes[i];
	num = dy * ((__int128)bytes - m->bytes[i]);
	return sat(m->ns[i] + num / dx);
}

double vli_contention(const vlcfg_link *l, int k)
{
	double f = 1.0;
	int i;

	for (i = 0; i < l->ncont && l->cont_k[i] <= k; i++)
		f = l->cont_f[i];
	return f;
}

const vlcfg_link *vli_link(const vlcfg_config *c, int src_host, int dst_host)
{
	return (src_host == dst_host && src_host >= 0) ? &c->intra : &c->inter;
}

static const vlcfg_host *host_of(const vlcfg_config *c, int h)
{
	return (h >= 0 && h < c->nhosts) ? &c->hosts[h] : NULL;
}

int64_t vli_send_time(const vlcfg_config *c, int src_host, int dst_host, int64_t bytes)
{
	const vlcfg_link *l = vli_link(c, src_host, dst_host);
	const vlcfg_host *h = host_of(c, src_host);

	if (h && h->send_delay != VLCFG_UNSET)
		return h->send_delay;
	if (l->send_model.n > 0)
		return vli_pwl_eval(&l->send_model, bytes);
	return l->send_delay;
}

/* delay + bytes * ps_per_kib / 1024 / 1000, in ns */
static int64_t delay_plus_kib(int64_t delay, int64_t bytes, int64_t ps_per_kib)
{
	return sat((__int128)delay + ((__int128)bytes * ps_per_kib) / (1024 * 1000));
}

int64_t vli_trans_time(const vlcfg_config *c, int src_host, int dst_host, int64_t bytes)
{
	const vlcfg_link *l = vli_link(c, src_host, dst_host);
	const vlcfg_host *h = host_of(c, src_host);
	int64_t d = l->trans_delay, p = l->trans_per_kib_ps;

	if (l == &c->inter && vli_net_on(c)) {
		/* [topology]: the route's latency and the link's bandwidth, as a
		 * flow alone on its links takes (links.c) */
		double bpns, x = (double)(bytes > 0 ? bytes : 0);

		vli_net_params(c, &d, &bpns);
		d = vli_net_latency(c, src_host, dst_host);
		return sat((__int128)d + (bpns > 0 ? (__int128)llround(x / bpns) : 0));
	}

	if (h && (h->trans_delay != VLCFG_UNSET || h->trans_per_kib_ps != VLCFG_UNSET)) {
		if (h->trans_delay != VLCFG_UNSET)
			d = h->trans_delay;
		if (h->trans_per_kib_ps != VLCFG_UNSET)
			p = h->trans_per_kib_ps;
		return delay_plus_kib(d, bytes, p);
	}
	if (l->trans_model.n > 0)
		return vli_pwl_eval(&l->trans_model, bytes);
	return delay_plus_kib(d, bytes, p);
}

int64_t vli_recv_time(const vlcfg_config *c, int src_host, int dst_host)
{
	const vlcfg_link *l = vli_link(c, src_host, dst_host);
	const vlcfg_host *h = host_of(c, dst_host);

	if (h && h->recv_delay != VLCFG_UNSET)
		return h->recv_delay;
	return l->recv_delay;
}

int64_t vli_init_delay(const vlcfg_config *c, int h)
{
	const vlcfg_host *hp = host_of(c, h);
	return hp ? hp->init_delay : 0;
}

int64_t vli_scale_cpu(const vlcfg_config *c, int h, int64_t cpu_ns)
{
	const vlcfg_host *hp = host_of(c, h);

	if (c->compute_ignore)
		return 0;
	if (!hp || hp->factor == 0.0)
		return cpu_ns;
	{
		double v = (double)cpu_ns * hp->factor;

		return v >= (double)VLI_TIME_MAX ? VLI_TIME_MAX : (int64_t)llround(v);
	}
}

/* ---- run-time parameter changes: the VMConfig loader's own parser ---- */

int vli_set_param(vlcfg_config *c, const char *section, const char *key, const char *value,
		  char *err, size_t errlen)
{
	return vlcfg_set(c, section, key, value, err, errlen);
}

/* ---- lookahead: the least time from a send call to its arrival ---- */

/* Least value of a piecewise-linear model over all sizes (0 if it falls). */
static int64_t pwl_min(const vlcfg_pwl *m)
{
	int64_t v = m->ns[0];
	int i;

	for (i = 1; i < m->n; i++)
		if (m->ns[i] < v)
			v = m->ns[i];
	if (m->n >= 2 && m->ns[m->n - 1] < m->ns[m->n - 2])
		v = 0; /* extrapolated downwards past the last point */
	return v;
}

/* Least send + transmission time from host h (-1: the link alone) over l. */
static int64_t link_min(const vlcfg_config *c, const vlcfg_link *l, int h)
{
	const vlcfg_host *hp = host_of(c, h);
	int64_t s, t;
	double f = 1.0;
	int i;

	if (hp && hp->send_delay != VLCFG_UNSET)
		s = hp->send_delay;
	else
		s = l->send_model.n > 0 ? pwl_min(&l->send_model) : l->send_delay;
	for (i = 0; i < l->ncont; i++)
		if (l->cont_f[i] < f)
			f = l->cont_f[i]; /* a multicast may send faster than one send */
	s = (int64_t)((double)s * f);
	if (l == &c->inter && vli_net_on(c)) {
		double bpns;

		vli_net_params(c, &t, &bpns); /* a torus: one hop, the least */
	} else if (hp && (hp->trans_delay != VLCFG_UNSET || hp->trans_per_kib_ps != VLCFG_UNSET))
		t = hp->trans_delay != VLCFG_UNSET ? hp->trans_delay : l->trans_delay;
	else
		t = l->trans_model.n > 0 ? pwl_min(&l->trans_model) : l->trans_delay;
	return sat((__int128)s + t);
}

int vli_la_intra = 1;

int64_t vli_lookahead(const vlcfg_config *c)
{
	int64_t m = VLI_TIME_MAX, v;
	int h;

	for (h = 0; h < c->nhosts; h++) {
		if (vli_la_intra && (v = link_min(c, &c->intra, h)) < m)
			m = v;
		if (c->nhosts > 1 && (v = link_min(c, &c->inter, h)) < m)
			m = v;
	}
	if (c->nhosts == 0)
		m = link_min(c, &c->intra, -1);
	return m > 0 ? m : 1;
}
