/* test_simgrid.c - unit tests of vlpost simgrid's writers: one rank's records
 * -> SimGrid time-independent actions (postproc/simgrid_ti.c), the links of
 * the platform and the smpirun options (postproc/simgrid_plat.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "postproc/simgrid.h"

/* tids 100 + r are rank r; 999 has no trace */
static int rank_of(void *ctx, int32_t tid)
{
	(void)ctx;
	return tid >= 100 && tid < 108 ? tid - 100 : -1;
}

/* The TI text of records recs[0..n-1] of rank 1 of 4 (speed: flop/s). */
static char *ti(const vl_trec *recs, int n, double speed, int mpi, vlpost_sg_ti *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i;

	ck_assert_ptr_nonnull(f);
	vlpost_sg_ti_init(t, 1, 4, mpi, speed, rank_of, NULL);
	for (i = 0; i < n; i++)
		vlpost_sg_ti_note(t, &recs[i]);
	vlpost_sg_ti_begin(t, 0, f);
	for (i = 0; i < n; i++)
		vlpost_sg_ti_rec(t, &recs[i], f);
	vlpost_sg_ti_end(t, f);
	fclose(f);
	return buf;
}

#define REC(type, flags, peer, tag, bytes, t0, t1, t2, t3, t4)                                     \
	vl_trec_make(type, flags, peer, tag, 1, bytes, t0, t1, t2, t3, t4)

START_TEST(blocking_send_recv)
{
	/* compute 5 us, send 128 B (S 10 us), recv 64 B after waiting 7 us (R 20 us) */
	vl_trec r[] = {
	    REC(VL_EV_START, 0, 0, 0, 0, 0, 0, 0, 0, 0),
	    REC(VL_EV_SEND, 0, 102, 7, 128, 5000, 15000, 55000, 1, 0),
	    REC(VL_EV_RECV, 0, 100, 8, 64, 15000, 42000, 7000, 22000, 0),
	    REC(VL_EV_END, 0, 0, 0, 5000, 42000, 42000, 0, 0, 0),
	};
	vlpost_sg_ti t;
	char *s = ti(r, 4, 1e9, 1, &t);

	ck_assert_str_eq(s, "1 init\n"
	                    "1 compute 5000\n"
	                    "1 sleep 0.000010000\n"
	                    "1 send 2 7 128\n"
	                    "1 recv 0 8 64\n"
	                    "1 sleep 0.000020000\n"
	                    "1 sleep 0\n");
	ck_assert_int_eq(t.cur, 42000);
	ck_assert_int_eq((int)t.actions, 7);
	free(s);
	vlpost_sg_ti_free(&t);
}
END_TEST

START_TEST(rendezvous_wait_left_to_simgrid)
{
	/* a rendezvous send of 8 KiB: S 10 us, then 40 us of waiting (t4) that
	 * SimGrid must find itself */
	vl_trec r[] = {
	    REC(VL_EV_SEND, 0, 100, 3, 8192, 0, 50000, 50000, 1, 40000),
	};
	vlpost_sg_ti t;
	char *s = ti(r, 1, 1e9, 1, &t);

	ck_assert_str_eq(s, "1 init\n1 sleep 0.000010000\n1 send 0 3 8192\n1 sleep 0\n");
	free(s);
	vlpost_sg_ti_free(&t);
}
END_TEST

START_TEST(nonblocking)
{
	/* Irecv (wildcard: the completion names the source), Isend, then the
	 * completions: the receive (R 2 us after 1 us of waiting), the send */
	vl_trec r[] = {
	    REC(VL_EV_IRECV, 0, -1, 5, 0, 0, 0, 0, 0, 1),
	    REC(VL_EV_SEND, VL_TF_NB, 103, 6, 512, 0, 3000, 9000, 1, 2),
	    REC(VL_EV_RECV, VL_TF_NB, 103, 5, 256, 3000, 6000, 1000, 4000, 1),
	    REC(VL_EV_WAIT, 0, 103, 6, 512, 6000, 6000, 0, 0, 2),
	};
	vlpost_sg_ti t;
	char *s = ti(r, 4, 1e9, 1, &t);

	ck_assert_str_eq(s, "1 init\n"
	                    "1 irecv 3 5 256\n"
	                    "1 sleep 0.000003000\n"
	                    "1 isend 3 6 512\n"
	                    "1 wait 3 1 5\n"
	                    "1 sleep 0.000002000\n"
	                    "1 wait 1 3 6\n"
	                    "1 sleep 0\n");
	free(s);
	vlpost_sg_ti_free(&t);
}
END_TEST

