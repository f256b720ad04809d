/* test_coll_ompi2.c - unit tests of Open MPI's gather, scatter,
 * reduce_scatter, reduce_scatter_block, allgatherv and alltoallv algorithms and of its Rabenseifner reduce in
 * vlayer/coll/alg/ (the rules that choose them are tested in
 * test_coll_ompi.c): exact closed forms, derived by hand in the comments, on
 * one host with the model of coll_fixture.h (S, T(b), R; eager below 4 KiB).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"
#include "coll_fixture.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One call with its own block per rank (blk: p entries), every rank on host 0. */
static void simv(const vlcfg_config *c, int kind, int alg, int p, int root, const int64_t *entry,
		 const int64_t *blk, vlcoll_out *out)
{
	int host[MAXP] = { 0 }, r;
	int64_t e0[MAXP] = { 0 };
	vlcoll_in in = { kind, alg, p, root, host, entry ? entry : e0, blk, VLCOLL_PLAIN };

	memset(out, 0, (size_t)p * sizeof *out);
	ck_assert_msg(vlcoll_sim(c, &in, out) == 0, "%s/%s p=%d failed", vl_coll_kind_name(kind),
		      vlcoll_alg_name(alg), p);
	for (r = 0; r < p; r++)
		ck_assert_int_eq(out[r].exit, in.entry[r] + out[r].comm + out[r].wait);
}

/* One MPI_Reduce_scatter_block of n-byte blocks, every rank on host 0. */
static void simb(const vlcfg_config *c, int alg, int p, int64_t n, vlcoll_out *out)
{
	int host[MAXP] = { 0 }, r;
	int64_t e0[MAXP] = { 0 }, blk[MAXP];
	vlcoll_in in = { VL_KIND_REDUCE_SCATTER, alg, p, 0, host, e0, blk, VLCOLL_BLOCK };

	for (r = 0; r < p; r++)
		blk[r] = n;
	memset(out, 0, (size_t)p * sizeof *out);
	ck_assert_msg(vlcoll_sim(c, &in, out) == 0, "reduce_scatter_block/%s p=%d failed",
		      vlcoll_alg_name(alg), p);
}

START_TEST(gather_closed_form)
{
	vlcfg_config c;
	vlcoll_out o[3];
	int64_t entry[3] = { L, 0, 0 }, blk[3] = { KIB, KIB, 0 };
	const int64_t te = T(KIB);

	cfg_std(&c);
	/* linear_ompi, p = 3, root 1, rank 0 late, eager: the root receives from
	 * 0 first (L + S + T + R), then from 2 (in long before): + R; the linear
	 * gather takes 2 first, then 0: R less */
	sim(&c, VL_KIND_GATHER, VLCOLL_ALG_LINEAR_OMPI, 3, 1, entry, KIB, o);
	ck_assert_int_eq(o[1].exit, L + S + te + 2 * R);
	ck_assert_int_eq(o[2].exit, S);
	sim(&c, VL_KIND_GATHER, VLCOLL_ALG_LINEAR, 3, 1, entry, KIB, o);
	ck_assert_int_eq(o[1].exit, L + S + te + R);
	/* a gatherv whose rank 2 gives nothing: no message from it */
	simv(&c, VL_KIND_GATHER, VLCOLL_ALG_LINEAR_OMPI, 3, 1, NULL, blk, o);
	ck_assert_int_eq(o[1].exit, S + te + R);
	ck_assert_int_eq(o[2].exit, 0);
	ck_assert_int_eq(o[2].nmsgs, 0);
	/* linear_sync, p = 3, root 0, 1 KiB.  The root posts the receive from 1,
	 * sends it the empty message (S; in at S + T0), posts the empty second
	 * segment.  1: S + T0 + R, sends the block (2S + T0 + R, in 2S + T0 + T +
	 * R) and the empty segment (3S + T0 + R, in 3S + 2T0 + R): 1 leaves at
	 * 3S + T0 + R; the root has the block at 2S + T0 + T + 2R.  With 2 the
	 * same, shifted: the empty message leaves at 3S + T0 + T + 2R, 2 gets it
	 * at 3S + 2T0 + T + 3R, leaves at 5S + 2T0 + T + 3R, its block is in at
	 * 4S + 2T0 + 2T + 3R: the root has it at 4S + 2T0 + 2T + 4R; its empty
	 * segment is in 600 ns before that (S + T0 - T - 2R): the two second
	 * segments cost R each. */
	sim(&c, VL_KIND_GATHER, VLCOLL_ALG_LINEAR_SYNC, 3, 0, NULL, KIB, o);
	ck_assert_int_eq(o[0].exit, 4 * S + 2 * T0 + 2 * te + 6 * R);
	ck_assert_int_eq(o[1].exit, 3 * S + T0 + R);
	ck_assert_int_eq(o[2].exit, 5 * S + 2 * T0 + te + 3 * R);
	ck_assert_int_eq(o[0].nmsgs, 2);
	ck_assert_int_eq(o[1].nmsgs, 2);
	vlcfg_free(&c);
}
END_TEST

