/* links.c - shared links (issue 13): the [topology] of the VMConfig as
 * resources and routes, and the flow model that shares them.
 *
 * A message between two hosts is a flow: it leaves at `start` (the end of its
 * send time S), holds no bandwidth during its route's latency, then crosses
 * every resource of its route at one rate until its bytes are through; it
 * arrives then.  Concurrent flows share each resource max-min fairly
 * (progressive filling, as TCP roughly does and SimGrid's flow model does):
 * the rates are recomputed whenever a flow starts taking bandwidth or ends.
 * The flows of one route get one rate, so the simulation works on groups of
 * them (one per route in use), each with a heap of its flows by finish tag:
 * an event costs O(groups x route length), not O(flows), and a checkpoint
 * resumes a group's arithmetic exactly (flowtab.c; sharing = fifo goes flow
 * by flow).
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

int64_t vli_net_alone_ns(const vlcfg_config *c, int src, int dst, int64_t bytes)
{
	int64_t lat;
	int *res, n, i;
	double cap = 0, k;

	res = xcalloc((size_t)vli_net_maxroute(c) + 1, sizeof *res);
	n = vli_net_route(c, src, dst, res, &lat);
	for (i = 0; i < n; i++)
		if ((k = vli_net_cap(c, res[i])) > 0 && (cap == 0 || k < cap))
			cap = k;
	free(res);
	return n ? lat + (cap > 0 ? (int64_t)((double)bytes / cap) : 0) : 0;
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
	f->take = xcalloc((size_t)f->nres + 1, sizeof *f->take);
	f->touch = xcalloc((size_t)f->nres + 1, sizeof *f->touch);
	for (r = 0; r < f->nres; r++)
		f->cap[r] = vli_net_cap(c, r);
}

void vli_flows_free(vli_flows *f)
{
	int r;

	free(f->cap);
	free(f->rem);
	free(f->cnt);
	free(f->take);
	free(f->touch);
	free(f->flow);
	free(f->route);
	free(f->live);
	for (r = 0; r < f->ngrp; r++) {
		free(f->grp[r].heap);
		free(f->grp[r].lq);
	}
	free(f->grp);
	free(f->gmap);
	free(f->busy);
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

/* ---- sharing = fair, by groups ----
 * Max-min fairness gives the active flows of one route one rate, so the
 * simulation keeps a group per route: its rate, the bytes each of its
 * flows has been given so far (svc), and its active flows in a heap by
 * finish tag (svc when they took bandwidth + their bytes).  An event costs
 * O(groups) instead of O(flows) (the ray tracer on a bus has hundreds of
 * messages in flight between a dozen pairs of hosts). */

static int fair(const vli_flows *f)
{
	return !f->c->topo.fifo;
}

/* order of a group's heap: finish tag, then id; of its latent queue: act,
 * then id */
static int before(const vli_flows *f, int a, int b, int latent)
{
	double x = latent ? f->flow[a].act : f->flow[a].ftag;
	double y = latent ? f->flow[b].act : f->flow[b].ftag;

	return x < y || (x == y && a < b);
}

static void sift_down(const vli_flows *f, int *h, int n, int i)
{
	int x = h[i], c;

	for (; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && before(f, h[c + 1], h[c], 0))
			c++;
		if (!before(f, h[c], x, 0))
			break;
		h[i] = h[c];
	}
	h[i] = x;
}

static void heap_push(vli_flows *f, vli_fgroup *G, int id)
{
	int i;

	G->heap = grow(G->heap, &G->capheap, G->nheap + 1, sizeof *G->heap);
	for (i = G->nheap++; i > 0 && before(f, id, G->heap[(i - 1) / 2], 0); i = (i - 1) / 2)
		G->heap[i] = G->heap[(i - 1) / 2];
	G->heap[i] = id;
}

static int heap_pop(vli_flows *f, vli_fgroup *G)
{
	int top = G->heap[0];

	G->heap[0] = G->heap[--G->nheap];
	if (G->nheap > 0)
		sift_down(f, G->heap, G->nheap, 0);
	return top;
}

/* A flow not taking bandwidth yet joins its group's queue (added in the
 * order of act, as a checkpoint's table adds them: at its end). */
static void lq_add(vli_flows *f, vli_fgroup *G, int id)
{
	int i;

	G->lq = grow(G->lq, &G->caplq, G->nlq + 1, sizeof *G->lq);
	for (i = G->nlq++; i > G->lhead && before(f, id, G->lq[i - 1], 1); i--)
		G->lq[i] = G->lq[i - 1];
	G->lq[i] = id;
}

/* The group of route src -> dst (made if new; fl: a flow of it, whose
 * route it takes). */
