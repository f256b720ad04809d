/* test_coll.c - unit tests of the collective timing simulator (vlayer/coll.c and
 * the vlayer/coll_<kind>_<algorithm>.c files): names and parsing, argument
 * checks, exact closed-form times of the algorithms, the effect of late ranks,
 * inter- versus intra-host links, the invariants of every kind x algorithm x p,
 * and broken schedules.
 *
 * Every expected time is derived by hand from the message semantics of coll.h
 * with the constants below (comments show the derivation); none is computed by
 * calling the code under test.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"
#include "vlayer/coll/sched.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* intra-host link: send, transmission (+ per KiB), receive */
#define SA 1000
#define TA 20000
#define KA 1000 /* ns per KiB: trans_per_kib = 1 us */
#define RA 300
/* inter-host link */
#define SE 5000
#define TE 100000
#define KE 8000
#define RE 700

#define KIB 1024
#define L INT64_C(1000000000) /* a late entry: later than anything else here */
#define MAXP 16

/* Transmission of k KiB on each link. */
static int64_t ta(int64_t k)
{
	return TA + k * KA;
}

static int64_t te(int64_t k)
{
	return TE + k * KE;
}

/* A config with nhosts hosts and the constants above, all overrides unset. */
static void cfg_make(vlcfg_config *c, int nhosts)
{
	int i;

	vlcfg_default(c);
	ck_assert_ptr_nonnull(c->hosts);
	free(c->hosts);
	c->hosts = calloc((size_t)nhosts, sizeof *c->hosts);
	ck_assert_ptr_nonnull(c->hosts);
	c->nhosts = nhosts;
	for (i = 0; i < nhosts; i++) {
		vlcfg_host *h = &c->hosts[i];

		snprintf(h->name, sizeof h->name, "h%d", i);
		h->procs = 1;
		h->send_delay = VLCFG_UNSET;
		h->recv_delay = VLCFG_UNSET;
		h->trans_delay = VLCFG_UNSET;
		h->trans_per_kib_ps = VLCFG_UNSET;
	}
	c->intra.send_delay = SA;
	c->intra.trans_delay = TA;
	c->intra.trans_per_kib_ps = INT64_C(1000) * KA;
	c->intra.recv_delay = RA;
	c->inter.send_delay = SE;
	c->inter.trans_delay = TE;
	c->inter.trans_per_kib_ps = INT64_C(1000) * KE;
	c->inter.recv_delay = RE;
}

static int clog2(int p)
{
	int k = 0;

	while ((1 << k) < p)
		k++;
	return k;
}

static int popcount(int v)
{
	int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static int64_t *filled(size_t n, int64_t v)
{
	int64_t *a = malloc((n ? n : 1) * sizeof *a);
	size_t i;

	ck_assert_ptr_nonnull(a);
	for (i = 0; i < n; i++)
		a[i] = v;
	return a;
}

/* Run one collective (host, entry NULL: all 0), expect success and check what
 * must hold for any result: exit = entry + comm + wait, no negative part. */
static void sim(const vlcfg_config *c, int kind, int alg, int p, int root, const int *host,
		const int64_t *entry, const int64_t *bytes, vlcoll_out *out)
{
	int *h0 = calloc((size_t)p, sizeof *h0);
	int64_t *e0 = calloc((size_t)p, sizeof *e0);
	vlcoll_in in;
	int r;

	ck_assert_ptr_nonnull(h0);
	ck_assert_ptr_nonnull(e0);
	in.kind = kind;
	in.alg = alg;
	in.p = p;
	in.root = root;
	in.host = host ? host : h0;
	in.entry = entry ? entry : e0;
	in.bytes = bytes;
	in.variant = VLCOLL_PLAIN;
	memset(out, 0x5a, (size_t)p * sizeof *out);
	ck_assert_msg(vlcoll_sim(c, &in, out) == 0, "%s/%s p=%d failed", vl_coll_kind_name(kind),
		      vlcoll_alg_name(alg), p);
	for (r = 0; r < p; r++) {
		ck_assert_int_ge(out[r].comm, 0);
		ck_assert_int_ge(out[r].wait, 0);
		ck_assert_int_eq(out[r].exit, in.entry[r] + out[r].comm + out[r].wait);
	}
	free(h0);
	free(e0);
}

/* The same with one size n for every rank (p entries, or p * p for alltoall). */
static void simn(const vlcfg_config *c, int kind, int alg, int p, int root, const int *host,
		 const int64_t *entry, int64_t n, vlcoll_out *out)
{
	size_t cnt = kind == VL_KIND_ALLTOALL ? (size_t)p * p : (size_t)p;
	int64_t *b = filled(cnt, n);

	sim(c, kind, alg, p, root, host, entry, b, out);
	free(b);
}

/* ---- names ---- */

START_TEST(kind_and_alg_names)
{
	static const char *const kinds[] = { "barrier",   "bcast",    "reduce",
					     "allreduce", "gather",   "scatter",
					     "allgather", "alltoall", "reduce_scatter",
					     "scan",      "exscan" };
	static const char *const algs[] = { "default",  "linear",       "binomial",
					    "dissemination", "recursive_doubling", "ring",
					    "pairwise", "reduce_bcast", "chain", "linear_ompi",
					    "binomial_ompi", "binary", "knomial", "pipeline",
					    "in_order_binary", "rabenseifner", "ring_ompi",
					    "nonoverlapping", "bruck", "neighbor", "linear_sync",
					    "tree", "scatter_allgather", "split_binary",
					    "linear_nb", "recursive_halving", "butterfly" };
	int i;

	ck_assert_int_eq(VL_KIND_N, 11);
	ck_assert_int_eq(VLCOLL_ALG_NALGS, 27);
	for (i = 0; i < VL_KIND_N; i++)
		ck_assert_str_eq(vl_coll_kind_name(i), kinds[i]);
	for (i = 0; i < VLCOLL_ALG_NALGS; i++)
		ck_assert_str_eq(vlcoll_alg_name(i), algs[i]);
	ck_assert_str_eq(vl_coll_kind_name(-1), "unknown");
	ck_assert_str_eq(vl_coll_kind_name(VL_KIND_N), "unknown");
	ck_assert_str_eq(vlcoll_alg_name(-1), "unknown");
	ck_assert_str_eq(vlcoll_alg_name(VLCOLL_ALG_NALGS), "unknown");
}
END_TEST

START_TEST(alg_defaults)
{
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_BARRIER), VLCOLL_ALG_DISSEMINATION);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_BCAST), VLCOLL_ALG_BINOMIAL);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_REDUCE), VLCOLL_ALG_BINOMIAL);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_ALLREDUCE), VLCOLL_ALG_RECURSIVE_DOUBLING);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_GATHER), VLCOLL_ALG_LINEAR);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_SCATTER), VLCOLL_ALG_LINEAR);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_ALLGATHER), VLCOLL_ALG_RING);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_ALLTOALL), VLCOLL_ALG_PAIRWISE);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_REDUCE_SCATTER), VLCOLL_ALG_LINEAR);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_SCAN), VLCOLL_ALG_CHAIN);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_EXSCAN), VLCOLL_ALG_CHAIN);
	ck_assert_int_eq(vlcoll_alg_default(-1), -1);
	ck_assert_int_eq(vlcoll_alg_default(VL_KIND_N), -1);
}
END_TEST

