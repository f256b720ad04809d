/* test_coll_links.c - shared links (vlayer/core/links.c) and the collectives
 * run on them (vlayer/coll/run_links.c): routes, the flow model's closed
 * forms, and the closed forms of issue 13 for collectives, exact to the ns
 * (S = R = 0, latency LAT, bandwidth 100 MB/s = 10 ns per byte).
 */
#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/core/net_fixture.h"

#define M 65536            /* bytes */
#define MAXP 16

START_TEST(routes)
{
	vlcfg_config c;
	int res[8], n;
	int64_t lat;
	double b;

	cfg_net(&c, 4, VLCFG_TOPO_STAR, 0, M);
	vli_net_params(&c, &lat, &b);
	ck_assert_int_eq(lat, LAT);
	ck_assert(fabs(b - 0.1) < 1e-15);
	ck_assert_int_eq(vli_net_nres(&c), 8);
	n = vli_net_route(&c, 1, 3, res, &lat);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(res[0], 2);  /* 1 up */
	ck_assert_int_eq(res[1], 7);  /* 3 down */
	ck_assert_int_eq(lat, LAT);
	ck_assert_int_eq(vli_net_route(&c, 2, 2, res, &lat), 0);
	c.topo.half_duplex = 1;
	ck_assert_int_eq(vli_net_nres(&c), 4);
	n = vli_net_route(&c, 1, 3, res, &lat);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(res[0], 1);
	ck_assert_int_eq(res[1], 3);
	c.topo.kind = VLCFG_TOPO_SWITCH;
	c.topo.backplane = 5e7;
	ck_assert_int_eq(vli_net_nres(&c), 5);
	ck_assert_int_eq(vli_net_route(&c, 0, 2, res, &lat), 3);
	ck_assert_int_eq(res[1], 4);
	ck_assert(fabs(vli_net_cap(&c, 4) - 0.05) < 1e-15);
	c.topo.kind = VLCFG_TOPO_BUS;
	c.topo.backplane = 0;
	ck_assert_int_eq(vli_net_nres(&c), 1);
	ck_assert_int_eq(vli_net_route(&c, 3, 0, res, &lat), 1);
	/* topology values win over [network inter]'s */
	c.topo.latency = 777;
	c.topo.bandwidth = 2e9;
	vli_net_params(&c, &lat, &b);
	ck_assert_int_eq(lat, 777);
	ck_assert(fabs(b - 2.0) < 1e-15);
	vlcfg_free(&c);
	/* a fat tree of 5 hosts, 2 per leaf (3 leaves), 2 spines: inside a leaf 2
	 * hops; across leaves 4, through spine dst mod 2 */
	cfg_net(&c, 5, VLCFG_TOPO_FATTREE, 0, M);
	c.topo.leaf_hosts = 2;
	c.topo.spines = 2;
	c.topo.uplink_bw = 4e8;
	ck_assert_int_eq(vli_net_nres(&c), 2 * (5 + 3 * 2));
	ck_assert_int_eq(vli_net_route(&c, 0, 1, res, &lat), 2);
	ck_assert_int_eq(res[0], 0);
	ck_assert_int_eq(res[1], 3);
	ck_assert_int_eq(lat, 2 * LAT);
	ck_assert_int_eq(vli_net_route(&c, 1, 4, res, &lat), 4);
	ck_assert_int_eq(res[0], 2);                 /* 1 up */
	ck_assert_int_eq(res[1], 10 + 2 * (0 * 2 + 0)); /* leaf 0 -> spine 0 */
	ck_assert_int_eq(res[2], 10 + 2 * (2 * 2 + 0) + 1); /* spine 0 -> leaf 2 */
	ck_assert_int_eq(res[3], 9);                 /* 4 down */
	ck_assert_int_eq(lat, 4 * LAT);
	ck_assert_int_eq(vli_net_latency(&c, 1, 4), 4 * LAT);
	ck_assert(fabs(vli_net_cap(&c, 10) - 0.4) < 1e-15);
	ck_assert(fabs(vli_net_cap(&c, 9) - 0.1) < 1e-15);
	c.topo.half_duplex = 1;
	ck_assert_int_eq(vli_net_nres(&c), 5 + 3 * 2);
	ck_assert_int_eq(vli_net_route(&c, 3, 0, res, &lat), 4);
	ck_assert_int_eq(res[1], 5 + 1 * 2 + 0);
	ck_assert_int_eq(res[2], 5 + 0 * 2 + 0);
	vlcfg_free(&c);
	/* a 4x4 torus: 0 -> 10 (x 0 -> 2, y 0 -> 2): 2 + 2 hops; 0 -> 3: one
	 * hop downwards (the shorter way round) */
	cfg_net(&c, 16, VLCFG_TOPO_TORUS, 0, M);
	c.topo.ndims = 2;
	c.topo.dims[0] = c.topo.dims[1] = 4;
	ck_assert_int_eq(vli_net_nres(&c), 64);
	ck_assert_int_eq(vli_net_route(&c, 0, 10, res, &lat), 4);
	ck_assert_int_eq(lat, 4 * LAT);
	ck_assert_int_eq(res[0], 0);            /* (0, x, +) */
	ck_assert_int_eq(res[1], 2 * (1 * 2));  /* (1, x, +) */
	ck_assert_int_eq(res[2], 2 * (2 * 2 + 1)); /* (2, y, +) */
	ck_assert_int_eq(vli_net_route(&c, 0, 3, res, &lat), 1);
	ck_assert_int_eq(res[0], 1);            /* (0, x, -) */
	ck_assert_int_eq(lat, LAT);
	vlcfg_free(&c);
}
END_TEST

