/* test_model.c - unit tests of the delay model (vlayer/model.c): piecewise-linear
 * evaluation, contention, link choice, send/transmission/receive precedence,
 * spawn delay, CPU scaling and run-time parameter changes.
 *
 * Every expected value below is computed by hand from the formulas in model.c
 * (integer truncation included), never by calling the code under test.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vlayer/core/engine.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ---- */

static vlcfg_pwl pwl(int n, const int64_t *bytes, const int64_t *ns)
{
	vlcfg_pwl m;
	int i;

	memset(&m, 0, sizeof m);
	m.n = n;
	for (i = 0; i < n; i++) {
		m.bytes[i] = bytes[i];
		m.ns[i] = ns[i];
	}
	return m;
}

#define PWL(b, t) pwl((int)(sizeof(b) / sizeof((b)[0])), (b), (t))

/* A config with nhosts hosts "h0".."h<n-1>", all overrides unset. */
static void cfg_hosts(vlcfg_config *c, int nhosts)
{
	int i;

	vlcfg_default(c);
	ck_assert_ptr_nonnull(c->hosts);
	ck_assert_int_eq(c->nhosts, 1);
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
}

/* Write text to a new file in a fresh temporary directory. */
static void write_ini(const char *text, char *path, size_t size, char *dir, size_t dsize)
{
	const char *t = getenv("TMPDIR");
	FILE *f;

	snprintf(dir, dsize, "%s/vl-model-XXXXXX", t && *t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, size, "%s/VMConfig", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

static void remove_ini(const char *path, const char *dir)
{
	unlink(path);
	rmdir(dir);
}

/* ---- vli_pwl_eval ---- */

START_TEST(pwl_empty_is_zero)
{
	vlcfg_pwl m;

	memset(&m, 0, sizeof m);
	m.bytes[0] = 10; /* ignored: n == 0 */
	m.ns[0] = 999;
	ck_assert_int_eq(vli_pwl_eval(&m, 0), 0);
	ck_assert_int_eq(vli_pwl_eval(&m, 1), 0);
	ck_assert_int_eq(vli_pwl_eval(&m, 1000000), 0);
	ck_assert_int_eq(vli_pwl_eval(&m, INT64_MAX), 0);
	m.n = -1;
	ck_assert_int_eq(vli_pwl_eval(&m, 100), 0);
}
END_TEST

START_TEST(pwl_single_point_is_constant)
{
	static const int64_t b[] = { 100 }, t[] = { 777 };
	vlcfg_pwl m = PWL(b, t);

	ck_assert_int_eq(vli_pwl_eval(&m, 0), 777);
	ck_assert_int_eq(vli_pwl_eval(&m, 99), 777);
	ck_assert_int_eq(vli_pwl_eval(&m, 100), 777);
	ck_assert_int_eq(vli_pwl_eval(&m, 101), 777);
	ck_assert_int_eq(vli_pwl_eval(&m, INT64_C(1) << 40), 777);
	ck_assert_int_eq(vli_pwl_eval(&m, INT64_MAX), 777);
}
END_TEST

START_TEST(pwl_below_first_point_holds_first_value)
{
	static const int64_t b[] = { 100, 200 }, t[] = { 1000, 3000 };
	vlcfg_pwl m = PWL(b, t);

	ck_assert_int_eq(vli_pwl_eval(&m, 0), 1000);
	ck_assert_int_eq(vli_pwl_eval(&m, 1), 1000);
	ck_assert_int_eq(vli_pwl_eval(&m, 99), 1000);
	ck_assert_int_eq(vli_pwl_eval(&m, -5), 1000);
	/* just above the first point: 1000 + 2000*1/100 = 1020 */
	ck_assert_int_eq(vli_pwl_eval(&m, 101), 1020);
}
END_TEST

START_TEST(pwl_exact_on_every_breakpoint)
{
	static const int64_t b[] = { 0, 1024, 4096, 65536, 1048576 };
	static const int64_t t[] = { 10000, 20000, 25000, 125000, 90000000 };
	vlcfg_pwl m = PWL(b, t);
	int i;

	for (i = 0; i < m.n; i++)
		ck_assert_int_eq(vli_pwl_eval(&m, b[i]), t[i]);

	/* the full number of breakpoints, with awkward slopes */
	{
		vlcfg_pwl big;
		int64_t bb[VLCFG_MAX_BP], tt[VLCFG_MAX_BP];

		for (i = 0; i < VLCFG_MAX_BP; i++) {
			bb[i] = (int64_t)i * i * 37 + i;       /* strictly increasing */
			tt[i] = (int64_t)(i % 5) * 1234567 + 17; /* up and down */
		}
		big = pwl(VLCFG_MAX_BP, bb, tt);
		for (i = 0; i < VLCFG_MAX_BP; i++)
			ck_assert_int_eq(vli_pwl_eval(&big, bb[i]), tt[i]);
	}
}
END_TEST

START_TEST(pwl_between_points_truncates)
{
	/* increasing, one segment: 10/3 per byte */
	{
		static const int64_t b[] = { 0, 3 }, t[] = { 0, 10 };
		vlcfg_pwl m = PWL(b, t);

		ck_assert_int_eq(vli_pwl_eval(&m, 1), 3); /* 10/3 = 3.33 */
		ck_assert_int_eq(vli_pwl_eval(&m, 2), 6); /* 20/3 = 6.67 */
	}
	/* 1000 ns over 1024 bytes */
	{
		static const int64_t b[] = { 0, 1024 }, t[] = { 1000, 2000 };
		vlcfg_pwl m = PWL(b, t);

		ck_assert_int_eq(vli_pwl_eval(&m, 1), 1000);    /* 1000/1024 = 0.98 */
		ck_assert_int_eq(vli_pwl_eval(&m, 2), 1001);    /* 2000/1024 = 1.95 */
		ck_assert_int_eq(vli_pwl_eval(&m, 513), 1500);  /* 513000/1024 = 500.98 */
		ck_assert_int_eq(vli_pwl_eval(&m, 1023), 1999); /* 1023000/1024 = 999.02 */
	}
	/* decreasing: the quotient is truncated toward zero, not floored */
	{
		static const int64_t b[] = { 0, 3 }, t[] = { 1000, 0 };
		vlcfg_pwl m = PWL(b, t);

		ck_assert_int_eq(vli_pwl_eval(&m, 1), 667); /* 1000 + (-1000/3 = -333) */
		ck_assert_int_eq(vli_pwl_eval(&m, 2), 334); /* 1000 + (-2000/3 = -666) */
	}
	/* several segments: the segment containing the size is used, from its left end */
	{
		static const int64_t b[] = { 0, 1024, 4096, 65536 };
		static const int64_t t[] = { 10000, 20000, 25000, 125000 };
		vlcfg_pwl m = PWL(b, t);

		/* seg 0: 10000 + 10000*100/1024 = 10000 + 976 (976.56) */
		ck_assert_int_eq(vli_pwl_eval(&m, 100), 10976);
		/* seg 1: 20000 + 5000*976/3072 = 20000 + 1588 (1588.54) */
		ck_assert_int_eq(vli_pwl_eval(&m, 2000), 21588);
		/* seg 1, one past the breakpoint: 20000 + 5000/3072 = 20001 */
		ck_assert_int_eq(vli_pwl_eval(&m, 1025), 20001);
		/* seg 2: 25000 + 100000*5904/61440 = 25000 + 9609 (9609.375) */
		ck_assert_int_eq(vli_pwl_eval(&m, 10000), 34609);
		/* seg 2, one before the last point: 25000 + 100000*61439/61440 = 25000 + 99998 */
		ck_assert_int_eq(vli_pwl_eval(&m, 65535), 124998);
	}
	/* flat segment then rising one */
	{
		static const int64_t b[] = { 0, 100, 200 }, t[] = { 50, 50, 150 };
		vlcfg_pwl m = PWL(b, t);

		ck_assert_int_eq(vli_pwl_eval(&m, 77), 50);
		ck_assert_int_eq(vli_pwl_eval(&m, 150), 100);
	}
}
END_TEST

START_TEST(pwl_beyond_last_extends_last_segment)
{
	static const int64_t b[] = { 0, 1000, 2000 }, t[] = { 100, 1100, 1600 };
	vlcfg_pwl m = PWL(b, t);

	/* last segment slope 500/1000, from (1000, 1100) */
	ck_assert_int_eq(vli_pwl_eval(&m, 2001), 1600);  /* 500*1001/1000 = 500.5 */
	ck_assert_int_eq(vli_pwl_eval(&m, 2003), 1601);  /* 500*1003/1000 = 501.5 */
	ck_assert_int_eq(vli_pwl_eval(&m, 3000), 2100);  /* 500*2000/1000 */
	ck_assert_int_eq(vli_pwl_eval(&m, 1000000), 500600); /* 1100 + 500*999000/1000 */

	/* two points */
	{
		static const int64_t b2[] = { 10, 20 }, t2[] = { 0, 7 };
		vlcfg_pwl m2 = PWL(b2, t2);

		ck_assert_int_eq(vli_pwl_eval(&m2, 30), 14);
		ck_assert_int_eq(vli_pwl_eval(&m2, 31), 14); /* 7*21/10 = 14.7 */
		ck_assert_int_eq(vli_pwl_eval(&m2, 1010), 700);
	}
	/* a flat last segment stays flat */
	{
		static const int64_t b3[] = { 0, 100, 200 }, t3[] = { 0, 500, 500 };
		vlcfg_pwl m3 = PWL(b3, t3);

		ck_assert_int_eq(vli_pwl_eval(&m3, 1000000), 500);
	}
}
END_TEST

START_TEST(pwl_never_negative)
{
	static const int64_t b[] = { 0, 100 }, t[] = { 1000, 500 };
	vlcfg_pwl m = PWL(b, t);

	ck_assert_int_eq(vli_pwl_eval(&m, 100), 500);
	ck_assert_int_eq(vli_pwl_eval(&m, 199), 5);  /* 1000 - 995 */
	ck_assert_int_eq(vli_pwl_eval(&m, 200), 0);  /* 1000 - 1000 */
	ck_assert_int_eq(vli_pwl_eval(&m, 201), 0);  /* 1000 - 1005 -> 0 */
	ck_assert_int_eq(vli_pwl_eval(&m, 300), 0);  /* 1000 - 1500 -> 0 */
	ck_assert_int_eq(vli_pwl_eval(&m, INT64_C(1) << 40), 0);

	/* decreasing middle segment */
	{
		static const int64_t b2[] = { 0, 10, 20 }, t2[] = { 0, 100, 0 };
		vlcfg_pwl m2 = PWL(b2, t2);

		ck_assert_int_eq(vli_pwl_eval(&m2, 15), 50);
		ck_assert_int_eq(vli_pwl_eval(&m2, 21), 0); /* 100 - 110 */
	}
}
END_TEST

START_TEST(costs_saturate_instead_of_wrapping)
{
	vlcfg_pwl m = { .n = 2, .bytes = { 0, 1 }, .ns = { 0, 1000000000 } };
	vlcfg_config c;

	/* 1 s per byte for 10^10 bytes is past int64: saturate at INT64_MAX / 4 */
	ck_assert_int_eq(vli_pwl_eval(&m, 10000000000LL), INT64_MAX / 4);
	vlcfg_default(&c);
	c.inter.trans_delay = INT64_MAX / 2;
	c.inter.trans_per_kib_ps = INT64_MAX;
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, INT64_MAX), INT64_MAX / 4);
	vlcfg_free(&c);
}
END_TEST

