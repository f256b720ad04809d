/* test_flowtab.c - the table of flows in flight (vlayer/core/flowtab.c), which
 * decides online (order_flows.c) when messages of separate calls that share a
 * [topology]'s links arrive: closed forms exact to the ns, and the property
 * that makes a run reproducible - the arrivals do not depend on the real
 * order in which senders added their flows nor on when the checkpoint moved.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/core/net_fixture.h"

#define M 65536
#define MB ((int64_t)M * NSB) /* m / B in ns */

static vli_ftab tab;

/* Flows from src[i] to dst[i] leaving at start[i]; every arrival once all
 * are known (safe: infinity). */
static void ends_all(const vlcfg_config *c, int n, const int *src, const int *dst,
		     const int64_t *bytes, const int64_t *start, int64_t *end)
{
	int i, ix[64];

	vli_ftab_init(&tab);
	for (i = 0; i < n; i++)
		ix[i] = vli_ftab_add(&tab, src[i] + 100, (uint32_t)i + 1, dst[i] + 100, -1, src[i],
				     dst[i], bytes[i], start[i]);
	vli_ftab_update(&tab, c, INT64_MAX / 4);
	for (i = 0; i < n; i++) {
		ck_assert(tab.e[ix[i]].final);
		end[i] = tab.e[ix[i]].est;
	}
}

START_TEST(closed_forms)
{
	vlcfg_config c;
	int src[4], dst[4], k;
	int64_t bytes[4], start[4], end[4];

	cfg_net(&c, 4, VLCFG_TOPO_STAR, 0, M);
	/* one sender to k hosts at once: its link shared, each at L + k m/B */
	for (k = 1; k <= 3; k++) {
		int i;

		for (i = 0; i < k; i++) {
			src[i] = 0;
			dst[i] = i + 1;
			bytes[i] = M;
			start[i] = 0;
		}
		ends_all(&c, k, src, dst, bytes, start, end);
		for (i = 0; i < k; i++)
			ck_assert_int_eq(end[i], LAT + k * MB);
	}
	/* k senders to one host: its down link shared */
	src[0] = 1, src[1] = 2, dst[0] = dst[1] = 0;
	bytes[0] = bytes[1] = M;
	start[0] = start[1] = 0;
	ends_all(&c, 2, src, dst, bytes, start, end);
	ck_assert_int_eq(end[0], LAT + 2 * MB);
	ck_assert_int_eq(end[1], LAT + 2 * MB);
	/* a second flow halfway through the first: both at half rate until the
	 * first ends at L + 1.5 m/B, the second 0.5 m/B later */
	src[0] = src[1] = 0, dst[0] = 1, dst[1] = 2;
	start[1] = MB / 2;
	ends_all(&c, 2, src, dst, bytes, start, end);
	ck_assert_int_eq(end[0], LAT + MB / 2 + MB);
	ck_assert_int_eq(end[1], LAT + 2 * MB);
	/* full duplex: an exchange does not meet; half duplex: L + 2 m/B */
	src[0] = 0, dst[0] = 1, src[1] = 1, dst[1] = 0, start[1] = 0;
	ends_all(&c, 2, src, dst, bytes, start, end);
	ck_assert_int_eq(end[0], LAT + MB);
	c.topo.half_duplex = 1;
	ends_all(&c, 2, src, dst, bytes, start, end);
	ck_assert_int_eq(end[0], LAT + 2 * MB);
	ck_assert_int_eq(end[1], LAT + 2 * MB);
	/* fifo: the first takes the link, the second follows */
	c.topo.half_duplex = 0;
	c.topo.fifo = 1;
	src[0] = src[1] = 0, dst[0] = 1, dst[1] = 2;
	ends_all(&c, 2, src, dst, bytes, start, end);
	ck_assert_int_eq(end[0], LAT + MB);
	ck_assert_int_eq(end[1], LAT + 2 * MB);
	vlcfg_free(&c);
}
END_TEST