/* k flows at once from one host of a star end at LAT + k M NSB; a flow
 * alone takes LAT + M NSB; a second flow that starts halfway through the
 * first shares the rest: the first ends at LAT + 1.5 M NSB, the second at
 * its start + LAT + 1.5 M NSB. */
START_TEST(flows_closed_forms)
{
	vlcfg_config c;
	vli_flows f;
	int k, i, id[8];
	int64_t e;

	cfg_net(&c, 9, VLCFG_TOPO_STAR, 0, M);
	for (k = 1; k <= 8; k++) {
		vli_flows_init(&f, &c);
		for (i = 0; i < k; i++)
			id[i] = vli_flows_add(&f, 0, 1 + i, M, 0);
		vli_flows_advance(&f, INFINITY);
		for (i = 0; i < k; i++) {
			ck_assert(vli_flows_end(&f, id[i], &e));
			ck_assert_int_eq(e, LAT + (int64_t)k * M * NSB);
		}
		vli_flows_free(&f);
	}
	vli_flows_init(&f, &c);
	id[0] = vli_flows_add(&f, 0, 1, M, 0);
	ck_assert(!vli_flows_end(&f, id[0], &e));
	vli_flows_advance(&f, M * NSB / 2);
	id[1] = vli_flows_add(&f, 0, 2, M, M * NSB / 2);
	vli_flows_advance(&f, INFINITY);
	ck_assert(vli_flows_end(&f, id[0], &e));
	ck_assert_int_eq(e, LAT + M * NSB / 2 + M * NSB);
	ck_assert(vli_flows_end(&f, id[1], &e));
	ck_assert_int_eq(e, LAT + M * NSB / 2 + M * NSB + M * NSB / 2);
	vli_flows_free(&f);
	/* sharing = fifo: k flows at once from one host go one after the
	 * other (by id at equal times): the i-th ends at LAT + (i + 1) M NSB */
	c.topo.fifo = 1;
	vli_flows_init(&f, &c);
	for (i = 0; i < 4; i++)
		id[i] = vli_flows_add(&f, 0, 1 + i, M, 0);
	vli_flows_advance(&f, INFINITY);
	for (i = 0; i < 4; i++) {
		ck_assert(vli_flows_end(&f, id[i], &e));
		ck_assert_int_eq(e, LAT + (int64_t)(i + 1) * M * NSB);
	}
	vli_flows_free(&f);
	/* ... and a flow that starts later waits for the earlier one */
	vli_flows_init(&f, &c);
	id[0] = vli_flows_add(&f, 0, 1, M, 0);
	id[1] = vli_flows_add(&f, 0, 2, M, 1000);
	vli_flows_advance(&f, INFINITY);
	ck_assert(vli_flows_end(&f, id[0], &e));
	ck_assert_int_eq(e, LAT + M * NSB);
	ck_assert(vli_flows_end(&f, id[1], &e));
	ck_assert_int_eq(e, LAT + 2 * M * NSB);
	vli_flows_free(&f);
	c.topo.fifo = 0;
	/* an exchange: full duplex, each alone; half duplex, sharing */
	for (i = 0; i < 2; i++) {
		c.topo.half_duplex = i;
		vli_flows_init(&f, &c);
		id[0] = vli_flows_add(&f, 0, 1, M, 0);
		id[1] = vli_flows_add(&f, 1, 0, M, 0);
		vli_flows_advance(&f, INFINITY);
		ck_assert(vli_flows_end(&f, id[0], &e));
		ck_assert_int_eq(e, LAT + (1 + i) * M * NSB);
		ck_assert(vli_flows_end(&f, id[1], &e));
		ck_assert_int_eq(e, LAT + (1 + i) * M * NSB);
		vli_flows_free(&f);
	}
	/* a switch whose backplane is one link's bandwidth: two disjoint
	 * transfers share it; max-min: a third flow limited elsewhere leaves
	 * the rest to the others */
	c.topo.half_duplex = 0;
	c.topo.kind = VLCFG_TOPO_SWITCH;
	c.topo.backplane = 1e8;
	vli_flows_init(&f, &c);
	id[0] = vli_flows_add(&f, 0, 1, M, 0);
	id[1] = vli_flows_add(&f, 2, 3, M, 0);
	vli_flows_advance(&f, INFINITY);
	ck_assert(vli_flows_end(&f, id[0], &e));
	ck_assert_int_eq(e, LAT + 2 * M * NSB);
	vli_flows_free(&f);
	vlcfg_free(&c);
}
END_TEST

/* Every rank on its own host, all entering at 0, M bytes per block. */
static int64_t last_exit(const vlcfg_config *c, int kind, int alg, int p, int64_t n,
			 vlcoll_out *out)
{
	int host[MAXP], r;
	int64_t e0[MAXP] = { 0 }, b[MAXP * MAXP], last = 0;
	vlcoll_in in;

	for (r = 0; r < MAXP; r++)
		host[r] = r;
	for (r = 0; r < MAXP * MAXP; r++)
		b[r] = n;
	in.kind = kind;
	in.alg = alg;
	in.p = p;
	in.root = 0;
	in.host = host;
	in.entry = e0;
	in.bytes = b;
	in.variant = VLCOLL_PLAIN;
	ck_assert_msg(vlcoll_sim(c, &in, out) == 0, "%s/%s p=%d failed", vl_coll_kind_name(kind),
		      vlcoll_alg_name(alg), p);
	for (r = 0; r < p; r++) {
		ck_assert_int_ge(out[r].comm, 0);
		ck_assert_int_ge(out[r].wait, 0);
		ck_assert_int_eq(out[r].exit, out[r].comm + out[r].wait);
		if (out[r].exit > last)
			last = out[r].exit;
	}
	return last;
}