START_TEST(pwl_huge_sizes_do_not_overflow)
{
	const int64_t g40 = INT64_C(1) << 40;

	/* 1 s per KiB: 1e9 * 2^40 overflows int64 in the product, not in the result */
	{
		static const int64_t b[] = { 0, 1024 }, t[] = { 0, 1000000000 };
		vlcfg_pwl m = PWL(b, t);

		ck_assert_int_eq(vli_pwl_eval(&m, g40), INT64_C(1073741824000000000));
	}
	/* 80 ns per byte (100 Mbit/s) from 40 us */
	{
		static const int64_t b[] = { 0, 1500 }, t[] = { 40000, 160000 };
		vlcfg_pwl m = PWL(b, t);

		ck_assert_int_eq(vli_pwl_eval(&m, g40), 40000 + 80 * g40);
	}
	/* slope 1/1024 over the whole int64 range */
	{
		static const int64_t b[] = { 0, 1024 }, t[] = { 0, 1 };
		vlcfg_pwl m = PWL(b, t);

		ck_assert_int_eq(vli_pwl_eval(&m, INT64_MAX), INT64_C(9007199254740991));
	}
	/* large breakpoints too */
	{
		static const int64_t b[] = { INT64_C(1) << 50, INT64_C(1) << 51 };
		static const int64_t t[] = { INT64_C(1) << 40, INT64_C(1) << 41 };
		vlcfg_pwl m = PWL(b, t);

		/* (2^40 * 2^50) / 2^50 = 2^40 above the first point */
		ck_assert_int_eq(vli_pwl_eval(&m, INT64_C(3) << 50), INT64_C(3) << 40);
		ck_assert_int_eq(vli_pwl_eval(&m, (INT64_C(1) << 50) + 1024), (INT64_C(1) << 40) + 1);
	}
}
END_TEST

