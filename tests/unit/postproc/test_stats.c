/* test_stats.c - unit tests of the vlpost stats report (postproc/stats.c): the
 * message-size histogram buckets, the sender x receiver matrix and the critical
 * path on hand-built traces with known answers (records fed directly, no files),
 * and the sections the report prints in each format, with and without --brief. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "postproc/stats.h"

#define US 1000

/* ---- building a trace set in memory ---- */
typedef struct tb {
	vlpost_tstats st[8];
	vlpost_report rep;
	int n;
} tb;

static tb *tb_new(void)
{
	tb *b = calloc(1, sizeof *b);
	ck_assert_ptr_nonnull(b);
	return b;
}

/* Task n, in processor order. */
static void tb_task(tb *b, int32_t tid, int32_t ptid, int64_t start)
{
	vl_thdr h;
	memset(&h, 0, sizeof h);
	h.tid = tid;
	h.ptid = ptid;
	h.start_ns = start;
	vlpost_stats_init(&b->st[b->n], b->n, &h);
	b->n++;
}

static void tb_begin(tb *b)
{
	ck_assert_int_eq(vlpost_report_init(&b->rep, b->st, b->n), 0);
}

static void tb_rec(tb *b, int proc, int type, unsigned flags, int32_t peer, uint32_t seq,
		   int64_t bytes, int64_t t0, int64_t t1, int64_t t2, int64_t t3)
{
	vl_trec r = vl_trec_make(type, flags, peer, 0, seq, bytes, t0, t1, t2, t3, 0);

	vlpost_stats_add(&b->st[proc], &r);
	ck_assert_int_eq(vlpost_report_add(&b->rep, proc, &r), 0);
}

static void tb_end(tb *b, int proc, int64_t t)
{
	tb_rec(b, proc, VL_EV_END, 0, 0, 0, 0, t, t, 0, 0);
}

static const vlpost_critpath *tb_finish(tb *b)
{
	for (int i = 0; i < b->n; i++)
		vlpost_stats_done(&b->st[i]);
	ck_assert_int_eq(vlpost_report_finish(&b->rep, b->st), 0);
	return &b->rep.cp;
}

static void tb_free(tb *b)
{
	vlpost_report_free(&b->rep);
	free(b);
}

static void ck_path(const vlpost_critpath *cp, int64_t start, int64_t end, int64_t comp,
		    int64_t comm, int64_t wait, const int *procs, int nprocs)
{
	ck_assert_int_eq(cp->start, start);
	ck_assert_int_eq(cp->end, end);
	ck_assert_int_eq(cp->comp, comp);
	ck_assert_int_eq(cp->comm, comm);
	ck_assert_int_eq(cp->wait, wait);
	ck_assert_int_eq(cp->comp + cp->comm + cp->wait, cp->end - cp->start);
	ck_assert_int_eq(cp->nprocs, nprocs);
	for (int i = 0; i < nprocs; i++)
		ck_assert_int_eq(cp->procs[i], procs[i]);
	ck_assert_int_eq(cp->cut, 0);
}

/* ---- histogram ---- */
START_TEST(test_hist_bucket)
{
	ck_assert_int_eq(vlpost_hist_bucket(0), 0);
	ck_assert_int_eq(vlpost_hist_bucket(1), 1);
	ck_assert_int_eq(vlpost_hist_bucket(2), 2);
	ck_assert_int_eq(vlpost_hist_bucket(3), 2);
	ck_assert_int_eq(vlpost_hist_bucket(4), 3);
	ck_assert_int_eq(vlpost_hist_bucket(7), 3);
	ck_assert_int_eq(vlpost_hist_bucket(8), 4);
	ck_assert_int_eq(vlpost_hist_bucket(1023), 10);
	ck_assert_int_eq(vlpost_hist_bucket(1024), 11);
	ck_assert_int_eq(vlpost_hist_bucket((uint64_t)1 << 62), 63);
	ck_assert_int_eq(vlpost_hist_bucket(UINT64_MAX), VLPOST_HIST_N - 1);
	ck_assert_uint_eq(vlpost_hist_lo(0), 0);
	ck_assert_uint_eq(vlpost_hist_hi(0), 0);
	ck_assert_uint_eq(vlpost_hist_lo(3), 4);
	ck_assert_uint_eq(vlpost_hist_hi(3), 7);
	ck_assert_uint_eq(vlpost_hist_hi(VLPOST_HIST_N - 1), UINT64_MAX);
	/* the buckets tile 0..UINT64_MAX */
	for (int k = 0; k < VLPOST_HIST_N; k++) {
		ck_assert_int_eq(vlpost_hist_bucket(vlpost_hist_lo(k)), k);
		ck_assert_int_eq(vlpost_hist_bucket(vlpost_hist_hi(k)), k);
		if (k + 1 < VLPOST_HIST_N)
			ck_assert_uint_eq(vlpost_hist_hi(k) + 1, vlpost_hist_lo(k + 1));
	}
}
END_TEST