START_TEST(alg_parse_lists)
{
	static const char *const lists[VL_KIND_N] = {
		"default, dissemination, linear, binomial, recursive_doubling, tree",
		"default, binomial, linear, linear_ompi, binomial_ompi, binary, knomial, pipeline, "
		"scatter_allgather, split_binary",
		"default, binomial, linear, linear_ompi, binomial_ompi, binary, pipeline, "
		"in_order_binary, rabenseifner",
		"default, recursive_doubling, ring, reduce_bcast, rabenseifner, ring_ompi, "
		"nonoverlapping, linear_ompi",
		"default, linear, binomial, linear_ompi, linear_sync",
		"default, linear, binomial, linear_ompi, linear_nb",
		"default, ring, recursive_doubling, linear, bruck, neighbor, linear_ompi",
		"default, pairwise, linear, linear_sync, bruck, linear_ompi",
		"default, linear, ring, ring_ompi, nonoverlapping, recursive_halving, butterfly, "
		"recursive_doubling",
		"default, chain, recursive_doubling",
		"default, chain, recursive_doubling",
	};
	char valid[256], list[260];
	int k, a, n;

	for (k = 0; k < VL_KIND_N; k++) {
		memset(valid, 'x', sizeof valid);
		ck_assert_int_eq(vlcoll_alg_parse(k, "default", valid, sizeof valid),
				 VLCOLL_ALG_DEFAULT);
		ck_assert_str_eq(valid, lists[k]);
		/* every algorithm name: itself if it is in the list, else -1 */
		for (a = 1, n = 0; a < VLCOLL_ALG_NALGS; a++) {
			int got = vlcoll_alg_parse(k, vlcoll_alg_name(a), NULL, 0);
			char word[64];

			snprintf(word, sizeof word, ", %s,", vlcoll_alg_name(a));
			snprintf(list, sizeof list, "%s,", lists[k]);
			if (strstr(list, word)) {
				ck_assert_int_eq(got, a);
				n++;
			} else {
				ck_assert_msg(got == -1, "%s accepts %s", vl_coll_kind_name(k),
					      vlcoll_alg_name(a));
			}
		}
		ck_assert_int_ge(n, 2);
	}
}
END_TEST

START_TEST(alg_parse_invalid)
{
	char valid[256], small[12];

	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_BCAST, "ring", valid, sizeof valid), -1);
	ck_assert_str_eq(valid,
			 "default, binomial, linear, linear_ompi, binomial_ompi, binary, knomial, "
			 "pipeline, scatter_allgather, split_binary");
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_REDUCE_SCATTER, "reduce_bcast", NULL, 0), -1);
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_ALLREDUCE, "reduce_bcast", NULL, 0),
			 VLCOLL_ALG_REDUCE_BCAST);
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_BARRIER, "Binomial", NULL, 0), -1);
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_BARRIER, "binomial ", NULL, 0), -1);
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_BARRIER, "", NULL, 0), -1);
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_BARRIER, "unknown", NULL, 0), -1);
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_SCAN, "pairwise", NULL, 0), -1);
	/* NULL name: -1, but the list is still given */
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_ALLTOALL, NULL, valid, sizeof valid), -1);
	ck_assert_str_eq(valid, "default, pairwise, linear, linear_sync, bruck, linear_ompi");
	/* unknown kind: -1 and an empty list */
	strcpy(valid, "junk");
	ck_assert_int_eq(vlcoll_alg_parse(-1, "default", valid, sizeof valid), -1);
	ck_assert_str_eq(valid, "");
	strcpy(valid, "junk");
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_N, "linear", valid, sizeof valid), -1);
	ck_assert_str_eq(valid, "");
	/* a short buffer is cut and terminated */
	memset(small, 'x', sizeof small);
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_BARRIER, "linear", small, sizeof small),
			 VLCOLL_ALG_LINEAR);
	ck_assert_str_eq(small, "default, di");
	memset(small, 'x', sizeof small);
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_BARRIER, "linear", small, 1), VLCOLL_ALG_LINEAR);
	ck_assert_int_eq(small[0], 0);
	ck_assert_int_eq(small[1], 'x');
	ck_assert_int_eq(vlcoll_alg_parse(VL_KIND_BARRIER, "linear", small, 0), VLCOLL_ALG_LINEAR);
}
END_TEST

/* ---- argument checks ---- */

START_TEST(sim_invalid_inputs)
{
	vlcfg_config c;
	vlcoll_out out[4];
	int host[4] = { 0 };
	int64_t entry[4] = { 0 }, b[16], neg[16], bad[4] = { 8, 8, -1, 8 };
	vlcoll_in in = { VL_KIND_BCAST, VLCOLL_ALG_DEFAULT, 4, 1, host, entry, b, VLCOLL_PLAIN };
	vlcoll_in t;
	int i;

	for (i = 0; i < 16; i++)
		b[i] = 8;
	cfg_make(&c, 1);
	ck_assert_int_eq(vlcoll_sim(&c, &in, out), 0);
	ck_assert_int_eq(vlcoll_sim(NULL, &in, out), -1);
	ck_assert_int_eq(vlcoll_sim(&c, NULL, out), -1);
	ck_assert_int_eq(vlcoll_sim(&c, &in, NULL), -1);
#define BAD(field, value)                                   \
	do {                                                \
		t = in;                                     \
		t.field = value;                            \
		ck_assert_int_eq(vlcoll_sim(&c, &t, out), -1); \
	} while (0)
	BAD(kind, -1);
	BAD(kind, VL_KIND_N);
	BAD(alg, -1);
	BAD(alg, VLCOLL_ALG_NALGS);
	BAD(alg, VLCOLL_ALG_RING);          /* not a bcast algorithm */
	BAD(alg, VLCOLL_ALG_DISSEMINATION);
	BAD(p, 0);
	BAD(p, -3);
	BAD(root, -1);
	BAD(root, 4);
	BAD(host, NULL);
	BAD(entry, NULL);
	BAD(bytes, NULL);
	/* every rooted kind checks root */
	t = in;
	t.root = 4;
	for (t.kind = VL_KIND_REDUCE; t.kind <= VL_KIND_SCATTER; t.kind++) {
		if (t.kind == VL_KIND_ALLREDUCE)
			continue;
		ck_assert_int_eq(vlcoll_sim(&c, &t, out), -1);
	}
	/* reduce_bcast is not a reduce_scatter algorithm */
	t = in;
	t.kind = VL_KIND_REDUCE_SCATTER;
	t.alg = VLCOLL_ALG_REDUCE_BCAST;
	ck_assert_int_eq(vlcoll_sim(&c, &t, out), -1);
	/* negative sizes */
	t = in;
	t.kind = VL_KIND_GATHER;
	t.bytes = bad;
	ck_assert_int_eq(vlcoll_sim(&c, &t, out), -1);
	t.kind = VL_KIND_ALLTOALL;
	t.bytes = b;
	ck_assert_int_eq(vlcoll_sim(&c, &t, out), 0);
	memcpy(neg, b, sizeof neg);
	neg[13] = -5; /* the last row: all p * p entries are checked */
	t.bytes = neg;
	ck_assert_int_eq(vlcoll_sim(&c, &t, out), -1);
	/* bcast: only the root's size counts */
	t = in;
	t.bytes = bad;
	ck_assert_int_eq(vlcoll_sim(&c, &t, out), 0);
	t.root = 2;
	ck_assert_int_eq(vlcoll_sim(&c, &t, out), -1);
	/* barrier: no sizes, no root; non-rooted kinds ignore root */
	t = in;
	t.kind = VL_KIND_BARRIER;
	t.bytes = NULL;
	t.root = 99;
	ck_assert_int_eq(vlcoll_sim(&c, &t, out), 0);
	t = in;
	t.kind = VL_KIND_ALLREDUCE;
	t.root = -7;
	ck_assert_int_eq(vlcoll_sim(&c, &t, out), 0);
#undef BAD
	vlcfg_free(&c);
}
END_TEST

/* ---- closed forms: barrier ---- */

START_TEST(barrier_dissemination_closed_form)
{
	vlcfg_config c;
	vlcoll_out out[MAXP];
	int p, r;

	cfg_make(&c, 1);
	for (p = 1; p <= 9; p++) {
		int k = clog2(p);

		sim(&c, VL_KIND_BARRIER, VLCOLL_ALG_DISSEMINATION, p, 0, NULL, NULL, NULL, out);
		for (r = 0; r < p; r++) {
			/* every round: send, the partner's message is on the wire T, receive */
			ck_assert_int_eq(out[r].exit, k * (SA + TA + RA));
			ck_assert_int_eq(out[r].comm, k * (SA + RA));
			ck_assert_int_eq(out[r].wait, k * TA);
			ck_assert_int_eq(out[r].nmsgs, k);
		}
	}
	/* the default is dissemination */
	sim(&c, VL_KIND_BARRIER, VLCOLL_ALG_DEFAULT, 8, 0, NULL, NULL, NULL, out);
	for (r = 0; r < 8; r++)
		ck_assert_int_eq(out[r].exit, 3 * (SA + TA + RA));
	vlcfg_free(&c);
}
END_TEST