/* Issue 13's closed forms, eager (M < eager limit), compute ignored. */
START_TEST(collective_closed_forms)
{
	vlcfg_config c;
	vlcoll_out out[MAXP];
	int64_t mb = (int64_t)M * NSB, want;
	int k, p, j;

	for (k = 1; k <= 4; k++) {
		p = 1 << k;
		/* binomial bcast, eager fan-out, private full-duplex links:
		 * sum_{j=1..k} (L + j m / B) */
		cfg_net(&c, p, VLCFG_TOPO_STAR, 0, 2 * M);
		for (want = 0, j = 1; j <= k; j++)
			want += LAT + j * mb;
		ck_assert_int_eq(last_exit(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, p, M, out), want);
		/* recursive-doubling allreduce there: no two flows share a link */
		ck_assert_int_eq(last_exit(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING, p,
					   M, out), k * (LAT + mb));
		vlcfg_free(&c);
		/* a bus shared by all: allreduce recursive doubling k (L + p m / B),
		 * alltoall pairwise (p - 1)(L + p m / B) */
		cfg_net(&c, p, VLCFG_TOPO_BUS, 0, 2 * M);
		ck_assert_int_eq(last_exit(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING, p,
					   M, out), k * (LAT + p * mb));
		ck_assert_int_eq(last_exit(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_PAIRWISE, p, M, out),
				 (p - 1) * (LAT + p * mb));
		vlcfg_free(&c);
	}
	/* a fat tree of 4 hosts, 2 per leaf: a recursive-doubling allreduce
	 * exchanges inside the leaves (2 hops), then across (4 hops); with one
	 * spine the two crossing pairs share its links, with two they do not,
	 * nor with one spine whose links carry twice a host link */
	for (j = 0; j < 3; j++) {
		cfg_net(&c, 4, VLCFG_TOPO_FATTREE, 0, 2 * M);
		c.topo.leaf_hosts = 2;
		c.topo.spines = j == 1 ? 2 : 1;
		c.topo.uplink_bw = j == 2 ? 2e8 : 0;
		ck_assert_int_eq(last_exit(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING, 4,
					   M, out), 2 * LAT + mb + 4 * LAT + (j ? 1 : 2) * mb);
		vlcfg_free(&c);
	}
	/* half duplex: an exchange takes L + 2 m / B */
	cfg_net(&c, 2, VLCFG_TOPO_STAR, 1, 2 * M);
	ck_assert_int_eq(last_exit(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING, 2, M, out),
			 LAT + 2 * mb);
	vlcfg_free(&c);
	/* a linear bcast's nonblocking rendezvous sends (all receives posted
	 * at once) are k sends at once from one host: L + k m / B; the blocking
	 * ones of a binomial bcast, one after the other, do not share */
	cfg_net(&c, 8, VLCFG_TOPO_STAR, 0, 1024);
	ck_assert_int_eq(last_exit(&c, VL_KIND_BCAST, VLCOLL_ALG_LINEAR, 8, M, out),
			 LAT + 7 * mb);
	ck_assert_int_eq(last_exit(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 8, M, out),
			 3 * (LAT + mb));
	vlcfg_free(&c);
}
END_TEST

/* One case of the sweeps below: root p - 1, n bytes everywhere, rank late
 * (-1: none) entering at 123456 ns, the others at 0. */
static void case_in(vlcoll_in *in, int kind, int alg, int p, int64_t n, int late, const int *host,
		    int64_t *entry, int64_t *bytes)
{
	int r;

	for (r = 0; r < p; r++)
		entry[r] = r == late ? 123456 : 0;
	for (r = 0; r < MAXP * MAXP; r++)
		bytes[r] = n;
	in->kind = kind;
	in->alg = alg;
	in->p = p;
	in->root = p - 1;
	in->host = host;
	in->entry = entry;
	in->bytes = bytes;
	in->variant = VLCOLL_PLAIN;
}

/* With links of no bandwidth limit a flow takes exactly its latency, as the
 * contention-free model's transmission (trans_delay, no per-byte cost) does:
 * the flow runner must then give what the sweep gives, for every algorithm,
 * size class and late rank. */
START_TEST(same_as_sweep_without_sharing)
{
	vlcfg_config c, d;
	vlcoll_out a[MAXP], b[MAXP];
	int kind, alg, p, late, r, host[MAXP];
	int64_t entry[MAXP], bytes[MAXP * MAXP], n;
	vlcoll_in in;

	for (r = 0; r < MAXP; r++)
		host[r] = r;
	cfg_net(&c, MAXP, VLCFG_TOPO_STAR, 0, 4096);
	c.inter.trans_per_kib_ps = 0;
	c.inter.send_delay = 700;
	c.inter.recv_delay = 300;
	cfg_net(&d, MAXP, VLCFG_TOPO_NONE, 0, 4096);
	d.inter = c.inter;
	for (kind = 0; kind < VL_KIND_N; kind++)
		for (alg = 1; alg < VLCOLL_ALG_NALGS; alg++) {
			if (!vlcoll_accepts(kind, alg))
				continue;
			for (p = 1; p <= 9; p++)
				for (n = 1000; n <= 9000; n += 8000)
					for (late = -1; late < p; late += 3) {
						case_in(&in, kind, alg, p, n, late, host, entry,
							bytes);
						memset(a, 0, sizeof a);
						memset(b, 0, sizeof b);
						ck_assert(vlcoll_sim(&c, &in, a) == 0);
						ck_assert(vlcoll_sim(&d, &in, b) == 0);
						for (r = 0; r < p; r++)
							ck_assert_msg(a[r].exit == b[r].exit &&
								      a[r].comm == b[r].comm &&
								      a[r].wait == b[r].wait,
								      "%s/%s p=%d n=%lld rank %d: %lld "
								      "vs %lld",
								      vl_coll_kind_name(kind),
								      vlcoll_alg_name(alg), p,
								      (long long)n, r,
								      (long long)a[r].exit,
								      (long long)b[r].exit);
					}
		}
	vlcfg_free(&c);
	vlcfg_free(&d);
}
END_TEST