/* ---- vli_contention ---- */

START_TEST(contention_table)
{
	vlcfg_link l;

	memset(&l, 0, sizeof l);
	ck_assert_double_eq(vli_contention(&l, 0), 1.0);
	ck_assert_double_eq(vli_contention(&l, 1), 1.0);
	ck_assert_double_eq(vli_contention(&l, 1000), 1.0);

	l.ncont = 3;
	l.cont_k[0] = 2;
	l.cont_f[0] = 1.5;
	l.cont_k[1] = 4;
	l.cont_f[1] = 2.0;
	l.cont_k[2] = 8;
	l.cont_f[2] = 3.25;
	ck_assert_double_eq(vli_contention(&l, 0), 1.0); /* below the first k */
	ck_assert_double_eq(vli_contention(&l, 1), 1.0);
	ck_assert_double_eq(vli_contention(&l, 2), 1.5); /* exact */
	ck_assert_double_eq(vli_contention(&l, 3), 1.5); /* between: the entry below */
	ck_assert_double_eq(vli_contention(&l, 4), 2.0);
	ck_assert_double_eq(vli_contention(&l, 7), 2.0);
	ck_assert_double_eq(vli_contention(&l, 8), 3.25);
	ck_assert_double_eq(vli_contention(&l, 9), 3.25); /* beyond the last: the last */
	ck_assert_double_eq(vli_contention(&l, 1000000), 3.25);

	/* a factor below 1 and a factor 0 are returned as they are */
	l.ncont = 2;
	l.cont_k[0] = 1;
	l.cont_f[0] = 0.5;
	l.cont_k[1] = 3;
	l.cont_f[1] = 0.0;
	ck_assert_double_eq(vli_contention(&l, 1), 0.5);
	ck_assert_double_eq(vli_contention(&l, 2), 0.5);
	ck_assert_double_eq(vli_contention(&l, 3), 0.0);
	ck_assert_double_eq(vli_contention(&l, 0), 1.0);
}
END_TEST

/* ---- vli_link ---- */

START_TEST(link_choice)
{
	vlcfg_config c;

	cfg_hosts(&c, 3);
	ck_assert_ptr_eq(vli_link(&c, 0, 0), &c.intra);
	ck_assert_ptr_eq(vli_link(&c, 2, 2), &c.intra);
	ck_assert_ptr_eq(vli_link(&c, 0, 1), &c.inter);
	ck_assert_ptr_eq(vli_link(&c, 1, 0), &c.inter);
	ck_assert_ptr_eq(vli_link(&c, 2, 0), &c.inter);
	ck_assert_ptr_eq(vli_link(&c, -1, -1), &c.inter);
	ck_assert_ptr_eq(vli_link(&c, -2, -2), &c.inter);
	ck_assert_ptr_eq(vli_link(&c, -1, 0), &c.inter);
	ck_assert_ptr_eq(vli_link(&c, 0, -1), &c.inter);
	vlcfg_free(&c);
}
END_TEST

/* ---- send / transmission / receive ---- */

START_TEST(send_time_precedence)
{
	static const int64_t b[] = { 0, 1000 }, t[] = { 1000, 2000 };
	vlcfg_config c;

	cfg_hosts(&c, 3);
	c.intra.send_delay = 100;
	c.inter.send_delay = 200;
	/* link constants */
	ck_assert_int_eq(vli_send_time(&c, 0, 0, 500), 100);
	ck_assert_int_eq(vli_send_time(&c, 1, 1, 0), 100);
	ck_assert_int_eq(vli_send_time(&c, 0, 1, 500), 200);
	ck_assert_int_eq(vli_send_time(&c, -1, -1, 500), 200);
	ck_assert_int_eq(vli_send_time(&c, 0, 1, INT64_C(1) << 40), 200);

	/* the link's model replaces its constant */
	c.intra.send_model = PWL(b, t);
	ck_assert_int_eq(vli_send_time(&c, 0, 0, 500), 1500);
	ck_assert_int_eq(vli_send_time(&c, 0, 0, 0), 1000);
	ck_assert_int_eq(vli_send_time(&c, 0, 0, 3000), 4000);
	ck_assert_int_eq(vli_send_time(&c, 0, 1, 500), 200); /* inter has no model */

	/* the sender's host override beats the model and the constant, on both links */
	c.hosts[0].send_delay = 7;
	ck_assert_int_eq(vli_send_time(&c, 0, 0, 500), 7);
	ck_assert_int_eq(vli_send_time(&c, 0, 1, 500), 7);
	ck_assert_int_eq(vli_send_time(&c, 0, -1, 500), 7);
	/* ... but not the receiver's */
	ck_assert_int_eq(vli_send_time(&c, 1, 0, 500), 200);
	ck_assert_int_eq(vli_send_time(&c, 1, 1, 500), 1500);
	ck_assert_int_eq(vli_send_time(&c, -1, 0, 500), 200);

	/* an override of 0 is an override */
	c.hosts[1].send_delay = 0;
	ck_assert_int_eq(vli_send_time(&c, 1, 1, 500), 0);
	ck_assert_int_eq(vli_send_time(&c, 1, 2, 500), 0);
	ck_assert_int_eq(vli_send_time(&c, 2, 2, 500), 1500);

	/* a host index out of range has no overrides */
	ck_assert_int_eq(vli_send_time(&c, 3, 0, 500), 200);
	ck_assert_int_eq(vli_send_time(&c, 99, 1, 500), 200);
	vlcfg_free(&c);
}
END_TEST

