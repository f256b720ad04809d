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
#include "vli.h"

int64_t vli_pwl_eval(const vl_pwl *m, int64_t bytes)
{
	int i;
	__int128 dy, dx, num;
	int64_t v;

	if (m->n <= 0)
		return 0;
	if (m->n == 1 || bytes <= m->bytes[0])
		return m->ns[0];
	for (i = 0; i < m->n - 2 && bytes > m->bytes[i + 1]; i++)
		;
	dy = (__int128)m->ns[i + 1] - m->ns[i];
	dx = (__int128)m->bytes[i + 1] - m->bytes[i];
	num = dy * ((__int128)bytes - m->bytes[i]);
	v = m->ns[i] + (int64_t)(num / dx);
	return v < 0 ? 0 : v;
}

double vli_contention(const vl_link *l, int k)
{
	double f = 1.0;
	int i;

	for (i = 0; i < l->ncont && l->cont_k[i] <= k; i++)
		f = l->cont_f[i];
	return f;
}

const vl_link *vli_link(const vl_config *c, int src_host, int dst_host)
{
	return (src_host == dst_host && src_host >= 0) ? &c->intra : &c->inter;
}

static const vl_host *host_of(const vl_config *c, int h)
{
	return (h >= 0 && h < c->nhosts) ? &c->hosts[h] : NULL;
}

int64_t vli_send_time(const vl_config *c, int src_host, int dst_host, int64_t bytes)
{
	const vl_link *l = vli_link(c, src_host, dst_host);
	const vl_host *h = host_of(c, src_host);

	if (h && h->send_delay != VL_UNSET)
		return h->send_delay;
	if (l->send_model.n > 0)
		return vli_pwl_eval(&l->send_model, bytes);
	return l->send_delay;
}

static int64_t per_kib(int64_t bytes, int64_t ps_per_kib)
{
	return (int64_t)(((__int128)bytes * ps_per_kib) / (1024 * 1000));
}

int64_t vli_trans_time(const vl_config *c, int src_host, int dst_host, int64_t bytes)
{
	const vl_link *l = vli_link(c, src_host, dst_host);
	const vl_host *h = host_of(c, src_host);
	int64_t d = l->trans_delay, p = l->trans_per_kib_ps;

	if (h && (h->trans_delay != VL_UNSET || h->trans_per_kib_ps != VL_UNSET)) {
		if (h->trans_delay != VL_UNSET)
			d = h->trans_delay;
		if (h->trans_per_kib_ps != VL_UNSET)
			p = h->trans_per_kib_ps;
		return d + per_kib(bytes, p);
	}
	if (l->trans_model.n > 0)
		return vli_pwl_eval(&l->trans_model, bytes);
	return d + per_kib(bytes, p);
}

int64_t vli_recv_time(const vl_config *c, int src_host, int dst_host)
{
	const vl_link *l = vli_link(c, src_host, dst_host);
	const vl_host *h = host_of(c, dst_host);

	if (h && h->recv_delay != VL_UNSET)
		return h->recv_delay;
	return l->recv_delay;
}

int64_t vli_init_delay(const vl_config *c, int h)
{
	const vl_host *hp = host_of(c, h);
	return hp ? hp->init_delay : 0;
}

int64_t vli_scale_cpu(const vl_config *c, int h, int64_t cpu_ns)
{
	const vl_host *hp = host_of(c, h);

	if (c->compute_ignore)
		return 0;
	if (!hp || hp->factor == 0.0)
		return cpu_ns;
	return (int64_t)llround((double)cpu_ns * hp->factor);
}

/* ---- run-time parameter changes ---- */

static int set_time(int64_t *dst, const char *v, char *err, size_t n)
{
	int64_t t;
	if (vl_parse_time(v, &t) < 0 || t < 0) {
		snprintf(err, n, "\"%s\" is not a time >= 0 (use ns, us, ms or s)", v);
		return -1;
	}
	*dst = t;
	return 0;
}