static int group_of(vli_flows *f, const vli_flow *fl, int src, int dst)
{
	unsigned key = (unsigned)src * 40503u + (unsigned)dst, i;
	vli_fgroup *g;

	if (2 * (f->ngrp + 1) > f->capgmap) {
		int n = f->capgmap ? 2 * f->capgmap : 64, k;

		free(f->gmap);
		f->gmap = xcalloc((size_t)n, sizeof *f->gmap);
		f->capgmap = n;
		for (k = 0; k < f->ngrp; k++) {
			unsigned h = ((unsigned)f->grp[k].src * 40503u + (unsigned)f->grp[k].dst) &
				     (unsigned)(n - 1);
			while (f->gmap[h])
				h = (h + 1) & (unsigned)(n - 1);
			f->gmap[h] = k + 1;
		}
	}
	for (i = key & (unsigned)(f->capgmap - 1); f->gmap[i]; i = (i + 1) & (unsigned)(f->capgmap - 1))
		if (f->grp[f->gmap[i] - 1].src == src && f->grp[f->gmap[i] - 1].dst == dst)
			return f->gmap[i] - 1;
	f->grp = grow(f->grp, &f->capgrp, f->ngrp + 1, sizeof *f->grp);
	g = &f->grp[f->ngrp];
	memset(g, 0, sizeof *g);
	g->src = src;
	g->dst = dst;
	g->route = fl->route;
	g->nres = fl->nres;
	f->gmap[i] = ++f->ngrp;
	return f->ngrp - 1;
}

/* Max-min fair rates of the groups (progressive filling, each group
 * weighing as many flows as it has active).  What a round takes from a
 * resource is summed in whole flows first, so that the result does not
 * depend on the order of the groups (which a checkpoint changes). */
static void share_groups(vli_flows *f)
{
	int g, k, r;

	for (r = 0; r < f->nres; r++) {
		f->rem[r] = f->cap[r];
		f->cnt[r] = 0;
	}
	for (g = 0; g < f->nbusy; g++) {
		vli_fgroup *G = &f->grp[f->busy[g]];

		G->fixed = !G->nact;
		G->rate = 0;
		for (k = 0; !G->fixed && k < G->nres; k++)
			if (f->cap[f->route[G->route + k]] > 0)
				f->cnt[f->route[G->route + k]] += G->nact;
	}
	for (;;) {
		int best = -1, nt = 0;
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
		for (g = 0; g < f->nbusy; g++) {
			vli_fgroup *G = &f->grp[f->busy[g]];
			int on = 0;

			if (G->fixed)
				continue;
			for (k = 0; k < G->nres; k++)
				on |= f->route[G->route + k] == best;
			if (!on)
				continue;
			G->fixed = 1;
			G->rate = s;
			for (k = 0; k < G->nres; k++) {
				r = f->route[G->route + k];
				if (!f->take[r])
					f->touch[nt++] = r;
				f->take[r] += G->nact;
			}
		}
		for (k = 0; k < nt; k++) {
			r = f->touch[k];
			if (f->cap[r] > 0) {
				f->rem[r] -= s * f->take[r];
				f->cnt[r] -= f->take[r];
			}
			f->take[r] = 0;
		}
		f->cnt[best] = 0;
	}
	/* a group that crosses no limited resource takes no time for its bytes */
	for (g = 0; g < f->nbusy; g++)
		if (!f->grp[f->busy[g]].fixed)
			f->grp[f->busy[g]].rate = INFINITY;
}

/* When active flow id of group G is through at G's rate (now: its bytes
 * are; INFINITY: no rate). */
static double due(const vli_flows *f, const vli_fgroup *G, int id)
{
	double left = f->flow[id].ftag - G->svc;

	if (left <= 0 || isinf(G->rate))
		return f->now;
	if (G->rate <= 0)
		return INFINITY;
	return f->now + left / G->rate;
}

/* When group G's next event comes: a flow takes bandwidth, or the first is
 * through. */
static double group_next(const vli_flows *f, const vli_fgroup *G)
{
	double t = G->lhead < G->nlq ? f->flow[G->lq[G->lhead]].act : INFINITY, v;

	if (G->nheap && (v = due(f, G, G->heap[0])) < t)
		t = v;
	return t;
}

static double next_fair(vli_flows *f)
{
	double t = INFINITY, v;
	int g;

	for (g = 0; g < f->nbusy; g++)
		if ((v = group_next(f, &f->grp[f->busy[g]])) < t)
			t = v;
	return t;
}

static void end_flow(vli_flows *f, vli_fgroup *G, int id, double t)
{
	vli_flow *fl = &f->flow[id];

	G->nact--;
	fl->left = 0;
	fl->state = VLI_FLOW_DONE;
	fl->end = t;
}

/* Group G's active flows through by t end (each judged as the next event
 * was, so the one that set it ends): one by one off the heap, or, once
 * many end at once (equal messages sent together), in one pass. */
static int end_group(vli_flows *f, vli_fgroup *G, double t)
{
	int n = 0, i, j;

	while (G->nheap && due(f, G, G->heap[0]) <= t + FLOW_EPS) {
		if (++n > 8) {
			for (i = j = 0; i < G->nheap; i++) {
				if (due(f, G, G->heap[i]) <= t + FLOW_EPS)
					end_flow(f, G, G->heap[i], t);
				else
					G->heap[j++] = G->heap[i];
			}
			G->nheap = j;
			for (i = G->nheap / 2 - 1; i >= 0; i--)
				sift_down(f, G->heap, G->nheap, i);
			return 1;
		}
		end_flow(f, G, heap_pop(f, G), t);
	}
	return n > 0;
}