START_TEST(compute_at_host_speed)
{
	/* 1.5 ms of computation on a 2.5e8 flop/s host, then a vl_compute of 2 ms
	 * and a sleep of 1 s */
	vl_trec r[] = {
	    REC(VL_EV_COMPUTE, 0, 0, 0, 0, 1500000, 3500000, 0, 0, 0),
	    REC(VL_EV_SLEEP, 0, 0, 0, 0, 3500000, 1003500000, 0, 0, 0),
	};
	vlpost_sg_ti t;
	char *s = ti(r, 2, 2.5e8, 1, &t);

	ck_assert_str_eq(s, "1 init\n"
	                    "1 compute 375000\n"
	                    "1 compute 500000\n"
	                    "1 sleep 1.000000000\n"
	                    "1 sleep 0\n");
	free(s);
	vlpost_sg_ti_free(&t);
}
END_TEST

START_TEST(collectives)
{
	/* MPI_COMM_WORLD (4 members): actions; a root given as a tid; a
	 * communicator of 2 and a PVM group operation: sleeps */
	vl_trec r[] = {
	    REC(VL_EV_COLL, 0, -1, VL_COLL_MPI + VL_KIND_BARRIER, 0, 0, 1000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, 102, VL_COLL_MPI + VL_KIND_BCAST, 1024, 1000, 2000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, 100, VL_COLL_MPI + VL_KIND_REDUCE, 80, 2000, 3000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, -1, VL_COLL_MPI + VL_KIND_ALLREDUCE, 8, 3000, 4000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, 101, VL_COLL_MPI + VL_KIND_GATHER, 16, 4000, 5000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, 103, VL_COLL_MPI + VL_KIND_SCATTER, 16, 5000, 6000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, -1, VL_COLL_MPI + VL_KIND_ALLGATHER, 32, 6000, 7000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, -1, VL_COLL_MPI + VL_KIND_ALLTOALL, 64, 7000, 8000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, -1, VL_COLL_MPI + VL_KIND_REDUCE_SCATTER, 8, 8000, 9000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, -1, VL_COLL_MPI + VL_KIND_SCAN, 8, 9000, 10000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, -1, VL_COLL_MPI + VL_KIND_EXSCAN, 8, 10000, 11000, 0, 4, 0),
	    REC(VL_EV_COLL, 0, -1, VL_COLL_MPI + VL_KIND_BCAST, 8, 11000, 12000, 0, 2, 0),
	    REC(VL_EV_COLL, 0, 100, VL_COLL_BCAST, 8, 12000, 15000, 0, 4, 0),
	};
	vlpost_sg_ti t;
	char *s = ti(r, 13, 1e9, 1, &t);

	ck_assert_str_eq(s, "1 init\n"
	                    "1 barrier\n"
	                    "1 bcast 1024 2\n"
	                    "1 reduce 80 0 0\n"
	                    "1 allreduce 8 0\n"
	                    "1 gather 16 16 1\n"
	                    "1 scatter 16 16 3\n"
	                    "1 allgather 32 32\n"
	                    "1 alltoall 64 64\n"
	                    "1 reducescatter 8 8 8 8 0\n"
	                    "1 scan 8 0\n"
	                    "1 exscan 8 0\n"
	                    "1 sleep 0.000001000\n"
	                    "1 sleep 0.000003000\n"
	                    "1 sleep 0\n");
	ck_assert_int_eq((int)t.as_sleep[VL_EV_COLL], 2);
	free(s);
	vlpost_sg_ti_free(&t);
	/* a PVM run (not mpi): no world collectives */
	s = ti(r, 1, 1e9, 0, &t);
	ck_assert_str_eq(s, "1 init\n1 sleep 0.000001000\n1 sleep 0\n");
	free(s);
	vlpost_sg_ti_free(&t);
}
END_TEST

/* An allgatherv or reduce_scatter whose trace has every member's block
 * (VL_EV_BLOCKS right after its entry record: a blocking one's COLL, seq
 * 0; a nonblocking one's ICOLL, its key) is exported with them; one
 * without (an older trace) as its plain form. */
