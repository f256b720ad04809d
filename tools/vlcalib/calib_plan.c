/* calib_plan.c - the plan of the measurement programs: the rows of every
 * selected experiment, in order (vlcal_run); every task runs the same plan.
 * The BSP task counts and h values, and the tasks and sizes of the sharing
 * experiments, are chosen here. */
#include "calib_impl.h"
#include "util/diag.h"

#include <stdlib.h>

#define MIB (1024L * 1024L)

static int gap_count(size_t bytes)
{
	size_t n = bytes ? (size_t)(16 * MIB) / bytes : 100;

	return n < 8 ? 8 : n > 100 ? 100 : (int)n;
}

static int want(const vlcal_calib *c, int e)
{
	return (c->o->only >> e) & 1;
}

static void pingpong_family(vlcal_calib *c, int k)
{
	static const struct {
		int exp;
		vlcal_sample_fn fn;
		enum vlcal_collect col;
	} fam[] = {{VL_CALIB_RTT, vlcal_sample_rtt, VL_CALIB_COLLECT_ROOT},
	           {VL_CALIB_ONEWAY, vlcal_sample_oneway, VL_CALIB_COLLECT_ONEWAY},
	           {VL_CALIB_SEND, vlcal_sample_send, VL_CALIB_COLLECT_ROOT},
	           {VL_CALIB_RECV, vlcal_sample_recv, VL_CALIB_COLLECT_PARTNER},
	           {VL_CALIB_GAP, vlcal_sample_gap, VL_CALIB_COLLECT_ROOT}};
	int partner = vlcal_partner_of(c, k), parts[2] = {0, partner};
	size_t e;
	int i;

	if (partner < 0 || !vlcal_phase_begin(c, parts, 2))
		return;
	for (e = 0; e < sizeof fam / sizeof fam[0]; e++) {
		if (!want(c, fam[e].exp))
			continue;
		for (i = 0; i < c->o->nsizes; i++) {
			vlcal_row r = {.exp = fam[e].exp,
			               .link = vlcal_link_name[k],
			               .procs = 2,
			               .bytes = c->o->sizes[i],
			               .partner = partner,
			               .collect = fam[e].col};

			if (r.exp == VL_CALIB_GAP)
				r.count = gap_count(r.bytes);
			if (r.exp == VL_CALIB_ONEWAY && !c->same_clock[k])
				r.offset = vlcal_estimate_offset(c, partner,
				                                 vlcal_offset_pings(c) / 4, NULL);
			vlcal_run_row(c, &r, fam[e].fn);
		}
	}
	vlcal_phase_end(c);
}

static void pack_rows(vlcal_calib *c)
{
	int parts[1] = {0}, i;

	if (!c->ops->pack || !want(c, VL_CALIB_PACK) || !vlcal_phase_begin(c, parts, 1))
		return;
	for (i = 0; i < c->o->nsizes; i++) {
		vlcal_row r = {
		    .exp = VL_CALIB_PACK, .link = "intra", .procs = 1, .bytes = c->o->sizes[i]};

		vlcal_run_row(c, &r, vlcal_sample_pack);
	}
	vlcal_phase_end(c);
}

static void contention_rows(vlcal_calib *c, int k)
{
	int *parts = vlu_xmalloc(c->w->size * sizeof *parts), n = 1, r, i, j;

	parts[0] = 0;
	for (r = 1; r < c->w->size; r++)
		if ((c->w->node[r] != c->w->node[0]) == k)
			parts[n++] = r;
	for (j = 2; j <= n; j++) {
		if (!vlcal_phase_begin(c, parts, j))
			continue;
		for (i = 0; i < c->o->nsizes; i++) {
			vlcal_row rw = {.exp = VL_CALIB_CONTENTION,
			                .link = vlcal_link_name[k],
			                .procs = j,
			                .bytes = c->o->sizes[i]};

			vlcal_run_row(c, &rw, vlcal_sample_contention);
		}
		vlcal_phase_end(c);
	}
	free(parts);
}