START_TEST(barrier_dissemination_late_rank)
{
	vlcfg_config c;
	vlcoll_out out[4];
	int64_t entry[4] = { 0, 0, L, 0 };

	/* p = 4, rank 2 enters at L.  Round 1 (d = 1), round 2 (d = 2):
	 * r2: both messages (from 1 and 0) arrived long ago: L + 2S + 2R, no wait
	 * r3: waits for 2's round-1 message (L + S + T): L + S + T + R, then 1's
	 *     round-2 message is old: L + 2S + T + 2R
	 * r0: round 2 waits for 2's message sent at L + S + R: L + 2S + T + 2R
	 * r1: round 2 waits for 3's message sent at L + S + T + R: L + 2S + 2T + 2R */
	cfg_make(&c, 1);
	sim(&c, VL_KIND_BARRIER, VLCOLL_ALG_DISSEMINATION, 4, 0, NULL, entry, NULL, out);
	ck_assert_int_eq(out[0].exit, L + 2 * SA + TA + 2 * RA);
	ck_assert_int_eq(out[1].exit, L + 2 * SA + 2 * TA + 2 * RA);
	ck_assert_int_eq(out[2].exit, L + 2 * SA + 2 * RA);
	ck_assert_int_eq(out[2].wait, 0);
	ck_assert_int_eq(out[3].exit, L + 2 * SA + TA + 2 * RA);
	ck_assert_int_eq(out[0].wait, L + TA);
	vlcfg_free(&c);
}
END_TEST

START_TEST(barrier_linear_closed_form)
{
	static const int ps[] = { 1, 2, 3, 4, 8 };
	vlcfg_config c;
	vlcoll_out out[MAXP];
	size_t i;
	int r;

	/* everyone sends to 0 at 0 (arrival S + T); 0 receives p - 1 times, then
	 * replies in rank order: 0 leaves at S + T + (p-1)R + (p-1)S; rank r's
	 * reply leaves 0 at S + T + (p-1)R + rS: r leaves at (r+1)S + 2T + pR */
	cfg_make(&c, 1);
	for (i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		int p = ps[i];

		sim(&c, VL_KIND_BARRIER, VLCOLL_ALG_LINEAR, p, 0, NULL, NULL, NULL, out);
		ck_assert_int_eq(out[0].exit, p == 1 ? 0 : p * SA + TA + (p - 1) * RA);
		ck_assert_int_eq(out[0].nmsgs, p - 1);
		for (r = 1; r < p; r++) {
			ck_assert_int_eq(out[r].exit, (r + 1) * SA + 2 * TA + p * RA);
			ck_assert_int_eq(out[r].nmsgs, 1);
		}
	}
	vlcfg_free(&c);
}
END_TEST

START_TEST(barrier_binomial_closed_form)
{
	vlcfg_config c;
	vlcoll_out out[4];
	const int64_t X = TA + RA;

	/* p = 4.  Fan-in: 1 -> 0 and 3 -> 2 at 0; 2 gets 3 at S + X, sends to 0;
	 * 0 has both at 2S + 2X.  Fan-out: 0 sends to 2 then 1 (leaves at 4S + 2X);
	 * 2 gets it at 3S + 3X and sends to 3 (4S + 3X); 1 gets it at 4S + 3X;
	 * 3 at 4S + 4X. */
	cfg_make(&c, 1);
	sim(&c, VL_KIND_BARRIER, VLCOLL_ALG_BINOMIAL, 4, 0, NULL, NULL, NULL, out);
	ck_assert_int_eq(out[0].exit, 4 * SA + 2 * X);
	ck_assert_int_eq(out[1].exit, 4 * SA + 3 * X);
	ck_assert_int_eq(out[2].exit, 4 * SA + 3 * X);
	ck_assert_int_eq(out[3].exit, 4 * SA + 4 * X);
	ck_assert_int_eq(out[0].nmsgs, 2);
	ck_assert_int_eq(out[1].nmsgs, 1);
	ck_assert_int_eq(out[2].nmsgs, 2);
	ck_assert_int_eq(out[3].nmsgs, 1);
	vlcfg_free(&c);
}
END_TEST

/* ---- closed forms: bcast, reduce ---- */

START_TEST(bcast_binomial_closed_form)
{
	static const int ps[] = { 1, 2, 4, 8 };
	vlcfg_config c;
	vlcoll_out out[MAXP];
	const int64_t X = ta(4) + RA; /* 4 KiB */
	size_t i;
	int p, r, root;

	/* p a power of two: relative rank v leaves at log2(p) S + popcount(v) X
	 * (each edge of its path costs T + R; everyone sends log2(p) - depth
	 * times after having received) */
	cfg_make(&c, 1);
	for (i = 0; i < sizeof ps / sizeof ps[0]; i++)
		for (root = 0; root < ps[i]; root++) {
			p = ps[i];
			simn(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, p, root, NULL, NULL, 4 * KIB,
			     out);
			for (r = 0; r < p; r++) {
				int v = (r - root + p) % p;

				ck_assert_int_eq(out[r].exit, clog2(p) * SA + popcount(v) * X);
			}
		}
	/* p = 6, root 0: 0 sends to 4, 2, 1; 4 to 5; 2 to 3 */
	simn(&c, VL_KIND_BCAST, VLCOLL_ALG_DEFAULT, 6, 0, NULL, NULL, 4 * KIB, out);
	ck_assert_int_eq(out[0].exit, 3 * SA);
	ck_assert_int_eq(out[1].exit, 3 * SA + X);
	ck_assert_int_eq(out[2].exit, 3 * SA + X);
	ck_assert_int_eq(out[3].exit, 3 * SA + 2 * X);
	ck_assert_int_eq(out[4].exit, 2 * SA + X);
	ck_assert_int_eq(out[5].exit, 2 * SA + 2 * X);
	ck_assert_int_eq(out[0].nmsgs, 3);
	ck_assert_int_eq(out[4].nmsgs, 1);
	ck_assert_int_eq(out[5].nmsgs, 0);
	vlcfg_free(&c);
}
END_TEST

START_TEST(bcast_binomial_late_ranks)
{
	vlcfg_config c;
	vlcoll_out out[8];
	int64_t entry[8];
	const int64_t T4 = ta(4), X = T4 + RA;
	int r, late;

	cfg_make(&c, 1);
	/* a late leaf (7 or 1) delays nobody else, and does not wait itself */
	for (late = 1; late <= 7; late += 6) {
		memset(entry, 0, sizeof entry);
		entry[late] = L;
		simn(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 8, 0, NULL, entry, 4 * KIB, out);
		for (r = 0; r < 8; r++)
			if (r != late)
				ck_assert_int_eq(out[r].exit, 3 * SA + popcount(r) * X);
		ck_assert_int_eq(out[late].exit, L + RA);
		ck_assert_int_eq(out[late].wait, 0);
	}
	/* a late inner node (4) delays its subtree 5, 6, 7 only:
	 * 4: L + R, sends to 6 and 5: L + 2S + R
	 * 6: gets it at L + R + S + T, sends to 7: L + 2S + T + 2R
	 * 5: gets it at L + R + 2S + T: L + 2S + T + 2R
	 * 7: L + 2S + 2T + 3R */
	memset(entry, 0, sizeof entry);
	entry[4] = L;
	simn(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 8, 0, NULL, entry, 4 * KIB, out);
	for (r = 0; r < 4; r++)
		ck_assert_int_eq(out[r].exit, 3 * SA + popcount(r) * X);
	ck_assert_int_eq(out[4].exit, L + 2 * SA + RA);
	ck_assert_int_eq(out[5].exit, L + 2 * SA + T4 + 2 * RA);
	ck_assert_int_eq(out[6].exit, L + 2 * SA + T4 + 2 * RA);
	ck_assert_int_eq(out[7].exit, L + 2 * SA + 2 * T4 + 3 * RA);
	/* a late root delays everyone by exactly its lateness */
	memset(entry, 0, sizeof entry);
	entry[0] = L;
	simn(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 8, 0, NULL, entry, 4 * KIB, out);
	for (r = 0; r < 8; r++)
		ck_assert_int_eq(out[r].exit, L + 3 * SA + popcount(r) * X);
	for (r = 1; r < 8; r++)
		ck_assert_int_ge(out[r].wait, L);
	vlcfg_free(&c);
}
END_TEST

