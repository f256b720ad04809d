/* links.c - shared links (issue 13): the [topology] of the VMConfig as
 * resources and routes, and the flow model that shares them.
 *
 * A message between two hosts is a flow: it leaves at `start` (the end of its
 * send time S), holds no bandwidth during its route's latency, then crosses
 * every resource of its route at one rate until its bytes are through; it
 * arrives then.  Concurrent flows share each resource max-min fairly
 * (progressive filling, as TCP roughly does and SimGrid's flow model does):
 * the rates are recomputed whenever a flow starts taking bandwidth or ends.
 * A flow alone takes latency + bytes / bandwidth, as the contention-free
 * model's linear transmission time does.  Messages inside one host never
 * enter the network ([network intra]).
 *
 * Resources (routes in docs/vmconfig.md):
 *   star, switch  full duplex: host h's link up (2h) and down (2h + 1);
 *                 half duplex: host h's link (h); a switch's backplane last
 *   bus           one resource
 *   torus         full duplex: (h, d, +) = 2(h*nd + d), (h, d, -) = that + 1:
 *                 the link leaving h upwards / downwards in dimension d;
 *                 half duplex: h*nd + d, joining h and its upper neighbour
 *   fattree       the hosts' links as on a star, then the link between leaf
 *                 switch l and spine s: full duplex 2H + 2(l*S + s) up
 *                 (towards the spine) and + 1 down; half duplex H + l*S + s
 *                 (H hosts, S spines)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "vlayer/core/engine.h"

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		vli_error(3, "out of memory (the network model's links)");
	return p;
}

int vli_net_on(const vlcfg_config *c)
{
	return c && c->topo.kind != VLCFG_TOPO_NONE && c->nhosts > 1;
}

int vli_trans_line(const vlcfg_config *c, int src, int intra, double *delay_ns,
		   double *ns_per_byte)
{
	const vlcfg_link *l = intra ? &c->intra : &c->inter;
	const vlcfg_host *h = src >= 0 && src < c->nhosts ? &c->hosts[src] : NULL;
	double d = (double)l->trans_delay, per_byte = (double)l->trans_per_kib_ps / 1024000.0;
	int approx = 0;

	if (h && (h->trans_delay != VLCFG_UNSET || h->trans_per_kib_ps != VLCFG_UNSET)) {
		/* a host override replaces the link's model (vli_trans_time) */
		if (h->trans_delay != VLCFG_UNSET)
			d = (double)h->trans_delay;
		if (h->trans_per_kib_ps != VLCFG_UNSET)
			per_byte = (double)h->trans_per_kib_ps / 1024000.0;
	} else if (l->trans_model.n == 1) {
		d = (double)l->trans_model.ns[0];
		per_byte = 0;
		approx = 1;
	} else if (l->trans_model.n > 1) {
		/* the line through the first and the last breakpoints */
		const vlcfg_pwl *m = &l->trans_model;

		per_byte = (double)(m->ns[m->n - 1] - m->ns[0]) /
			   (double)(m->bytes[m->n - 1] - m->bytes[0]);
		d = (double)m->ns[0] - per_byte * (double)m->bytes[0];
		if (d < 0)
			d = 0;
		approx = 1;
	}
	*delay_ns = d;
	*ns_per_byte = per_byte;
	return approx;
}

/* A message's latency (ns; a torus: a hop's) and each link's bandwidth
 * (bytes per ns, 0: no limit): [topology]'s, else [network inter]'s line
 * (vli_trans_line). */
void vli_net_params(const vlcfg_config *c, int64_t *lat, double *bpns)
{
	double d, per_byte;

	vli_trans_line(c, -1, 0, &d, &per_byte);
	*lat = c->topo.latency != VLCFG_UNSET ? c->topo.latency : (int64_t)llround(d);
	if (c->topo.bandwidth > 0)
		*bpns = c->topo.bandwidth / 1e9;
	else
		*bpns = per_byte > 0 ? 1.0 / per_byte : 0;
}

static int leaves(const vlcfg_config *c)
{
	return (c->nhosts + c->topo.leaf_hosts - 1) / c->topo.leaf_hosts;
}

int vli_net_nres(const vlcfg_config *c)
{
	const vlcfg_topo *t = &c->topo;

	switch (t->kind) {
	case VLCFG_TOPO_FATTREE:
		return (c->nhosts + leaves(c) * t->spines) * (t->half_duplex ? 1 : 2);
	case VLCFG_TOPO_STAR:
	case VLCFG_TOPO_SWITCH:
		return c->nhosts * (t->half_duplex ? 1 : 2) +
		       (t->kind == VLCFG_TOPO_SWITCH && t->backplane > 0);
	case VLCFG_TOPO_BUS:
		return 1;
	case VLCFG_TOPO_TORUS:
		return c->nhosts * t->ndims * (t->half_duplex ? 1 : 2);
	default:
		return 0;
	}
}