START_TEST(scatter_closed_form)
{
	vlcfg_config c;
	vlcoll_out o[3];
	int64_t entry[3] = { L, 0, 0 };
	const int64_t te = T(KIB), t8 = T(8 * KIB);

	cfg_std(&c);
	/* linear_ompi, p = 3, root 1, eager: to 0 (S), then to 2 (2S) */
	sim(&c, VL_KIND_SCATTER, VLCOLL_ALG_LINEAR_OMPI, 3, 1, NULL, KIB, o);
	ck_assert_int_eq(o[1].exit, 2 * S);
	ck_assert_int_eq(o[0].exit, S + te + R);
	ck_assert_int_eq(o[2].exit, 2 * S + te + R);
	/* rendezvous (8 KiB), rank 0 late: the blocking send to 0 departs at L
	 * (L + T), the one to 2 is ready S later: 2 has it at L + S + 2T + R */
	sim(&c, VL_KIND_SCATTER, VLCOLL_ALG_LINEAR_OMPI, 3, 1, entry, 8 * KIB, o);
	ck_assert_int_eq(o[1].exit, L + S + 2 * t8);
	ck_assert_int_eq(o[0].exit, L + t8 + R);
	ck_assert_int_eq(o[2].exit, L + S + 2 * t8 + R);
	/* linear_nb: both sends started (S, 2S), the one to 2 departs at once:
	 * 2 is not held up by 0; the root waits for 0's (L + T) */
	sim(&c, VL_KIND_SCATTER, VLCOLL_ALG_LINEAR_NB, 3, 1, entry, 8 * KIB, o);
	ck_assert_int_eq(o[1].exit, L + t8);
	ck_assert_int_eq(o[0].exit, L + t8 + R);
	ck_assert_int_eq(o[2].exit, 2 * S + t8 + R);
	vlcfg_free(&c);
}
END_TEST

