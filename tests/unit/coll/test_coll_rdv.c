/* test_coll_rdv.c - unit tests of the MPI protocols inside the collective
 * simulation (vlayer/coll/run.c, coll.h): a message of [mpi] eager_limit bytes
 * or more is a rendezvous, as point-to-point (README "MPI"): its data depart
 * when both the send is paid and the receive is posted, and the send ends when
 * they are in.  Exact closed forms, derived by hand in the comments; none is
 * computed by the code under test.  The p = 12 cases are the figures SimGrid
 * 3.32's SMPI gave on a contention-free platform with the same linear model
 * (see the comment above smpi_figures).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"
#include "vlayer/coll/sched.h"
#include "coll_fixture.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int run2(const vlcfg_config *c, vlcoll_sched *s, const int64_t *entry, vlcoll_out *out)
{
	static const int host[4] = { 0, 0, 0, 0 };
	int rc = vlcoll_run(c, s, host, entry, out);

	vlcoll_sched_free(s);
	return rc;
}

/* ---- the protocol on one message ---- */

START_TEST(threshold)
{
	static const int64_t e0[2] = { 0, 0 }, late[2] = { 0, L };
	vlcfg_config c;
	vlcoll_sched s;
	vlcoll_out out[2];

	cfg_std(&c);
	/* eager_limit - 1 bytes: eager; the sender leaves after S */
	vlcoll_sched_init(&s, 2);
	vlcoll_send(&s, 0, 1, EAGER - 1);
	vlcoll_recv(&s, 1, 0, EAGER - 1);
	ck_assert_int_eq(run2(&c, &s, e0, out), 0);
	ck_assert_int_eq(out[0].exit, S);
	/* eager_limit bytes: a rendezvous; the send ends when the data are in */
	vlcoll_sched_init(&s, 2);
	vlcoll_send(&s, 0, 1, EAGER);
	vlcoll_recv(&s, 1, 0, EAGER);
	ck_assert_int_eq(run2(&c, &s, e0, out), 0);
	ck_assert_int_eq(out[0].exit, S + T(EAGER));
	ck_assert_int_eq(out[0].wait, T(EAGER));
	ck_assert_int_eq(out[1].exit, S + T(EAGER) + R);
	/* the receiver posts at L: eager data wait for it, a rendezvous sender too
	 * (the data depart at L) */
	vlcoll_sched_init(&s, 2);
	vlcoll_send(&s, 0, 1, KIB);
	vlcoll_recv(&s, 1, 0, KIB);
	ck_assert_int_eq(run2(&c, &s, late, out), 0);
	ck_assert_int_eq(out[0].exit, S);
	ck_assert_int_eq(out[1].exit, L + R);
	vlcoll_sched_init(&s, 2);
	vlcoll_send(&s, 0, 1, 8 * KIB);
	vlcoll_recv(&s, 1, 0, 8 * KIB);
	ck_assert_int_eq(run2(&c, &s, late, out), 0);
	ck_assert_int_eq(out[0].exit, L + T(8 * KIB));
	ck_assert_int_eq(out[0].wait, L + T(8 * KIB) - S);
	ck_assert_int_eq(out[1].exit, L + T(8 * KIB) + R);
	ck_assert_int_eq(out[1].wait, T(8 * KIB));
	/* eager_limit 0: even an empty message is a rendezvous */
	c.mpi.eager_limit = 0;
	vlcoll_sched_init(&s, 2);
	vlcoll_send(&s, 0, 1, 0);
	vlcoll_recv(&s, 1, 0, 0);
	ck_assert_int_eq(run2(&c, &s, late, out), 0);
	ck_assert_int_eq(out[0].exit, L + T0);
	vlcfg_free(&c);
}
END_TEST