/* ---- the collective's flows in a table shared with other messages
 * (vlcoll_job_start, run_links.c): settled as the replay settles them
 * (postproc/replay_engine.c): when nothing can go on, the flows ending
 * before the first end plus the lookahead are final ---- */

static vli_ftab *tab;

static int tab_add(void *ctx, uint32_t k, int src, int dst, int hs, int hd, int64_t bytes,
		   int64_t start)
{
	(void)ctx;
	return vli_ftab_add_coll(tab, 1, 1, k, 1, src, dst, hs, hd, bytes, start);
}

static int tab_end(void *ctx, int h, uint32_t k, int64_t *arr)
{
	(void)ctx;
	ck_assert_uint_eq(tab->e[h].seq, k);
	*arr = tab->e[h].est;
	if (!tab->e[h].final)
		return 0;
	vli_ftab_consume(tab, h);
	return 1;
}

static void tab_settle(const vlcfg_config *c)
{
	int64_t least = INT64_MAX;
	int i;

	vli_ftab_update(tab, c, (int64_t)tab->t_ck);
	for (i = 0; i < tab->hwm; i++)
		if (tab->e[i].used && tab->e[i].in_sim && tab->e[i].est < least)
			least = tab->e[i].est;
	ck_assert(least < INT64_MAX);
	vli_ftab_update(tab, c, least + vli_flow_lookahead(c));
}

/* in on c with its flows in tab (which may hold others): 0, or -1. */
static int run_in_table(const vlcfg_config *c, const vlcoll_in *in, vlcoll_out *out)
{
	vlcoll_net net = { NULL, tab_add, tab_end };
	vlcoll_job *j = vlcoll_job_start(c, in, &net, out);
	int64_t lb;
	int rc, rounds = 0;

	if (!j)
		return -1;
	while ((rc = vlcoll_job_run(j, &lb)) == 0) {
		tab_settle(c);
		ck_assert_int_lt(++rounds, 100000);
	}
	vlcoll_job_free(j);
	return rc > 0 ? 0 : -1;
}

/* in on c opened before every rank is in (vlcoll_job_open): the ranks with
 * entry 0 are in at the start, each other one enters (vlcoll_job_enter)
 * when the table would otherwise settle past its entry, as in a replay; 0,
 * or -1.  *blk: how often a rank waited on a rank not in, as the job's
 * blocker says (checked: that rank is not in). */
static int run_opened(const vlcfg_config *c, const vlcoll_in *in, vlcoll_out *out, int *blk,
		      int lazy)
{
	vlcoll_net net = { NULL, tab_add, tab_end };
	int64_t pend[MAXP], known[MAXP * MAXP], lb, est;
	int a2a = in->kind == VL_KIND_ALLTOALL, k;
	vlcoll_in x = *in;
	vlcoll_job *j;
	int rc, rounds = 0, r, who, in_now[MAXP];

	for (r = 0; r < in->p; r++) {
		pend[r] = in->entry[r] ? VLCOLL_PENDING : 0;
		in_now[r] = !in->entry[r];
	}
	x.entry = pend;
	if (lazy && a2a) { /* (an alltoallv: a member's row known once it is in) */
		for (r = 0; r < in->p; r++)
			for (k = 0; k < in->p; k++)
				known[r * in->p + k] = in_now[r] ? in->bytes[r * in->p + k]
								 : VLCOLL_PENDING;
		x.bytes = known;
	} else if (lazy) { /* (a gatherv: a member's block known once it is in, the root's all) */
		for (r = 0; r < in->p; r++)
			known[r] = in_now[r] || in_now[in->root] ? in->bytes[r] : VLCOLL_PENDING;
		x.bytes = known;
	}
	if (!(j = vlcoll_job_open(c, &x, &net, out)))
		return -1;
	while ((rc = vlcoll_job_run(j, &lb)) == 0) {
		int64_t least = INT64_MAX, next = INT64_MAX;
		int i;

		for (r = 0; r < in->p; r++)
			if (vlcoll_job_blocker(j, r, &who, &est) == 2) {
				ck_assert(!in_now[who]);
				++*blk;
			}
		vli_ftab_update(tab, c, (int64_t)tab->t_ck); /* (the estimates) */
		for (i = 0; i < tab->hwm; i++)
			if (tab->e[i].used && tab->e[i].in_sim && tab->e[i].est < least)
				least = tab->e[i].est;
		for (r = 0; r < in->p; r++)
			if (!in_now[r] && in->entry[r] < next)
				next = in->entry[r];
		if (next < INT64_MAX && next <= least) {
			for (r = 0; r < in->p; r++)
				if (!in_now[r] && in->entry[r] == next) {
					if (lazy && a2a)
						vlcoll_job_row(j, r, &in->bytes[r * in->p]);
					for (i = 0; lazy && !a2a && i < in->p; i++)
						if (i == r || r == in->root)
							vlcoll_job_block(j, i, in->bytes[i]);
					vlcoll_job_enter(j, r, next);
					in_now[r] = 1;
				}
		} else {
			tab_settle(c);
		}
		ck_assert_int_lt(++rounds, 100000);
	}
	vlcoll_job_free(j);
	ck_assert_int_eq(tab->nlate, 0); /* (no rank entered after the links passed its entry) */
	return rc > 0 ? 0 : -1;
}