START_TEST(v_forms_with_every_block)
{
	vl_trec r[] = {
	    vl_trec_make(VL_EV_COLL, VL_TF_V | VL_TF_SHARED, -1, VL_COLL_MPI + VL_KIND_ALLGATHER, 0,
			 16, 0, 1000, 0, 4, 0),
	    vl_trec_make(VL_EV_BLOCKS, 0, 0, 4, 0, 8, 1000, 1000, 16, 24, 32),
	    vl_trec_make(VL_EV_ICOLL, VL_TF_SHARED | VL_TF_OPENED, -1,
			 VL_COLL_MPI + VL_KIND_REDUCE_SCATTER, 7, 16, 1000, 1000, 0, 4, 0),
	    vl_trec_make(VL_EV_BLOCKS, 0, 0, 4, 7, 8, 1000, 1000, 16, 24, 32),
	    vl_trec_make(VL_EV_COLL, VL_TF_NB | VL_TF_SHARED | VL_TF_OPENED, -1,
			 VL_COLL_MPI + VL_KIND_REDUCE_SCATTER, 7, 16, 1000, 2000, 0, 4, 1000),
	    vl_trec_make(VL_EV_COLL, VL_TF_V, -1, VL_COLL_MPI + VL_KIND_ALLGATHER, 0, 16, 2000,
			 3000, 0, 4, 0),
	};
	vlpost_sg_ti t;
	char *s = ti(r, 6, 1e9, 1, &t);

	ck_assert_str_eq(s, "1 init\n"
	                    "1 allgatherv 16 8 16 24 32\n"
	                    "1 reducescatter 8 16 24 32 0\n"
	                    "1 allgather 16 16\n"
	                    "1 sleep 0\n");
	free(s);
	vlpost_sg_ti_free(&t);
}
END_TEST

START_TEST(what_has_no_action)
{
	/* a probe, a spawn, a send to a task without trace, a mark, a parameter
	 * change, a synthetic receive: sleeps of their duration or nothing; one
	 * multicast of 2 sharing one interval: S once */
	vl_trec r[] = {
	    REC(VL_EV_PROBE, 0, -1, -1, 0, 0, 2000, 0, 0, 0),
	    REC(VL_EV_SPAWN, 0, 105, 0, 0, 2000, 7000, 9000, 0, 0),
	    REC(VL_EV_SEND, 0, 999, 1, 8, 7000, 8000, 9000, 1, 0),
	    vl_trec_text(VL_EV_MARK, 1, 0, 0, 8000, 8000, "m"),
	    vl_trec_text(VL_EV_PARAM, 0, 0, 0, 8000, 8000, "x=1"),
	    REC(VL_EV_RECV, VL_TF_SYNTH, 100, 1, 8, 8000, 9000, 0, 8000, 0),
	    REC(VL_EV_SEND, VL_TF_MCAST, 102, 4, 8, 9000, 11000, 12000, 2, 0),
	    REC(VL_EV_SEND, VL_TF_MCAST, 103, 4, 8, 9000, 11000, 12000, 2, 0),
	};
	vlpost_sg_ti t;
	char *s = ti(r, 8, 1e9, 0, &t);

	ck_assert_str_eq(s, "1 init\n"
	                    "1 sleep 0.000002000\n"
	                    "1 sleep 0.000005000\n"
	                    "1 sleep 0.000001000\n"
	                    "1 sleep 0.000001000\n"
	                    "1 sleep 0.000002000\n"
	                    "1 send 2 4 8\n"
	                    "1 send 3 4 8\n"
	                    "1 sleep 0\n");
	ck_assert_int_eq((int)t.as_sleep[VL_EV_PROBE], 1);
	ck_assert_int_eq((int)t.as_sleep[VL_EV_SPAWN], 1);
	ck_assert_int_eq((int)t.as_sleep[VL_EV_SEND], 1);
	ck_assert_int_eq((int)t.as_sleep[VL_EV_RECV], 1);
	free(s);
	vlpost_sg_ti_free(&t);
}
END_TEST

START_TEST(late_start)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	vlpost_sg_ti t;

	vlpost_sg_ti_init(&t, 3, 4, 0, 0, rank_of, NULL);
	vlpost_sg_ti_begin(&t, 20000000, f);
	fclose(f);
	ck_assert_str_eq(buf, "3 init\n3 sleep 0.020000000\n");
	ck_assert_int_eq(t.cur, 20000000);
	ck_assert(t.speed == 1e9);
	free(buf);
	vlpost_sg_ti_free(&t);
}
END_TEST

START_TEST(secs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	vlpost_sg_secs(f, 0);
	fputc(' ', f);
	vlpost_sg_secs(f, 1);
	fputc(' ', f);
	vlpost_sg_secs(f, 12345678901LL);
	fclose(f);
	ck_assert_str_eq(buf, "0.000000000 0.000000001 12.345678901");
	free(buf);
}
END_TEST

/* A config of 2 hosts like tests/e2e/mpi.ini. */
static void config(vlcfg_config *c)
{
	char err[256];
	char path[] = "/tmp/vlsgXXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs("[network intra]\ntrans_delay = 3us\ntrans_per_kib = 1us\n"
	      "[network inter]\ntrans_delay = 30us\ntrans_per_kib = 8us\n"
	      "[mpi]\neager_limit = 4KiB\n[collectives]\nbcast = linear\n"
	      "[host n1]\nprocessors = 2\n"
	      "[host n2]\nprocessors = 2\ntrans_delay = 100ns\nflops = 2.5e8\n",
	      f);
	fclose(f);
	ck_assert_msg(vlcfg_load(path, c, err, sizeof err) == 0, "%s", err);
	unlink(path);
}