/* this task's destinations and sources in pattern e among p tasks; message size */
static size_t bsp_pattern(vlcal_calib *c, vlcal_row *r, long h)
{
	int me = c->w->rank, p = r->p, i;

	r->nd = r->ns = 0;
	switch (r->exp) {
	case VL_CALIB_BSP_PINGPONG:
		if (me % 2 == 0 && me + 1 < p)
			c->dst[r->nd++] = me + 1;
		if (me % 2 == 1)
			c->src[r->ns++] = me - 1;
		return (size_t)h;
	case VL_CALIB_BSP_EXCHANGE:
		if ((me ^ 1) < p) {
			c->dst[r->nd++] = me ^ 1;
			c->src[r->ns++] = me ^ 1;
		}
		return (size_t)h / 2;
	case VL_CALIB_BSP_ONETOALL:
	case VL_CALIB_BSP_ALLTOONE: {
		int out = r->exp == VL_CALIB_BSP_ONETOALL;

		for (i = 1; i < p && me == 0; i++) {
			if (out)
				c->dst[r->nd++] = i;
			else
				c->src[r->ns++] = i;
		}
		if (me != 0 && out)
			c->src[r->ns++] = 0;
		else if (me != 0)
			c->dst[r->nd++] = 0;
		return (size_t)h / (p - 1);
	}
	case VL_CALIB_BSP_ALLTOALL:
		for (i = 0; i < p; i++) {
			if (i != me) {
				c->dst[r->nd++] = i;
				c->src[r->ns++] = i;
			}
		}
		return (size_t)h / (2 * (p - 1));
	}
	return 0;
}

static void bsp_rows(vlcal_calib *c, int p)
{
	int *parts = vlu_xmalloc(p * sizeof *parts), i, e, all_one = 1;
	const char *link;

	for (i = 0; i < p; i++) {
		parts[i] = i;
		all_one &= c->w->node[i] == c->w->node[0];
	}
	link = vlcal_link_name[!all_one];
	if (vlcal_phase_begin(c, parts, p)) {
		for (e = VL_CALIB_BSP_EXCHANGE; e <= VL_CALIB_BSP_BARRIER; e++) {
			int nh = e == VL_CALIB_BSP_BARRIER ? 1 : c->nh;

			for (i = 0; i < nh && want(c, e); i++) {
				vlcal_row r = {.exp = e,
				               .link = link,
				               .procs = p,
				               .p = p,
				               .collect = VL_CALIB_COLLECT_MAX};

				if (e != VL_CALIB_BSP_BARRIER) {
					r.h = c->h[i];
					r.bytes = bsp_pattern(c, &r, r.h);
				}
				vlcal_run_row(c, &r, vlcal_sample_bsp);
			}
		}
		vlcal_phase_end(c);
	}
	free(parts);
}

/* The sizes of the sharing experiments: the ping-pong sizes that are 0 or a
 * power of 4 (all of them if fewer than 2 are). */
static int share_sizes(const vlcal_calib *c, size_t *out)
{
	int i, n = 0;

	for (i = 0; i < c->o->nsizes; i++) {
		size_t b = c->o->sizes[i];

		if (b == 0 || ((b & (b - 1)) == 0 && (b & 0x5555555555555555ULL)))
			out[n++] = b;
	}
	if (n >= 2)
		return n;
	for (i = 0; i < c->o->nsizes; i++)
		out[i] = c->o->sizes[i];
	return c->o->nsizes;
}

/* The rows of sharing experiment e among parts[0..n-1] (one task per host). */
static void share_exp(vlcal_calib *c, int k, int e, const int *parts, int n)
{
	static const vlcal_sample_fn fn[] = {vlcal_sample_share_exchange, vlcal_sample_contention,
	                                     vlcal_sample_share_fanin, vlcal_sample_share_alltoall,
	                                     vlcal_sample_share_first};
	size_t sizes[VLCAL_MAX_LIST];
	int ns = share_sizes(c, sizes), i;

	if (!vlcal_phase_begin(c, parts, n))
		return;
	for (i = 0; i < ns; i++) {
		vlcal_row r = {.exp = e,
		               .link = vlcal_link_name[k],
		               .procs = n,
		               .bytes = sizes[i],
		               .partner = parts[1]};

		if (e == VL_CALIB_SHARE_FIRST) { /* a one-way time, as oneway's */
			r.collect = VL_CALIB_COLLECT_ONEWAY;
			r.offset = c->same_clock[k] ? 0 : c->offset[k];
		}

		vlcal_run_row(c, &r, fn[e - VL_CALIB_SHARE_EXCHANGE]);
	}
	vlcal_phase_end(c);
}

/* The sharing experiments over link kind k: rank 0 and the first task of
 * every other node (inter) or the tasks of its own node (intra).  Exchange
 * with the first, fan-out and fan-in with k = 1 .. n-1 of them, all-to-all
 * among p = 3 .. n, the fan-out's first arrival with k = 2 .. n-1. */