START_TEST(exchange)
{
	static const int64_t e0[2] = { 0, 0 }, late[2] = { 0, L };
	vlcfg_config c;
	vlcoll_sched s;
	vlcoll_out out[2];
	const int64_t t = T(8 * KIB);

	cfg_std(&c);
	/* two blocking rendezvous sends to each other never complete */
	vlcoll_sched_init(&s, 2);
	vlcoll_send(&s, 0, 1, 8 * KIB);
	vlcoll_recv(&s, 0, 1, 8 * KIB);
	vlcoll_send(&s, 1, 0, 8 * KIB);
	vlcoll_recv(&s, 1, 0, 8 * KIB);
	ck_assert_int_eq(run2(&c, &s, e0, out), -1);
	/* as a Sendrecv: both posted at 0, ready at S, in at S + T; the receive
	 * ends at S + T + R, the send was in before */
	vlcoll_sched_init(&s, 2);
	vlcoll_sendrecv(&s, 0, 1, 8 * KIB, 1, 8 * KIB);
	vlcoll_sendrecv(&s, 1, 0, 8 * KIB, 0, 8 * KIB);
	ck_assert_int_eq(run2(&c, &s, e0, out), 0);
	ck_assert_int_eq(out[0].exit, S + t + R);
	ck_assert_int_eq(out[1].exit, S + t + R);
	ck_assert_int_eq(out[0].nmsgs, 1);
	/* rank 1 enters at L: 0 -> 1 departs at L (1 posts then; 0 was ready at
	 * S), in at L + T; 1 -> 0 departs at L + S, in at L + S + T.  Rank 0:
	 * receive ends at L + S + T + R.  Rank 1: receive ends at L + T + R, its
	 * send is in at L + S + T, the later (S > R) */
	vlcoll_sched_init(&s, 2);
	vlcoll_sendrecv(&s, 0, 1, 8 * KIB, 1, 8 * KIB);
	vlcoll_sendrecv(&s, 1, 0, 8 * KIB, 0, 8 * KIB);
	ck_assert_int_eq(run2(&c, &s, late, out), 0);
	ck_assert_int_eq(out[0].exit, L + S + t + R);
	ck_assert_int_eq(out[1].exit, L + S + t);
	vlcfg_free(&c);
}
END_TEST

/* ---- algorithms ---- */

START_TEST(bcast_binomial_rdv)
{
	vlcfg_config c;
	vlcoll_out out[4];
	int64_t entry[4] = { 0, 0, 0, 0 };
	const int64_t t = T(8 * KIB), te = T(KIB);

	cfg_std(&c);
	/* p = 4, root 1: relative 0 sends to 2 then 1; 2 to 3 (blocking, as MPICH
	 * and SMPI's binomial_tree).  Root: in at S + T, then 2S + 2T.  v2 (rank
	 * 3): S + T + R, sends: 2S + 2T + R.  v3 (rank 0): 2S + 2T + 2R.  v1
	 * (rank 2): received at 2S + 2T: 2S + 2T + R */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 4, 1, NULL, 8 * KIB, out);
	ck_assert_int_eq(out[1].exit, 2 * S + 2 * t);
	ck_assert_int_eq(out[3].exit, 2 * S + 2 * t + R);
	ck_assert_int_eq(out[0].exit, 2 * S + 2 * t + 2 * R);
	ck_assert_int_eq(out[2].exit, 2 * S + 2 * t + R);
	/* eager (1 KiB) for comparison: the root leaves after 2S */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 4, 1, NULL, KIB, out);
	ck_assert_int_eq(out[1].exit, 2 * S);
	ck_assert_int_eq(out[0].exit, 2 * S + 2 * te + 2 * R);
	/* root 0, a late leaf 1: the root waits for it (its second send departs at
	 * L), the subtree of 2 does not */
	entry[1] = L;
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 4, 0, entry, 8 * KIB, out);
	ck_assert_int_eq(out[0].exit, L + t);
	ck_assert_int_eq(out[1].exit, L + t + R);
	ck_assert_int_eq(out[2].exit, 2 * S + 2 * t + R);
	ck_assert_int_eq(out[3].exit, 2 * S + 2 * t + 2 * R);
	vlcfg_free(&c);
}
END_TEST