START_TEST(trans_time_constants_exact)
{
	vlcfg_config c;

	cfg_hosts(&c, 2);
	/* 100 Mbit/s = 1024 * 1e12 / 12.5e6 = 81920000 ps per KiB = 80 ns per byte */
	c.inter.trans_per_kib_ps = 81920000;
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 1500), 120000);
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 1), 80);
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 0), 0);
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 1024), 81920);
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, INT64_C(1) << 40), INT64_C(87960930222080));
	/* intra is separate (all zero) */
	ck_assert_int_eq(vli_trans_time(&c, 1, 1, 1500), 0);

	c.inter.trans_delay = 5000;
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 1500), 125000);
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 0), 5000);

	/* truncation: 1 us per KiB = 1e6 ps; 1500 B -> 1.5e9 / 1024000 = 1464.84 */
	c.intra.trans_per_kib_ps = 1000000;
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 1500), 1464);
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 1), 0);      /* 0.98 */
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 1024), 1000);
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 1025), 1000); /* 1000.98 */
	/* 1 ps per KiB */
	c.intra.trans_per_kib_ps = 1;
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 1023999), 0);
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 1024000), 1);
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 2047999), 1);
	/* 1 Gbit/s (bandwidth) = llround(1024e12 / 1.25e8) = 8192000 ps: 1500 B -> 12000 ns */
	c.intra.trans_per_kib_ps = 8192000;
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 1500), 12000);
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 1499), 11992);
	vlcfg_free(&c);
}
END_TEST

START_TEST(trans_time_precedence)
{
	static const int64_t b[] = { 0, 1000 }, t[] = { 10, 1010 };
	vlcfg_config c;

	cfg_hosts(&c, 3);
	c.inter.trans_delay = 5000;
	c.inter.trans_per_kib_ps = 81920000;
	/* the link's model replaces trans_delay + per KiB */
	c.inter.trans_model = PWL(b, t);
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 500), 510);
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 1500), 1510);
	ck_assert_int_eq(vli_trans_time(&c, -1, -1, 500), 510);
	/* intra: constants, all zero */
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 500), 0);

	/* the receiver's overrides do not apply */
	c.hosts[1].trans_delay = 3;
	c.hosts[1].trans_per_kib_ps = 1;
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 500), 510);

	/* sender's trans_delay override only: it + the link's constant per KiB, model ignored */
	c.hosts[0].trans_delay = 3;
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 1500), 3 + 120000);
	ck_assert_int_eq(vli_trans_time(&c, 0, 2, 0), 3);
	/* ... on the intra link too (its per KiB is 0) */
	ck_assert_int_eq(vli_trans_time(&c, 0, 0, 1500), 3);

	/* sender's per KiB override only: the link's trans_delay + it */
	c.hosts[2].trans_per_kib_ps = 1000000;
	ck_assert_int_eq(vli_trans_time(&c, 2, 0, 1500), 5000 + 1464);
	ck_assert_int_eq(vli_trans_time(&c, 2, 2, 1500), 0 + 1464);

	/* both overrides */
	c.hosts[0].trans_per_kib_ps = 8192000;
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 1500), 3 + 12000);
	/* zero overrides are overrides */
	c.hosts[0].trans_delay = 0;
	c.hosts[0].trans_per_kib_ps = 0;
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 1500), 0);

	/* out-of-range sender: no overrides, the inter model */
	ck_assert_int_eq(vli_trans_time(&c, 3, 1, 500), 510);
	vlcfg_free(&c);
}
END_TEST

START_TEST(recv_time_precedence)
{
	vlcfg_config c;

	cfg_hosts(&c, 3);
	c.intra.recv_delay = 11;
	c.inter.recv_delay = 22;
	ck_assert_int_eq(vli_recv_time(&c, 0, 0), 11);
	ck_assert_int_eq(vli_recv_time(&c, 0, 1), 22);
	ck_assert_int_eq(vli_recv_time(&c, -1, -1), 22);

	/* the receiver's (dst) override applies, the sender's does not */
	c.hosts[1].recv_delay = 33;
	ck_assert_int_eq(vli_recv_time(&c, 0, 1), 33);
	ck_assert_int_eq(vli_recv_time(&c, 1, 1), 33);
	ck_assert_int_eq(vli_recv_time(&c, -1, 1), 33);
	ck_assert_int_eq(vli_recv_time(&c, 1, 0), 22);
	ck_assert_int_eq(vli_recv_time(&c, 1, 2), 22);
	ck_assert_int_eq(vli_recv_time(&c, 1, -1), 22);
	ck_assert_int_eq(vli_recv_time(&c, 0, 0), 11);
	c.hosts[2].recv_delay = 0;
	ck_assert_int_eq(vli_recv_time(&c, 2, 2), 0);
	ck_assert_int_eq(vli_recv_time(&c, 0, 2), 0);
	ck_assert_int_eq(vli_recv_time(&c, 0, 3), 22); /* out of range */
	vlcfg_free(&c);
}
END_TEST