/* Alone in the table, a collective's flows give what run_links gives them
 * alone: every algorithm, eager and rendezvous, on a star, a half-duplex
 * star and a bus (with a late rank the table's messages leave no earlier
 * than its entry: they complete, with the same messages).  To 2 ns: the table simulates its flows in
 * its fixed order (flowtab.c), run_links in the order the ranks start them,
 * and the fair shares' sums round differently (measured: 5 exits of one
 * case, a pairwise alltoall of 9 ranks on the half-duplex star, by 1-2 ns). */
/* Every case of table_same_as_alone and opened_same_as_alone (opened:
 * vlcoll_job_open, run_opened; else vlcoll_job_start, run_in_table):
 * where the table is to give run_links' times, to 2 ns; *blk as
 * run_opened's. */
static void tables_vs_alone(int opened, int *blk)
{
	vlcfg_config c;
	vlcoll_out a[MAXP], b[MAXP];
	int kind, alg, p, late, r, host[MAXP], topo;
	int64_t entry[MAXP], bytes[MAXP * MAXP], n;
	vlcoll_in in;

	tab = malloc(sizeof *tab);
	ck_assert_ptr_nonnull(tab);
	for (r = 0; r < MAXP; r++)
		host[r] = r % 7; /* (ranks 0 and 7 on one host) */
	for (topo = 0; topo < 3; topo++) {
		cfg_net(&c, MAXP, topo == 2 ? VLCFG_TOPO_BUS : VLCFG_TOPO_STAR, topo == 1, 4096);
		c.inter.send_delay = 700;
		c.inter.recv_delay = 300;
		for (kind = 0; kind < VL_KIND_N; kind++)
			for (alg = 1; alg < VLCOLL_ALG_NALGS; alg++) {
				if (!vlcoll_accepts(kind, alg))
					continue;
				for (p = 2; p <= 9; p += 7)
					for (n = 1000; n <= 9000; n += 8000)
						for (late = opened ? 0 : -1; late < p;
						     late += opened ? 3 : 4) {
							case_in(&in, kind, alg, p, n, late, host,
								entry, bytes);
							memset(a, 0, sizeof a);
							memset(b, 0, sizeof b);
							vli_ftab_init(tab);
							ck_assert(vlcoll_sim(&c, &in, a) == 0);
							ck_assert((opened ? run_opened(&c, &in, b, blk, 0)
									  : run_in_table(&c, &in, b)) == 0);
							ck_assert_int_eq(tab->hwm, 0);
							/* started with a late rank: no message
							 * leaves before it has entered
							 * (run_links.c); delayed messages may
							 * meet others less, so a rank may leave
							 * earlier or later */
							for (r = 0; !opened && late >= 0 && r < p; r++)
								ck_assert_int_eq(b[r].nmsgs, a[r].nmsgs);
							for (r = 0; (opened || late < 0) && r < p; r++)
								ck_assert_msg(llabs(a[r].exit - b[r].exit) <= 2 &&
									      a[r].comm == b[r].comm &&
									      llabs(a[r].wait - b[r].wait) <= 2 &&
									      a[r].nmsgs == b[r].nmsgs,
									      "topo %d %s/%s p=%d n=%lld late %d rank %d: %lld vs %lld",
									      topo, vl_coll_kind_name(kind),
									      vlcoll_alg_name(alg), p, (long long)n,
									      late, r, (long long)a[r].exit,
									      (long long)b[r].exit);
						}
			}
		vlcfg_free(&c);
	}
	free(tab);
}

START_TEST(table_same_as_alone)
{
	tables_vs_alone(0, NULL);
}
END_TEST

/* Opened before every rank is in, a collective alone in the table gives
 * what run_links gives it alone - also with a late rank, since its
 * messages leave when the schedule says (started with every entry they
 * leave no earlier than the last: table_same_as_alone) - to 2 ns, every
 * algorithm, eager and rendezvous, a star, a half-duplex star and a bus,
 * the late rank the root or another. */
START_TEST(opened_same_as_alone)
{
	int blk = 0;

	tables_vs_alone(1, &blk);
	ck_assert_int_gt(blk, 0);
}
END_TEST

/* The lazy tests' table and hosts (r % 7), and network: a star, a
 * half-duplex star or a bus (topo 0, 1, 2), 4 KiB eager. */
static void lazy_setup(int *host)
{
	int r;

	tab = malloc(sizeof *tab);
	ck_assert_ptr_nonnull(tab);
	for (r = 0; r < MAXP; r++)
		host[r] = r % 7;
}

static void lazy_net(vlcfg_config *c, int topo)
{
	cfg_net(c, MAXP, topo == 2 ? VLCFG_TOPO_BUS : VLCFG_TOPO_STAR, topo == 1, 4096);
	c->inter.send_delay = 700;
	c->inter.recv_delay = 300;
}

/* Opened with its blocks (rows) given as the members enter, in gives what
 * it gives alone with every block known, to 2 ns (topo, pat: for the
 * message). */