/* Histogram and matrix of a few sends, one to a task without trace. */
START_TEST(test_hist_matrix)
{
	tb *b = tb_new();
	tb_task(b, 0x20, -1, 0);
	tb_task(b, 0x10, -1, 0);
	tb_begin(b);
	tb_rec(b, 0, VL_EV_SEND, 0, 0x10, 1, 0, 1, 2, 3, 0);
	tb_rec(b, 0, VL_EV_SEND, 0, 0x10, 2, 5, 2, 3, 4, 0);
	tb_rec(b, 0, VL_EV_SEND, 0, 0x99, 3, 6, 3, 4, 5, 0);
	tb_rec(b, 1, VL_EV_SEND, 0, 0x20, 1, 4096, 1, 2, 3, 0);
	tb_end(b, 0, 10);
	tb_end(b, 1, 10);
	tb_finish(b);
	ck_assert_uint_eq(b->rep.hist_n[0], 1);
	ck_assert_uint_eq(b->rep.hist_n[3], 2); /* 5 and 6 */
	ck_assert_uint_eq(b->rep.hist_bytes[3], 11);
	ck_assert_uint_eq(b->rep.hist_n[13], 1); /* 4096 */
	ck_assert_uint_eq(b->rep.npairs, 3);
	/* sorted by sender, then receiver (tasks without trace last) */
	ck_assert_int_eq(b->rep.pairs[0].from, 0);
	ck_assert_int_eq(b->rep.pairs[0].to, 1);
	ck_assert_uint_eq(b->rep.pairs[0].n, 2);
	ck_assert_uint_eq(b->rep.pairs[0].bytes, 5);
	ck_assert_int_eq(b->rep.pairs[1].to, -1);
	ck_assert_int_eq(b->rep.pairs[1].to_tid, 0x99);
	ck_assert_int_eq(b->rep.pairs[2].from, 1);
	ck_assert_int_eq(b->rep.pairs[2].to, 0);
	ck_assert_uint_eq(b->rep.pairs[2].bytes, 4096);
	tb_free(b);
}
END_TEST

/* ---- critical path ---- */
/* Ping-pong: proc 0 computes 0-10, sends (10-12, arrival 15); proc 1 waits 2-15,
 * receives until 16, computes 16-40, sends (40-41, arrival 45); proc 0 waits
 * 12-45, receives until 46, computes until its END at 50.  Path 0 -> 1 -> 0. */
START_TEST(test_cp_pingpong)
{
	static const int procs[] = { 0, 1, 0 };
	tb *b = tb_new();
	const vlpost_critpath *cp;
	tb_task(b, 1, -1, 0);
	tb_task(b, 2, -1, 0);
	tb_begin(b);
	tb_rec(b, 0, VL_EV_COMPUTE, 0, 0, 0, 0, 0, 10 * US, 0, 0);
	tb_rec(b, 0, VL_EV_SEND, 0, 2, 1, 100, 10 * US, 12 * US, 15 * US, 0);
	tb_rec(b, 0, VL_EV_RECV, 0, 2, 1, 8, 12 * US, 46 * US, 33 * US, 45 * US);
	tb_end(b, 0, 50 * US);
	tb_rec(b, 1, VL_EV_RECV, 0, 1, 1, 100, 2 * US, 16 * US, 13 * US, 15 * US);
	tb_rec(b, 1, VL_EV_COMPUTE, 0, 0, 0, 0, 16 * US, 40 * US, 0, 0);
	tb_rec(b, 1, VL_EV_SEND, 0, 1, 1, 8, 40 * US, 41 * US, 45 * US, 0);
	tb_end(b, 1, 42 * US);
	cp = tb_finish(b);
	/* comp: 0-10 on 0, 16-40 on 1, 46-50 on 0 = 38; comm: message 1 (10-15) and
	 * its receive after arrival (15-16) = 6, message 2 (40-45) and 45-46 = 6 */
	ck_path(cp, 0, 50 * US, 38 * US, 12 * US, 0, procs, 3);
	ck_assert_uint_eq(cp->messages, 2);
	ck_assert_int_eq(cp->end_proc, 0);
	tb_free(b);
}
END_TEST

