/* coll_fixture.h - what the unit tests of the collective simulation share
 * (test_coll_rdv.c, test_coll_ompi.c): the linear model they assert closed
 * forms on, the machine that carries it, and one simulated call with the
 * invariants every result must keep.  Header only: each test is one program.
 */
#ifndef VL_TEST_COLL_FIXTURE_H
#define VL_TEST_COLL_FIXTURE_H

#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

#define KIB 1024
#define S 1000     /* send time */
#define T0 20000   /* transmission, size independent */
#define KT 1000    /* transmission per KiB (ns) */
#define R 300      /* receive time */
#define EAGER (4 * KIB)
#define L INT64_C(1000000000) /* a late entry */
#define MAXP 16

/* Transmission of b bytes, truncated as the engine does. */
static inline int64_t T(int64_t b)
{
	return T0 + b * KT / KIB;
}

/* One host, every link: s, t0 + perkib per KiB, r; eager limit eager. */
static inline void cfg_make(vlcfg_config *c, int64_t s, int64_t t0, int64_t perkib_ps, int64_t r,
			    int64_t eager)
{
	vlcfg_default(c);
	ck_assert_ptr_nonnull(c->hosts);
	c->intra.send_delay = c->inter.send_delay = s;
	c->intra.trans_delay = c->inter.trans_delay = t0;
	c->intra.trans_per_kib_ps = c->inter.trans_per_kib_ps = perkib_ps;
	c->intra.recv_delay = c->inter.recv_delay = r;
	c->mpi.eager_limit = eager;
}

/* The model above: S, T(b), R, eager limit 4 KiB. */
static inline void cfg_std(vlcfg_config *c)
{
	cfg_make(c, S, T0, INT64_C(1000) * KT, R, EAGER);
}

/* Run one collective, every rank on host 0 (entry NULL: all at 0), n bytes
 * per block; every rank's exit = entry + comm + wait, both >= 0. */
static inline void sim(const vlcfg_config *c, int kind, int alg, int p, int root,
		       const int64_t *entry, int64_t n, vlcoll_out *out)
{
	int host[MAXP] = { 0 }, r;
	int64_t e0[MAXP] = { 0 }, b[MAXP * MAXP];
	vlcoll_in in;

	for (r = 0; r < MAXP * MAXP; r++)
		b[r] = n;
	in.kind = kind;
	in.alg = alg;
	in.p = p;
	in.root = root;
	in.host = host;
	in.entry = entry ? entry : e0;
	in.bytes = b;
	in.variant = VLCOLL_PLAIN;
	memset(out, 0, (size_t)p * sizeof *out); /* padding too: results are compared whole */
	ck_assert_msg(vlcoll_sim(c, &in, out) == 0, "%s/%s p=%d failed", vl_coll_kind_name(kind),
		      vlcoll_alg_name(alg), p);
	for (r = 0; r < p; r++) {
		ck_assert_int_ge(out[r].comm, 0);
		ck_assert_int_ge(out[r].wait, 0);
		ck_assert_int_eq(out[r].exit, in.entry[r] + out[r].comm + out[r].wait);
	}
}

/* got (p ranks, p <= MAXP) is a binary reduce of red bytes to rank 0 followed
 * by kind/alg from rank 0 with n bytes per block, run one after the other
 * (Open MPI's non-overlapping allreduce and reduce_scatter on 4 - 7 ranks). */
static inline void assert_binary_reduce_then(const vlcfg_config *c, const vlcoll_out *got, int p,
					     int64_t red, int kind, int alg, int64_t n)
{
	vlcoll_out a[MAXP], b[MAXP];
	int64_t mid[MAXP];
	int r;

	sim(c, VL_KIND_REDUCE, VLCOLL_ALG_BINARY, p, 0, NULL, red, a);
	for (r = 0; r < p; r++)
		mid[r] = a[r].exit;
	sim(c, kind, alg, p, 0, mid, n, b);
	for (r = 0; r < p; r++)
		ck_assert_int_eq(got[r].exit, b[r].exit);
}

#endif