/* Random flows on a star (fair or fifo) or a bus: the arrivals with all
 * flows known at once equal those of a table fed in departure order, the
 * flows of equal departure in any order, with the checkpoint moved to the
 * latest allowed time after every addition - exactly. */
static void incremental_equals_whole(int kind, int fifo, unsigned seed)
{
	enum { N = 40 };
	vlcfg_config c;
	int src[N], dst[N], order[N], ix[N], i, j;
	int64_t bytes[N], start[N], ref[N];

	cfg_net(&c, 5, kind, 0, M);
	c.topo.fifo = fifo;
	if (kind == VLCFG_TOPO_SWITCH)
		c.topo.backplane = 1.5e8; /* (a second bottleneck) */
	srand(seed);
	for (i = 0; i < N; i++) {
		src[i] = rand() % 5;
		dst[i] = (src[i] + 1 + rand() % 4) % 5;
		bytes[i] = 1000 + rand() % 200000;
		start[i] = (int64_t)(rand() % 8) * 300000 + (rand() % 3) * 17;
	}
	/* departure order (the table's own order breaks ties) */
	for (i = 0; i < N; i++)
		order[i] = i;
	for (i = 1; i < N; i++)
		for (j = i; j > 0 && start[order[j - 1]] > start[order[j]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	ends_all(&c, N, src, dst, bytes, start, ref);
	for (i = 0; i < N; i++)
		ck_assert_int_ge(ref[i], start[i] + LAT + bytes[i] * NSB);
	/* fed one by one; among equal departures the last added first */
	vli_ftab_init(&tab);
	for (i = 0; i < N; i++) {
		int k = order[i], g = i;

		while (g + 1 < N && start[order[g + 1]] == start[k])
			g++;
		if (g > i) { /* reverse the group of equal departures */
			int a = i, b = g;
			for (; a < b; a++, b--) {
				int t = order[a];
				order[a] = order[b];
				order[b] = t;
			}
			k = order[i];
		}
		ix[k] = vli_ftab_add(&tab, src[k] + 100, (uint32_t)k + 1, dst[k] + 100, -1, src[k],
				     dst[k], bytes[k], start[k]);
		ck_assert_int_ge(ix[k], 0);
		/* nothing added later takes bandwidth before its departure + L; a
		 * safe time may also go back (a bound lowered meanwhile) */
		vli_ftab_update(&tab, &c, i + 1 < N ? start[order[i + 1]] + LAT : INT64_MAX / 4);
		if (i % 3 == 1)
			vli_ftab_update(&tab, &c, start[k] - 5 * LAT);
	}
	for (i = 0; i < N; i++) {
		ck_assert(tab.e[ix[i]].final);
		ck_assert_int_eq(tab.e[ix[i]].est, ref[i]);
	}
	vlcfg_free(&c);
}

START_TEST(reproducible)
{
	unsigned s;

	for (s = 1; s <= 20; s++) {
		incremental_equals_whole(VLCFG_TOPO_STAR, 0, s);
		incremental_equals_whole(VLCFG_TOPO_STAR, 1, s);
		incremental_equals_whole(VLCFG_TOPO_BUS, 0, s);
		incremental_equals_whole(VLCFG_TOPO_SWITCH, 0, s);
	}
}
END_TEST

/* The flow model's sharing = fair works on groups of flows of one route
 * (vlayer/core/links.c); this is max-min fairness flow by flow, plainly
 * (progressive filling at every event, every flow's bytes counted down),
 * to check it against: the arrivals of n flows (ns, rounded). */
static void ref_fair(const vlcfg_config *c, int n, const int *src, const int *dst,
		     const int64_t *bytes, const int64_t *start, int64_t *end)
{
	int nres = vli_net_nres(c), mr = vli_net_maxroute(c), i, k, r;
	int *route = calloc((size_t)(n * mr + 1), sizeof *route), *nr = calloc((size_t)n, sizeof *nr);
	int *state = calloc((size_t)n, sizeof *state), *fixed = calloc((size_t)n, sizeof *fixed);
	int *cnt = calloc((size_t)nres + 1, sizeof *cnt);
	double *act = calloc((size_t)n, sizeof *act), *left = calloc((size_t)n, sizeof *left);
	double *rate = calloc((size_t)n, sizeof *rate), *rem = calloc((size_t)nres + 1, sizeof *rem);
	double now = 0;
	int64_t lat;

	for (i = 0; i < n; i++) {
		nr[i] = vli_net_route(c, src[i], dst[i], route + i * mr, &lat);
		act[i] = (double)start[i] + (double)lat;
		left[i] = (double)bytes[i];
	}
	for (;;) {
		double t = INFINITY, dt;
		int done = 1;

		for (i = 0; i < n; i++) {
			double v = state[i] == 0 ? act[i] : state[i] == 1 ? now + left[i] / rate[i] : INFINITY;
			if (v < t)
				t = v;
			done &= state[i] == 2;
		}
		if (done)
			break;
		dt = t - now;
		for (i = 0; i < n; i++) {
			if (state[i] == 0 && act[i] <= t + 1e-6) {
				state[i] = 1;
			} else if (state[i] == 1 && now + left[i] / rate[i] <= t + 1e-6) {
				state[i] = 2;
				end[i] = llround(t);
			} else if (state[i] == 1) {
				left[i] -= rate[i] * dt;
			}
		}
		now = t;
		for (r = 0; r < nres; r++) {
			rem[r] = vli_net_cap(c, r);
			cnt[r] = 0;
		}
		for (i = 0; i < n; i++) {
			fixed[i] = state[i] != 1;
			for (k = 0; !fixed[i] && k < nr[i]; k++)
				cnt[route[i * mr + k]]++;
		}
		for (;;) {
			int best = -1;
			double sh = 0;

			for (r = 0; r < nres; r++)
				if (cnt[r] > 0 && (best < 0 || rem[r] / cnt[r] < sh))
					best = r, sh = rem[r] / cnt[r];
			if (best < 0)
				break;
			for (i = 0; i < n; i++) {
				int on = 0;
				for (k = 0; !fixed[i] && k < nr[i]; k++)
					on |= route[i * mr + k] == best;
				if (!on)
					continue;
				fixed[i] = 1;
				rate[i] = sh;
				for (k = 0; k < nr[i]; k++) {
					rem[route[i * mr + k]] -= sh;
					cnt[route[i * mr + k]]--;
				}
			}
			cnt[best] = 0;
		}
	}
	free(route), free(nr), free(state), free(fixed), free(cnt);
	free(act), free(left), free(rate), free(rem);
}

/* Random flows on a star (full and half duplex), a switch with a backplane,
 * a bus and a fat tree with a thin spine (flows of several bottlenecks):
 * the groups give the arrivals of max-min fairness flow by flow, to the ns. */
START_TEST(groups_are_max_min_fair)
{
	enum { N = 60 };
	vlcfg_config c;
	int src[N], dst[N], i, cse;
	int64_t bytes[N], start[N], end[N], ref[N];
	unsigned seed;

	for (cse = 0; cse < 5; cse++) {
		cfg_net(&c, 8, cse == 2 ? VLCFG_TOPO_SWITCH : cse == 3 ? VLCFG_TOPO_BUS
				: cse == 4 ? VLCFG_TOPO_FATTREE : VLCFG_TOPO_STAR, cse == 1, M);
		c.topo.backplane = 2.5e8;
		c.topo.leaf_hosts = 2;
		c.topo.spines = 2;
		c.topo.uplink_bw = 5e7;
		for (seed = 1; seed <= 10; seed++) {
			srand(seed * 7 + (unsigned)cse);
			for (i = 0; i < N; i++) {
				src[i] = rand() % 8;
				dst[i] = (src[i] + 1 + rand() % 7) % 8;
				bytes[i] = rand() % 3 ? 1000 + rand() % 100000 : 0;
				start[i] = (int64_t)(rand() % 6) * 200000 + rand() % 50;
			}
			/* seed 10: 40 equal messages of one route leave together (their
			 * group ends them in one pass), beside others */
			for (i = 0; seed == 10 && i < 40; i++) {
				src[i] = 0;
				dst[i] = 1;
				bytes[i] = 4096;
				start[i] = 1000;
			}
			ends_all(&c, N, src, dst, bytes, start, end);
			ref_fair(&c, N, src, dst, bytes, start, ref);
			for (i = 0; i < N; i++)
				if (llabs(end[i] - ref[i]) > 1)
					ck_abort_msg("case %d seed %u flow %d: %lld, flow by flow %lld", cse,
						     seed, i, (long long)end[i], (long long)ref[i]);
		}
		vlcfg_free(&c);
	}
}
END_TEST

/* A flow is final only once the checkpoint has passed its end; until then
 * an estimate that a later flow changes. */
START_TEST(estimates_and_entries)
{
	vlcfg_config c;
	int a, b, i;

	cfg_net(&c, 3, VLCFG_TOPO_STAR, 0, M);
	vli_ftab_init(&tab);
	a = vli_ftab_add(&tab, 100, 1, 101, 5, 0, 1, M, 0);
	ck_assert_int_eq(vli_ftab_update(&tab, &c, LAT), 1);
	ck_assert_int_eq(tab.e[a].est, LAT + MB);
	ck_assert(!tab.e[a].final);
	ck_assert_uint_eq(tab.epoch, 1);
	/* a second flow from the same host before the first ends: both later */
	b = vli_ftab_add(&tab, 100, 2, 102, 6, 0, 2, M, 0);
	ck_assert_int_eq(vli_ftab_update(&tab, &c, LAT), 1);
	ck_assert(tab.e[a].changed && tab.e[b].changed);
	ck_assert_int_eq(tab.e[a].est, LAT + 2 * MB);
	ck_assert_int_eq(vli_ftab_find(&tab, 100, 2, 102), b);
	ck_assert_int_eq(vli_ftab_find(&tab, 100, 2, 101), -1);
	/* the checkpoint past both ends: final, off the simulation */
	tab.e[a].changed = tab.e[b].changed = 0;
	ck_assert_int_eq(vli_ftab_update(&tab, &c, 10 * MB), 0);
	ck_assert(tab.e[a].final && !tab.e[a].in_sim);
	ck_assert_int_eq(tab.nopen, 0);
	vli_ftab_consume(&tab, a);
	ck_assert(!tab.e[a].used);
	ck_assert_int_eq(vli_ftab_find(&tab, 100, 1, 101), -1);
	ck_assert_int_eq(tab.hwm, b + 1);
	vli_ftab_consume(&tab, b);
	ck_assert_int_eq(tab.hwm, 0);
	/* a full table says so */
	for (i = 0; i < VLI_FTAB_N; i++)
		ck_assert_int_ge(vli_ftab_add(&tab, 100, (uint32_t)i, 101, -1, 0, 1, 8, 0), 0);
	ck_assert_int_eq(vli_ftab_add(&tab, 100, 99999, 101, -1, 0, 1, 8, 0), -1);
	vlcfg_free(&c);
}
END_TEST

/* The lookahead of flows is a hop's latency, and at least 1 ns: with links
 * of no latency it was 0, and no flow ever became final (a run on such a
 * bus stopped stuck, its replay turned for ever).  A flow is final once
 * the checkpoint is past its end: its end plus the lookahead. */
START_TEST(lookahead_at_least_1ns)
{
	vlcfg_config c;
	int a;

	cfg_net(&c, 3, VLCFG_TOPO_BUS, 0, M);
	c.inter.trans_delay = 0;
	ck_assert_int_eq(vli_flow_lookahead(&c), 1);
	vli_ftab_init(&tab);
	a = vli_ftab_add(&tab, 100, 1, 101, 5, 0, 1, M, 0);
	vli_ftab_update(&tab, &c, 0);
	ck_assert_int_eq(tab.e[a].est, MB);
	vli_ftab_update(&tab, &c, tab.e[a].est);
	ck_assert(!tab.e[a].final); /* (a flow may still start at its end) */
	vli_ftab_update(&tab, &c, tab.e[a].est + vli_flow_lookahead(&c));
	ck_assert(tab.e[a].final);
	vlcfg_free(&c);
}
END_TEST

/* vli_net_alone_ns, the least time a message takes on the links (a
 * rendezvous sender waits with its send's end plus this as its bound): what
 * the flow model gives one flow alone - a bus, a star, a switch whose
 * backplane is the narrowest, a torus route of 2 hops; 0 on one host. */
START_TEST(alone_time_is_one_flow_alone)
{
	vlcfg_config c;
	int kind, src[1] = { 0 }, dst[1] = { 3 };
	int64_t bytes[1] = { M }, start[1] = { 1000 }, end[1];

	for (kind = VLCFG_TOPO_STAR; kind <= VLCFG_TOPO_TORUS; kind++) {
		cfg_net(&c, 4, kind, 0, M);
		if (kind == VLCFG_TOPO_SWITCH)
			c.topo.backplane = 50e6; /* 50 MB/s: 2 m/B */
		if (kind == VLCFG_TOPO_TORUS) {
			c.topo.ndims = 2;
			c.topo.dims[0] = c.topo.dims[1] = 2;
		}
		ends_all(&c, 1, src, dst, bytes, start, end);
		ck_assert_int_eq(vli_net_alone_ns(&c, 0, 3, M), end[0] - start[0]);
		ck_assert_int_eq(vli_net_alone_ns(&c, 0, 3, M),
				 kind == VLCFG_TOPO_SWITCH ? LAT + 2 * MB
				 : kind == VLCFG_TOPO_TORUS ? 2 * LAT + MB : LAT + MB);
		ck_assert_int_eq(vli_net_alone_ns(&c, 2, 2, M), 0);
		vlcfg_free(&c);
	}
}
END_TEST

/* An MPI rendezvous: pending (not simulated, two readers) until its receive
 * is posted; then it leaves at the later of its ready time and the post, and
 * shares like the others; dropped when a wildcard choice takes it. */
START_TEST(pending_rendezvous)
{
	vlcfg_config c;
	int a, p, w;

	cfg_net(&c, 3, VLCFG_TOPO_STAR, 0, M);
	vli_ftab_init(&tab);
	a = vli_ftab_add(&tab, 100, 1, 101, 5, 0, 1, M, 0);
	p = vli_ftab_pend(&tab, 100, 2, 102, 6, 4, 0, 2, M, 0);
	w = vli_ftab_pend(&tab, 100, 3, 102, 6, 4, 0, 2, M, 0);
	ck_assert(tab.e[p].pending && !tab.e[p].in_sim);
	ck_assert_int_eq(tab.nopen, 1);
	vli_ftab_update(&tab, &c, LAT);
	ck_assert_int_eq(tab.e[a].est, LAT + MB); /* alone: the pending ones take nothing */
	/* posted at m/B / 2: shares host 0's link from then on */
	vli_ftab_resolve(&tab, p, MB / 2);
	vli_ftab_resolve(&tab, w, -1);
	ck_assert(!tab.e[w].used);
	ck_assert_int_eq(vli_ftab_find(&tab, 100, 3, 102), -1);
	ck_assert(!tab.e[p].pending && tab.e[p].in_sim && tab.e[p].start == MB / 2);
	vli_ftab_update(&tab, &c, LAT);
	/* a alone from LAT to LAT + MB/2 (half its bytes), then both at half
	 * rate: a ends MB later, at LAT + 3 MB/2, p has half its bytes through
	 * then and ends alone MB/2 later, at LAT + 2 MB */
	ck_assert_int_eq(tab.e[a].est, LAT + 3 * MB / 2);
	ck_assert_int_eq(tab.e[p].est, LAT + 2 * MB);
	/* final only past the checkpoint; both readers take it before it goes */
	vli_ftab_update(&tab, &c, 10 * MB);
	ck_assert(tab.e[p].final);
	vli_ftab_consume(&tab, p);
	ck_assert(tab.e[p].used);
	vli_ftab_consume(&tab, p);
	ck_assert(!tab.e[p].used);
	vlcfg_free(&c);
}
END_TEST

/* A flow that takes bandwidth before the checkpoint, or a change of an
 * arrival a reader has taken, is counted (the caller warns: a task acted
 * below the bound it was given); a table fed in time counts nothing. */
START_TEST(late_flows_counted)
{
	vlcfg_config c;
	int a, b;

	cfg_net(&c, 4, VLCFG_TOPO_STAR, 0, M);
	/* in time: a second flow halfway through the first, added before the
	 * checkpoint passed it */
	vli_ftab_init(&tab);
	a = vli_ftab_add(&tab, 100, 1, 101, -1, 0, 1, M, 0);
	vli_ftab_update(&tab, &c, MB / 2);
	b = vli_ftab_add(&tab, 100, 2, 102, -1, 0, 2, M, MB / 2);
	vli_ftab_update(&tab, &c, INT64_MAX / 4);
	ck_assert_int_eq(tab.e[a].est, LAT + MB / 2 + MB);
	ck_assert_int_eq(tab.e[b].est, LAT + 2 * MB);
	ck_assert_uint_eq(tab.nlate, 0);
	/* the checkpoint already past the second flow's start: counted, the
	 * first one's sender, receiver and departure kept */
	vli_ftab_init(&tab);
	a = vli_ftab_add(&tab, 100, 1, 101, -1, 0, 1, M, 0);
	vli_ftab_update(&tab, &c, LAT + MB + 1);
	ck_assert(tab.e[a].final);
	b = vli_ftab_add(&tab, 103, 2, 102, -1, 3, 2, M, MB / 2);
	vli_ftab_update(&tab, &c, INT64_MAX / 4);
	ck_assert_uint_eq(tab.nlate, 1);
	ck_assert_int_eq(tab.late_src, 103);
	ck_assert_int_eq(tab.late_dst, 102);
	ck_assert_int_eq(tab.late_start, MB / 2);
	/* an estimate taken by its reader, then changed by a flow that comes in
	 * time for the checkpoint: counted, the taken one named */
	vli_ftab_init(&tab);
	a = vli_ftab_add(&tab, 100, 1, 101, -1, 0, 1, M, 0);
	vli_ftab_update(&tab, &c, 0);
	ck_assert_int_eq(tab.e[a].est, LAT + MB);
	vli_ftab_consume(&tab, a);
	b = vli_ftab_add(&tab, 100, 2, 102, -1, 0, 2, M, MB / 2);
	vli_ftab_update(&tab, &c, INT64_MAX / 4);
	ck_assert_int_eq(tab.e[a].est, LAT + MB / 2 + MB);
	ck_assert_uint_eq(tab.nlate, 1);
	ck_assert_int_eq(tab.late_src, 100);
	ck_assert_int_eq(tab.late_dst, 101);
	ck_assert_int_eq(tab.late_start, 0);
	(void)b;
	vlcfg_free(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("flowtab");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, closed_forms);
	tcase_add_test(tc, reproducible);
	tcase_add_test(tc, groups_are_max_min_fair);
	tcase_add_test(tc, estimates_and_entries);
	tcase_add_test(tc, pending_rendezvous);
	tcase_add_test(tc, late_flows_counted);
	tcase_add_test(tc, lookahead_at_least_1ns);
	tcase_add_test(tc, alone_time_is_one_flow_alone);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