START_TEST(bcast_linear_rdv)
{
	vlcfg_config c;
	vlcoll_out out[3];
	int64_t entry[3] = { 0, 0, L };
	const int64_t t = T(8 * KIB);

	cfg_std(&c);
	/* the root starts both sends (S each, ready at S and 2S) and waits for
	 * both; rank 2 posts at L: its data depart at L */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_LINEAR, 3, 0, entry, 8 * KIB, out);
	ck_assert_int_eq(out[0].exit, L + t);
	ck_assert_int_eq(out[0].wait, L + t - 2 * S);
	ck_assert_int_eq(out[1].exit, S + t + R);
	ck_assert_int_eq(out[2].exit, L + t + R);
	/* all on time: the two transfers overlap, the root leaves at 2S + T */
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_LINEAR, 3, 0, NULL, 8 * KIB, out);
	ck_assert_int_eq(out[0].exit, 2 * S + t);
	ck_assert_int_eq(out[2].exit, 2 * S + t + R);
	vlcfg_free(&c);
}
END_TEST

START_TEST(allreduce_recursive_doubling_rdv)
{
	vlcfg_config c;
	vlcoll_out out[3];
	const int64_t t = T(8 * KIB);
	/* p = 3 (p' = 2): 0 sends to 1 (blocking: in at S + T); 1 receives at
	 * S + T + R, then exchanges with 2 (2 posted at 0, ready at S; 1 posted at
	 * S + T + R, ready at 2S + T + R): 2 -> 1 departs at S + T + R, in at
	 * S + 2T + R; 1 -> 2 departs at 2S + T + R, in at 2S + 2T + R.  Rank 2:
	 * its receive ends at 2S + 2T + 2R.  Rank 1: its receive ends at
	 * S + 2T + 2R, its send is in at 2S + 2T + R: E = the later, 2S + 2T + R
	 * (S > R).  Then 1 sends to 0 (posted at S + T): in at E + S + T: rank 1
	 * leaves then, rank 0 at E + S + T + R. */
	const int64_t E = 2 * S + 2 * t + R;

	cfg_std(&c);
	sim(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING, 3, 0, NULL, 8 * KIB, out);
	ck_assert_int_eq(out[2].exit, 2 * S + 2 * t + 2 * R);
	ck_assert_int_eq(out[1].exit, E + S + t);
	ck_assert_int_eq(out[0].exit, E + S + t + R);
	vlcfg_free(&c);
}
END_TEST

START_TEST(alltoall_rdv)
{
	vlcfg_config c;
	vlcoll_out out[4];
	int r;
	const int64_t t = T(8 * KIB);

	cfg_std(&c);
	/* pairwise, p = 4, on time: each step a Sendrecv of S + T + R */
	sim(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_PAIRWISE, 4, 0, NULL, 8 * KIB, out);
	for (r = 0; r < 4; r++)
		ck_assert_int_eq(out[r].exit, 3 * (S + t + R));
	/* linear: receives posted at 0, three sends (ready at S, 2S, 3S); the k-th
	 * receive (from r + k) is the (4 - k)-th send of its sender: in at
	 * (4 - k) S + T; in order k = 1, 2, 3: 3S + T + R, then + R, + R; the
	 * sends were in at 3S + T before */
	sim(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR, 4, 0, NULL, 8 * KIB, out);
	for (r = 0; r < 4; r++)
		ck_assert_int_eq(out[r].exit, 3 * S + t + 3 * R);
	vlcfg_free(&c);
}
END_TEST

/* ---- SMPI figures ----
 * SimGrid 3.32's SMPI, 12 ranks on 12 hosts, a dedicated FATPIPE link of
 * 10 us and 1 GB/s per ordered pair of hosts (no contention), CM02 with
 * latency and bandwidth factors 1, no TCP gamma, no cross traffic,
 * smpi/send-is-detached-thresh = smpi/async-small-thresh = 65536 (the eager
 * limit), smpi/os = smpi/or = smpi/ois = 0, smpi/wtime = 0, computation not
 * simulated; SMPI adds a 16-byte envelope to every message, so its
 * point-to-point time is vlayer's linear model with S = R = 0,
 * T(n) = 10016 ns + n ns.  After two barriers rank 0 entered at 30048 ns, the
 * others at 40064 ns; the collective forced with --cfg=smpi/bcast:binomial_tree,
 * smpi/allreduce:rdb gave these exits (ns).  Closed forms (E = 40064):
 * bcast binomial: ranks 0-7 leave at E + 4T (the root's fourth blocking send,
 * to 1, is in then), 8-11 at E + 3T; allreduce recursive doubling: 0-7 at
 * E + 5T, 8-11 at E + 4T.  With every message eager (vlayer before issue 15)
 * the bcast's ranks left at E + popcount(rank) T at most (3T: 25 % below). */