static void lazy_same(const vlcfg_config *c, const vlcoll_in *in, int *blk, int topo, int pat)
{
	vlcoll_out a[MAXP], b[MAXP];
	int r;

	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	vli_ftab_init(tab);
	ck_assert(vlcoll_sim(c, in, a) == 0);
	ck_assert(run_opened(c, in, b, blk, 1) == 0);
	ck_assert_int_eq(tab->hwm, 0);
	for (r = 0; r < in->p; r++)
		ck_assert_msg(llabs(a[r].exit - b[r].exit) <= 2 && a[r].comm == b[r].comm &&
			      llabs(a[r].wait - b[r].wait) <= 2 && a[r].nmsgs == b[r].nmsgs,
			      "topo %d %s p=%d pattern %d rank %d: %lld vs %lld", topo,
			      vlcoll_alg_name(in->alg), in->p, pat, r, (long long)a[r].exit,
			      (long long)b[r].exit);
}

/* A gatherv opened before every member is in, each block known once its
 * member is in (every block once the root is), gives what run_links gives
 * it alone with every block known, to 2 ns: every gather algorithm, blocks
 * eager, rendezvous and zero (Open MPI's linear gatherv skips those),
 * several members late - the root among them or not - on a star, a
 * half-duplex star and a bus.  Before the second session of 2026-11-29 a
 * gatherv waited for every member's entry. */
START_TEST(opened_gatherv_same_as_alone)
{
	vlcfg_config c;
	int alg, p, r, host[MAXP], topo, pat, cases = 0, blk = 0;
	int64_t entry[MAXP], bytes[MAXP];
	vlcoll_in in;

	lazy_setup(host);
	for (topo = 0; topo < 3; topo++) {
		lazy_net(&c, topo);
		for (alg = 1; alg < VLCOLL_ALG_NALGS; alg++) {
			if (!vlcoll_accepts(VL_KIND_GATHER, alg))
				continue;
			for (p = 2; p <= 9; p += p == 2 ? 3 : 4)
				for (pat = 0; pat < 4; pat++) {
					for (r = 0; r < p; r++) {
						/* (0, eager, rendezvous by turns) */
						bytes[r] = ((r + pat) % 3) * 3000 + (r % 2) * 500 *
							   ((r + pat) % 3 != 0);
						/* (pattern 0: only the root late; 1: the root
						 * in, others late; 2, 3: several, mixed) */
						entry[r] = pat == 0 ? (r == pat % p) * 150000
							 : pat == 1 ? (r != 1 % p) * (r * 40000)
							 : ((r * 7 + pat) % 4) * 30000;
					}
					in = (vlcoll_in){ VL_KIND_GATHER, alg, p, 1 % p, host, entry,
							  bytes, VLCOLL_V };
					lazy_same(&c, &in, &blk, topo, pat);
					cases++;
				}
		}
		vlcfg_free(&c);
	}
	free(tab);
	ck_assert_int_ge(cases, 3 * 4 * 3 * 4);
	ck_assert_int_gt(blk, 0);
}
END_TEST

/* The same for an alltoallv whose rows come in with the entries
 * (vlcoll_job_row, since the third session of 2026-11-29): every alltoall
 * algorithm, blocks of 0, eager and rendezvous sizes, members late, on a
 * star, a half-duplex star and a bus: equal to the simulation with every
 * row known, to 2 ns. */
START_TEST(opened_alltoallv_same_as_alone)
{
	vlcfg_config c;
	int alg, p, r, k, host[MAXP], topo, pat, cases = 0, blk = 0;
	int64_t entry[MAXP], bytes[MAXP * MAXP];
	vlcoll_in in;

	lazy_setup(host);
	for (topo = 0; topo < 3; topo++) {
		lazy_net(&c, topo);
		for (alg = 1; alg < VLCOLL_ALG_NALGS; alg++) {
			c.mpi.coll_alg[VL_KIND_ALLTOALL] = alg;
			if (!vlcoll_accepts(VL_KIND_ALLTOALL, alg) ||
			    !vlcoll_opens_early_alg(&c, VL_KIND_ALLTOALL, VLCOLL_V))
				continue; /* (Bruck's: not opened) */
			for (p = 2; p <= 7; p += p == 2 ? 2 : 3)
				for (pat = 0; pat < 3; pat++) {
					for (r = 0; r < p; r++) {
						for (k = 0; k < p; k++)
							bytes[r * p + k] = ((r + 2 * k + pat) % 3) * 3000 +
									   (k % 2) * 500;
						entry[r] = pat == 0 ? (r == 0) * 150000
							 : pat == 1 ? (r != 1 % p) * (r * 40000)
							 : ((r * 7 + pat) % 4) * 30000;
					}
					in = (vlcoll_in){ VL_KIND_ALLTOALL, alg, p, -1, host, entry,
							  bytes, VLCOLL_V };
					lazy_same(&c, &in, &blk, topo, pat);
					cases++;
				}
		}
		vlcfg_free(&c);
	}
	free(tab);
	ck_assert_int_ge(cases, 3 * 2 * 3 * 3);
	ck_assert_int_gt(blk, 0);
}
END_TEST

/* What a rank of an opened job waits for: a binomial bcast of 4 ranks, root
 * 0, rank 2 not in.  Rank 0 sends to 2 (on its way: its estimate) and to 1;
 * rank 3 waits on rank 2 (not in), rank 1 on the message from 0. */