/* The latest END is on a spawned task that never waited: the path goes back to
 * its start, then through the parent's spawn call. */
START_TEST(test_cp_spawn)
{
	static const int procs[] = { 0, 1 };
	tb *b = tb_new();
	const vlpost_critpath *cp;
	tb_task(b, 1, -1, 0);
	tb_task(b, 2, 1, 5 * US);
	tb_begin(b);
	tb_rec(b, 0, VL_EV_COMPUTE, 0, 0, 0, 0, 0, 2 * US, 0, 0);
	tb_rec(b, 0, VL_EV_SPAWN, 0, 2, 0, 0, 2 * US, 4 * US, 5 * US, 0);
	tb_end(b, 0, 10 * US);
	tb_rec(b, 1, VL_EV_COMPUTE, 0, 0, 0, 0, 5 * US, 30 * US, 0, 0);
	tb_end(b, 1, 31 * US);
	cp = tb_finish(b);
	/* comp 0-2 + 5-30 + 30-31 = 28, comm 2-5 (spawn to the child's start) = 3 */
	ck_path(cp, 0, 31 * US, 28 * US, 3 * US, 0, procs, 2);
	ck_assert_uint_eq(cp->spawns, 1);
	ck_assert_uint_eq(cp->messages, 0);
	tb_free(b);
}
END_TEST

/* A multicast writes one record per destination with the one interval of the call:
 * it is on the path once.  The receive that waited for the second destination's
 * message jumps to the second record. */
START_TEST(test_cp_mcast)
{
	static const int procs[] = { 0, 2 };
	tb *b = tb_new();
	const vlpost_critpath *cp;
	tb_task(b, 1, -1, 0);
	tb_task(b, 2, -1, 0);
	tb_task(b, 3, -1, 0);
	tb_begin(b);
	tb_rec(b, 0, VL_EV_SEND, VL_TF_MCAST, 2, 1, 10, 4 * US, 10 * US, 12 * US, 2);
	tb_rec(b, 0, VL_EV_SEND, VL_TF_MCAST, 3, 2, 10, 4 * US, 10 * US, 14 * US, 2);
	tb_end(b, 0, 20 * US);
	tb_rec(b, 1, VL_EV_RECV, 0, 1, 1, 10, 0, 13 * US, 12 * US, 12 * US);
	tb_end(b, 1, 20 * US);
	tb_rec(b, 2, VL_EV_RECV, 0, 1, 2, 10, 0, 15 * US, 14 * US, 14 * US);
	tb_end(b, 2, 25 * US);
	cp = tb_finish(b);
	/* proc 2: comp 15-25, comm 14-15 + message 4-14; proc 0: comp 0-4 */
	ck_path(cp, 0, 25 * US, 14 * US, 11 * US, 0, procs, 2);
	tb_free(b);

	/* on the sender alone: the shared interval 4-10 counts once */
	b = tb_new();
	tb_task(b, 1, -1, 0);
	tb_begin(b);
	tb_rec(b, 0, VL_EV_SEND, VL_TF_MCAST, 2, 1, 10, 4 * US, 10 * US, 12 * US, 3);
	tb_rec(b, 0, VL_EV_SEND, VL_TF_MCAST, 3, 2, 10, 4 * US, 10 * US, 14 * US, 3);
	tb_rec(b, 0, VL_EV_SEND, VL_TF_MCAST, 4, 3, 10, 4 * US, 10 * US, 16 * US, 3);
	tb_end(b, 0, 20 * US);
	cp = tb_finish(b);
	ck_path(cp, 0, 20 * US, 14 * US, 6 * US, 0, (const int[]){ 0 }, 1);
	tb_free(b);
}
END_TEST

/* Waiting stays on the path when there is no edge to follow: a receive whose send
 * is not in the sender's trace, a synthetic receive, a group operation. */