START_TEST(bcast_linear_closed_form)
{
	vlcfg_config c;
	vlcoll_out out[MAXP];
	int p, r, root;

	/* the root sends in relative order: v leaves at vS + T + R */
	cfg_make(&c, 1);
	for (p = 1; p <= 9; p++)
		for (root = 0; root < p; root++) {
			simn(&c, VL_KIND_BCAST, VLCOLL_ALG_LINEAR, p, root, NULL, NULL, 2 * KIB, out);
			for (r = 0; r < p; r++) {
				int v = (r - root + p) % p;

				ck_assert_int_eq(out[r].exit,
						 v ? v * SA + ta(2) + RA : (p - 1) * SA);
			}
		}
	/* 100 bytes: 100 * 1e6 / 1024000 = 97.66 -> 97 ns on the wire */
	simn(&c, VL_KIND_BCAST, VLCOLL_ALG_LINEAR, 3, 0, NULL, NULL, 100, out);
	ck_assert_int_eq(out[2].exit, 2 * SA + TA + 97 + RA);
	vlcfg_free(&c);
}
END_TEST

START_TEST(reduce_closed_form)
{
	static const int ps[] = { 2, 4, 8 };
	vlcfg_config c;
	vlcoll_out out[MAXP];
	const int64_t X = ta(1) + RA;
	size_t i;
	int p, r, root;

	cfg_make(&c, 1);
	/* binomial, p a power of two: the root leaves at log2(p) (S + T + R) */
	for (i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		p = ps[i];
		for (root = 0; root < p; root++) {
			simn(&c, VL_KIND_REDUCE, VLCOLL_ALG_BINOMIAL, p, root, NULL, NULL, KIB, out);
			ck_assert_int_eq(out[root].exit, clog2(p) * (SA + X));
			ck_assert_int_eq(out[root].nmsgs, 0);
		}
	}
	/* p = 8, root 0: 7 -> 6 -> 4 -> 0, 5 -> 4, 3 -> 2 -> 0, 1 -> 0 */
	simn(&c, VL_KIND_REDUCE, VLCOLL_ALG_DEFAULT, 8, 0, NULL, NULL, KIB, out);
	ck_assert_int_eq(out[0].exit, 3 * SA + 3 * X);
	ck_assert_int_eq(out[1].exit, SA);
	ck_assert_int_eq(out[2].exit, 2 * SA + X);
	ck_assert_int_eq(out[3].exit, SA);
	ck_assert_int_eq(out[4].exit, 3 * SA + 2 * X);
	ck_assert_int_eq(out[5].exit, SA);
	ck_assert_int_eq(out[6].exit, 2 * SA + X);
	ck_assert_int_eq(out[7].exit, SA);
	/* linear: all arrive at S + T; the root receives p - 1 times */
	for (p = 1; p <= 9; p++) {
		root = p / 2;
		simn(&c, VL_KIND_REDUCE, VLCOLL_ALG_LINEAR, p, root, NULL, NULL, KIB, out);
		for (r = 0; r < p; r++)
			ck_assert_int_eq(out[r].exit,
					 r != root ? SA : p == 1 ? 0 : SA + ta(1) + (p - 1) * RA);
	}
	vlcfg_free(&c);
}
END_TEST

/* ---- closed forms: allreduce ---- */

START_TEST(allreduce_closed_form)
{
	static const int ps[] = { 1, 2, 4, 8 };
	vlcfg_config c;
	vlcoll_out out[MAXP];
	const int64_t T2 = ta(2), X = T2 + RA;
	size_t i;
	int p, r;

	cfg_make(&c, 1);
	/* recursive doubling, p a power of two: log2(p) exchanges */
	for (i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		p = ps[i];
		simn(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_DEFAULT, p, 0, NULL, NULL, 2 * KIB, out);
		for (r = 0; r < p; r++) {
			ck_assert_int_eq(out[r].exit, clog2(p) * (SA + X));
			ck_assert_int_eq(out[r].nmsgs, clog2(p));
		}
	}
	/* p = 3: 0 folds into 1 (1 has it at S + X); 1 and 2 exchange (2 sent at
	 * 0, 1 sends at S + X): 1 at 2S + T + 2R, 2 at 2S + 2T + 2R; 1 sends the
	 * result back: 1 leaves at 3S + T + 2R, 0 at 3S + 2T + 3R */
	simn(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING, 3, 0, NULL, NULL, 2 * KIB, out);
	ck_assert_int_eq(out[0].exit, 3 * SA + 2 * T2 + 3 * RA);
	ck_assert_int_eq(out[1].exit, 3 * SA + T2 + 2 * RA);
	ck_assert_int_eq(out[2].exit, 2 * SA + 2 * T2 + 2 * RA);
	ck_assert_int_eq(out[0].nmsgs, 1);
	ck_assert_int_eq(out[1].nmsgs, 2);
	ck_assert_int_eq(out[2].nmsgs, 1);
	/* reduce_bcast, p = 4: the binomial barrier with T(2 KiB) */
	simn(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_REDUCE_BCAST, 4, 0, NULL, NULL, 2 * KIB, out);
	ck_assert_int_eq(out[0].exit, 4 * SA + 2 * X);
	ck_assert_int_eq(out[1].exit, 4 * SA + 3 * X);
	ck_assert_int_eq(out[2].exit, 4 * SA + 3 * X);
	ck_assert_int_eq(out[3].exit, 4 * SA + 4 * X);
	/* ring: 2(p - 1) steps of one chunk (n / p = 1 KiB) */
	for (p = 1; p <= 8; p *= 2) {
		simn(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RING, p, 0, NULL, NULL, p * KIB, out);
		for (r = 0; r < p; r++) {
			ck_assert_int_eq(out[r].exit, 2 * (p - 1) * (SA + ta(1) + RA));
			ck_assert_int_eq(out[r].nmsgs, 2 * (p - 1));
		}
	}
	vlcfg_free(&c);
}
END_TEST

START_TEST(allreduce_ring_remainder)
{
	vlcfg_config c;
	vlcoll_out out[2];
	const int64_t S = 10, T = 100, R = 1;

	/* 1000 ns per byte; n = 3 bytes on p = 2: chunks 2 and 1 (the remainder
	 * goes to the first chunks).  Reduce-scatter: 0 sends chunk 1 (1 B) and
	 * gets chunk 0 (2 B) at S + T + 2000; 1 gets chunk 1 at S + T + 1000.
	 * Allgather: 0 sends chunk 0 (2 B) at S + T + 2000 + R, 1 sends chunk 1
	 * (1 B) at S + T + 1000 + R; 0 gets it at 2S + 2T + 2000 + R, 1 gets
	 * chunk 0 at 2S + 2T + 4000 + R. */
	cfg_make(&c, 1);
	c.intra.send_delay = S;
	c.intra.trans_delay = T;
	c.intra.recv_delay = R;
	c.intra.trans_per_kib_ps = INT64_C(1024000000);
	simn(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RING, 2, 0, NULL, NULL, 3, out);
	ck_assert_int_eq(out[0].exit, 2 * S + 2 * T + 2000 + 2 * R);
	ck_assert_int_eq(out[1].exit, 2 * S + 2 * T + 4000 + 2 * R);
	vlcfg_free(&c);
}
END_TEST

/* ---- closed forms: gather, scatter ---- */