static double step_fair(vli_flows *f)
{
	double t = vli_flows_next(f), dt;
	int g, j, changed = 0;

	if (isinf(t))
		return t;
	if (t < f->now)
		t = f->now;
	dt = t - f->now;
	/* the flows through by t (at the rates until now: their end computed
	 * as the next event's was, so that the one that set it ends) end; the
	 * others go on */
	for (g = 0; g < f->nbusy; g++) {
		vli_fgroup *G = &f->grp[f->busy[g]];

		if (!G->nact)
			continue;
		changed |= end_group(f, G, t);
		if (!G->nact)
			G->svc = 0; /* (a busy period's arithmetic depends on it alone) */
		else if (!isinf(G->rate))
			G->svc += G->rate * dt;
	}
	/* the latent ones whose time has come take bandwidth */
	for (g = 0; g < f->nbusy; g++) {
		vli_fgroup *G = &f->grp[f->busy[g]];

		while (G->lhead < G->nlq && f->flow[G->lq[G->lhead]].act <= t + FLOW_EPS) {
			int id = G->lq[G->lhead++];
			vli_flow *fl = &f->flow[id];

			fl->state = VLI_FLOW_ACTIVE;
			if (fl->resume) /* (all of a group's at once, at the first step) */
				G->svc = fl->rsvc;
			else
				fl->ftag = G->svc + fl->left;
			heap_push(f, G, id);
			G->nact++;
			changed = 1;
		}
		if (G->lhead == G->nlq)
			G->lhead = G->nlq = 0;
	}
	f->now = t;
	f->next_ok = 0;
	/* (the groups with nothing left leave the busy list: the order of
	 * that list changes no result) */
	for (g = j = 0; g < f->nbusy; g++) {
		vli_fgroup *G = &f->grp[f->busy[g]];

		if (G->nheap || G->lhead < G->nlq)
			f->busy[j++] = f->busy[g];
		else
			G->busy = 0;
	}
	f->nbusy = j;
	if (changed)
		share_groups(f);
	/* a flow that became active with nothing to carry (no bytes, or no
	 * limited resource) ends at once */
	for (g = 0; g < f->nbusy; g++) {
		vli_fgroup *G = &f->grp[f->busy[g]];

		if (G->nheap && due(f, G, G->heap[0]) <= f->now)
			return step_fair(f);
	}
	return t;
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
	if (fair(f)) {
		fl->grp = group_of(f, fl, src, dst);
		lq_add(f, &f->grp[fl->grp], id);
		if (!f->grp[fl->grp].busy) {
			f->busy = grow(f->busy, &f->capbusy, f->nbusy + 1, sizeof *f->busy);
			f->busy[f->nbusy++] = fl->grp;
			f->grp[fl->grp].busy = 1;
		}
	} else {
		f->live[f->nlive++] = id;
	}
	if (f->next_ok && fl->act < f->next)
		f->next = fl->act; /* a latent flow's next event: taking bandwidth */
	return id;
}

int vli_flows_add(vli_flows *f, int src, int dst, int64_t bytes, int64_t start)
{
	return flows_add(f, src, dst, (double)bytes, start, -1);
}

int vli_flows_add_at(vli_flows *f, int src, int dst, double left, double svc, int64_t start,
		     double act)
{
	int id = flows_add(f, src, dst, left, start, act);

	if (fair(f)) {
		f->flow[id].resume = 1;
		f->flow[id].ftag = left;
		f->flow[id].rsvc = svc;
	}
	return id;
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
	if (fair(f)) {
		f->next = next_fair(f);
		f->next_ok = 1;
		return f->next;
	}
	for (i = 0; i < f->nlive; i++)
		if ((v = flow_next(&f->flow[f->live[i]], f->now)) < t)
			t = v;
	f->next = t;
	f->next_ok = 1;
	return t;
}

double vli_flows_step(vli_flows *f)
{
	double t, dt;
	int i, j, changed = 0;

	if (fair(f))
		return step_fair(f);
	t = vli_flows_next(f);
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
		share_fifo(f);
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

int vli_flows_at(const vli_flows *f, int id, double *left, double *svc)
{
	const vli_flow *fl = &f->flow[id];

	*left = fl->left;
	*svc = 0;
	if (fl->state == VLI_FLOW_ACTIVE && fair(f)) {
		*left = fl->ftag;
		*svc = f->grp[fl->grp].svc;
	}
	return fl->state;
}

int vli_flows_end(const vli_flows *f, int id, int64_t *end)
{
	const vli_flow *fl = &f->flow[id];

	if (fl->state != VLI_FLOW_DONE)
		return 0;
	*end = (int64_t)llround(fl->end);
	return 1;
}