START_TEST(reduce_rabenseifner_closed_form)
{
	vlcfg_config c;
	vlcoll_out o[4];
	const int64_t te = T(KIB), t2 = T(2 * KIB), t4 = T(4 * KIB);
	const int64_t a = 2 * S + t4 + t2 + 2 * R;

	cfg_std(&c);
	/* p = 3, 2 KiB, root 1 (an odd rank that the fold drops).  Fold: 0 and 1
	 * swap 1 KiB halves (Open MPI's sendrecv: S + T + R each), 1 sends its
	 * upper half (2S + T + R, in 2S + 2T + R): 0 at 2S + 2T + 2R.  Halving, 0
	 * and 2 swap 1 KiB: 2 sent at S, 0 sends at 3S + 2T + 2R and receives:
	 * 3S + 2T + 3R; 2 at 3S + 3T + 3R.  0 sends its piece to the root (4S +
	 * 2T + 3R, in 4S + 3T + 3R): the root at 4S + 3T + 4R; 2 sends its piece
	 * to the root in 0's place (4S + 3T + 3R, in 4S + 4T + 3R): 4S + 4T + 4R */
	sim(&c, VL_KIND_REDUCE, VLCOLL_ALG_RABENSEIFNER, 3, 1, NULL, 2 * KIB, o);
	ck_assert_int_eq(o[1].exit, 4 * S + 4 * te + 4 * R);
	ck_assert_int_eq(o[0].exit, 4 * S + 2 * te + 3 * R);
	ck_assert_int_eq(o[2].exit, 4 * S + 3 * te + 3 * R);
	/* root 2 (virtual rank 1): the same halving, then 0 sends its piece to 2:
	 * 2 at 4S + 3T + 4R; 1 left after the fold */
	sim(&c, VL_KIND_REDUCE, VLCOLL_ALG_RABENSEIFNER, 3, 2, NULL, 2 * KIB, o);
	ck_assert_int_eq(o[2].exit, 4 * S + 3 * te + 4 * R);
	ck_assert_int_eq(o[0].exit, 4 * S + 2 * te + 3 * R);
	ck_assert_int_eq(o[1].exit, 2 * S + te + R);
	/* p = 4, 8 KiB, root 0: halving 4 KiB (rendezvous) then 2 KiB, A = 2S +
	 * T(4K) + T(2K) + 2R for all; the gather: 2 -> 0 and 3 -> 1 (2 KiB: they
	 * leave at A + S), 1 has 3's at A + S + T(2K) + R, sends 4 KiB to 0
	 * (rendezvous; 0 posted it after 2's arrived, A + S + T(2K) + R) */
	sim(&c, VL_KIND_REDUCE, VLCOLL_ALG_RABENSEIFNER, 4, 0, NULL, 8 * KIB, o);
	ck_assert_int_eq(o[2].exit, a + S);
	ck_assert_int_eq(o[3].exit, a + S);
	ck_assert_int_eq(o[1].exit, a + 2 * S + t2 + t4 + R);
	ck_assert_int_eq(o[0].exit, a + 2 * S + t2 + t4 + 2 * R);
	/* fewer bytes than p' (3 < 4): Open MPI's basic linear */
	sim(&c, VL_KIND_REDUCE, VLCOLL_ALG_RABENSEIFNER, 4, 2, NULL, 3, o);
	ck_assert_int_eq(o[2].nmsgs, 0);
	ck_assert_int_eq(o[0].nmsgs + o[1].nmsgs + o[3].nmsgs, 3);
	vlcfg_free(&c);
}
END_TEST

START_TEST(reduce_scatter_closed_form)
{
	vlcfg_config c;
	vlcoll_out o[4], ring[3];
	int64_t entry[3] = { L, 0, 0 };
	const int64_t te = T(KIB), t2 = T(2 * KIB), t3 = T(3 * KIB), t8 = T(8 * KIB);
	int r;

	cfg_std(&c);
	/* recursive_halving, p = 3, 1 KiB blocks: 0 sends all 3 KiB to 1 (S),
	 * 1 has it at S + T(3K) + R.  1 (the pair's 2 KiB) and 2 (1 KiB) swap:
	 * 2 sends 2 KiB at S, 1 sends 1 KiB at 2S + T(3K) + R: 1 at 2S + T(3K) +
	 * 2R, 2 at 2S + T(3K) + T + 2R; 1 sends 0 its block (3S + T(3K) + 2R),
	 * 0 at 3S + T(3K) + T + 3R.  butterfly does the same for p = 3 */
	sim(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RECURSIVE_HALVING, 3, 0, NULL, KIB, o);
	ck_assert_int_eq(o[0].exit, 3 * S + t3 + te + 3 * R);
	ck_assert_int_eq(o[1].exit, 3 * S + t3 + 2 * R);
	ck_assert_int_eq(o[2].exit, 2 * S + t3 + te + 2 * R);
	sim(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_BUTTERFLY, 3, 0, NULL, KIB, o);
	ck_assert_int_eq(o[0].exit, 3 * S + t3 + te + 3 * R);
	ck_assert_int_eq(o[1].exit, 3 * S + t3 + 2 * R);
	ck_assert_int_eq(o[2].exit, 2 * S + t3 + te + 2 * R);
	/* p = 4, 1 KiB blocks: recursive_halving swaps 2 KiB at distance 2, then
	 * 1 KiB at distance 1: 2S + T(2K) + T + 2R for all.  butterfly goes
	 * distance 1 then 2, after which 1 and 2 hold each other's block (the
	 * mirror permutation) and swap them: 3S + T(2K) + 2T + 3R */
	sim(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RECURSIVE_HALVING, 4, 0, NULL, KIB, o);
	for (r = 0; r < 4; r++)
		ck_assert_int_eq(o[r].exit, 2 * S + t2 + te + 2 * R);
	sim(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_BUTTERFLY, 4, 0, NULL, KIB, o);
	ck_assert_int_eq(o[0].exit, 2 * S + t2 + te + 2 * R);
	ck_assert_int_eq(o[3].exit, 2 * S + t2 + te + 2 * R);
	ck_assert_int_eq(o[1].exit, 3 * S + t2 + 2 * te + 3 * R);
	ck_assert_int_eq(o[2].exit, 3 * S + t2 + 2 * te + 3 * R);
	ck_assert_int_eq(o[1].nmsgs, 3);
	/* ring_ompi, p = 3, 8 KiB blocks (rendezvous), rank 0 late: 0's first
	 * blocking send departs at L + S (in L + S + T), 2's to 0 at L (in
	 * L + T); 0 then waits for 2's block (L + S + T + R) and sends again
	 * (ready L + 2S + T + R, the receive posted long before): in at
	 * L + 2S + 2T + R; 1 has 0's first block at L + S + T + R and sends its
	 * second to 2 the same way: every rank leaves at L + 2S + 2T + 2R.  The
	 * ring of MPI_Sendrecv waits for the receive, then the send: rank 0
	 * leaves when its last send is through, at L + 2S + 2T */
	sim(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RING_OMPI, 3, 0, entry, 8 * KIB, o);
	for (r = 0; r < 3; r++)
		ck_assert_int_eq(o[r].exit, L + 2 * S + 2 * t8 + 2 * R);
	sim(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RING, 3, 0, entry, 8 * KIB, ring);
	ck_assert_int_eq(ring[0].exit, L + 2 * S + 2 * t8);
	vlcfg_free(&c);
}
END_TEST