START_TEST(model_from_ini_file)
{
	static const char ini[] =
		"[network]\n"
		"send_delay = 50us\n"
		"recv_delay = 20us\n"
		"bandwidth = 100Mbit/s\n"
		"[network intra]\n"
		"send_model = 0B:10us, 1KiB:20us\n"
		"trans_per_kib = 1us\n"
		"[network inter]\n"
		"trans_delay = 5us\n"
		"contention = 2:1.5, 4:2\n"
		"[host a]\n"
		"init_delay = 2ms\n"
		"[host b]\n"
		"send_delay = 7us\n"
		"recv_delay = 9us\n"
		"trans_per_kib = 500ps\n"
		"factor = 0.5\n";
	char path[600], dir[512], err[1200];
	vlcfg_config c;
	int a, b;

	write_ini(ini, path, sizeof path, dir, sizeof dir);
	err[0] = 0;
	ck_assert_msg(vlcfg_load(path, &c, err, sizeof err) == 0, "load: %s", err);
	remove_ini(path, dir);
	a = vlcfg_host_index(&c, "a");
	b = vlcfg_host_index(&c, "b");
	ck_assert_int_eq(a, 0);
	ck_assert_int_eq(b, 1);

	ck_assert_int_eq(c.inter.trans_per_kib_ps, 81920000);
	ck_assert_int_eq(c.intra.trans_per_kib_ps, 1000000);
	ck_assert_int_eq(c.hosts[b].trans_per_kib_ps, 500);
	/* send: intra model 10us + 10000*100/1024 = 10976 ns; inter constant */
	ck_assert_int_eq(vli_send_time(&c, a, a, 100), 10976);
	ck_assert_int_eq(vli_send_time(&c, a, b, 100), 50000);
	ck_assert_int_eq(vli_send_time(&c, b, a, 100), 7000);
	ck_assert_int_eq(vli_send_time(&c, b, b, 100), 7000);
	/* trans: inter 5us + 80 ns/B; b's per KiB override: 5us + 1500*500/1024000 = 0 */
	ck_assert_int_eq(vli_trans_time(&c, a, b, 1500), 125000);
	ck_assert_int_eq(vli_trans_time(&c, a, a, 1500), 1464);
	ck_assert_int_eq(vli_trans_time(&c, b, a, 1500), 5000);
	ck_assert_int_eq(vli_trans_time(&c, b, a, 4096000), 5000 + 2000);
	ck_assert_int_eq(vli_trans_time(&c, b, b, 4096000), 2000);
	/* recv: dst's override */
	ck_assert_int_eq(vli_recv_time(&c, b, a), 20000);
	ck_assert_int_eq(vli_recv_time(&c, a, b), 9000);
	/* contention on the inter link only */
	ck_assert_double_eq(vli_contention(vli_link(&c, a, b), 3), 1.5);
	ck_assert_double_eq(vli_contention(vli_link(&c, a, a), 3), 1.0);
	ck_assert_int_eq(vli_init_delay(&c, a), 2000000);
	ck_assert_int_eq(vli_init_delay(&c, b), 0);
	ck_assert_int_eq(vli_scale_cpu(&c, b, 1001), 501); /* 500.5 rounds away from 0 */
	ck_assert_int_eq(vli_scale_cpu(&c, a, 1001), 1001);
	vlcfg_free(&c);
}
END_TEST

/* ---- spawn delay, CPU scaling ---- */

START_TEST(init_delay)
{
	vlcfg_config c;

	cfg_hosts(&c, 3);
	ck_assert_int_eq(vli_init_delay(&c, 0), 0);
	c.hosts[1].init_delay = 250000;
	c.hosts[2].init_delay = INT64_C(20000000000);
	ck_assert_int_eq(vli_init_delay(&c, 1), 250000);
	ck_assert_int_eq(vli_init_delay(&c, 2), INT64_C(20000000000));
	ck_assert_int_eq(vli_init_delay(&c, 0), 0);
	ck_assert_int_eq(vli_init_delay(&c, -1), 0);
	ck_assert_int_eq(vli_init_delay(&c, -2), 0);
	ck_assert_int_eq(vli_init_delay(&c, 3), 0);
	vlcfg_free(&c);
}
END_TEST

START_TEST(scale_cpu)
{
	vlcfg_config c;

	cfg_hosts(&c, 4);
	/* factor 0: unchanged */
	ck_assert_int_eq(vli_scale_cpu(&c, 0, 123456789), 123456789);
	ck_assert_int_eq(vli_scale_cpu(&c, 0, 0), 0);
	/* 0.91: 123456789 * 0.91 = 112345677.99 -> 112345678 */
	c.hosts[1].factor = 0.91;
	ck_assert_int_eq(vli_scale_cpu(&c, 1, 123456789), 112345678);
	ck_assert_int_eq(vli_scale_cpu(&c, 1, 1000000000), 910000000);
	ck_assert_int_eq(vli_scale_cpu(&c, 1, 1), 1); /* 0.91 -> 1 */
	/* llround: halves away from zero (not to even) */
	c.hosts[2].factor = 0.5;
	ck_assert_int_eq(vli_scale_cpu(&c, 2, 3), 2);  /* 1.5 */
	ck_assert_int_eq(vli_scale_cpu(&c, 2, 5), 3);  /* 2.5 */
	ck_assert_int_eq(vli_scale_cpu(&c, 2, 1), 1);  /* 0.5 */
	ck_assert_int_eq(vli_scale_cpu(&c, 2, 4), 2);
	c.hosts[3].factor = 2.5;
	ck_assert_int_eq(vli_scale_cpu(&c, 3, 1000), 2500);
	ck_assert_int_eq(vli_scale_cpu(&c, 3, INT64_C(1000000000000)), INT64_C(2500000000000));
	/* out-of-range host: unchanged */
	ck_assert_int_eq(vli_scale_cpu(&c, -1, 777), 777);
	ck_assert_int_eq(vli_scale_cpu(&c, 4, 777), 777);
	/* compute = ignore: always 0 */
	c.compute_ignore = 1;
	ck_assert_int_eq(vli_scale_cpu(&c, 0, 123456789), 0);
	ck_assert_int_eq(vli_scale_cpu(&c, 1, 123456789), 0);
	ck_assert_int_eq(vli_scale_cpu(&c, 3, 1000), 0);
	ck_assert_int_eq(vli_scale_cpu(&c, -1, 777), 0);
	vlcfg_free(&c);
}
END_TEST

/* ---- vli_set_param ---- */

static int setp(vlcfg_config *c, const char *s, const char *k, const char *v, char *err)
{
	err[0] = 0;
	return vli_set_param(c, s, k, v, err, 512);
}