START_TEST(gather_linear_closed_form)
{
	vlcfg_config c;
	vlcoll_out out[MAXP];
	int64_t b[MAXP];
	int p, r, root;

	cfg_make(&c, 1);
	/* equal blocks: everything arrives at S + T; the root receives p - 1 times */
	for (p = 1; p <= 9; p++)
		for (root = 0; root < p; root++) {
			simn(&c, VL_KIND_GATHER, VLCOLL_ALG_LINEAR, p, root, NULL, NULL, 3 * KIB,
			     out);
			for (r = 0; r < p; r++)
				ck_assert_int_eq(out[r].exit,
						 r != root ? SA
						 : p == 1  ? 0
							   : SA + ta(3) + (p - 1) * RA);
		}
	/* the rank at relative position v contributes v KiB: the root receives in
	 * relative order, each block arriving 1000 ns (> R) after the previous:
	 * S + T + (p - 1) * 1000 + R.  (Absolute order would end with 1 KiB.) */
	p = 4;
	root = 2;
	for (r = 0; r < p; r++)
		b[r] = ((r - root + p) % p) * KIB;
	sim(&c, VL_KIND_GATHER, VLCOLL_ALG_LINEAR, p, root, NULL, NULL, b, out);
	ck_assert_int_eq(out[root].exit, SA + TA + 3 * KA + RA);
	ck_assert_int_eq(out[root].wait, SA + TA + 3 * KA - 2 * RA);
	vlcfg_free(&c);
}
END_TEST

START_TEST(gather_binomial_closed_form)
{
	static const int ps[] = { 2, 4, 8 };
	vlcfg_config c;
	vlcoll_out out[MAXP];
	int64_t b[MAXP];
	size_t i;
	int r, root;

	cfg_make(&c, 1);
	/* p a power of two, 1 KiB blocks: the root's last message carries p/2
	 * blocks, the one before p/4 ...: log2(p)(S + T + R) + (p - 1) KiB on the
	 * wire */
	for (i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		int p = ps[i];

		for (root = 0; root < p; root++) {
			simn(&c, VL_KIND_GATHER, VLCOLL_ALG_BINOMIAL, p, root, NULL, NULL, KIB, out);
			ck_assert_int_eq(out[root].exit,
					 clog2(p) * (SA + TA + RA) + (p - 1) * KA);
		}
	}
	/* p = 4, root 1: 2 (rel 1) sends 1 KiB; 3 (rel 2) gets 0's block then
	 * sends 2 KiB at 2S + T(1) + R */
	simn(&c, VL_KIND_GATHER, VLCOLL_ALG_BINOMIAL, 4, 1, NULL, NULL, KIB, out);
	ck_assert_int_eq(out[2].exit, SA);
	ck_assert_int_eq(out[0].exit, SA);
	ck_assert_int_eq(out[3].exit, 2 * SA + ta(1) + RA);
	ck_assert_int_eq(out[3].nmsgs, 1);
	/* subtree sums with unequal blocks: p = 4 root 0, blocks 1, 2, 4, 8 KiB:
	 * 2 sends blocks 2 and 3 (12 KiB) at 2S + T(8) + R; 0 receives 1 (T(2))
	 * then 2: 2S + T(8) + T(12) + 2R */
	for (r = 0; r < 4; r++)
		b[r] = (INT64_C(1) << r) * KIB;
	sim(&c, VL_KIND_GATHER, VLCOLL_ALG_BINOMIAL, 4, 0, NULL, NULL, b, out);
	ck_assert_int_eq(out[0].exit, 2 * SA + ta(8) + ta(12) + 2 * RA);
	vlcfg_free(&c);
}
END_TEST

START_TEST(scatter_closed_form)
{
	static const int ps[] = { 1, 2, 4, 8 };
	vlcfg_config c;
	vlcoll_out out[MAXP];
	size_t i;
	int p, r, root;

	cfg_make(&c, 1);
	/* linear: v leaves at vS + T + R */
	for (p = 1; p <= 9; p++)
		for (root = 0; root < p; root++) {
			simn(&c, VL_KIND_SCATTER, VLCOLL_ALG_LINEAR, p, root, NULL, NULL, KIB, out);
			for (r = 0; r < p; r++) {
				int v = (r - root + p) % p;

				ck_assert_int_eq(out[r].exit,
						 v ? v * SA + ta(1) + RA : (p - 1) * SA);
			}
		}
	/* binomial, p a power of two, 1 KiB blocks: the edge into the subtree of
	 * bit m of v carries m blocks, so v leaves at
	 * log2(p) S + popcount(v) (T + R) + v KiB on the wire */
	for (i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		p = ps[i];
		for (root = 0; root < p; root++) {
			simn(&c, VL_KIND_SCATTER, VLCOLL_ALG_BINOMIAL, p, root, NULL, NULL, KIB, out);
			for (r = 0; r < p; r++) {
				int v = (r - root + p) % p;

				ck_assert_int_eq(out[r].exit, clog2(p) * SA +
								      popcount(v) * (TA + RA) +
								      v * KA);
			}
		}
	}
	vlcfg_free(&c);
}
END_TEST

/* ---- closed forms: allgather, alltoall, reduce_scatter ---- */

START_TEST(allgather_closed_form)
{
	vlcfg_config c;
	vlcoll_out out[MAXP];
	int p, r;

	cfg_make(&c, 1);
	/* ring: p - 1 steps of one block */
	for (p = 1; p <= 9; p++) {
		simn(&c, VL_KIND_ALLGATHER, VLCOLL_ALG_DEFAULT, p, 0, NULL, NULL, 2 * KIB, out);
		for (r = 0; r < p; r++) {
			ck_assert_int_eq(out[r].exit, (p - 1) * (SA + ta(2) + RA));
			ck_assert_int_eq(out[r].nmsgs, p - 1);
		}
	}
	/* recursive doubling, p a power of two: step k carries 2^k blocks;
	 * otherwise the ring */
	for (p = 1; p <= 9; p++) {
		simn(&c, VL_KIND_ALLGATHER, VLCOLL_ALG_RECURSIVE_DOUBLING, p, 0, NULL, NULL, KIB,
		     out);
		for (r = 0; r < p; r++) {
			if (p & (p - 1)) {
				ck_assert_int_eq(out[r].exit, (p - 1) * (SA + ta(1) + RA));
				ck_assert_int_eq(out[r].nmsgs, p - 1);
			} else {
				ck_assert_int_eq(out[r].exit,
						 clog2(p) * (SA + TA + RA) + (p - 1) * KA);
				ck_assert_int_eq(out[r].nmsgs, clog2(p));
			}
		}
	}
	/* linear, p = 4: gather to 0 (0 has all at S + T(1) + 3R), binomial bcast
	 * of 4 KiB: 0 leaves at 3S + T(1) + 3R; 2 and 1 at 3S + T(1) + T(4) + 4R;
	 * 3 at 3S + T(1) + 2T(4) + 5R */
	simn(&c, VL_KIND_ALLGATHER, VLCOLL_ALG_LINEAR, 4, 0, NULL, NULL, KIB, out);
	ck_assert_int_eq(out[0].exit, 3 * SA + ta(1) + 3 * RA);
	ck_assert_int_eq(out[1].exit, 3 * SA + ta(1) + ta(4) + 4 * RA);
	ck_assert_int_eq(out[2].exit, 3 * SA + ta(1) + ta(4) + 4 * RA);
	ck_assert_int_eq(out[3].exit, 3 * SA + ta(1) + 2 * ta(4) + 5 * RA);
	vlcfg_free(&c);
}
END_TEST

START_TEST(alltoall_closed_form)
{
	vlcfg_config c;
	vlcoll_out out[MAXP];
	int64_t m[4] = { 0, KIB, 3 * KIB, 0 };
	int p, r;

	cfg_make(&c, 1);
	for (p = 1; p <= 9; p++) {
		/* pairwise: p - 1 symmetric steps */
		simn(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_DEFAULT, p, 0, NULL, NULL, 2 * KIB, out);
		for (r = 0; r < p; r++) {
			ck_assert_int_eq(out[r].exit, (p - 1) * (SA + ta(2) + RA));
			ck_assert_int_eq(out[r].nmsgs, p - 1);
		}
		/* linear: r's first receive is from r + 1, whose message to r is its
		 * last send (arrival (p - 1)S + T); the others are there already */
		simn(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR, p, 0, NULL, NULL, 2 * KIB, out);
		for (r = 0; r < p; r++)
			ck_assert_int_eq(out[r].exit, p == 1 ? 0 : (p - 1) * (SA + RA) + ta(2));
	}
	/* the matrix is bytes[from * p + to]: 0 sends 1 KiB, 1 sends 3 KiB */
	sim(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_PAIRWISE, 2, 0, NULL, NULL, m, out);
	ck_assert_int_eq(out[0].exit, SA + ta(3) + RA);
	ck_assert_int_eq(out[1].exit, SA + ta(1) + RA);
	vlcfg_free(&c);
}
END_TEST