/* non-overlapping = Open MPI's reduce of the whole vector to 0 (the algorithm
 * its rules give that size), then the basic scatterv from 0, as if run one
 * after the other; what selection = openmpi runs on 6 ranks below 8 bytes */
START_TEST(reduce_scatter_nonoverlapping)
{
	vlcfg_config c;
	vlcoll_out a[6], sel[6];

	cfg_std(&c);
	/* p = 6, 100 B blocks: reduce of 600 B is binary (p 4 - 7, below 4 KiB) */
	sim(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_NONOVERLAPPING, 6, 0, NULL, 100, a);
	assert_binary_reduce_then(&c, a, 6, 600, VL_KIND_SCATTER, VLCOLL_ALG_LINEAR_OMPI, 100);
	/* 1 B blocks: the rules choose non-overlapping */
	sim(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_NONOVERLAPPING, 6, 0, NULL, 1, a);
	c.mpi.coll_select = VLCOLL_SELECT_OPENMPI;
	sim(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_DEFAULT, 6, 0, NULL, 1, sel);
	ck_assert_mem_eq(a, sel, sizeof a);
	vlcfg_free(&c);
}
END_TEST

/* Blocks of different sizes, and empty ones, on 1 to MAXP ranks: every rank
 * receives exactly its block's worth in the last step (the runner checks
 * that each send's size equals its receive's); the recursive halving sends
 * nothing for an empty vector. */
START_TEST(reduce_scatter_uneven_blocks)
{
	static const int algs[] = { VLCOLL_ALG_RING_OMPI, VLCOLL_ALG_NONOVERLAPPING,
				    VLCOLL_ALG_RECURSIVE_HALVING, VLCOLL_ALG_BUTTERFLY,
				    VLCOLL_ALG_RECURSIVE_DOUBLING };
	vlcfg_config c;
	vlcoll_out o[MAXP];
	int64_t blk[MAXP], zero[MAXP] = { 0 };
	int p, r, k, n;

	cfg_std(&c);
	for (p = 1; p <= MAXP; p++) {
		for (r = 0; r < p; r++)
			blk[r] = r % 3 ? 1000 * r : 0;
		for (k = 0; k < (int)(sizeof algs / sizeof algs[0]); k++)
			simv(&c, VL_KIND_REDUCE_SCATTER, algs[k], p, 0, NULL, blk, o);
		simv(&c, VL_KIND_REDUCE_SCATTER, VLCOLL_ALG_RECURSIVE_HALVING, p, 0, NULL, zero, o);
		for (r = 0, n = 0; r < p; r++)
			n += o[r].nmsgs;
		ck_assert_int_eq(n, 0);
	}
	vlcfg_free(&c);
}
END_TEST