START_TEST(set_param_network_both_links)
{
	vlcfg_config c;
	char err[512];

	cfg_hosts(&c, 2);
	ck_assert_int_eq(setp(&c, "network", "send_delay", "50us", err), 0);
	ck_assert_int_eq(c.intra.send_delay, 50000);
	ck_assert_int_eq(c.inter.send_delay, 50000);
	ck_assert_int_eq(setp(&c, "network", "recv_delay", "1ms", err), 0);
	ck_assert_int_eq(c.intra.recv_delay, 1000000);
	ck_assert_int_eq(c.inter.recv_delay, 1000000);
	ck_assert_int_eq(setp(&c, "network", "trans_delay", "2s", err), 0);
	ck_assert_int_eq(c.intra.trans_delay, 2000000000);
	ck_assert_int_eq(c.inter.trans_delay, 2000000000);
	ck_assert_int_eq(setp(&c, "network", "trans_per_kib", "80us", err), 0);
	ck_assert_int_eq(c.intra.trans_per_kib_ps, 80000000);
	ck_assert_int_eq(c.inter.trans_per_kib_ps, 80000000);
	ck_assert_int_eq(setp(&c, "network", "trans_per_kib", "81.92us", err), 0);
	ck_assert_int_eq(c.intra.trans_per_kib_ps, 81920000);
	ck_assert_int_eq(c.inter.trans_per_kib_ps, 81920000);
	ck_assert_int_eq(setp(&c, "network", "bandwidth", "1Gbit/s", err), 0);
	ck_assert_int_eq(c.intra.trans_per_kib_ps, 8192000);
	ck_assert_int_eq(c.inter.trans_per_kib_ps, 8192000);
	ck_assert_int_eq(setp(&c, "network", "bandwidth", "100Mbit/s", err), 0);
	ck_assert_int_eq(c.intra.trans_per_kib_ps, 81920000);
	ck_assert_int_eq(c.inter.trans_per_kib_ps, 81920000);
	/* 1024e12 / 2^30 = 953674.316 -> 953674 */
	ck_assert_int_eq(setp(&c, "network", "bandwidth", "1GiB/s", err), 0);
	ck_assert_int_eq(c.intra.trans_per_kib_ps, 953674);
	ck_assert_int_eq(c.inter.trans_per_kib_ps, 953674);
	/* 0 is a valid time */
	ck_assert_int_eq(setp(&c, "network", "send_delay", "0ns", err), 0);
	ck_assert_int_eq(c.intra.send_delay, 0);
	ck_assert_int_eq(c.inter.send_delay, 0);
	/* the rest untouched */
	ck_assert_int_eq(c.intra.send_model.n, 0);
	ck_assert_int_eq(c.inter.ncont, 0);
	ck_assert_int_eq(c.compute_ignore, 0);
	ck_assert_int_eq(c.hosts[0].send_delay, VLCFG_UNSET);
	/* and the model uses the new values */
	ck_assert_int_eq(vli_trans_time(&c, 0, 1, 1500), 2000000000 + 1396); /* 1500*953674/1024000 = 1396.98 */
	vlcfg_free(&c);
}
END_TEST

START_TEST(set_param_one_link)
{
	vlcfg_config c;
	vlcfg_link inter0, intra1;
	char err[512];

	cfg_hosts(&c, 2);
	memcpy(&inter0, &c.inter, sizeof inter0);
	ck_assert_int_eq(setp(&c, "network intra", "send_delay", "10us", err), 0);
	ck_assert_int_eq(setp(&c, "network intra", "recv_delay", "11us", err), 0);
	ck_assert_int_eq(setp(&c, "network intra", "trans_delay", "12us", err), 0);
	ck_assert_int_eq(setp(&c, "network intra", "trans_per_kib", "13us", err), 0);
	ck_assert_int_eq(c.intra.send_delay, 10000);
	ck_assert_int_eq(c.intra.recv_delay, 11000);
	ck_assert_int_eq(c.intra.trans_delay, 12000);
	ck_assert_int_eq(c.intra.trans_per_kib_ps, 13000000);
	ck_assert_mem_eq(&c.inter, &inter0, sizeof inter0);

	memcpy(&intra1, &c.intra, sizeof intra1);
	ck_assert_int_eq(setp(&c, "network inter", "send_delay", "1ms", err), 0);
	ck_assert_int_eq(setp(&c, "network inter", "recv_delay", "2ms", err), 0);
	ck_assert_int_eq(setp(&c, "network inter", "trans_delay", "3ms", err), 0);
	ck_assert_int_eq(setp(&c, "network inter", "bandwidth", "100Mbit/s", err), 0);
	ck_assert_int_eq(c.inter.send_delay, 1000000);
	ck_assert_int_eq(c.inter.recv_delay, 2000000);
	ck_assert_int_eq(c.inter.trans_delay, 3000000);
	ck_assert_int_eq(c.inter.trans_per_kib_ps, 81920000);
	ck_assert_mem_eq(&c.intra, &intra1, sizeof intra1);
	ck_assert_int_eq(setp(&c, "network inter", "trans_per_kib", "1us", err), 0);
	ck_assert_int_eq(c.inter.trans_per_kib_ps, 1000000);
	ck_assert_mem_eq(&c.intra, &intra1, sizeof intra1);
	vlcfg_free(&c);
}
END_TEST

START_TEST(set_param_simulation_and_host)
{
	vlcfg_config c;
	vlcfg_host h0;
	char err[512];

	cfg_hosts(&c, 3);
	ck_assert_int_eq(setp(&c, "simulation", "compute", "ignore", err), 0);
	ck_assert_int_eq(c.compute_ignore, 1);
	ck_assert_int_eq(setp(&c, "simulation", "compute", "measured", err), 0);
	ck_assert_int_eq(c.compute_ignore, 0);

	memcpy(&h0, &c.hosts[0], sizeof h0);
	ck_assert_int_eq(setp(&c, "host h1", "factor", "0.91", err), 0);
	ck_assert_double_eq(c.hosts[1].factor, 0.91);
	ck_assert_int_eq(setp(&c, "host h1", "flops", "3.5e8", err), 0);
	ck_assert_double_eq(c.hosts[1].flops, 3.5e8);
	ck_assert_double_eq(c.hosts[1].factor, 0.91); /* flops did not touch factor */
	ck_assert_int_eq(setp(&c, "host h1", "factor", "0", err), 0);
	ck_assert_double_eq(c.hosts[1].factor, 0.0);
	ck_assert_double_eq(c.hosts[1].flops, 3.5e8);
	ck_assert_int_eq(setp(&c, "host h1", "init_delay", "100ms", err), 0);
	ck_assert_int_eq(c.hosts[1].init_delay, 100000000);
	ck_assert_int_eq(setp(&c, "host h1", "send_delay", "5us", err), 0);
	ck_assert_int_eq(c.hosts[1].send_delay, 5000);
	ck_assert_int_eq(setp(&c, "host h1", "recv_delay", "6us", err), 0);
	ck_assert_int_eq(c.hosts[1].recv_delay, 6000);
	ck_assert_int_eq(setp(&c, "host h1", "trans_delay", "7us", err), 0);
	ck_assert_int_eq(c.hosts[1].trans_delay, 7000);
	ck_assert_int_eq(c.hosts[1].trans_per_kib_ps, VLCFG_UNSET);
	ck_assert_int_eq(setp(&c, "host h2", "factor", "2", err), 0);
	ck_assert_double_eq(c.hosts[2].factor, 2.0);
	ck_assert_mem_eq(&c.hosts[0], &h0, sizeof h0);
	/* and the model sees them */
	ck_assert_int_eq(vli_send_time(&c, 1, 0, 100), 5000);
	ck_assert_int_eq(vli_recv_time(&c, 0, 1), 6000);
	ck_assert_int_eq(vli_trans_time(&c, 1, 0, 100), 7000);
	ck_assert_int_eq(vli_init_delay(&c, 1), 100000000);
	ck_assert_int_eq(vli_scale_cpu(&c, 2, 21), 42);
	vlcfg_free(&c);
}
END_TEST