static void share_rows(vlcal_calib *c, int k)
{
	int *parts = vlu_xmalloc(c->w->size * sizeof *parts), n = 1, r, q, j;

	parts[0] = 0;
	for (r = 1; r < c->w->size; r++) {
		for (q = 1; q < r && c->w->node[q] != c->w->node[r]; q++)
			;
		if (k ? c->w->node[r] != c->w->node[0] && q == r : c->w->node[r] == c->w->node[0])
			parts[n++] = r;
	}
	if (n >= 2 && want(c, VL_CALIB_SHARE_EXCHANGE))
		share_exp(c, k, VL_CALIB_SHARE_EXCHANGE, parts, 2);
	for (j = 2; j <= n; j++) {
		if (want(c, VL_CALIB_SHARE_FANOUT))
			share_exp(c, k, VL_CALIB_SHARE_FANOUT, parts, j);
		if (want(c, VL_CALIB_SHARE_FANIN))
			share_exp(c, k, VL_CALIB_SHARE_FANIN, parts, j);
	}
	for (j = 3; j <= n && want(c, VL_CALIB_SHARE_ALLTOALL); j++)
		share_exp(c, k, VL_CALIB_SHARE_ALLTOALL, parts, j);
	for (j = 3; j <= n && want(c, VL_CALIB_SHARE_FIRST); j++)
		share_exp(c, k, VL_CALIB_SHARE_FIRST, parts, j);
	free(parts);
}

static long gcd_l(long a, long b)
{
	while (b) {
		long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* the BSP task counts and the h values: multiples of 2(p-1) for every p */
static int bsp_plan(vlcal_calib *c)
{
	const vlcal_opts *o = c->o;
	long l = 1, m;
	int i, p, P = c->w->size;

	c->nbsp_p = 0;
	if (o->nbsp_procs) {
		for (i = 0; i < o->nbsp_procs; i++) {
			if (o->bsp_procs[i] > P) {
				if (c->w->rank == 0)
					fprintf(stderr, "%s: --bsp-procs %d: only %d tasks run\n",
					        o->prog, o->bsp_procs[i], P);
				return 2;
			}
			c->bsp_p[c->nbsp_p++] = o->bsp_procs[i];
		}
	} else if (o->quick && P >= 2) {
		c->bsp_p[c->nbsp_p++] = P;
	} else {
		for (p = 2; p <= P && c->nbsp_p < VLCAL_MAX_LIST - 1; p *= 2)
			c->bsp_p[c->nbsp_p++] = p;
		if (P >= 2 && c->bsp_p[c->nbsp_p - 1] != P)
			c->bsp_p[c->nbsp_p++] = P;
	}
	for (i = 0; i < c->nbsp_p; i++)
		l = l / gcd_l(l, 2L * (c->bsp_p[i] - 1)) * (2L * (c->bsp_p[i] - 1));
	c->nh = 0;
	for (i = 0; i < o->nbsp_h; i++) {
		m = (o->bsp_h[i] + l / 2) / l * l;
		if (m < l)
			m = l;
		if (c->nh == 0 || m > c->h[c->nh - 1])
			c->h[c->nh++] = m;
	}
	return 0;
}

int vlcal_run(const vlcal_opts *o, const vlcal_ops *ops, void *be, const vlcal_world *w)
{
	vlcal_calib c = {.o = o, .ops = ops, .be = be, .w = w};
	int k, i, rc;

	if (o->only_given && (o->only & VLCAL_SHARE_MASK) && !ops->share) {
		if (w->rank == 0)
			fprintf(stderr,
			        "%s: --only share*: this library's calibration does not measure "
			        "the sharing experiments\n",
			        o->prog);
		return 2;
	}
	if ((rc = bsp_plan(&c)) != 0)
		return rc;
	c.parts = vlu_xmalloc(w->size * sizeof *c.parts);
	c.dst = vlu_xmalloc(w->size * sizeof *c.dst);
	c.src = vlu_xmalloc(w->size * sizeof *c.src);
	if (vlcal_file_open(&c)) {
		rc = 1;
		goto out;
	}
	for (k = 0; k < 2; k++)
		vlcal_clock_setup(&c, k);
	if (w->rank == 0)
		vlcal_file_header(&c);
	pack_rows(&c);
	for (k = 0; k < 2; k++) {
		pingpong_family(&c, k);
		if (want(&c, VL_CALIB_CONTENTION))
			contention_rows(&c, k);
	}
	for (i = 0; i < c.nbsp_p && (o->only & VLCAL_BSP_MASK); i++)
		bsp_rows(&c, c.bsp_p[i]);
	for (k = 0; k < 2 && ops->share && (o->only & VLCAL_SHARE_MASK); k++)
		share_rows(&c, k);
	rc = w->rank == 0 ? vlcal_file_close(&c) : 0;
out:
	free(c.parts);
	free(c.dst);
	free(c.src);
	return rc;
}