START_TEST(test_cp_wait)
{
	tb *b = tb_new();
	const vlpost_critpath *cp;
	tb_task(b, 1, -1, 0);
	tb_task(b, 2, -1, 0);
	tb_begin(b);
	tb_rec(b, 0, VL_EV_RECV, 0, 2, 7, 8, 0, 10 * US, 6 * US, 6 * US);  /* seq 7 not sent */
	tb_rec(b, 0, VL_EV_RECV, VL_TF_SYNTH, 0x7fff0001, 0, 4, 10 * US, 15 * US, 3 * US, 13 * US);
	tb_rec(b, 0, VL_EV_COLL, 0, -1, 0, 0, 15 * US, 20 * US, 4 * US, 2);
	tb_end(b, 0, 20 * US);
	tb_rec(b, 1, VL_EV_SEND, 0, 1, 1, 8, 1 * US, 2 * US, 3 * US, 0);
	tb_end(b, 1, 5 * US);
	cp = tb_finish(b);
	ck_path(cp, 0, 20 * US, 0, 7 * US, 13 * US, (const int[]){ 0 }, 1);
	ck_assert_uint_eq(cp->messages, 0);
	tb_free(b);
}
END_TEST

/* Inconsistent records (a cycle of receives at one instant) stop the walk. */
START_TEST(test_cp_cycle)
{
	tb *b = tb_new();
	const vlpost_critpath *cp;
	tb_task(b, 1, -1, 0);
	tb_task(b, 2, -1, 0);
	tb_begin(b);
	tb_rec(b, 0, VL_EV_RECV, 0, 2, 1, 8, 0, 10 * US, 10 * US, 10 * US);
	tb_rec(b, 0, VL_EV_SEND, 0, 2, 1, 8, 10 * US, 10 * US, 10 * US, 0);
	tb_end(b, 0, 10 * US);
	tb_rec(b, 1, VL_EV_RECV, 0, 1, 1, 8, 0, 10 * US, 10 * US, 10 * US);
	tb_rec(b, 1, VL_EV_SEND, 0, 1, 1, 8, 10 * US, 10 * US, 10 * US, 0);
	tb_end(b, 1, 10 * US);
	cp = tb_finish(b);
	ck_assert_int_eq(cp->cut, 1);
	ck_assert_int_eq(cp->comp + cp->comm + cp->wait, cp->end - cp->start);
	tb_free(b);
}
END_TEST

/* No tasks: no path. */
START_TEST(test_cp_empty)
{
	tb *b = tb_new();
	tb_begin(b);
	ck_assert_int_eq(tb_finish(b)->end_proc, -1);
	tb_free(b);
}
END_TEST

/* ---- printing: every section in every format, --brief only the tasks ---- */
/* Proc 0 (tid 0x10) sends 100 bytes to proc 1 at 0-2 us and ends at 10 us (END:
 * comp 6, comm 2, wait 2 us); proc 1 (0x20) receives it at 1-6 us (waiting 4 us)
 * and ends at 8 us (comp 3, comm 1, wait 4 us). */
static tb *tb_print_set(void)
{
	tb *b = tb_new();
	tb_task(b, 0x10, -1, 0);
	tb_task(b, 0x20, -1, 0);
	tb_begin(b);
	tb_rec(b, 0, VL_EV_SEND, 0, 0x20, 1, 100, 0, 2 * US, 5 * US, 0);
	tb_rec(b, 0, VL_EV_END, 0, 0, 0, 6 * US, 10 * US, 10 * US, 2 * US, 2 * US);
	tb_rec(b, 1, VL_EV_RECV, 0, 0x10, 1, 100, 1 * US, 6 * US, 4 * US, 5 * US);
	tb_rec(b, 1, VL_EV_END, 0, 0, 0, 3 * US, 8 * US, 8 * US, 1 * US, 4 * US);
	tb_finish(b);
	return b;
}

/* The report of b printed in fmt with flags (rep NULL with VLPOST_REP_BRIEF). */
static char *tb_print(tb *b, enum vlpost_fmt fmt, unsigned flags)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(vlpost_report_print(f, b->st, b->n, flags & VLPOST_REP_BRIEF ? NULL : &b->rep,
					  fmt, flags), 0);
	fclose(f);
	return out;
}

#define CSV_TASKS \
	"proc,tid,host,host_name,program,comp_us,comm_us,wait_us,total_us,msgs_sent," \
	"bytes_sent,msgs_recv,bytes_recv,estimated,comm_comp_ratio,commwait_total_ratio," \
	"avg_bytes_sent\n" \
	"0,0x10,0,,,6.000,2.000,2.000,10.000,1,100,0,0,0,0.333333,0.400000,100.000000\n" \
	"1,0x20,0,,,3.000,1.000,4.000,8.000,0,0,1,100,0,0.333333,0.625000,\n"

