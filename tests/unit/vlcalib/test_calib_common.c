/* test_calib_common.c - the library-independent part of the vlcalib
 * measurement programs: sizes, units, statistics, options. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "tools/vlcalib/calib_common.h"

START_TEST(default_sizes)
{
	size_t s[VLCAL_MAX_LIST];
	int n = vlcal_default_sizes(0, 4 << 20, s, VLCAL_MAX_LIST), i;
	static const size_t first[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32};

	/* 0, 23 powers of two 1 .. 4 MiB, 21 midpoints 3 .. 3 MiB */
	ck_assert_int_eq(n, 45);
	for (i = 0; i < 11; i++)
		ck_assert_uint_eq(s[i], first[i]);
	ck_assert_uint_eq(s[n - 1], 4u << 20);
	ck_assert_uint_eq(s[n - 2], 3u << 20);
	for (i = 1; i < n; i++)
		ck_assert(s[i] > s[i - 1]);
}
END_TEST

START_TEST(default_sizes_range)
{
	size_t s[VLCAL_MAX_LIST];
	int n = vlcal_default_sizes(1000, 5000, s, VLCAL_MAX_LIST);

	ck_assert_int_eq(n, 5);
	ck_assert_uint_eq(s[0], 1024);
	ck_assert_uint_eq(s[1], 1536);
	ck_assert_uint_eq(s[4], 4096);
	ck_assert_int_eq(vlcal_default_sizes(5, 5, s, VLCAL_MAX_LIST), 0);
	ck_assert_int_eq(vlcal_default_sizes(6, 6, s, VLCAL_MAX_LIST), 1);
}
END_TEST