double vli_net_cap(const vlcfg_config *c, int res)
{
	int64_t lat;
	double bpns;

	vli_net_params(c, &lat, &bpns);
	if (c->topo.kind == VLCFG_TOPO_SWITCH && c->topo.backplane > 0 &&
	    res == vli_net_nres(c) - 1)
		return c->topo.backplane / 1e9;
	if (c->topo.kind == VLCFG_TOPO_FATTREE && c->topo.uplink_bw > 0 &&
	    res >= c->nhosts * (c->topo.half_duplex ? 1 : 2))
		return c->topo.uplink_bw / 1e9;
	return bpns;
}

int vli_net_maxroute(const vlcfg_config *c)
{
	int d, n = 3;

	if (c->topo.kind == VLCFG_TOPO_TORUS)
		for (n = 0, d = 0; d < c->topo.ndims; d++)
			n += c->topo.dims[d] / 2;
	if (c->topo.kind == VLCFG_TOPO_FATTREE)
		n = 4;
	return n > 0 ? n : 1;
}

int vli_torus_coord(const vlcfg_topo *t, int h, int d)
{
	int i;

	for (i = 0; i < d; i++)
		h /= t->dims[i];
	return h % t->dims[d];
}

int vli_torus_moved(const vlcfg_topo *t, int h, int d, int x)
{
	int i, stride = 1;

	for (i = 0; i < d; i++)
		stride *= t->dims[i];
	return h + (x - vli_torus_coord(t, h, d)) * stride;
}

#define coord vli_torus_coord
#define moved vli_torus_moved

int vli_net_route(const vlcfg_config *c, int src, int dst, int *res, int64_t *lat)
{
	const vlcfg_topo *t = &c->topo;
	double bpns;
	int n = 0, d, h = src, hd = t->half_duplex;

	vli_net_params(c, lat, &bpns);
	if (!vli_net_on(c) || src == dst || src < 0 || dst < 0 || src >= c->nhosts ||
	    dst >= c->nhosts)
		return 0;
	switch (t->kind) {
	case VLCFG_TOPO_STAR:
	case VLCFG_TOPO_SWITCH:
		res[n++] = hd ? src : 2 * src;
		if (t->kind == VLCFG_TOPO_SWITCH && t->backplane > 0)
			res[n++] = vli_net_nres(c) - 1;
		res[n++] = hd ? dst : 2 * dst + 1;
		break;
	case VLCFG_TOPO_BUS:
		res[n++] = 0;
		break;
	case VLCFG_TOPO_FATTREE: {
		int ls = src / t->leaf_hosts, ld = dst / t->leaf_hosts, sp = dst % t->spines;
		int base = c->nhosts * (hd ? 1 : 2), u = t->spines;

		res[n++] = hd ? src : 2 * src;
		if (ls != ld) { /* up to spine dst mod S, down to dst's leaf */
			res[n++] = hd ? base + ls * u + sp : base + 2 * (ls * u + sp);
			res[n++] = hd ? base + ld * u + sp : base + 2 * (ld * u + sp) + 1;
		}
		res[n++] = hd ? dst : 2 * dst + 1;
		*lat *= n; /* a hop's latency per link */
		break;
	}
	case VLCFG_TOPO_TORUS: {
		int64_t hop = *lat;

		for (d = 0; d < t->ndims; d++) {
			int m = t->dims[d], up = (coord(t, dst, d) - coord(t, h, d) + m) % m;
			int dir = up <= m - up ? 1 : -1, steps = dir > 0 ? up : m - up;

			while (steps-- > 0) {
				int next = moved(t, h, d, (coord(t, h, d) + dir + m) % m);

				if (hd)
					res[n++] = (dir > 0 ? h : next) * t->ndims + d;
				else
					res[n++] = 2 * (h * t->ndims + d) + (dir < 0);
				h = next;
			}
		}
		*lat = hop * n;
		break;
	}
	default:
		break;
	}
	return n;
}

int64_t vli_net_latency(const vlcfg_config *c, int src, int dst)
{
	int64_t lat;
	double bpns;
	int *res, n;

	if ((c->topo.kind != VLCFG_TOPO_TORUS && c->topo.kind != VLCFG_TOPO_FATTREE) || src < 0 ||
	    dst < 0 || src >= c->nhosts || dst >= c->nhosts) {
		vli_net_params(c, &lat, &bpns);
		return lat;
	}
	res = xcalloc((size_t)vli_net_maxroute(c), sizeof *res);
	n = vli_net_route(c, src, dst, res, &lat);
	free(res);
	return n > 0 ? lat : 0;
}