START_TEST(test_print_csv)
{
	static const char want[] = CSV_TASKS
		"\n"
		"tasks,comp_us,comm_us,wait_us,total_us,msgs_sent,bytes_sent,msgs_recv,bytes_recv,"
		"estimated,comm_comp_ratio,commwait_total_ratio,avg_bytes_sent,mean_msgs_sent,"
		"mean_avg_bytes_sent,tasks_that_sent,max_comm_proc,predicted_elapsed_s\n"
		"2,9.000,3.000,6.000,18.000,1,100,1,100,0,0.333333,0.500000,100.000000,0.500000,"
		"100.000000,1,0,0.000010\n"
		"\n"
		"bucket,size_lo,size_hi,msgs,bytes\n"
		"0,0,0,0,0\n1,1,1,0,0\n2,2,3,0,0\n3,4,7,0,0\n4,8,15,0,0\n5,16,31,0,0\n"
		"6,32,63,0,0\n7,64,127,1,100\n"
		"\n"
		"from,to,to_tid,msgs,bytes\n"
		"0,1,0x20,1,100\n"
		"\n"
		"critical_path_us,start_us,end_us,end_proc,comp_us,comm_us,wait_us,messages,spawns,"
		"cut,procs\n"
		"10.000,0.000,10.000,0,8.000,2.000,0.000,0,0,0,0\n";
	tb *b = tb_print_set();
	char *all = tb_print(b, VLP_FMT_CSV, 0), *brief = tb_print(b, VLP_FMT_CSV, VLPOST_REP_BRIEF);
	ck_assert_str_eq(all, want);
	ck_assert_str_eq(brief, CSV_TASKS);
	free(all);
	free(brief);
	tb_free(b);
}
END_TEST

/* Text: the table, then the four sections (matrix included: 2 tasks); --brief:
 * the table alone, the beginning of the full text.  JSON: --brief drops the
 * histogram, the matrix and the critical path, and keeps the rest. */
START_TEST(test_print_brief)
{
	tb *b = tb_print_set();
	char *all = tb_print(b, VLP_FMT_TEXT, 0), *brief = tb_print(b, VLP_FMT_TEXT, VLPOST_REP_BRIEF);
	char *jall = tb_print(b, VLP_FMT_JSON, 0);
	char *jbrief = tb_print(b, VLP_FMT_JSON, VLPOST_REP_BRIEF);
	static const char *const sections[] = { "\nmessages sent per task", "\nmessage sizes",
						"\nmessages by sender and receiver",
						"\ncritical path: 10.000 us" };
	static const char *const gone[] = { "\"histogram\"", "\"matrix\"", "\"critical_path\"" };
	ck_assert_int_eq(strncmp(all, brief, strlen(brief)), 0);
	ck_assert_ptr_nonnull(strstr(brief, "predicted elapsed time: 0.000010 s\n"));
	for (int i = 0; i < 4; i++) {
		ck_assert_ptr_nonnull(strstr(all + strlen(brief), sections[i]));
		ck_assert_ptr_null(strstr(brief, sections[i]));
	}
	for (int i = 0; i < 3; i++) {
		ck_assert_ptr_nonnull(strstr(jall, gone[i]));
		ck_assert_ptr_null(strstr(jbrief, gone[i]));
	}
	ck_assert_ptr_nonnull(strstr(jbrief, "\"totals\": {\"tasks\": 2, "));
	ck_assert_ptr_nonnull(strstr(jbrief, "\"predicted_elapsed_s\": 0.000010\n}\n"));
	free(all);
	free(brief);
	free(jall);
	free(jbrief);
	tb_free(b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("stats");
	TCase *k = tcase_create("core");
	tcase_add_test(k, test_hist_bucket);
	tcase_add_test(k, test_hist_matrix);
	tcase_add_test(k, test_cp_pingpong);
	tcase_add_test(k, test_cp_spawn);
	tcase_add_test(k, test_cp_mcast);
	tcase_add_test(k, test_cp_wait);
	tcase_add_test(k, test_cp_cycle);
	tcase_add_test(k, test_cp_empty);
	tcase_add_test(k, test_print_csv);
	tcase_add_test(k, test_print_brief);
	suite_add_tcase(s, k);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