START_TEST(opened_blocker)
{
	vlcfg_config c;
	vlcoll_out out[4];
	int64_t e[4] = { 0, 0, VLCOLL_PENDING, 0 }, b[4] = { M, M, M, M }, lb, est = 0;
	int host[4] = { 0, 1, 2, 3 }, who = -1;
	vlcoll_in in = { VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 4, 0, host, e, b, VLCOLL_PLAIN };
	vlcoll_net net = { NULL, tab_add, tab_end };
	vlcoll_job *j;

	tab = malloc(sizeof *tab);
	ck_assert_ptr_nonnull(tab);
	cfg_net(&c, 4, VLCFG_TOPO_STAR, 0, 2 * M);
	vli_ftab_init(tab);
	j = vlcoll_job_open(&c, &in, &net, out);
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(vlcoll_job_run(j, &lb), 0);
	ck_assert_int_eq(tab->nopen, 2); /* (0 to 2 and 0 to 1: both leave) */
	ck_assert_int_eq(vlcoll_job_blocker(j, 3, &who, &est), 2);
	ck_assert_int_eq(who, 2);
	ck_assert_int_eq(vlcoll_job_blocker(j, 2, &who, &est), 2);
	ck_assert_int_eq(vlcoll_job_blocker(j, 1, &who, &est), 1);
	ck_assert_int_eq(est, lb);
	ck_assert_int_eq(vlcoll_job_blocker(j, 0, &who, &est), 0); /* (eager: done) */
	vlcoll_job_enter(j, 2, 5);
	while (vlcoll_job_run(j, &lb) == 0)
		tab_settle(&c);
	ck_assert_int_eq(vlcoll_job_blocker(j, 3, &who, &est), 0);
	vlcoll_job_free(j);
	vlcfg_free(&c);
	free(tab);
}
END_TEST

/* With another message in the table: a bcast of 2 ranks beside a flow
 * leaving the root's host at the same time ends at L + 2 m/B; one leaving
 * when the bcast's message is half through gets the other half shared. */
START_TEST(table_with_others)
{
	vlcfg_config c;
	vlcoll_out out[2];
	int64_t mb = (int64_t)M * NSB, e0[2] = { 0, 0 }, b[2] = { M, M };
	int host[2] = { 0, 1 }, other;
	vlcoll_in in = { VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 2, 0, host, e0, b, VLCOLL_PLAIN };

	tab = malloc(sizeof *tab);
	ck_assert_ptr_nonnull(tab);
	cfg_net(&c, 2, VLCFG_TOPO_STAR, 0, 2 * M);
	vli_ftab_init(tab);
	other = vli_ftab_add(tab, 5, 1, 6, -1, 0, 1, M, 0);
	ck_assert(run_in_table(&c, &in, out) == 0);
	ck_assert_int_eq(out[1].exit, LAT + 2 * mb);
	ck_assert_int_eq(out[0].exit, 0);
	ck_assert(tab->e[other].final);
	ck_assert_int_eq(tab->e[other].est, LAT + 2 * mb);
	/* the other leaves at L + m/2B: the bcast's message has half its bytes
	 * through, the rest shared: it ends at L + m/2B + m/B, the other at
	 * L + m/2B + m/B + m/2B */
	vli_ftab_init(tab);
	other = vli_ftab_add(tab, 5, 1, 6, -1, 0, 1, M, mb / 2);
	ck_assert(run_in_table(&c, &in, out) == 0);
	ck_assert_int_eq(out[1].exit, LAT + mb / 2 + mb);
	tab_settle(&c);
	ck_assert(tab->e[other].final);
	ck_assert_int_eq(tab->e[other].est, LAT + mb / 2 + mb + mb / 2);
	vlcfg_free(&c);
	free(tab);
}
END_TEST

/* The cases of the property tests below: on each topology of topo[0..nt),
 * eager and rendezvous, every kind and algorithm, p = 2..9, blocks of M / 4,
 * random entries (from seed): fn(c, in, what, arg), what naming the case. */
typedef void case_fn(const vlcfg_config *c, vlcoll_in *in, const char *what, void *arg);

static void each_case(const int *topo, int nt, uint64_t seed, case_fn *fn, void *arg)
{
	vlcfg_config c;
	int64_t entry[MAXP], b[MAXP * MAXP];
	int host[MAXP], kind, alg, p, r, t, eager;
	char what[96];
	vlcoll_in in;

	for (r = 0; r < MAXP; r++)
		host[r] = r;
	for (r = 0; r < MAXP * MAXP; r++)
		b[r] = M / 4;
	for (t = 0; t < nt; t++)
		for (eager = 0; eager < 2; eager++) {
			cfg_net(&c, MAXP, topo[t], 0, eager ? 2 * M : 1);
			for (kind = 0; kind < VL_KIND_N; kind++)
				for (alg = 1; alg < VLCOLL_ALG_NALGS; alg++) {
					if (!vlcoll_accepts(kind, alg))
						continue;
					for (p = 2; p <= 9; p++) {
						for (r = 0; r < p; r++) {
							seed = seed * 6364136223846793005ULL +
							       1442695040888963407ULL;
							entry[r] = (int64_t)(seed >> 40) % (20 * LAT);
						}
						snprintf(what, sizeof what, "%s/%s p=%d topo %d eager %d",
							 vl_coll_kind_name(kind), vlcoll_alg_name(alg), p,
							 topo[t], eager);
						in = (vlcoll_in){ kind, alg, p, p / 2, host, entry, b,
								  VLCOLL_PLAIN };
						fn(&c, &in, what, arg);
					}
				}
			vlcfg_free(&c);
		}
}