START_TEST(reduce_scatter_closed_form)
{
	vlcfg_config c;
	vlcoll_out out[MAXP];
	int64_t b[2] = { KIB, 3 * KIB };
	const int64_t X4 = ta(4) + RA;
	int p, r;

	cfg_make(&c, 1);
	/* linear, p = 4, 1 KiB blocks: binomial reduce of 4 KiB to 0 (0 at
	 * 2S + 2X, 2 at 2S + X, 1 and 3 at S), then 0 sends 1 KiB to 1, 2, 3 */
	simn(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_DEFAULT, 4, 0, NULL, NULL, KIB, out);
	ck_assert_int_eq(out[0].exit, 5 * SA + 2 * X4);
	ck_assert_int_eq(out[1].exit, 3 * SA + 2 * X4 + ta(1) + RA);
	ck_assert_int_eq(out[2].exit, 4 * SA + 2 * X4 + ta(1) + RA);
	ck_assert_int_eq(out[3].exit, 5 * SA + 2 * X4 + ta(1) + RA);
	/* ring: p - 1 steps of one block */
	for (p = 1; p <= 9; p++) {
		simn(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RING, p, 0, NULL, NULL, 2 * KIB, out);
		for (r = 0; r < p; r++)
			ck_assert_int_eq(out[r].exit, (p - 1) * (SA + ta(2) + RA));
	}
	/* ring, p = 2: each rank receives its own block last */
	sim(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RING, 2, 0, NULL, NULL, b, out);
	ck_assert_int_eq(out[0].exit, SA + ta(1) + RA);
	ck_assert_int_eq(out[1].exit, SA + ta(3) + RA);
	vlcfg_free(&c);
}
END_TEST

/* ---- closed forms: scan, exscan ---- */

START_TEST(scan_closed_form)
{
	vlcfg_config c;
	vlcoll_out out[MAXP];
	int64_t entry[5] = { 0, 0, L, 0, 0 };
	const int64_t T = ta(1), X = T + RA;
	int kind, p, r;

	cfg_make(&c, 1);
	for (kind = VL_KIND_SCAN; kind <= VL_KIND_EXSCAN; kind++) {
		/* chain: r < p - 1 leaves at (r + 1)S + rX, the last at (p - 1)(S + X) */
		for (p = 1; p <= 9; p++) {
			simn(&c, kind, VLCOLL_ALG_DEFAULT, p, 0, NULL, NULL, KIB, out);
			for (r = 0; r < p - 1; r++)
				ck_assert_int_eq(out[r].exit, (r + 1) * SA + r * X);
			ck_assert_int_eq(out[p - 1].exit, (p - 1) * (SA + X));
		}
		/* a late rank 2 delays 3 and 4, not 0 and 1 */
		simn(&c, kind, VLCOLL_ALG_CHAIN, 5, 0, NULL, entry, KIB, out);
		ck_assert_int_eq(out[0].exit, SA);
		ck_assert_int_eq(out[1].exit, 2 * SA + X);
		ck_assert_int_eq(out[2].exit, L + RA + SA);
		ck_assert_int_eq(out[3].exit, L + 2 * SA + T + 2 * RA);
		ck_assert_int_eq(out[4].exit, L + 2 * SA + 2 * T + 3 * RA);
		/* recursive doubling: p a power of two, log2(p) exchanges */
		for (p = 1; p <= 8; p *= 2) {
			simn(&c, kind, VLCOLL_ALG_RECURSIVE_DOUBLING, p, 0, NULL, NULL, KIB, out);
			for (r = 0; r < p; r++)
				ck_assert_int_eq(out[r].exit, clog2(p) * (SA + X));
		}
		/* p = 3: 0-1 exchange, then 0-2 (2 sent at 0, 0 at S + X) */
		simn(&c, kind, VLCOLL_ALG_RECURSIVE_DOUBLING, 3, 0, NULL, NULL, KIB, out);
		ck_assert_int_eq(out[0].exit, 2 * SA + T + 2 * RA);
		ck_assert_int_eq(out[1].exit, SA + X);
		ck_assert_int_eq(out[2].exit, 2 * SA + 2 * T + 2 * RA);
	}
	vlcfg_free(&c);
}
END_TEST

/* ---- links and hosts ---- */

START_TEST(inter_and_intra_hosts)
{
	vlcfg_config c;
	vlcoll_out out[4];
	int host[4] = { 0, 0, 1, 1 }, h2[2] = { 0, 1 };
	int r;

	cfg_make(&c, 2);
	/* linear bcast from 0: one intra send, then two inter sends */
	simn(&c, VL_KIND_BCAST, VLCOLL_ALG_LINEAR, 4, 0, host, NULL, KIB, out);
	ck_assert_int_eq(out[0].exit, SA + 2 * SE);
	ck_assert_int_eq(out[1].exit, SA + ta(1) + RA);
	ck_assert_int_eq(out[2].exit, SA + SE + te(1) + RE);
	ck_assert_int_eq(out[3].exit, SA + 2 * SE + te(1) + RE);
	/* the same from root 2: intra to 3, inter to 0 and 1 */
	simn(&c, VL_KIND_BCAST, VLCOLL_ALG_LINEAR, 4, 2, host, NULL, KIB, out);
	ck_assert_int_eq(out[2].exit, SA + 2 * SE);
	ck_assert_int_eq(out[3].exit, SA + ta(1) + RA);
	ck_assert_int_eq(out[0].exit, SA + SE + te(1) + RE);
	ck_assert_int_eq(out[1].exit, SA + 2 * SE + te(1) + RE);
	/* dissemination barrier across two hosts */
	sim(&c, VL_KIND_BARRIER, VLCOLL_ALG_DISSEMINATION, 2, 0, h2, NULL, NULL, out);
	for (r = 0; r < 2; r++)
		ck_assert_int_eq(out[r].exit, SE + TE + RE);
	/* per-host overrides are the model's: host 1 receives in 50 ns and sends
	 * in 60 ns (on every link) */
	c.hosts[1].recv_delay = 50;
	c.hosts[1].send_delay = 60;
	simn(&c, VL_KIND_BCAST, VLCOLL_ALG_LINEAR, 4, 0, host, NULL, KIB, out);
	ck_assert_int_eq(out[2].exit, SA + SE + te(1) + 50);
	ck_assert_int_eq(out[3].exit, SA + 2 * SE + te(1) + 50);
	simn(&c, VL_KIND_GATHER, VLCOLL_ALG_LINEAR, 4, 0, host, NULL, KIB, out);
	ck_assert_int_eq(out[2].exit, 60);
	ck_assert_int_eq(out[1].exit, SA);
	/* 0 gets 1 at S + T(1) (intra), 2 and 3 at 60 + T'(1) (inter) */
	ck_assert_int_eq(out[0].exit, 60 + te(1) + 2 * RE);
	vlcfg_free(&c);
}
END_TEST

/* ---- invariants over every kind x algorithm x p ---- */

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rnd(uint64_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state % n;
}

/* Messages the whole collective sends (root: of rooted kinds; bytes: the
 * vector of reductions). */