/* ---- the flow model ---- */


#define FLOW_EPS 1e-6 /* ns: events this close together happen at once */


void vli_flows_init(vli_flows *f, const vlcfg_config *c)
{
	int r;

	memset(f, 0, sizeof *f);
	f->c = c;
	f->nres = vli_net_nres(c);
	f->maxroute = vli_net_maxroute(c);
	f->cap = xcalloc((size_t)f->nres + 1, sizeof *f->cap);
	f->rem = xcalloc((size_t)f->nres + 1, sizeof *f->rem);
	f->cnt = xcalloc((size_t)f->nres + 1, sizeof *f->cnt);
	for (r = 0; r < f->nres; r++)
		f->cap[r] = vli_net_cap(c, r);
}

void vli_flows_free(vli_flows *f)
{
	free(f->cap);
	free(f->rem);
	free(f->cnt);
	free(f->flow);
	free(f->route);
	free(f->live);
	memset(f, 0, sizeof *f);
}

static void *grow(void *p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return p;
	while (*cap < need)
		*cap = *cap ? 2 * *cap : 64;
	p = realloc(p, (size_t)*cap * size);
	if (!p)
		vli_error(3, "out of memory (flows of the network model)");
	return p;
}

/* sharing = fifo: the active flows in the order they took bandwidth
 * (activation time, then id), each taking what its route has left. */