/* deps_after's case: *arg counts the members said to come after. */
static void after_case(const vlcfg_config *c, vlcoll_in *in, const char *what, void *arg)
{
	vlcoll_out out[MAXP];
	unsigned char m[MAXP * MAXP], d[MAXP * MAXP];
	int p = in->p, r, j;

	ck_assert_int_eq(vlcoll_deps_after(c, in, m), 0);
	ck_assert_int_eq(vlcoll_deps(c, in, d), 0);
	ck_assert_int_eq(vlcoll_sim(c, in, out), 0);
	for (r = 0; r < p; r++)
		for (j = 0; j < p; j++) {
			ck_assert(!m[r * p + j] || d[r * p + j]);
			*(int *)arg += m[r * p + j] && j != r;
			ck_assert_msg(!m[r * p + j] || out[r].exit >= in->entry[j],
				      "%s: rank %d leaves at %lld, before rank %d enters at %lld", what,
				      r, (long long)out[r].exit, j, (long long)in->entry[j]);
		}
}

/* vlcoll_deps_after: a rank's exit is no earlier than the entry of every
 * member it is said to come after, on a bus, a star and without a
 * [topology], eager and rendezvous, random entries, every algorithm, p <=
 * 9 (with the closure over the schedule it is not: Open MPI's linear_sync
 * gather's non-root receives the root's go-ahead before the root receives
 * from the others); those are among the members it depends on
 * (vlcoll_deps). */
START_TEST(deps_after)
{
	static const int topo[3] = { VLCFG_TOPO_BUS, VLCFG_TOPO_STAR, VLCFG_TOPO_NONE };
	int after = 0;

	each_case(topo, 3, 777, after_case, &after);
	ck_assert_int_gt(after, 1000);
}
END_TEST

/* deps_links's case: *arg counts the ranks that depend on fewer than all. */
static void links_case(const vlcfg_config *c, vlcoll_in *in, const char *what, void *arg)
{
	vlcoll_out out[MAXP], ref[MAXP];
	int64_t e[MAXP];
	const int64_t *entry = in->entry;
	unsigned char m[MAXP * MAXP];
	int p = in->p, r, j, k;

	ck_assert_int_eq(vlcoll_deps(c, in, m), 0);
	ck_assert_int_eq(vlcoll_sim(c, in, ref), 0);
	for (r = 0; r < p; r++) {
		int nd = 0;

		for (j = 0; j < p; j++)
			nd += m[r * p + j];
		*(int *)arg += nd < p;
		/* each independent one moved, then all of them */
		for (k = -1; k < p; k++) {
			if (k >= 0 && m[r * p + k])
				continue;
			for (j = 0; j < p; j++)
				e[j] = m[r * p + j] || (k >= 0 && j != k) ? entry[j]
									  : entry[j] + 50 * LAT + j * 777;
			in->entry = e;
			ck_assert_int_eq(vlcoll_sim(c, in, out), 0);
			in->entry = entry;
			ck_assert_msg(out[r].exit == ref[r].exit, "%s rank %d moved %d: %lld, was %lld",
				      what, r, k, (long long)out[r].exit, (long long)ref[r].exit);
		}
	}
}

/* vlcoll_deps on shared links: a rank's result does not change when the
 * entries of the members it is said not to depend on move (each in turn,
 * then all at once), on a bus and a star, eager and rendezvous, random
 * entries, every algorithm, p <= 9; a member whose entry moves no message
 * (it only receives eager ones) is none: a binomial bcast's leaf on a bus
 * depends on the root and the inner nodes, not on the other leaves (until
 * the third session of 2026-11-28 every member: two leaves of bcasts on
 * two communicators each waited for the other's bound, wmix seed 1 with
 * eight kinds on a bus). */
START_TEST(deps_links)
{
	static const int topo[2] = { VLCFG_TOPO_BUS, VLCFG_TOPO_STAR };
	vlcfg_config c;
	int64_t entry[8] = { 0 }, b[8];
	int host[8], j, fewer = 0;
	unsigned char m[64];
	vlcoll_in in;

	each_case(topo, 2, 4242, links_case, &fewer);
	ck_assert_int_gt(fewer, 100);
	/* a binomial bcast of 8 from 0 on a bus, eager (0 sends to 4, 2, 1; 4 to
	 * 6, 5; 2 to 3; 6 to 7): leaf 7 depends on the members that send (0, 2,
	 * 4, 6: their messages share the bus), not on the other leaves */
	for (j = 0; j < 8; j++) {
		host[j] = j;
		b[j] = M / 4;
	}
	cfg_net(&c, MAXP, VLCFG_TOPO_BUS, 0, 2 * M);
	in = (vlcoll_in){ VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 8, 0, host, entry, b, VLCOLL_PLAIN };
	ck_assert_int_eq(vlcoll_deps(&c, &in, m), 0);
	for (j = 0; j < 8; j++)
		ck_assert_msg(m[7 * 8 + j] == (j % 2 == 0 || j == 7), "leaf 7 on %d: %d", j,
			      m[7 * 8 + j]);
	vlcfg_free(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("coll_links");
	TCase *tc = tcase_create("links");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, routes);
	tcase_add_test(tc, flows_closed_forms);
	tcase_add_test(tc, collective_closed_forms);
	tcase_add_test(tc, same_as_sweep_without_sharing);
	tcase_add_test(tc, table_same_as_alone);
	tcase_add_test(tc, table_with_others);
	tcase_add_test(tc, opened_same_as_alone);
	tcase_add_test(tc, opened_blocker);
	tcase_add_test(tc, opened_gatherv_same_as_alone);
	tcase_add_test(tc, opened_alltoallv_same_as_alone);
	tcase_add_test(tc, deps_after);
	tcase_add_test(tc, deps_links);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