/* Open MPI's reduce_scatter_block algorithms (the call's variant). */
START_TEST(reduce_scatter_block_closed_form)
{
	vlcfg_config c;
	vlcoll_out o[6], red[6];
	const int64_t te = T(KIB), t2 = T(2 * KIB), t3 = T(3 * KIB);
	int r;

	cfg_std(&c);
	/* recursive_doubling, p = 4, 1 KiB blocks: at distance 1 every rank
	 * swaps all blocks but its own (3 KiB), at distance 2 all but those of
	 * its pair (2 KiB): 2S + T(3K) + T(2K) + 2R for all */
	simb(&c, VLCOLL_ALG_RECURSIVE_DOUBLING, 4, KIB, o);
	for (r = 0; r < 4; r++) {
		ck_assert_int_eq(o[r].exit, 2 * S + t3 + t2 + 2 * R);
		ck_assert_int_eq(o[r].nmsgs, 2);
	}
	/* p = 3: 0 and 1 swap 2 KiB (S + T(2K) + R), 2 has no partner.  At
	 * distance 2, 2 sends blocks 0 and 1 (ready S, in S + T(2K)), 0 sends
	 * block 2 at 2S + T(2K) + R (2 leaves at 2S + T(2K) + T + 2R), receives
	 * (2S + T(2K) + 2R) and forwards the 2 KiB to 1, which had no partner:
	 * 0 leaves at 3S + T(2K) + 2R, 1 at 3S + 2T(2K) + 3R */
	simb(&c, VLCOLL_ALG_RECURSIVE_DOUBLING, 3, KIB, o);
	ck_assert_int_eq(o[0].exit, 3 * S + t2 + 2 * R);
	ck_assert_int_eq(o[1].exit, 3 * S + 2 * t2 + 3 * R);
	ck_assert_int_eq(o[2].exit, 2 * S + t2 + te + 2 * R);
	ck_assert_int_eq(o[0].nmsgs, 3);
	ck_assert_int_eq(o[1].nmsgs + o[2].nmsgs, 2);
	/* butterfly, p = 4: the blocks are permuted before the steps, so no
	 * final swap (the reduce_scatter butterfly has one: 3S + T(2K) + 2T + 3R
	 * for ranks 1 and 2) */
	simb(&c, VLCOLL_ALG_BUTTERFLY, 4, KIB, o);
	for (r = 0; r < 4; r++)
		ck_assert_int_eq(o[r].exit, 2 * S + t2 + te + 2 * R);
	ck_assert_int_eq(o[1].nmsgs, 2);
	/* basic_linear (nonoverlapping), p = 6, 100 B blocks: the reduce of 600 B
	 * (binary, by the rules), then a scatter chosen by the rules (binomial
	 * for 100 B on 6 ranks), not the basic scatterv */
	simb(&c, VLCOLL_ALG_NONOVERLAPPING, 6, 100, o);
	assert_binary_reduce_then(&c, o, 6, 600, VL_KIND_SCATTER, VLCOLL_ALG_BINOMIAL, 100);
	/* selection = openmpi picks it for 200 KB blocks on 3 ranks */
	simb(&c, VLCOLL_ALG_NONOVERLAPPING, 3, 200000, red);
	c.mpi.coll_select = VLCOLL_SELECT_OPENMPI;
	simb(&c, VLCOLL_ALG_DEFAULT, 3, 200000, o);
	for (r = 0; r < 3; r++)
		ck_assert_int_eq(o[r].exit, red[r].exit);
	vlcfg_free(&c);
}
END_TEST

/* One call of kind with variant v, selection = openmpi's choice (alg
 * VLCOLL_ALG_DEFAULT) or alg, every rank on host 0 entering at 0; b: p
 * blocks, or the p x p matrix of an alltoall. */
static void simvar(const vlcfg_config *c, int kind, int alg, int v, int p, const int64_t *b,
		   vlcoll_out *out)
{
	int host[MAXP] = { 0 };
	int64_t e0[MAXP] = { 0 };
	vlcoll_in in = { kind, alg, p, 0, host, e0, b, v };

	memset(out, 0, (size_t)p * sizeof *out);
	ck_assert_msg(vlcoll_sim(c, &in, out) == 0, "%s/%s p=%d failed", vl_coll_kind_name(kind),
		      vlcoll_alg_name(alg), p);
}