START_TEST(set_param_errors)
{
	vlcfg_config c;
	vlcfg_link intra0, inter0;
	vlcfg_host hosts0[2];
	int ignore0;
	char err[512];
	size_t i;
	static const char *const bad_link_values[][2] = {
		{ "send_delay", "50" },       /* no unit */
		{ "send_delay", "-5us" },     /* negative */
		{ "send_delay", "fast" },
		{ "send_delay", "" },
		{ "send_delay", "5 parsecs" },
		{ "recv_delay", "1h" },
		{ "trans_delay", "-1ns" },
		{ "trans_per_kib", "80" },
		{ "trans_per_kib", "-80us" },
		{ "bandwidth", "0Mbit/s" },
		{ "bandwidth", "100" },
		{ "bandwidth", "-100Mbit/s" },
		{ "bandwidth", "fast" },
		{ "latency", "5us" },        /* unknown key */
		{ "send_model", "0B:10us, 0B:20us" }, /* sizes not increasing */
		{ "contention", "0:1.0" },            /* k must be >= 1 */
		{ "factor", "1.0" },         /* a host key */
	};
	static const char *const bad_host_values[][2] = {
		{ "factor", "-1" },
		{ "factor", "abc" },
		{ "factor", "" },
		{ "factor", "1.5x" },
		{ "factor", "inf" },
		{ "factor", "nan" },
		{ "flops", "-3" },
		{ "flops", "1e999" },
		{ "init_delay", "5" },
		{ "init_delay", "-5ms" },
		{ "send_delay", "x" },
		{ "recv_delay", "-1us" },
		{ "trans_delay", "1" },
		{ "processors", "4" },       /* not changeable at run time */
		{ "real", "pc1" },
		{ "speed", "1" },
	};

	cfg_hosts(&c, 2);
	c.intra.send_delay = 111;
	c.intra.trans_per_kib_ps = 222;
	c.inter.send_delay = 333;
	c.inter.recv_delay = 444;
	c.hosts[1].factor = 1.25;
	memcpy(&intra0, &c.intra, sizeof intra0);
	memcpy(&inter0, &c.inter, sizeof inter0);
	memcpy(hosts0, c.hosts, sizeof hosts0);
	ignore0 = c.compute_ignore;

#define UNCHANGED()                                                   \
	do {                                                          \
		ck_assert_mem_eq(&c.intra, &intra0, sizeof intra0);   \
		ck_assert_mem_eq(&c.inter, &inter0, sizeof inter0);   \
		ck_assert_mem_eq(c.hosts, hosts0, sizeof hosts0);     \
		ck_assert_int_eq(c.compute_ignore, ignore0);          \
		ck_assert_int_eq(c.nhosts, 2);                        \
	} while (0)

	/* unknown section */
	ck_assert_int_eq(setp(&c, "netwerk", "send_delay", "5us", err), -1);
	ck_assert_ptr_nonnull(strstr(err, "unknown section"));
	ck_assert_int_eq(setp(&c, "Network", "send_delay", "5us", err), -1);
	ck_assert_int_eq(setp(&c, "", "send_delay", "5us", err), -1);
	ck_assert_int_eq(setp(&c, "network  intra", "send_delay", "5us", err), -1);
	ck_assert_int_eq(setp(&c, "hosts h", "factor", "1", err), -1);
	ck_assert_int_eq(setp(&c, "host", "factor", "1", err), -1);
	UNCHANGED();

	/* unknown host */
	ck_assert_int_eq(setp(&c, "host nosuch", "factor", "1", err), -1);
	ck_assert_str_eq(err, "vl_set_param: [host nosuch]: no such virtual host");
	ck_assert_int_eq(setp(&c, "host ", "factor", "1", err), -1);
	ck_assert_int_eq(setp(&c, "host H1", "factor", "1", err), -1);
	UNCHANGED();

	/* missing arguments */
	ck_assert_int_eq(setp(&c, NULL, "send_delay", "5us", err), -1);
	ck_assert_int_ne((int)strlen(err), 0);
	ck_assert_int_eq(setp(&c, "network", NULL, "5us", err), -1);
	ck_assert_int_eq(setp(&c, "network", "send_delay", NULL, err), -1);
	UNCHANGED();

	/* [simulation]: only compute, with measured or ignore */
	ck_assert_int_eq(setp(&c, "simulation", "compute", "maybe", err), -1);
	ck_assert_int_ne((int)strlen(err), 0);
	ck_assert_int_eq(setp(&c, "simulation", "compute", "IGNORE", err), -1);
	ck_assert_int_eq(setp(&c, "simulation", "placement", "fill", err), -1);
	ck_assert_int_eq(setp(&c, "simulation", "trace_dir", "/tmp", err), -1);
	UNCHANGED();

	/* bad values and unknown keys in every link section: a failed [network]
	 * change leaves both links as they were */
	for (i = 0; i < sizeof bad_link_values / sizeof bad_link_values[0]; i++) {
		static const char *const secs[] = { "network", "network intra", "network inter" };
		size_t s;

		for (s = 0; s < 3; s++) {
			int rc = setp(&c, secs[s], bad_link_values[i][0], bad_link_values[i][1], err);

			ck_assert_msg(rc == -1, "[%s] %s = \"%s\" accepted", secs[s],
				      bad_link_values[i][0], bad_link_values[i][1]);
			ck_assert_msg(strlen(err) > 0, "[%s] %s: no message", secs[s],
				      bad_link_values[i][0]);
			UNCHANGED();
		}
	}
	/* bad values and unknown keys for a host */
	for (i = 0; i < sizeof bad_host_values / sizeof bad_host_values[0]; i++) {
		int rc = setp(&c, "host h1", bad_host_values[i][0], bad_host_values[i][1], err);

		ck_assert_msg(rc == -1, "[host h1] %s = \"%s\" accepted", bad_host_values[i][0],
			      bad_host_values[i][1]);
		ck_assert_msg(strlen(err) > 0, "[host h1] %s: no message", bad_host_values[i][0]);
		UNCHANGED();
	}
	/* piecewise models and contention tables can change at run time too */
	ck_assert_int_eq(setp(&c, "network inter", "send_model", "0B:10us, 1KiB:20us", err), 0);
	ck_assert_int_eq(vli_send_time(&c, 0, 1, 512), 15000);
	ck_assert_int_eq(setp(&c, "network inter", "contention", "1:1.0, 2:1.5", err), 0);
	ck_assert_double_eq(vli_contention(&c.inter, 3), 1.5);
	memcpy(&inter0, &c.inter, sizeof inter0);
	/* a good change after all that still works */
	ck_assert_int_eq(setp(&c, "network", "recv_delay", "1us", err), 0);
	ck_assert_int_eq(c.intra.recv_delay, 1000);
	ck_assert_int_eq(c.inter.recv_delay, 1000);
	ck_assert_int_eq(c.intra.send_delay, 111);
	ck_assert_int_eq(c.inter.send_delay, 333);
#undef UNCHANGED
	vlcfg_free(&c);
}
END_TEST