static int expected_msgs(int kind, int alg, int p, int root, int64_t bytes)
{
	int pof2 = 1, m, r, n = 0;

	while (2 * pof2 <= p)
		pof2 *= 2;
	if (kind == VL_KIND_REDUCE_SCATTER && alg != VLCOLL_ALG_LINEAR && alg != VLCOLL_ALG_RING)
		return p < 2 ? 0 : alg == VLCOLL_ALG_RING_OMPI ? p * (p - 1) : -1; /* empty parts */
	switch (alg) {
	case VLCOLL_ALG_TREE:
	case VLCOLL_ALG_NONOVERLAPPING: /* for p < 256: trees of p - 1 edges */
		return 2 * (p - 1);
	case VLCOLL_ALG_LINEAR_OMPI: /* gather(v), scatter(v): empty blocks are not sent;
					 allgather: a gather and a bcast chosen by size */
		if (kind == VL_KIND_GATHER || kind == VL_KIND_SCATTER || kind == VL_KIND_ALLGATHER)
			return -1;
		if (kind == VL_KIND_ALLTOALL)
			return p * (p - 1);
		return kind == VL_KIND_ALLREDUCE ? 2 * (p - 1) : p - 1;
	case VLCOLL_ALG_LINEAR_NB:
		return p - 1;
	case VLCOLL_ALG_BINOMIAL_OMPI:
	case VLCOLL_ALG_BINARY:
	case VLCOLL_ALG_KNOMIAL:
	case VLCOLL_ALG_PIPELINE:
		return p - 1;
	case VLCOLL_ALG_IN_ORDER_BINARY:
		return p - 1 + (root != p - 1);
	case VLCOLL_ALG_RABENSEIFNER: /* below p' bytes: basic linear */
		if (kind == VL_KIND_REDUCE) /* the gather: a tree; an odd root below 2 rem: 1 more */
			return bytes < pof2 || pof2 < 2 ? p - 1 :
			       3 * (p - pof2) + pof2 * clog2(pof2) + pof2 - 1 +
				       (root < 2 * (p - pof2) && root % 2);
		return bytes < pof2 ? 2 * (p - 1) : 4 * (p - pof2) + 2 * pof2 * (clog2(pof2));
	case VLCOLL_ALG_RING_OMPI: /* below p bytes: recursive doubling */
		return bytes < p ? pof2 * clog2(pof2) + 2 * (p - pof2) : 2 * p * (p - 1);
	case VLCOLL_ALG_BRUCK:
		return p * clog2(p);
	case VLCOLL_ALG_NEIGHBOR: /* odd p: ring */
		return p % 2 ? p * (p - 1) : p * (p / 2);
	case VLCOLL_ALG_LINEAR_SYNC: /* gather: the handshake and two segments */
		return kind == VL_KIND_GATHER ? 3 * (p - 1) : p * (p - 1);
	case VLCOLL_ALG_SCATTER_ALLGATHER: /* below p bytes: basic linear; else not counted */
		return bytes < p ? p - 1 : -1;
	case VLCOLL_ALG_SPLIT_BINARY: /* below 2 bytes: pipeline; else tree + swaps */
		if (bytes < 2 || p < 2)
			return p - 1;
		return p - 1 + (p % 2 ? p - 1 : p - 1);
	case VLCOLL_ALG_DISSEMINATION:
		return p * clog2(p);
	case VLCOLL_ALG_LINEAR:
		if (kind == VL_KIND_ALLTOALL)
			return p * (p - 1);
		return (kind == VL_KIND_BARRIER || kind == VL_KIND_ALLGATHER ||
			kind == VL_KIND_REDUCE_SCATTER)
			       ? 2 * (p - 1)
			       : p - 1;
	case VLCOLL_ALG_BINOMIAL:
		return kind == VL_KIND_BARRIER ? 2 * (p - 1) : p - 1;
	case VLCOLL_ALG_RECURSIVE_DOUBLING:
		if (kind == VL_KIND_ALLREDUCE || kind == VL_KIND_BARRIER)
			return pof2 * clog2(pof2) + 2 * (p - pof2);
		if (kind == VL_KIND_ALLGATHER)
			return pof2 == p ? p * clog2(p) : p * (p - 1);
		for (m = 1; m < p; m *= 2) /* scan: pairs that exist */
			for (r = 0; r < p; r++)
				n += (r ^ m) < p;
		return n;
	case VLCOLL_ALG_RING:
		return kind == VL_KIND_ALLREDUCE ? 2 * p * (p - 1) : p * (p - 1);
	case VLCOLL_ALG_PAIRWISE:
		return p * (p - 1);
	case VLCOLL_ALG_REDUCE_BCAST:
		return 2 * (p - 1);
	case VLCOLL_ALG_CHAIN:
		return p - 1;
	}
	return -1;
}

/* Every rank depends on every other rank's entry. */
static int all_to_all(int kind)
{
	return kind == VL_KIND_BARRIER || kind == VL_KIND_ALLREDUCE ||
	       kind == VL_KIND_ALLGATHER || kind == VL_KIND_ALLTOALL ||
	       kind == VL_KIND_REDUCE_SCATTER;
}

/* Open MPI's reduce_scatter algorithms that send no empty parts (its basic
 * scatterv, recursive halving, recursive doubling): an empty call does not
 * wait for everyone. */
static int skips_empty(int kind, int alg)
{
	return kind == VL_KIND_REDUCE_SCATTER &&
	       (alg == VLCOLL_ALG_NONOVERLAPPING || alg == VLCOLL_ALG_RECURSIVE_HALVING ||
		alg == VLCOLL_ALG_RECURSIVE_DOUBLING);
}

/* Sizes of each rank: its own block, or one vector size for all. */
static int per_rank_blocks(int kind)
{
	return kind == VL_KIND_GATHER || kind == VL_KIND_SCATTER || kind == VL_KIND_ALLGATHER ||
	       kind == VL_KIND_ALLTOALL || kind == VL_KIND_REDUCE_SCATTER;
}

/* One random call of kind/alg on p ranks (trial 0: all enter at 0; trial 1:
 * empty messages) and the properties every result must have. */
static void check_random(const vlcfg_config *c, int kind, int alg, int p, int trial)
{
	vlcoll_out out[MAXP], again[MAXP], later[MAXP];
	int host[MAXP], root = (int)rnd((uint64_t)p), late = (int)rnd((uint64_t)p);
	int64_t entry[MAXP], entry2[MAXP], bytes[MAXP * MAXP], maxentry = 0;
	int r, total = 0;

	for (r = 0; r < p; r++) {
		host[r] = (int)rnd(3);
		entry[r] = trial ? (int64_t)rnd(2000000) : 0;
		if (entry[r] > maxentry)
			maxentry = entry[r];
	}
	for (r = 0; r < p * p; r++)
		bytes[r] = trial == 1 ? 0 : (int64_t)rnd(20000);
	for (r = 1; r < p && !per_rank_blocks(kind); r++)
		bytes[r] = bytes[0];
	sim(c, kind, alg, p, root, host, entry, bytes, out);
	for (r = 0; r < p; r++) {
		total += out[r].nmsgs;
		if (all_to_all(kind) && !(trial == 1 && skips_empty(kind, alg)))
			ck_assert_msg(out[r].exit >= maxentry, "%s/%s p=%d trial %d",
				      vl_coll_kind_name(kind), vlcoll_alg_name(alg), p, trial);
	}
	ck_assert_msg(expected_msgs(kind, alg, p, root, bytes[0]) < 0 ||
		      total == expected_msgs(kind, alg, p, root, bytes[0]), "%s/%s p=%d: %d messages",
		      vl_coll_kind_name(kind), vlcoll_alg_name(alg), p, total);
	/* deterministic */
	sim(c, kind, alg, p, root, host, entry, bytes, again);
	ck_assert_mem_eq(out, again, (size_t)p * sizeof *out);
	/* the default is the first algorithm */
	if (alg == vlcoll_alg_default(kind)) {
		sim(c, kind, VLCOLL_ALG_DEFAULT, p, root, host, entry, bytes, again);
		ck_assert_mem_eq(out, again, (size_t)p * sizeof *out);
	}
	/* entering later never makes anyone leave earlier */
	memcpy(entry2, entry, sizeof entry2);
	entry2[late] += 12345;
	sim(c, kind, alg, p, root, host, entry2, bytes, later);
	for (r = 0; r < p; r++)
		ck_assert_int_ge(later[r].exit, out[r].exit);
}