START_TEST(sizes_and_times)
{
	size_t v;
	int64_t ns;

	ck_assert_int_eq(vlcal_parse_size("4KiB", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(vlcal_parse_size("1M", &v), 0);
	ck_assert_uint_eq(v, 1048576);
	ck_assert_int_eq(vlcal_parse_size("1.5K", &v), 0);
	ck_assert_uint_eq(v, 1536);
	ck_assert_int_eq(vlcal_parse_size("2KB", &v), 0);
	ck_assert_uint_eq(v, 2000);
	ck_assert_int_eq(vlcal_parse_size("0", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(vlcal_parse_size("1.5", &v), -1);
	ck_assert_int_eq(vlcal_parse_size("-1", &v), -1);
	ck_assert_int_eq(vlcal_parse_size("4 KiB", &v), 0); /* the VMConfig's syntax */
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(vlcal_parse_size("4KiBx", &v), -1);
	ck_assert_int_eq(vlcal_parse_size("x", &v), -1);
	ck_assert_int_eq(vlcal_parse_time("20ms", &ns), 0);
	ck_assert_int_eq(ns, 20000000);
	ck_assert_int_eq(vlcal_parse_time("20", &ns), 0);
	ck_assert_int_eq(ns, 20000000);
	ck_assert_int_eq(vlcal_parse_time("1.5s", &ns), 0);
	ck_assert_int_eq(ns, 1500000000);
	ck_assert_int_eq(vlcal_parse_time("800us", &ns), 0);
	ck_assert_int_eq(ns, 800000);
	ck_assert_int_eq(vlcal_parse_time("7ns", &ns), 0);
	ck_assert_int_eq(ns, 7);
	ck_assert_int_eq(vlcal_parse_time("1h", &ns), -1);
	ck_assert_int_eq(vlcal_parse_time("", &ns), -1);
}
END_TEST

START_TEST(stats)
{
	int64_t s[] = {5, 1, 3, 2, 4}, t[] = {10, 40, 20, 30}, one[] = {7};
	vlcal_stats st;

	vlcal_stats_of(s, 5, 1.0, &st);
	ck_assert_double_eq(st.min, 1);
	ck_assert_double_eq(st.median, 3);
	ck_assert_double_eq(st.mean, 3);
	ck_assert_double_eq(st.max, 5);
	ck_assert_double_eq_tol(st.stddev, sqrt(2.5), 1e-12);
	/* even count: the mean of the middle two; scale (the gap's 1/count) */
	vlcal_stats_of(t, 4, 0.5, &st);
	ck_assert_double_eq(st.min, 5);
	ck_assert_double_eq(st.median, 12.5);
	ck_assert_double_eq(st.mean, 12.5);
	ck_assert_double_eq(st.max, 20);
	ck_assert_double_eq_tol(st.stddev, 0.5 * sqrt(500.0 / 3), 1e-12);
	vlcal_stats_of(one, 1, 1.0, &st);
	ck_assert_double_eq(st.median, 7);
	ck_assert_double_eq(st.stddev, 0);
}
END_TEST

static int parse(vlcal_opts *o, int argc, char **argv)
{
	return vlcal_parse(o, argc, argv, "test", "usage\n", NULL, NULL);
}

START_TEST(options_default)
{
	vlcal_opts o;
	char *argv[] = {"prog", "-o", "x.csv"};

	ck_assert_int_eq(parse(&o, 3, argv), 0);
	ck_assert_str_eq(o.out, "x.csv");
	ck_assert_int_eq(o.nsizes, 45);
	ck_assert_int_eq(o.min_time_ns, 20000000);
	ck_assert_int_eq(o.max_reps, 1000);
	ck_assert_int_eq(o.min_reps, 10);
	ck_assert_int_eq(o.nbsp_h, 7);
	ck_assert_int_eq(o.bsp_h[0], 1024);
	ck_assert_int_eq(o.bsp_h[6], 4 << 20);
	ck_assert_uint_eq(o.only, (1u << VL_CALIB_NEXP) - 1);
	ck_assert_str_eq(o.argv_line, "prog -o x.csv");
}
END_TEST

START_TEST(options_quick)
{
	vlcal_opts o;
	char *argv[] = {"prog",   "--quick", "--sizes",    "1:64KiB",
	                "--only", "rtt,bsp", "--max-reps", "3"};

	ck_assert_int_eq(parse(&o, 8, argv), 0);
	ck_assert_int_eq(o.nsizes, 4); /* 1 8 1KiB 64KiB */
	ck_assert_uint_eq(o.sizes[0], 1);
	ck_assert_uint_eq(o.sizes[3], 65536);
	ck_assert_int_eq(o.max_reps, 3);
	ck_assert_int_eq(o.min_reps, 3);
	ck_assert_int_eq(o.min_time_ns, 1000000);
	ck_assert_int_eq(o.nbsp_h, 3);
	ck_assert_uint_eq(o.only, (1u << VL_CALIB_RTT) | (1u << VL_CALIB_BSP_EXCHANGE) |
	                              (1u << VL_CALIB_BSP_PINGPONG) |
	                              (1u << VL_CALIB_BSP_ONETOALL) |
	                              (1u << VL_CALIB_BSP_ALLTOONE) |
	                              (1u << VL_CALIB_BSP_ALLTOALL) | (1u << VL_CALIB_BSP_BARRIER));
}
END_TEST

/* --only share: the five sharing experiments; they are named like the others */
START_TEST(options_share)
{
	vlcal_opts o;
	char *argv[] = {"prog", "--only", "share,rtt"}, *one[] = {"prog", "--only", "share_fanin"};

	ck_assert_int_eq(parse(&o, 3, argv), 0);
	ck_assert_uint_eq(o.only, (1u << VL_CALIB_RTT) | (1u << VL_CALIB_SHARE_EXCHANGE) |
	                              (1u << VL_CALIB_SHARE_FANOUT) | (1u << VL_CALIB_SHARE_FANIN) |
	                              (1u << VL_CALIB_SHARE_ALLTOALL) |
	                              (1u << VL_CALIB_SHARE_FIRST));
	ck_assert_int_eq(parse(&o, 3, one), 0);
	ck_assert_uint_eq(o.only, 1u << VL_CALIB_SHARE_FANIN);
	ck_assert_str_eq(vlcal_exp_name(VL_CALIB_SHARE_EXCHANGE), "share_exchange");
	ck_assert_str_eq(vlcal_exp_name(VL_CALIB_SHARE_FANOUT), "share_fanout");
	ck_assert_str_eq(vlcal_exp_name(VL_CALIB_SHARE_ALLTOALL), "share_alltoall");
	ck_assert_str_eq(vlcal_exp_name(VL_CALIB_SHARE_FIRST), "share_first");
}
END_TEST

START_TEST(options_bad)
{
	vlcal_opts o;
	char *a1[] = {"prog", "--frobnicate"}, *a2[] = {"prog", "--sizes", "8:1"},
	     *a3[] = {"prog", "--only", "rtt,nope"}, *a4[] = {"prog", "--max-reps"},
	     *a5[] = {"prog", "--bsp-procs", "1"}, *a6[] = {"prog", "--min-time", "fast"},
	     *a7[] = {"prog", "--sizes", "5:5"};

	ck_assert_int_eq(parse(&o, 2, a1), 2);
	ck_assert_int_eq(parse(&o, 3, a2), 2);
	ck_assert_int_eq(parse(&o, 3, a3), 2);
	ck_assert_int_eq(parse(&o, 2, a4), 2);
	ck_assert_int_eq(parse(&o, 3, a5), 2);
	ck_assert_int_eq(parse(&o, 3, a6), 2);
	ck_assert_int_eq(parse(&o, 3, a7), 2); /* no size in range */
}
END_TEST

START_TEST(exp_names)
{
	ck_assert_str_eq(vlcal_exp_name(VL_CALIB_RTT), "rtt");
	ck_assert_str_eq(vlcal_exp_name(VL_CALIB_CONTENTION), "contention");
	ck_assert_str_eq(vlcal_exp_name(VL_CALIB_BSP_BARRIER), "bsp_barrier");
	ck_assert_str_eq(vlcal_exp_name(VL_CALIB_NEXP), "?");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("calib_common");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, default_sizes);
	tcase_add_test(tc, default_sizes_range);
	tcase_add_test(tc, sizes_and_times);
	tcase_add_test(tc, stats);
	tcase_add_test(tc, options_default);
	tcase_add_test(tc, options_quick);
	tcase_add_test(tc, options_share);
	tcase_add_test(tc, options_bad);
	tcase_add_test(tc, exp_names);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