START_TEST(smpi_figures)
{
	static const int64_t bcast64[2] = { 342272, 266720 }, bcast1m[2] = { 4274432, 3215840 };
	static const int64_t ared64[2] = { 417824, 342272 }, ared1m[2] = { 5333024, 4274432 };
	vlcfg_config c;
	vlcoll_out out[12];
	int64_t entry[12];
	int r;

	cfg_make(&c, 0, 10016, 1024000, 0, 64 * KIB);
	for (r = 0; r < 12; r++)
		entry[r] = r ? 40064 : 30048;
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 12, 0, entry, 64 * KIB, out);
	for (r = 0; r < 12; r++)
		ck_assert_int_eq(out[r].exit, bcast64[r >= 8]);
	ck_assert_int_eq(bcast64[0], 40064 + 4 * (10016 + 65536));
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 12, 0, entry, 1024 * KIB, out);
	for (r = 0; r < 12; r++)
		ck_assert_int_eq(out[r].exit, bcast1m[r >= 8]);
	sim(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING, 12, 0, entry, 64 * KIB, out);
	for (r = 0; r < 12; r++)
		ck_assert_int_eq(out[r].exit, ared64[r >= 8]);
	sim(&c, VL_KIND_ALLREDUCE, VLCOLL_ALG_RECURSIVE_DOUBLING, 12, 0, entry, 1024 * KIB, out);
	for (r = 0; r < 12; r++)
		ck_assert_int_eq(out[r].exit, ared1m[r >= 8]);
	ck_assert_int_eq(ared1m[0], 40064 + 5 * (10016 + 1048576));
	/* barrier recursive doubling (smpi/barrier:ompi_recursivedoubling): ranks
	 * 0-3 entered at 70112, 4-11 at 80128; each left 4 T(0) later */
	for (r = 0; r < 12; r++)
		entry[r] = r < 4 ? 70112 : 80128;
	sim(&c, VL_KIND_BARRIER, VLCOLL_ALG_RECURSIVE_DOUBLING, 12, 0, entry, 0, out);
	for (r = 0; r < 12; r++)
		ck_assert_int_eq(out[r].exit, r < 4 ? 110176 : 120192);
	vlcfg_free(&c);
}
END_TEST

/* Every algorithm of every kind completes with rendezvous messages, whatever
 * the entry times (no step waits for a peer that waits for it). */
START_TEST(all_algorithms_complete)
{
	vlcfg_config c;
	vlcoll_out out[MAXP];
	int64_t entry[MAXP];
	int kind, alg, p, r, late;

	cfg_std(&c);
	c.mpi.eager_limit = 1;
	for (kind = 0; kind < VL_KIND_N; kind++)
		for (alg = 1; alg < VLCOLL_ALG_NALGS; alg++) {
			if (!vlcoll_accepts(kind, alg))
				continue;
			for (p = 1; p <= 13; p++)
				for (late = -1; late < p; late++) {
					for (r = 0; r < p; r++)
						entry[r] = r == late ? L : 0;
					sim(&c, kind, alg, p, p - 1, entry, 3 * KIB, out);
				}
		}
	vlcfg_free(&c);
}
END_TEST

/* vlcoll_sim_alone: a rank said to leave on its own entry alone gets the
 * result the full simulation gives it whatever the others' entries (each of
 * them late in turn), for every algorithm, eager and rendezvous; and the
 * cases the layer relies on: a bcast's root and a reduce's or gather's
 * leaves are alone when eager, a bcast's leaf, a reduce's root and an
 * allreduce's ranks never, a rendezvous root not. */