/* MPI_Allgatherv and MPI_Alltoallv as Open MPI 4.1 runs them. */
START_TEST(allgatherv_alltoallv)
{
	vlcfg_config c;
	vlcoll_out o[5], a[5], b[5];
	int64_t blk[5] = { 100, 0, 50, 30, 20 }, mid[5], mat[9];
	const int64_t te = T(KIB);
	int r;

	cfg_std(&c);
	c.mpi.coll_select = VLCOLL_SELECT_OPENMPI;
	/* allgatherv, 5 ranks, mean block 40 B (below 256 B): Open MPI's default,
	 * the basic component's linear gatherv to rank 0 (rank 1's empty block
	 * not sent), then a bcast of the 200 B from rank 0, which the bcast
	 * rules give binary_tree for (5 ranks, 128 B - 2 KiB) */
	simvar(&c, VL_KIND_ALLGATHER, VLCOLL_ALG_DEFAULT, VLCOLL_V, 5, blk, o);
	simv(&c, VL_KIND_GATHER, VLCOLL_ALG_LINEAR_OMPI, 5, 0, NULL, blk, a);
	for (r = 0; r < 5; r++)
		mid[r] = a[r].exit;
	sim(&c, VL_KIND_BCAST, VLCOLL_ALG_BINARY, 5, 0, mid, 200, b);
	for (r = 0; r < 5; r++)
		ck_assert_int_eq(o[r].exit, b[r].exit);
	ck_assert_int_eq(a[1].nmsgs, 0);
	/* the same blocks in an MPI_Allgather (plain): recursive_doubling, which
	 * Open MPI runs as bruck for 5 ranks */
	simvar(&c, VL_KIND_ALLGATHER, VLCOLL_ALG_DEFAULT, VLCOLL_PLAIN, 5, blk, o);
	simvar(&c, VL_KIND_ALLGATHER, VLCOLL_ALG_BRUCK, VLCOLL_PLAIN, 5, blk, a);
	for (r = 0; r < 5; r++)
		ck_assert_int_eq(o[r].exit, a[r].exit);
	/* alltoallv, 3 ranks, 1 KiB between every pair, eager: Open MPI's
	 * basic linear posts in rank order.  Rank 0 sends to 1 ([0, S], in at
	 * S + T), then to 2 (in at 2S + T); rank 1 to 0 (S + T) then 2 (2S + T);
	 * rank 2 to 0 (S + T) then 1 (2S + T).  Each then takes its receives in
	 * the order posted (R each): rank 0 has both at S + T: S + T + 2R;
	 * rank 1 has 0's at S + T, 2's at 2S + T: 2S + T + R; rank 2 both at
	 * 2S + T: 2S + T + 2R. */
	for (r = 0; r < 9; r++)
		mat[r] = r % 4 ? KIB : 0;
	simvar(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR_OMPI, VLCOLL_V, 3, mat, o);
	ck_assert_int_eq(o[0].exit, S + te + 2 * R);
	ck_assert_int_eq(o[1].exit, 2 * S + te + R);
	ck_assert_int_eq(o[2].exit, 2 * S + te + 2 * R);
	/* Open MPI's linear alltoall starts at r + 1: rank 1 sends to 2 first */
	simvar(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_LINEAR, VLCOLL_PLAIN, 3, mat, a);
	ck_assert_int_ne(a[1].exit, o[1].exit);
	/* the rules: pairwise below 4 ranks, basic linear from 4 to 63 */
	simvar(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_DEFAULT, VLCOLL_V, 3, mat, o);
	simvar(&c, VL_KIND_ALLTOALL, VLCOLL_ALG_PAIRWISE, VLCOLL_V, 3, mat, a);
	ck_assert_mem_eq(o, a, 3 * sizeof *o);
	vlcfg_free(&c);
}
END_TEST

static Suite *ompi2_suite(void)
{
	Suite *s = suite_create("coll_ompi2");
	TCase *tc = tcase_create("openmpi_algorithms");

	tcase_add_test(tc, gather_closed_form);
	tcase_add_test(tc, scatter_closed_form);
	tcase_add_test(tc, reduce_rabenseifner_closed_form);
	tcase_add_test(tc, reduce_scatter_closed_form);
	tcase_add_test(tc, reduce_scatter_nonoverlapping);
	tcase_add_test(tc, reduce_scatter_uneven_blocks);
	tcase_add_test(tc, reduce_scatter_block_closed_form);
	tcase_add_test(tc, allgatherv_alltoallv);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ompi2_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