START_TEST(invariants_all_kinds_algs_sizes)
{
	vlcfg_config c;
	int kind, alg, p, trial, pairs = 0, eager;

	cfg_make(&c, 3);
	c.hosts[2].send_delay = 77; /* some overrides too */
	c.hosts[1].recv_delay = 5;
	/* all eager (sizes below 20000 B), then most messages rendezvous */
	for (eager = 0; eager < 2; eager++) {
		c.mpi.eager_limit = eager ? 4096 : 65536;
		for (kind = 0; kind < VL_KIND_N; kind++)
			for (alg = 1; alg < VLCOLL_ALG_NALGS; alg++) {
				if (vlcoll_alg_parse(kind, vlcoll_alg_name(alg), NULL, 0) != alg)
					continue;
				pairs++;
				for (p = 1; p <= 9; p++)
					for (trial = 0; trial < 6; trial++)
						check_random(&c, kind, alg, p, trial);
			}
	}
	ck_assert_int_eq(pairs, 2 * 59);
	vlcfg_free(&c);
}
END_TEST

START_TEST(large_p)
{
	vlcfg_config c;
	int p = 4096, r;
	vlcoll_out *out = calloc((size_t)p, sizeof *out);
	const int64_t X = ta(1) + RA;

	ck_assert_ptr_nonnull(out);
	cfg_make(&c, 1);
	simn(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, p, 17, NULL, NULL, KIB, out);
	for (r = 0; r < p; r++)
		ck_assert_int_eq(out[r].exit, 12 * SA + popcount((r - 17 + p) % p) * X);
	simn(&c, VL_KIND_BARRIER, VLCOLL_ALG_DISSEMINATION, p, 0, NULL, NULL, 0, out);
	for (r = 0; r < p; r++)
		ck_assert_int_eq(out[r].exit, 12 * (SA + TA + RA));
	simn(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING, p, 0, NULL, NULL, KIB, out);
	for (r = 0; r < p; r++)
		ck_assert_int_eq(out[r].exit, 12 * (SA + X));
	p = 300;
	simn(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_PAIRWISE, p, 0, NULL, NULL, KIB, out);
	for (r = 0; r < p; r++)
		ck_assert_int_eq(out[r].exit, (p - 1) * (SA + X));
	simn(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR, p, 0, NULL, NULL, KIB, out);
	for (r = 0; r < p; r++)
		ck_assert_int_eq(out[r].exit, (p - 1) * (SA + RA) + ta(1));
	free(out);
	vlcfg_free(&c);
}
END_TEST

/* ---- broken schedules (the internal interface) ---- */

static int run_sched(vlcoll_sched *s, vlcoll_out *out)
{
	static const int host[4] = { 0, 0, 0, 0 };
	static const int64_t entry[4] = { 0, 0, 0, 0 };
	vlcfg_config c;
	int rc;

	cfg_make(&c, 1);
	rc = vlcoll_run(&c, s, host, entry, out);
	vlcoll_sched_free(s);
	vlcfg_free(&c);
	return rc;
}

START_TEST(broken_schedules)
{
	vlcoll_sched s;
	vlcoll_out out[4];

	/* FIFO per pair: 1 KiB then 3 KiB from 0 to 1 */
	vlcoll_sched_init(&s, 2);
	vlcoll_send(&s, 0, 1, KIB);
	vlcoll_send(&s, 0, 1, 3 * KIB);
	vlcoll_recv(&s, 1, 0, KIB);
	vlcoll_recv(&s, 1, 0, 3 * KIB);
	ck_assert_int_eq(run_sched(&s, out), 0);
	/* 1: first at S + T(1) + R, the second arrived at 2S + T(3) */
	ck_assert_int_eq(out[0].exit, 2 * SA);
	ck_assert_int_eq(out[1].exit, 2 * SA + ta(3) + RA);
	ck_assert_int_eq(out[0].nmsgs, 2);
	/* receiving them in the other order does not match */
	vlcoll_sched_init(&s, 2);
	vlcoll_send(&s, 0, 1, KIB);
	vlcoll_send(&s, 0, 1, 3 * KIB);
	vlcoll_recv(&s, 1, 0, 3 * KIB);
	vlcoll_recv(&s, 1, 0, KIB);
	ck_assert_int_eq(run_sched(&s, out), -1);
	/* a receive without a send */
	vlcoll_sched_init(&s, 3);
	vlcoll_send(&s, 0, 1, 0);
	vlcoll_recv(&s, 1, 0, 0);
	vlcoll_recv(&s, 2, 0, 0);
	ck_assert_int_eq(run_sched(&s, out), -1);
	/* a send without a receive */
	vlcoll_sched_init(&s, 3);
	vlcoll_send(&s, 0, 1, 0);
	vlcoll_send(&s, 2, 1, 0);
	vlcoll_recv(&s, 1, 0, 0);
	ck_assert_int_eq(run_sched(&s, out), -1);
	/* two receives, one send */
	vlcoll_sched_init(&s, 2);
	vlcoll_send(&s, 0, 1, 0);
	vlcoll_recv(&s, 1, 0, 0);
	vlcoll_recv(&s, 1, 0, 0);
	ck_assert_int_eq(run_sched(&s, out), -1);
	/* a cycle: both receive before sending, no progress */
	vlcoll_sched_init(&s, 2);
	vlcoll_recv(&s, 0, 1, 0);
	vlcoll_send(&s, 0, 1, 0);
	vlcoll_recv(&s, 1, 0, 0);
	vlcoll_send(&s, 1, 0, 0);
	ck_assert_int_eq(run_sched(&s, out), -1);
	/* ranks out of range */
	vlcoll_sched_init(&s, 2);
	vlcoll_send(&s, 0, 2, 0);
	ck_assert_int_eq(run_sched(&s, out), -1);
	vlcoll_sched_init(&s, 2);
	vlcoll_recv(&s, -1, 0, 0);
	ck_assert_int_eq(run_sched(&s, out), -1);
	/* an empty schedule: everyone leaves at entry */
	vlcoll_sched_init(&s, 4);
	ck_assert_int_eq(run_sched(&s, out), 0);
	ck_assert_int_eq(out[3].exit, 0);
	ck_assert_int_eq(out[3].nmsgs, 0);
}
END_TEST

static Suite *coll_suite(void)
{
	Suite *s = suite_create("coll");
	TCase *nm = tcase_create("names");
	TCase *cf = tcase_create("closed_forms");
	TCase *iv = tcase_create("invariants");

	tcase_add_test(nm, kind_and_alg_names);
	tcase_add_test(nm, alg_defaults);
	tcase_add_test(nm, alg_parse_lists);
	tcase_add_test(nm, alg_parse_invalid);
	tcase_add_test(nm, sim_invalid_inputs);
	suite_add_tcase(s, nm);

	tcase_add_test(cf, barrier_dissemination_closed_form);
	tcase_add_test(cf, barrier_dissemination_late_rank);
	tcase_add_test(cf, barrier_linear_closed_form);
	tcase_add_test(cf, barrier_binomial_closed_form);
	tcase_add_test(cf, bcast_binomial_closed_form);
	tcase_add_test(cf, bcast_binomial_late_ranks);
	tcase_add_test(cf, bcast_linear_closed_form);
	tcase_add_test(cf, reduce_closed_form);
	tcase_add_test(cf, allreduce_closed_form);
	tcase_add_test(cf, allreduce_ring_remainder);
	tcase_add_test(cf, gather_linear_closed_form);
	tcase_add_test(cf, gather_binomial_closed_form);
	tcase_add_test(cf, scatter_closed_form);
	tcase_add_test(cf, allgather_closed_form);
	tcase_add_test(cf, alltoall_closed_form);
	tcase_add_test(cf, reduce_scatter_closed_form);
	tcase_add_test(cf, scan_closed_form);
	tcase_add_test(cf, inter_and_intra_hosts);
	suite_add_tcase(s, cf);

	tcase_add_test(iv, invariants_all_kinds_algs_sizes);
	tcase_add_test(iv, large_p);
	tcase_add_test(iv, broken_schedules);
	tcase_set_timeout(iv, 60);
	suite_add_tcase(s, iv);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(coll_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