static int fifo_cmp(const void *a, const void *b, void *arg)
{
	const vli_flows *f = arg;
	const vli_flow *x = &f->flow[*(const int *)a], *y = &f->flow[*(const int *)b];

	if (x->act != y->act)
		return x->act < y->act ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

static void share_fifo(vli_flows *f)
{
	int i, k, r;

	for (r = 0; r < f->nres; r++)
		f->rem[r] = f->cap[r];
	qsort_r(f->live, (size_t)f->nlive, sizeof *f->live, fifo_cmp, f);
	for (i = 0; i < f->nlive; i++) {
		vli_flow *fl = &f->flow[f->live[i]];
		double s = INFINITY;

		fl->rate = 0;
		if (fl->state != VLI_FLOW_ACTIVE)
			continue;
		for (k = 0; k < fl->nres; k++) {
			r = f->route[fl->route + k];
			if (f->cap[r] > 0 && f->rem[r] < s)
				s = f->rem[r] > 0 ? f->rem[r] : 0;
		}
		fl->rate = s;
		if (isinf(s))
			continue;
		for (k = 0; k < fl->nres; k++) {
			r = f->route[fl->route + k];
			if (f->cap[r] > 0)
				f->rem[r] -= s;
		}
	}
}

/* Max-min fair rates of the active flows (progressive filling). */
static void share(vli_flows *f)
{
	int i, k, r;

	if (f->c->topo.fifo) {
		share_fifo(f);
		return;
	}

	for (r = 0; r < f->nres; r++) {
		f->rem[r] = f->cap[r];
		f->cnt[r] = 0;
	}
	for (i = 0; i < f->nlive; i++) {
		vli_flow *fl = &f->flow[f->live[i]];

		fl->fixed = fl->state != VLI_FLOW_ACTIVE;
		fl->rate = 0;
		if (fl->fixed)
			continue;
		for (k = 0; k < fl->nres; k++)
			if (f->cap[f->route[fl->route + k]] > 0)
				f->cnt[f->route[fl->route + k]]++;
	}
	for (;;) {
		int best = -1;
		double s = 0;

		for (r = 0; r < f->nres; r++)
			if (f->cnt[r] > 0 && (best < 0 || f->rem[r] / f->cnt[r] < s)) {
				best = r;
				s = f->rem[r] / f->cnt[r];
			}
		if (best < 0)
			break;
		if (s < 0)
			s = 0;
		for (i = 0; i < f->nlive; i++) {
			vli_flow *fl = &f->flow[f->live[i]];
			int on = 0;

			if (fl->fixed)
				continue;
			for (k = 0; k < fl->nres; k++)
				on |= f->route[fl->route + k] == best;
			if (!on)
				continue;
			fl->fixed = 1;
			fl->rate = s;
			for (k = 0; k < fl->nres; k++) {
				r = f->route[fl->route + k];
				if (f->cap[r] > 0) {
					f->rem[r] -= s;
					f->cnt[r]--;
				}
			}
		}
		f->cnt[best] = 0;
	}
	/* a flow that crosses no limited resource takes no time for its bytes */
	for (i = 0; i < f->nlive; i++) {
		vli_flow *fl = &f->flow[f->live[i]];

		if (!fl->fixed)
			fl->rate = INFINITY;
	}
}

/* Add a flow src -> dst leaving at start with left bytes that takes
 * bandwidth from act on (act < 0: after its route's latency); its id. */
static int flows_add(vli_flows *f, int src, int dst, double left, int64_t start, double act)
{
	vli_flow *fl;
	int64_t lat;
	int id = f->n;

	f->flow = grow(f->flow, &f->capflow, f->n + 1, sizeof *f->flow);
	f->route = grow(f->route, &f->caproute, f->nroute + f->maxroute, sizeof *f->route);
	f->live = grow(f->live, &f->caplive, f->nlive + 1, sizeof *f->live);
	fl = &f->flow[f->n++];
	memset(fl, 0, sizeof *fl);
	fl->route = f->nroute;
	fl->nres = vli_net_route(f->c, src, dst, f->route + f->nroute, &lat);
	f->nroute += fl->nres;
	fl->start = start;
	fl->act = act >= 0 ? act : (double)start + (double)lat;
	fl->left = left > 0 ? left : 0;
	fl->state = VLI_FLOW_LATENT;
	f->live[f->nlive++] = id;
	if (f->next_ok && fl->act < f->next)
		f->next = fl->act; /* a latent flow's next event: taking bandwidth */
	return id;
}

int vli_flows_add(vli_flows *f, int src, int dst, int64_t bytes, int64_t start)
{
	return flows_add(f, src, dst, (double)bytes, start, -1);
}

int vli_flows_add_at(vli_flows *f, int src, int dst, double left, int64_t start, double act)
{
	return flows_add(f, src, dst, left, start, act);
}

/* When a live flow's next event comes: taking bandwidth, or ending. */
static double flow_next(const vli_flow *fl, double now)
{
	if (fl->state == VLI_FLOW_LATENT)
		return fl->act;
	if (fl->left <= 0 || isinf(fl->rate))
		return now;
	if (fl->rate <= 0)
		return INFINITY;
	return now + fl->left / fl->rate;
}

double vli_flows_next(vli_flows *f)
{
	double t = INFINITY, v;
	int i;

	if (f->next_ok)
		return f->next;
	for (i = 0; i < f->nlive; i++)
		if ((v = flow_next(&f->flow[f->live[i]], f->now)) < t)
			t = v;
	f->next = t;
	f->next_ok = 1;
	return t;
}

double vli_flows_step(vli_flows *f)
{
	double t = vli_flows_next(f), dt;
	int i, j, changed = 0;

	if (isinf(t))
		return t;
	if (t < f->now)
		t = f->now;
	dt = t - f->now;
	for (i = 0; i < f->nlive; i++) {
		vli_flow *fl = &f->flow[f->live[i]];
		double v = flow_next(fl, f->now);

		if (fl->state == VLI_FLOW_LATENT) {
			if (v <= t + FLOW_EPS) {
				fl->state = VLI_FLOW_ACTIVE;
				changed = 1;
			}
		} else if (v <= t + FLOW_EPS) {
			fl->left = 0;
			fl->state = VLI_FLOW_DONE;
			fl->end = t;
			changed = 1;
		} else {
			fl->left -= fl->rate * dt;
		}
	}
	f->now = t;
	f->next_ok = 0;
	for (i = j = 0; i < f->nlive; i++)
		if (f->flow[f->live[i]].state != VLI_FLOW_DONE)
			f->live[j++] = f->live[i];
	f->nlive = j;
	if (changed)
		share(f);
	/* a flow that became active with nothing to carry (no bytes, or no
	 * limited resource) ends at once */
	for (i = 0; i < f->nlive; i++) {
		vli_flow *fl = &f->flow[f->live[i]];

		if (fl->state == VLI_FLOW_ACTIVE && (fl->left <= 0 || isinf(fl->rate)))
			return vli_flows_step(f);
	}
	return t;
}

void vli_flows_advance(vli_flows *f, double t)
{
	double v;

	while (!isinf(v = vli_flows_next(f)) && v <= t)
		vli_flows_step(f);
}

int vli_flows_state(const vli_flows *f, int id, double *left)
{
	*left = f->flow[id].left;
	return f->flow[id].state;
}

int vli_flows_end(const vli_flows *f, int id, int64_t *end)
{
	const vli_flow *fl = &f->flow[id];

	if (fl->state != VLI_FLOW_DONE)
		return 0;
	*end = (int64_t)llround(fl->end);
	return 1;
}