START_TEST(alone)
{
	vlcfg_config c;
	vlcoll_out out[MAXP], one;
	int64_t entry[MAXP] = { 0 }, b[MAXP * MAXP];
	int host[MAXP] = { 0 };
	int kind, alg, p, r, late, eager, n = 0, rc;
	vlcoll_in in;

	cfg_std(&c);
	for (r = 0; r < MAXP * MAXP; r++)
		b[r] = 3 * KIB;
	for (eager = 0; eager < 2; eager++) {
		c.mpi.eager_limit = eager ? 1 << 20 : 1;
		for (kind = 0; kind < VL_KIND_N; kind++)
			for (alg = 1; alg < VLCOLL_ALG_NALGS; alg++) {
				if (!vlcoll_accepts(kind, alg))
					continue;
				for (p = 1; p <= 9; p++)
					for (r = 0; r < p; r++) {
						in = (vlcoll_in){ kind, alg, p, p - 1, host, entry, b,
								  VLCOLL_PLAIN };
						rc = vlcoll_sim_alone(&c, &in, r, &one);
						ck_assert_int_ge(rc, 0);
						if (!rc)
							continue;
						n++;
						for (late = -1; late < p; late++) {
							int64_t e[MAXP];
							int k;

							if (late == r)
								continue;
							for (k = 0; k < p; k++)
								e[k] = k == late ? L : 0;
							sim(&c, kind, alg, p, p - 1, e, 3 * KIB, out);
							ck_assert_msg(out[r].exit == one.exit &&
									      out[r].comm == one.comm &&
									      out[r].wait == one.wait,
								      "%s/%s p=%d rank %d late %d: %lld, alone %lld",
								      vl_coll_kind_name(kind), vlcoll_alg_name(alg),
								      p, r, late, (long long)out[r].exit,
								      (long long)one.exit);
						}
					}
			}
	}
	ck_assert_int_gt(n, 100);
	/* the layer's cases, 4 ranks, root 0 */
	for (eager = 0; eager < 2; eager++) {
		c.mpi.eager_limit = eager ? 1 << 20 : 1;
		for (r = 0; r < 4; r++) {
			in = (vlcoll_in){ VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 4, 0, host, entry, b,
					  VLCOLL_PLAIN };
			ck_assert_int_eq(vlcoll_sim_alone(&c, &in, r, &one), eager && r == 0);
			if (eager && r == 0) /* two sends paid: exit 2 S */
				ck_assert_int_eq(one.exit, 2 * S);
			in.kind = VL_KIND_REDUCE;
			ck_assert_int_eq(vlcoll_sim_alone(&c, &in, r, &one), eager && (r == 1 || r == 3));
			in.kind = VL_KIND_GATHER;
			ck_assert_int_eq(vlcoll_sim_alone(&c, &in, r, &one), eager && (r == 1 || r == 3));
			in.kind = VL_KIND_ALLREDUCE;
			in.alg = VLCOLL_ALG_RECURSIVE_DOUBLING;
			ck_assert_int_eq(vlcoll_sim_alone(&c, &in, r, &one), 0);
		}
	}
	in.kind = VL_KIND_BCAST;
	in.alg = VLCOLL_ALG_BINOMIAL;
	in.root = 7; /* invalid */
	ck_assert_int_eq(vlcoll_sim_alone(&c, &in, 0, &one), -1);
	vlcfg_free(&c);
}
END_TEST

/* vlcoll_deps: a rank's result does not change when the entries of the
 * members it is said not to depend on change (random entries, each of
 * them moved in turn and all at once), for every algorithm, eager and
 * rendezvous; and the cases the layer relies on: a bcast's leaf depends on
 * its path from the root only, a reduce's root on every member. */