START_TEST(set_param_small_err_buffer)
{
	vlcfg_config c;
	char err[8];

	cfg_hosts(&c, 1);
	memset(err, 'x', sizeof err);
	ck_assert_int_eq(vli_set_param(&c, "nope", "k", "v", err, sizeof err), -1);
	ck_assert_int_eq((int)strlen(err), 7); /* cut, NUL-terminated */
	vlcfg_free(&c);
}
END_TEST


/* ---- lookahead ---- */

START_TEST(lookahead_least_send_plus_trans)
{
	vlcfg_config c;
	int64_t b[] = { 0, 1024 }, t[] = { 7000, 9000 }, t2[] = { 9000, 4000 };

	cfg_hosts(&c, 3);
	c.intra.send_delay = 2000;
	c.intra.trans_delay = 3000;
	c.inter.send_delay = 5000;
	c.inter.trans_delay = 50000;
	ck_assert_int_eq(vli_lookahead(&c), 5000); /* intra: 2 + 3 us */
	c.hosts[1].send_delay = 1000;              /* a host override counts */
	ck_assert_int_eq(vli_lookahead(&c), 4000);
	c.intra.send_model = PWL(b, t);            /* a model: its least point */
	c.hosts[1].send_delay = VLCFG_UNSET;
	ck_assert_int_eq(vli_lookahead(&c), 10000);
	c.intra.send_model = PWL(b, t2);           /* falling past its last point: 0 */
	ck_assert_int_eq(vli_lookahead(&c), 3000);
	c.intra.send_model.n = 0;
	c.intra.ncont = 1;                         /* a multicast factor below 1 */
	c.intra.cont_k[0] = 2;
	c.intra.cont_f[0] = 0.5;
	ck_assert_int_eq(vli_lookahead(&c), 4000);
	c.intra.send_delay = c.intra.trans_delay = 0; /* never 0: at least 1 ns */
	ck_assert_int_eq(vli_lookahead(&c), 1);
	vli_la_intra = 0; /* no two tasks on one host (MPI): the inter link's */
	ck_assert_int_eq(vli_lookahead(&c), 55000);
	c.hosts[2].send_delay = 1000; /* a host override of the inter link */
	ck_assert_int_eq(vli_lookahead(&c), 51000);
	vli_la_intra = 1;
	vlcfg_free(&c);
}
END_TEST

static Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *pw = tcase_create("pwl");
	TCase *ln = tcase_create("link");
	TCase *ho = tcase_create("host");
	TCase *sp = tcase_create("set_param");

	tcase_add_test(pw, pwl_empty_is_zero);
	tcase_add_test(pw, pwl_single_point_is_constant);
	tcase_add_test(pw, pwl_below_first_point_holds_first_value);
	tcase_add_test(pw, pwl_exact_on_every_breakpoint);
	tcase_add_test(pw, pwl_between_points_truncates);
	tcase_add_test(pw, pwl_beyond_last_extends_last_segment);
	tcase_add_test(pw, pwl_never_negative);
	tcase_add_test(pw, pwl_huge_sizes_do_not_overflow);
	tcase_add_test(pw, costs_saturate_instead_of_wrapping);
	suite_add_tcase(s, pw);

	tcase_add_test(ln, contention_table);
	tcase_add_test(ln, link_choice);
	tcase_add_test(ln, send_time_precedence);
	tcase_add_test(ln, trans_time_constants_exact);
	tcase_add_test(ln, trans_time_precedence);
	tcase_add_test(ln, recv_time_precedence);
	tcase_add_test(ln, model_from_ini_file);
	tcase_add_test(ln, lookahead_least_send_plus_trans);
	suite_add_tcase(s, ln);

	tcase_add_test(ho, init_delay);
	tcase_add_test(ho, scale_cpu);
	suite_add_tcase(s, ho);

	tcase_add_test(sp, set_param_network_both_links);
	tcase_add_test(sp, set_param_one_link);
	tcase_add_test(sp, set_param_simulation_and_host);
	tcase_add_test(sp, set_param_errors);
	tcase_add_test(sp, set_param_small_err_buffer);
	suite_add_tcase(s, sp);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(model_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