START_TEST(links)
{
	vlcfg_config c;
	vlpost_sg_link l;

	config(&c);
	/* between hosts: 30 us - 16 B x 7.8125 ns, 1024 B / 8 us */
	vlpost_sg_link_of(&c, 0, 0, &l);
	ck_assert_double_eq_tol(l.lat_s, 29875e-9, 1e-18);
	ck_assert_double_eq_tol(l.bw, 128e6, 1e-6);
	ck_assert_int_eq(l.lat_clamped, 0);
	/* inside a node: 3 us - 16 x 0.9765625 ns */
	vlpost_sg_link_of(&c, 0, 1, &l);
	ck_assert_double_eq_tol(l.lat_s, 2984.375e-9, 1e-18);
	ck_assert_double_eq_tol(l.bw, 1.024e9, 1e-3);
	/* n2's override: 100 ns is less than the envelope (125 ns): latency 0 */
	vlpost_sg_link_of(&c, 1, 0, &l);
	ck_assert(l.lat_s == 0);
	ck_assert_int_eq(l.lat_clamped, 1);
	ck_assert(vlpost_sg_speed(&c, 0) == 1e9);
	ck_assert(vlpost_sg_speed(&c, 1) == 2.5e8);
	vlcfg_free(&c);
}
END_TEST

START_TEST(platform_and_options)
{
	vlcfg_config c;
	int ranks[2] = {3, 1};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	config(&c);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(vlpost_sg_platform(f, &c, ranks, VLPOST_SG_STAR, NULL), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "<platform version=\"4.1\">"));
	/* 3 ranks on a host of 2 processors: 3 cores, no sharing of the CPU */
	ck_assert_ptr_nonnull(strstr(buf, "<host id=\"n1\" speed=\"1000000000f\" core=\"3\"/>"));
	ck_assert_ptr_nonnull(strstr(buf, "<host id=\"n2\" speed=\"250000000f\" core=\"2\"/>"));
	ck_assert_ptr_nonnull(strstr(buf,
	                             "<link id=\"n2-down\" latency=\"1.49375e-05s\" "
	                             "bandwidth=\"128000000Bps\" sharing_policy=\"SHARED\"/>"));
	ck_assert_ptr_nonnull(strstr(buf,
	                             "<route src=\"n1\" dst=\"n2\" symmetrical=\"NO\">"
	                             "<link_ctn id=\"n1-up\"/><link_ctn id=\"n2-down\"/></route>"));
	ck_assert_ptr_nonnull(strstr(buf, "<route src=\"n2\" dst=\"n2\" symmetrical=\"NO\">"
	                                  "<link_ctn id=\"n2-intra\"/></route>"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	vlpost_sg_cfg_opts(f, &c, 1, " ");
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "--cfg=network/model:CM02 "));
	ck_assert_ptr_nonnull(strstr(buf, "--cfg=smpi/send-is-detached-thresh:4096 "
	                                  "--cfg=smpi/async-small-thresh:4096"));
	ck_assert_ptr_nonnull(strstr(buf, "--cfg=smpi/bcast:flattree"));
	ck_assert_ptr_nonnull(strstr(buf, "--cfg=smpi/barrier:ompi_bruck"));
	free(buf);
	buf = NULL;
	/* PVM: every send eager, no collective options */
	f = open_memstream(&buf, &len);
	vlpost_sg_cfg_opts(f, &c, 0, " ");
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "--cfg=smpi/async-small-thresh:2147483647"));
	ck_assert_ptr_null(strstr(buf, "smpi/bcast"));
	free(buf);
	vlcfg_free(&c);
	ck_assert_int_eq(vlpost_sg_topo_parse("bus"), VLPOST_SG_BUS);
	ck_assert_int_eq(vlpost_sg_topo_parse("ring"), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("simgrid");
	TCase *tc = tcase_create("ti");

	tcase_add_test(tc, blocking_send_recv);
	tcase_add_test(tc, rendezvous_wait_left_to_simgrid);
	tcase_add_test(tc, nonblocking);
	tcase_add_test(tc, v_forms_with_every_block);
	tcase_add_test(tc, compute_at_host_speed);
	tcase_add_test(tc, collectives);
	tcase_add_test(tc, what_has_no_action);
	tcase_add_test(tc, late_start);
	tcase_add_test(tc, secs);
	suite_add_tcase(s, tc);
	tc = tcase_create("platform");
	tcase_add_test(tc, links);
	tcase_add_test(tc, platform_and_options);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