START_TEST(deps)
{
	vlcfg_config c;
	vlcoll_out out[MAXP], ref[MAXP];
	int64_t entry[MAXP], e[MAXP], b[MAXP * MAXP];
	int host[MAXP] = { 0 };
	unsigned char m[MAXP * MAXP];
	int kind, alg, p, r, j, k, eager, fewer = 0;
	uint64_t x = 12345;
	vlcoll_in in;

	cfg_std(&c);
	for (r = 0; r < MAXP * MAXP; r++)
		b[r] = 3 * KIB;
	for (eager = 0; eager < 2; eager++) {
		c.mpi.eager_limit = eager ? 1 << 20 : 1;
		for (kind = 0; kind < VL_KIND_N; kind++)
			for (alg = 1; alg < VLCOLL_ALG_NALGS; alg++) {
				if (!vlcoll_accepts(kind, alg))
					continue;
				for (p = 1; p <= 9; p++) {
					for (r = 0; r < p; r++) {
						x = x * 6364136223846793005ULL + 1442695040888963407ULL;
						entry[r] = (int64_t)(x >> 40) % (3 * L);
					}
					in = (vlcoll_in){ kind, alg, p, p - 1, host, entry, b, VLCOLL_PLAIN };
					ck_assert_int_eq(vlcoll_deps(&c, &in, m), 0);
					ck_assert_int_eq(vlcoll_sim(&c, &in, ref), 0);
					for (r = 0; r < p; r++) {
						int nd = 0;

						ck_assert_int_eq(m[r * p + r], 1);
						for (j = 0; j < p; j++)
							nd += m[r * p + j];
						fewer += nd < p;
						/* each independent one moved, then all of them */
						for (k = -1; k < p; k++) {
							if (k >= 0 && m[r * p + k])
								continue;
							for (j = 0; j < p; j++)
								e[j] = m[r * p + j] || (k >= 0 && j != k)
									       ? entry[j]
									       : entry[j] + 5 * L + j * 777;
							sim(&c, kind, alg, p, p - 1, e, 3 * KIB, out);
							ck_assert_msg(out[r].exit == ref[r].exit &&
									      out[r].comm == ref[r].comm &&
									      out[r].wait == ref[r].wait,
								      "%s/%s p=%d eager %d rank %d moved %d: %lld, was %lld",
								      vl_coll_kind_name(kind), vlcoll_alg_name(alg),
								      p, eager, r, k, (long long)out[r].exit,
								      (long long)ref[r].exit);
						}
					}
				}
			}
	}
	ck_assert_int_gt(fewer, 500);
	/* the layer's cases, 8 ranks, root 0, eager */
	c.mpi.eager_limit = 1 << 20;
	in = (vlcoll_in){ VL_KIND_BCAST, VLCOLL_ALG_BINOMIAL, 8, 0, host, entry, b, VLCOLL_PLAIN };
	ck_assert_int_eq(vlcoll_deps(&c, &in, m), 0);
	for (r = 0; r < 8; r++) {
		int nd = 0;

		for (j = 0; j < 8; j++)
			nd += m[r * 8 + j];
		ck_assert_int_eq(m[r * 8 + 0], 1);   /* the root, */
		ck_assert_int_le(nd, r == 0 ? 1 : 4); /* and its path: 3 hops at most */
	}
	in.kind = VL_KIND_REDUCE;
	ck_assert_int_eq(vlcoll_deps(&c, &in, m), 0);
	for (j = 0; j < 8; j++)
		ck_assert_int_eq(m[j], 1);
	in.root = 9; /* invalid */
	ck_assert_int_eq(vlcoll_deps(&c, &in, m), -1);
	vlcfg_free(&c);
}
END_TEST

static Suite *rdv_suite(void)
{
	Suite *s = suite_create("coll_rdv");
	TCase *tc = tcase_create("rendezvous");

	tcase_add_test(tc, threshold);
	tcase_add_test(tc, exchange);
	tcase_add_test(tc, bcast_binomial_rdv);
	tcase_add_test(tc, bcast_linear_rdv);
	tcase_add_test(tc, allreduce_recursive_doubling_rdv);
	tcase_add_test(tc, alltoall_rdv);
	tcase_add_test(tc, smpi_figures);
	tcase_add_test(tc, all_algorithms_complete);
	tcase_add_test(tc, alone);
	tcase_add_test(tc, deps);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rdv_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