static int set_link(vl_link *l, const char *key, const char *v, char *err, size_t n)
{
	double r;
	if (!strcmp(key, "send_delay"))
		return set_time(&l->send_delay, v, err, n);
	if (!strcmp(key, "recv_delay"))
		return set_time(&l->recv_delay, v, err, n);
	if (!strcmp(key, "trans_delay"))
		return set_time(&l->trans_delay, v, err, n);
	if (!strcmp(key, "trans_per_kib")) {
		int64_t t;
		if (set_time(&t, v, err, n) < 0)
			return -1;
		l->trans_per_kib_ps = t * 1000;
		return 0;
	}
	if (!strcmp(key, "bandwidth")) {
		if (vl_parse_rate(v, &r) < 0 || r <= 0) {
			snprintf(err, n, "\"%s\" is not a rate > 0 (e.g. 100Mbit/s)", v);
			return -1;
		}
		l->trans_per_kib_ps = llround(1024.0 * 1e12 / r);
		return 0;
	}
	snprintf(err, n, "unknown or not changeable at run time (valid: send_delay, recv_delay, "
		 "trans_delay, trans_per_kib, bandwidth)");
	return -1;
}

static int set_host(vl_host *h, const char *key, const char *v, char *err, size_t n)
{
	char *end;
	double d;
	if (!strcmp(key, "factor") || !strcmp(key, "flops")) {
		d = strtod(v, &end);
		if (end == v || *end || !(d >= 0) || isinf(d)) {
			snprintf(err, n, "\"%s\" is not a number >= 0", v);
			return -1;
		}
		*(strcmp(key, "factor") ? &h->flops : &h->factor) = d;
		return 0;
	}
	if (!strcmp(key, "init_delay"))
		return set_time(&h->init_delay, v, err, n);
	if (!strcmp(key, "send_delay"))
		return set_time(&h->send_delay, v, err, n);
	if (!strcmp(key, "recv_delay"))
		return set_time(&h->recv_delay, v, err, n);
	if (!strcmp(key, "trans_delay"))
		return set_time(&h->trans_delay, v, err, n);
	snprintf(err, n, "unknown or not changeable at run time (valid: factor, flops, "
		 "init_delay, send_delay, recv_delay, trans_delay)");
	return -1;
}

int vli_set_param(vl_config *c, const char *section, const char *key, const char *value,
		  char *err, size_t errlen)
{
	int h;
	if (!section || !key || !value) {
		snprintf(err, errlen, "section, key and value are required");
		return -1;
	}
	if (!strcmp(section, "network")) {
		vl_link save = c->intra;
		if (set_link(&c->intra, key, value, err, errlen) < 0)
			return -1;
		if (set_link(&c->inter, key, value, err, errlen) < 0) {
			c->intra = save;
			return -1;
		}
		return 0;
	}
	if (!strcmp(section, "network intra"))
		return set_link(&c->intra, key, value, err, errlen);
	if (!strcmp(section, "network inter"))
		return set_link(&c->inter, key, value, err, errlen);
	if (!strcmp(section, "simulation") && !strcmp(key, "compute")) {
		if (strcmp(value, "measured") && strcmp(value, "ignore")) {
			snprintf(err, errlen, "\"%s\" (valid: measured, ignore)", value);
			return -1;
		}
		c->compute_ignore = !strcmp(value, "ignore");
		return 0;
	}
	if (!strncmp(section, "host ", 5)) {
		h = vl_config_host(c, section + 5);
		if (h < 0) {
			snprintf(err, errlen, "no virtual host \"%s\"", section + 5);
			return -1;
		}
		return set_host(&c->hosts[h], key, value, err, errlen);
	}
	snprintf(err, errlen, "unknown section (valid: network, network intra, network inter, "
		 "host NAME, simulation)");
	return -1;
}
