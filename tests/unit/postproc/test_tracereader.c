/* test_tracereader.c - unit tests of the trace reader, the PICL merge and the
 * .trf checker (postproc/). */
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "postproc/stats.h"
#include "postproc/tracereader.h"
#include "postproc/trf.h"

static char tdir[PATH_MAX];

/* ---- fixtures: a fresh temporary trace directory per test ---- */
static void setup(void)
{
	snprintf(tdir, sizeof tdir, "%s/vltrXXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tdir));
}

static void teardown(void)
{
	DIR *d = opendir(tdir);
	struct dirent *e;
	char p[PATH_MAX + 300];
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", tdir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(tdir);
}

/* ---- writing traces ---- */
static FILE *tw_open_name(const char *name, int32_t tid, int64_t start)
{
	char p[PATH_MAX + 64];
	vl_thdr h;
	FILE *f;
	snprintf(p, sizeof p, "%s/%s", tdir, name);
	f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	memset(&h, 0, sizeof h);
	memcpy(h.magic, VL_TRACE_MAGIC, 8);
	h.version = VL_TRACE_VERSION;
	h.hdr_size = sizeof(vl_thdr);
	h.rec_size = sizeof(vl_trec);
	h.tid = tid;
	h.ptid = -1;
	h.start_ns = start;
	snprintf(h.host_name, sizeof h.host_name, "node%d", tid & 0xff);
	snprintf(h.program, sizeof h.program, "prog");
	ck_assert_int_eq(fwrite(&h, sizeof h, 1, f), 1);
	return f;
}

static FILE *tw_open(int32_t tid, int64_t start)
{
	char name[32];
	snprintf(name, sizeof name, "vl-%08x.trc", (unsigned)tid);
	return tw_open_name(name, tid, start);
}

static void tw_rec(FILE *f, int type, unsigned flags, int32_t tag, int32_t peer, uint32_t seq,
		   int64_t bytes, int64_t t0, int64_t t1, int64_t t2, int64_t t3)
{
	vl_trec r = vl_trec_make(type, flags, peer, tag, seq, bytes, t0, t1, t2, t3, 0);

	ck_assert_int_eq(fwrite(&r, sizeof r, 1, f), 1);
}

static void tw_start(FILE *f, int64_t t)
{
	tw_rec(f, VL_EV_START, 0, 0, 0, 0, 0, t, t, 0, 0);
}

static void tw_end(FILE *f, int64_t t)
{
	tw_rec(f, VL_EV_END, 0, 0, 0, 0, 0, t, t, 0, 0);
}

static char *path_of(int32_t tid)
{
	static char p[PATH_MAX + 32];
	snprintf(p, sizeof p, "%s/vl-%08x.trc", tdir, (unsigned)tid);
	return p;
}

/* A finished task with n COMPUTE records of 1 us each. */
static void write_simple(int32_t tid, int n)
{
	FILE *f = tw_open(tid, 0);
	tw_start(f, 0);
	for (int i = 0; i < n; i++)
		tw_rec(f, VL_EV_COMPUTE, 0, 0, 0, 0, 0, i * 1000, (i + 1) * 1000, 0, 0);
	tw_end(f, (int64_t)n * 1000);
	fclose(f);
}

/* Read a whole file: records returned, final return code. */
static int read_all(vlpost_tfile *f, const char *path, size_t bufsize, int keep_open, int *nrec)
{
	vl_trec r;
	int rc;
	*nrec = 0;
	if (vlpost_tfile_open(f, path, bufsize, keep_open) < 0)
		return -2;
	while ((rc = vlpost_tfile_next(f, &r)) == 1)
		(*nrec)++;
	return rc;
}

/* ---- reader ---- */
START_TEST(test_read_good)
{
	vlpost_tfile f;
	int n;
	write_simple(0x40001, 1000);
	ck_assert_int_eq(read_all(&f, path_of(0x40001), 0, 1, &n), 0);
	ck_assert_int_eq(n, 1002);
	ck_assert_int_eq(f.hdr.tid, 0x40001);
	ck_assert_str_eq(f.hdr.host_name, "node1");
	ck_assert_int_eq(f.err, VL_TR_ENONE);
	vlpost_tfile_close(&f);
}
END_TEST

/* small buffers and reopening for every refill give the same records */
START_TEST(test_read_small_buffer)
{
	vlpost_tfile f;
	vl_trec r;
	int n, i = 0;
	write_simple(0x40001, 300);
	ck_assert_int_eq(read_all(&f, path_of(0x40001), 100, 0, &n), 0);
	ck_assert_int_eq(n, 302);
	ck_assert_int_eq(f.cap, 128);
	ck_assert_int_eq(f.fd, -1);
	ck_assert_int_eq(vlpost_tfile_rewind(&f), 0);
	while (vlpost_tfile_next(&f, &r) == 1) {
		if (i > 0 && r.type == VL_EV_COMPUTE)
			ck_assert_int_eq(r.u.v.t0, (i - 1) * 1000);
		i++;
	}
	ck_assert_int_eq(i, 302);
	vlpost_tfile_close(&f);
}
END_TEST

START_TEST(test_read_peek)
{
	vlpost_tfile f;
	vl_trec r, p;
	write_simple(0x40001, 3);
	ck_assert_int_eq(vlpost_tfile_open(&f, path_of(0x40001), 64, 1), 0);
	ck_assert_int_eq(vlpost_tfile_peek(&f, &p), 1);
	ck_assert_int_eq(p.type, VL_EV_START);
	ck_assert_int_eq(vlpost_tfile_next(&f, &r), 1);
	ck_assert_int_eq(r.type, VL_EV_START);
	ck_assert_int_eq(vlpost_tfile_peek(&f, &p), 1);
	ck_assert_int_eq(p.type, VL_EV_COMPUTE);
	ck_assert_int_eq(vlpost_tfile_next(&f, &r), 1);
	ck_assert_int_eq(r.type, VL_EV_COMPUTE);
	vlpost_tfile_close(&f);
}
END_TEST

START_TEST(test_read_truncated)
{
	vlpost_tfile f;
	int n;
	char want[PATH_MAX + 100];
	FILE *w = tw_open(0x40001, 0);
	tw_start(w, 0);
	for (int i = 0; i < 41; i++)
		tw_rec(w, VL_EV_COMPUTE, 0, 0, 0, 0, 0, i, i + 1, 0, 0);
	fwrite("123456789012", 1, 12, w);
	fclose(w);
	ck_assert_int_eq(read_all(&f, path_of(0x40001), 256, 1, &n), -1);
	ck_assert_int_eq(n, 42);
	ck_assert_int_eq(f.err, VL_TR_ETRUNC);
	ck_assert(vlpost_tfile_err_is_partial(&f));
	snprintf(want, sizeof want, "%s: truncated after record 41 (12 stray bytes)",
		 path_of(0x40001));
	ck_assert_str_eq(f.errmsg, want);
	vlpost_tfile_close(&f);
}
END_TEST

START_TEST(test_read_truncated_header_only)
{
	vlpost_tfile f;
	int n;
	FILE *w = tw_open(0x40001, 0);
	fwrite("abc", 1, 3, w);
	fclose(w);
	ck_assert_int_eq(read_all(&f, path_of(0x40001), 0, 1, &n), -1);
	ck_assert_ptr_nonnull(strstr(f.errmsg, "truncated after the header (3 stray bytes)"));
	vlpost_tfile_close(&f);
}
END_TEST

START_TEST(test_read_no_end)
{
	vlpost_tfile f;
	int n;
	FILE *w = tw_open(0x40001, 0);
	tw_start(w, 0);
	tw_rec(w, VL_EV_COMPUTE, 0, 0, 0, 0, 0, 0, 10, 0, 0);
	fclose(w);
	ck_assert_int_eq(read_all(&f, path_of(0x40001), 0, 1, &n), -1);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(f.err, VL_TR_ENOEND);
	ck_assert_ptr_nonnull(strstr(f.errmsg, "vl-00040001.trc: no END record (the task did not finish)"));
	vlpost_tfile_close(&f);
}
END_TEST

START_TEST(test_read_unknown_type)
{
	vlpost_tfile f;
	int n;
	FILE *w = tw_open(0x40001, 0);
	tw_start(w, 0);
	for (int i = 1; i < 17; i++)
		tw_rec(w, VL_EV_COMPUTE, 0, 0, 0, 0, 0, i, i, 0, 0);
	tw_rec(w, 99, 0, 0, 0, 0, 0, 20, 20, 0, 0);
	tw_end(w, 30);
	fclose(w);
	ck_assert_int_eq(read_all(&f, path_of(0x40001), 0, 1, &n), -1);
	ck_assert_int_eq(n, 17);
	ck_assert_int_eq(f.err, VL_TR_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(f.errmsg, "vl-00040001.trc: record 17: unknown type 99"));
	/* sticky */
	ck_assert_int_eq(vlpost_tfile_next(&f, &(vl_trec){ 0 }), -1);
	vlpost_tfile_close(&f);
}
END_TEST

/* one corrupt record after START; its message must contain `want` */
static void corrupt_case(void (*wr)(FILE *), const char *want)
{
	vlpost_tfile f;
	int n;
	FILE *w = tw_open(0x40001, 100);
	tw_start(w, 100);
	wr(w);
	tw_end(w, 1000);
	fclose(w);
	ck_assert_int_eq(read_all(&f, path_of(0x40001), 0, 1, &n), -1);
	ck_assert_int_eq(f.err, VL_TR_ECORRUPT);
	if (!strstr(f.errmsg, want))
		ck_abort_msg("message '%s' lacks '%s'", f.errmsg, want);
	vlpost_tfile_close(&f);
}

static void wr_backwards(FILE *w)
{
	tw_rec(w, VL_EV_COMPUTE, 0, 0, 0, 0, 0, 200, 300, 0, 0);
	tw_rec(w, VL_EV_COMPUTE, 0, 0, 0, 0, 0, 250, 300, 0, 0);
}

static void wr_t1_lt_t0(FILE *w)
{
	tw_rec(w, VL_EV_COMPUTE, 0, 0, 0, 0, 0, 300, 200, 0, 0);
}

static void wr_before_start(FILE *w)
{
	tw_rec(w, VL_EV_COMPUTE, 0, 0, 0, 0, 0, 50, 200, 0, 0);
}

static void wr_after_end(FILE *w)
{
	tw_end(w, 200);
}

static void wr_seq(FILE *w)
{
	tw_rec(w, VL_EV_SEND, 0, 1, 0x40001, 2, 8, 200, 210, 220, 0);
	tw_rec(w, VL_EV_SEND, 0, 1, 0x40001, 2, 8, 210, 220, 230, 0);
}

static void wr_wait(FILE *w)
{
	tw_rec(w, VL_EV_RECV, 0, 1, 0x40001, 1, 8, 200, 210, 11, 0);
}

static void wr_bytes(FILE *w)
{
	tw_rec(w, VL_EV_SEND, 0, 1, 0x40001, 1, -8, 200, 210, 220, 0);
}

static void wr_huge_time(FILE *w)
{
	tw_rec(w, VL_EV_COMPUTE, 0, 0, 0, 0, 0, 200, INT64_MAX, 0, 0);
}

static void wr_start_twice(FILE *w)
{
	tw_start(w, 200);
}

START_TEST(test_read_corrupt)
{
	corrupt_case(wr_backwards, "record 2: begins at 250, before the end of record 1 at 300");
	corrupt_case(wr_t1_lt_t0, "record 1: bad times");
	corrupt_case(wr_before_start, "record 1: time 50 is before the task's start 100");
	corrupt_case(wr_after_end, "record 2: record after END");
	corrupt_case(wr_seq, "record 2: send seq 2 is not after 2");
	corrupt_case(wr_wait, "record 1: waiting 11 outside the call");
	corrupt_case(wr_bytes, "record 1: bad byte count -8");
	corrupt_case(wr_huge_time, "record 1: bad times");
	corrupt_case(wr_start_twice, "record 1: START is not the first record");
}
END_TEST

/* a multicast whose records share one interval is not out of order */
START_TEST(test_read_mcast_shared)
{
	vlpost_tfile f;
	int n;
	FILE *w = tw_open(0x40001, 0);
	tw_start(w, 0);
	for (int i = 0; i < 3; i++)
		tw_rec(w, VL_EV_SEND, VL_TF_MCAST, 1, 0x40002 + i, (uint32_t)i + 1, 8, 10, 20, 30, 3);
	tw_end(w, 100);
	fclose(w);
	ck_assert_int_eq(read_all(&f, path_of(0x40001), 0, 1, &n), 0);
	ck_assert_int_eq(n, 5);
	vlpost_tfile_close(&f);
}
END_TEST

/* A nonblocking collective's record: since 2026-11-27 it spans the call that
 * completed it (VL_TF_NB, t4 its start); an older one began at its start,
 * inside the records after it, and the reader rejected the whole trace:
 * now it reads it as a new one.  A start outside the task is corrupt. */
static void write_nbcoll(int form)
{
	FILE *w = tw_open(0x40001, 100);
	vl_trec r;

	tw_start(w, 100);
	tw_rec(w, VL_EV_COMPUTE, 0, 0, 0, 0, 0, 150, 400, 0, 0);
	if (form == 0) /* new: completed in a call at 400 .. 700, started at 120 */
		r = vl_trec_make(VL_EV_COLL, VL_TF_NB, -1, VL_COLL_MPI + VL_KIND_ALLREDUCE, 0, 64,
				 400, 700, 300, 4, 120);
	else if (form == 1) /* old: from its start, waiting 500 (the simulated) */
		r = vl_trec_make(VL_EV_COLL, 0, -1, VL_COLL_MPI + VL_KIND_ALLREDUCE, 0, 64, 120,
				 700, 500, 4, 0);
	else /* new, started before the task */
		r = vl_trec_make(VL_EV_COLL, VL_TF_NB, -1, VL_COLL_MPI + VL_KIND_ALLREDUCE, 0, 64,
				 400, 700, 300, 4, 50);
	ck_assert_int_eq(fwrite(&r, sizeof r, 1, w), 1);
	tw_end(w, 700);
	fclose(w);
}

START_TEST(test_read_nbcoll)
{
	vlpost_tfile f;
	vl_trec r;
	int form, i;

	for (form = 0; form < 2; form++) {
		write_nbcoll(form);
		ck_assert_int_eq(vlpost_tfile_open(&f, path_of(0x40001), 0, 1), 0);
		for (i = 0; i < 3; i++)
			ck_assert_int_eq(vlpost_tfile_next(&f, &r), 1);
		ck_assert_int_eq(r.type, VL_EV_COLL);
		ck_assert_uint_eq(r.flags & VL_TF_NB, VL_TF_NB);
		ck_assert_int_eq(r.u.v.t0, 400);
		ck_assert_int_eq(r.u.v.t1, 700);
		ck_assert_int_eq(r.u.v.t2, 300); /* (old: cut to the call) */
		ck_assert_int_eq(r.u.v.t3, 4);
		ck_assert_int_eq(r.u.v.t4, 120);
		ck_assert_int_eq(vlpost_tfile_next(&f, &r), 1);
		ck_assert_int_eq(r.type, VL_EV_END);
		ck_assert_int_eq(vlpost_tfile_next(&f, &r), 0);
		vlpost_tfile_close(&f);
	}
	/* its start: a VL_EV_ICOLL without duration, with a key */
	for (form = 0; form < 3; form++) {
		FILE *w = tw_open(0x40001, 100);

		tw_start(w, 100);
		tw_rec(w, VL_EV_ICOLL, VL_TF_SHARED, VL_COLL_MPI + VL_KIND_BCAST, 0,
		       form == 2 ? 0 : 1, 64, 120, form == 1 ? 130 : 120, 0, 4);
		tw_end(w, 700);
		fclose(w);
		ck_assert_int_eq(vlpost_tfile_open(&f, path_of(0x40001), 0, 1), 0);
		while (vlpost_tfile_next(&f, &r) == 1)
			;
		if (form == 0) {
			ck_assert_int_eq(f.err, VL_TR_ENONE);
		} else {
			ck_assert_int_eq(f.err, VL_TR_ECORRUPT);
			if (!strstr(f.errmsg, "record 1: a nonblocking collective's start"))
				ck_abort_msg("message '%s'", f.errmsg);
		}
		vlpost_tfile_close(&f);
	}
	write_nbcoll(2);
	ck_assert_int_eq(vlpost_tfile_open(&f, path_of(0x40001), 0, 1), 0);
	while (vlpost_tfile_next(&f, &r) == 1)
		;
	ck_assert_int_eq(f.err, VL_TR_ECORRUPT);
	if (!strstr(f.errmsg, "record 2: nonblocking collective started at 50"))
		ck_abort_msg("message '%s'", f.errmsg);
	vlpost_tfile_close(&f);
}
END_TEST

static void bad_header(size_t off, const void *val, size_t len, const char *want)
{
	vlpost_tfile f;
	int n;
	FILE *w = tw_open(0x40001, 0);
	tw_start(w, 0);
	tw_end(w, 10);
	fseek(w, (long)off, SEEK_SET);
	fwrite(val, 1, len, w);
	fclose(w);
	ck_assert_int_eq(read_all(&f, path_of(0x40001), 0, 1, &n), -2);
	ck_assert_int_eq(f.err, VL_TR_EHDR);
	if (!strstr(f.errmsg, want))
		ck_abort_msg("message '%s' lacks '%s'", f.errmsg, want);
	ck_assert_int_eq(vlpost_tfile_rewind(&f), -1);
	vlpost_tfile_close(&f);
}

START_TEST(test_read_bad_headers)
{
	uint32_t v2 = 2, s300 = 300, s32 = 32;
	int64_t neg = -5;
	bad_header(0, "VLTRACE2", 8, "not a vlayer trace (bad magic)");
	bad_header(8, &v2, 4, "unsupported trace version 2 (expected 1)");
	bad_header(12, &s300, 4, "header size 300 (expected 256)");
	bad_header(16, &s32, 4, "record size 32 (expected 64)");
	bad_header(32, &neg, 8, "bad start time -5");
}
END_TEST

START_TEST(test_read_short_header)
{
	vlpost_tfile f;
	char p[PATH_MAX + 32];
	FILE *w;
	snprintf(p, sizeof p, "%s/vl-00000001.trc", tdir);
	w = fopen(p, "wb");
	fwrite(VL_TRACE_MAGIC, 1, 8, w);
	fclose(w);
	ck_assert_int_eq(vlpost_tfile_open(&f, p, 0, 1), -1);
	ck_assert_ptr_nonnull(strstr(f.errmsg, "truncated header (8 of 256 bytes)"));
	vlpost_tfile_close(&f);
	ck_assert_int_eq(vlpost_tfile_open(&f, "/nonexistent/vl-00000001.trc", 0, 1), -1);
	ck_assert_int_eq(f.err, VL_TR_EIO);
	vlpost_tfile_close(&f);
}
END_TEST

START_TEST(test_read_printable_names)
{
	vlpost_tfile f;
	FILE *w = tw_open(0x40001, 0);
	int n;
	tw_start(w, 0);
	tw_end(w, 1);
	fseek(w, 40, SEEK_SET); /* host_name */
	fwrite("a\tb\001cdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmn", 1, 64, w);
	fclose(w);
	ck_assert_int_eq(read_all(&f, path_of(0x40001), 0, 1, &n), 0);
	ck_assert_int_eq(strlen(f.hdr.host_name), 63);
	ck_assert_int_eq(f.hdr.host_name[1], '?');
	ck_assert_int_eq(f.hdr.host_name[3], '?');
	vlpost_tfile_close(&f);
}
END_TEST

/* ---- trace sets ---- */
START_TEST(test_tset_order)
{
	vlpost_tset s;
	char err[512];
	FILE *w;
	int32_t tids[4] = { 0x40003, 0x40001, 0x40004, 0x40002 };
	int64_t starts[4] = { 0, 5000, 0, 0 };
	for (int i = 0; i < 4; i++) {
		w = tw_open(tids[i], starts[i]);
		tw_start(w, starts[i]);
		tw_end(w, 10000);
		fclose(w);
	}
	w = fopen(path_of(0x40005), "w"); /* not a trace: a bad header */
	fputs("junk", w);
	fclose(w);
	w = tw_open_name("notes.txt", 0x40009, 0); /* ignored: not a trace name */
	fclose(w);
	ck_assert_int_eq(vlpost_tset_open(&s, tdir, 0, NULL, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "vl-00040005.trc: truncated header"));
	vlpost_tset_close(&s);
	ck_assert_int_eq(vlpost_tset_open(&s, tdir, VLPOST_TSET_SKIPBAD, NULL, err, sizeof err), 0);
	ck_assert_int_eq(s.n, 4);
	ck_assert_int_eq(s.f[0].hdr.tid, 0x40002);
	ck_assert_int_eq(s.f[1].hdr.tid, 0x40003);
	ck_assert_int_eq(s.f[2].hdr.tid, 0x40004);
	ck_assert_int_eq(s.f[3].hdr.tid, 0x40001);
	ck_assert_int_eq(vlpost_tset_find(&s, 0x40001), 3);
	ck_assert_int_eq(vlpost_tset_find(&s, 0x40004), 2);
	ck_assert_int_eq(vlpost_tset_find(&s, 0x40005), -1);
	vlpost_tset_close(&s);
}
END_TEST

START_TEST(test_tset_errors)
{
	vlpost_tset s;
	char err[512];
	FILE *w;
	ck_assert_int_eq(vlpost_tset_open(&s, tdir, 0, NULL, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "no trace files"));
	vlpost_tset_close(&s);
	ck_assert_int_eq(vlpost_tset_open(&s, "/nonexistent-dir", 0, NULL, err, sizeof err), -1);
	vlpost_tset_close(&s);
	write_simple(0x40001, 1);
	w = tw_open_name("vl-00000099.trc", 0x40001, 0);
	fclose(w);
	ck_assert_int_eq(vlpost_tset_open(&s, tdir, 0, NULL, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "same task id 0x40001"));
	vlpost_tset_close(&s);
}
END_TEST

/* ---- conversion ---- */
/* Convert tdir; returns vlpost_trf_write's result, output in *out (free it). */
static int convert(int partial, char **out, char *err, size_t errlen, vlpost_tstats **pst, int *n)
{
	vlpost_tset s;
	vlpost_trf_opt opt = { partial, NULL };
	size_t len;
	FILE *f = open_memstream(out, &len);
	vlpost_tstats *st;
	int rc;
	ck_assert_int_eq(vlpost_tset_open(&s, tdir, partial ? VLPOST_TSET_SKIPBAD : 0, NULL, err, errlen), 0);
	st = calloc((size_t)s.n, sizeof *st);
	rc = vlpost_trf_write(&s, f, &opt, st, err, errlen);
	fclose(f);
	if (n)
		*n = s.n;
	if (pst)
		*pst = st;
	else
		free(st);
	vlpost_tset_close(&s);
	return rc;
}

static int check_text(const char *text, vlpost_check_res *res, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc = vlpost_trf_check(f, res, err, errlen);
	fclose(f);
	return rc;
}

static const char pingpong_trf[] =
	"-3 -901 0.000000 0 0 0\n"
	"-3 -901 0.000000 1 0 0\n"
	"-3 -21 0.000010 0 0 3 2 1024 7 1\n"
	"-3 -52 0.000011 1 0 2 2 7 0\n"
	"-4 -21 0.000012 0 0 0\n"
	"-4 -52 0.000015 1 0 3 2 1024 7 0\n"
	"-4 -901 0.000020 0 0 0\n"
	"-4 -901 0.000020 1 0 0\n";

START_TEST(test_trf_pingpong)
{
	char *out, err[512];
	vlpost_tstats *st;
	FILE *a = tw_open(0x40001, 0), *b = tw_open(0x40002, 0);
	tw_start(a, 0);
	tw_rec(a, VL_EV_SEND, 0, 7, 0x40002, 1, 1024, 10000, 12000, 15000, 0);
	tw_rec(a, VL_EV_END, 0, 0, 0, 0, 18000, 20000, 20000, 2000, 0);
	tw_start(b, 0);
	tw_rec(b, VL_EV_RECV, 0, 7, 0x40001, 1, 1024, 11000, 15000, 4000, 15000);
	tw_end(b, 20000);
	fclose(a);
	fclose(b);
	ck_assert_int_eq(convert(0, &out, err, sizeof err, &st, NULL), 0);
	ck_assert_str_eq(out, pingpong_trf);
	ck_assert_int_eq(st[0].comp, 18000);
	ck_assert_int_eq(st[0].nsent, 1);
	ck_assert_int_eq(st[1].brecv, 1024);
	ck_assert_int_eq(vlpost_stats_elapsed(st, 2), 20000);
	free(out);
	free(st);
}
END_TEST

/* equal times: by processor, then each processor's own order; rounding to us */
START_TEST(test_trf_ties)
{
	char *out, err[512];
	FILE *a = tw_open(0x40002, 0), *b = tw_open(0x40001, 0);
	tw_start(a, 0);
	tw_rec(a, VL_EV_MARK, 0, 0, 5, 0, 0, 1000, 1000, 0, 0);
	tw_rec(a, VL_EV_MARK, 0, 0, 6, 0, 0, 1000, 1000, 0, 0);
	tw_rec(a, VL_EV_MARK, 0, 0, 7, 0, 0, 2499, 2499, 0, 0);
	tw_end(a, 3000);
	tw_start(b, 0);
	tw_rec(b, VL_EV_MARK, 0, 0, 1, 0, 0, 1000, 1000, 0, 0);
	tw_rec(b, VL_EV_MARK, 0, 0, 2, 0, 0, 2500, 2500, 0, 0);
	tw_end(b, 3000);
	fclose(a);
	fclose(b);
	ck_assert_int_eq(convert(0, &out, err, sizeof err, NULL, NULL), 0);
	ck_assert_str_eq(out, "-3 -901 0.000000 0 0 0\n"
			      "-3 -901 0.000000 1 0 0\n"
			      "-3 1 0.000001 0 0 0\n"
			      "-4 1 0.000001 0 0 0\n"
			      "-3 5 0.000001 1 0 0\n"
			      "-4 5 0.000001 1 0 0\n"
			      "-3 6 0.000001 1 0 0\n"
			      "-4 6 0.000001 1 0 0\n"
			      "-3 7 0.000002 1 0 0\n"
			      "-4 7 0.000002 1 0 0\n"
			      "-3 2 0.000003 0 0 0\n"
			      "-4 2 0.000003 0 0 0\n"
			      "-4 -901 0.000003 0 0 0\n"
			      "-4 -901 0.000003 1 0 0\n");
	free(out);
}
END_TEST

/* a receive on processor 0 ending at the very time processor 1 begins the send */
START_TEST(test_trf_same_time_send)
{
	char *out, err[512];
	vlpost_check_res res;
	FILE *a = tw_open(0x40001, 0), *b = tw_open(0x40002, 0);
	tw_start(a, 0);
	tw_rec(a, VL_EV_RECV, 0, 1, 0x40002, 1, 4, 1000, 5000, 4000, 5000);
	tw_end(a, 9000);
	tw_start(b, 0);
	tw_rec(b, VL_EV_SEND, 0, 1, 0x40001, 1, 4, 5000, 6000, 5000, 0);
	tw_end(b, 9000);
	fclose(a);
	fclose(b);
	ck_assert_int_eq(convert(0, &out, err, sizeof err, NULL, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "-4 -52 0.000005 0 0 3 2 4 1 1\n-3 -21 0.000005 1"));
	ck_assert_int_eq(check_text(out, &res, err, sizeof err), 0);
	free(out);
}
END_TEST

START_TEST(test_trf_tachyon)
{
	char *out, err[512];
	FILE *a = tw_open(0x40001, 0), *b = tw_open(0x40002, 0);
	tw_start(a, 0);
	tw_rec(a, VL_EV_RECV, 0, 1, 0x40002, 1, 4, 1000, 5000, 4000, 5000);
	tw_end(a, 9000);
	tw_start(b, 0);
	tw_rec(b, VL_EV_SEND, 0, 1, 0x40001, 1, 4, 5001, 6000, 5000, 0);
	tw_end(b, 9000);
	fclose(a);
	fclose(b);
	ck_assert_int_eq(convert(0, &out, err, sizeof err, NULL, NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "tachyon: "));
	ck_assert_ptr_nonnull(strstr(err, "vl-00040001.trc record 1 ends a receive at 0.000005 s"));
	ck_assert_ptr_nonnull(strstr(err, "vl-00040002.trc record 1 begins its send at 0.000005 s"));
	free(out);
	ck_assert_int_eq(convert(1, &out, err, sizeof err, NULL, NULL), 0);
	free(out);
}
END_TEST

START_TEST(test_trf_missing_sender)
{
	char *out, err[512];
	FILE *a = tw_open(0x40001, 0), *b = tw_open(0x40002, 0);
	tw_start(a, 0);
	tw_rec(a, VL_EV_RECV, 0, 1, 0x40002, 3, 4, 1000, 5000, 4000, 5000);
	tw_rec(a, VL_EV_RECV, 0, 1, 0x40077, 1, 4, 5000, 6000, 0, 5000);
	tw_end(a, 9000);
	tw_start(b, 0);
	tw_rec(b, VL_EV_SEND, 0, 1, 0x40001, 1, 4, 100, 200, 300, 0);
	tw_end(b, 300);
	fclose(a);
	fclose(b);
	ck_assert_int_eq(convert(0, &out, err, sizeof err, NULL, NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "receives message 3 of task 0x40002, which"));
	free(out);
	/* --partial: both receives become idle / overhead blocks, output valid */
	ck_assert_int_eq(convert(1, &out, err, sizeof err, NULL, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "-3 -601 0.000001 0 0 0\n"));
	ck_assert_ptr_nonnull(strstr(out, "-3 -603 0.000005 0 0 0\n"));
	free(out);
}
END_TEST

START_TEST(test_trf_partial)
{
	char *out, err[512];
	vlpost_tstats *st;
	vlpost_check_res res;
	FILE *a = tw_open(0x40001, 0), *b = tw_open(0x40002, 0);
	tw_start(a, 0);
	tw_rec(a, VL_EV_SEND, 0, 1, 0x40002, 1, 4, 100, 200, 300, 0);
	tw_rec(a, VL_EV_COMPUTE, 0, 0, 0, 0, 0, 200, 900, 0, 0);
	fwrite("xx", 1, 2, a);
	tw_start(b, 0);
	tw_rec(b, VL_EV_RECV, 0, 1, 0x40001, 1, 4, 100, 400, 150, 300);
	tw_rec(b, 42, 0, 1, 0x40001, 1, 4, 400, 500, 0, 0);
	tw_end(b, 900);
	fclose(a);
	fclose(b);
	ck_assert_int_eq(convert(0, &out, err, sizeof err, NULL, NULL), -1);
	free(out);
	ck_assert_int_eq(convert(1, &out, err, sizeof err, &st, NULL), 0);
	ck_assert_str_eq(out, "-3 -901 0.000000 0 0 0\n"
			      "-3 -901 0.000000 1 0 0\n"
			      "-3 -21 0.000000 0 0 3 2 4 1 1\n"
			      "-3 -52 0.000000 1 0 2 2 1 0\n"
			      "-4 -21 0.000000 0 0 0\n"
			      "-4 -52 0.000000 1 0 3 2 4 1 0\n"
			      "-4 -901 0.000000 1 0 0\n"
			      "-4 -901 0.000001 0 0 0\n");
	ck_assert_int_eq(check_text(out, &res, err, sizeof err), 0);
	ck_assert_int_eq(st[0].has_end, 0);
	ck_assert_int_eq(st[0].end, 900);
	ck_assert_int_eq(st[0].comm, 100);
	ck_assert_int_eq(st[0].comp, 800);
	ck_assert_int_eq(st[1].wait, 150);
	free(out);
	free(st);
}
END_TEST

/* shared multicast interval split in equal parts; untraced destination = -603 */
START_TEST(test_trf_mcast_split)
{
	char *out, err[512];
	FILE *a = tw_open(0x40001, 0);
	tw_start(a, 0);
	tw_rec(a, VL_EV_SEND, VL_TF_MCAST, 1, 0x40001, 1, 8, 3000, 6000, 7000, 3);
	tw_rec(a, VL_EV_SEND, VL_TF_MCAST, 1, 0x50000, 2, 8, 3000, 6000, 7000, 3);
	tw_rec(a, VL_EV_SEND, VL_TF_MCAST, 1, 0x40001, 3, 8, 3000, 6000, 7000, 3);
	tw_rec(a, VL_EV_RECV, 0, 1, 0x40001, 1, 8, 7000, 8000, 0, 7000);
	tw_rec(a, VL_EV_RECV, 0, 1, 0x40001, 3, 8, 8000, 9000, 0, 7000);
	tw_end(a, 9000);
	fclose(a);
	ck_assert_int_eq(convert(0, &out, err, sizeof err, NULL, NULL), 0);
	ck_assert_str_eq(out, "-3 -901 0.000000 0 0 0\n"
			      "-3 -21 0.000003 0 0 3 2 8 1 0\n"
			      "-4 -21 0.000004 0 0 0\n"
			      "-3 -603 0.000004 0 0 0\n"
			      "-4 -603 0.000005 0 0 0\n"
			      "-3 -21 0.000005 0 0 3 2 8 1 0\n"
			      "-4 -21 0.000006 0 0 0\n"
			      "-3 -51 0.000007 0 0 2 2 1 0\n"
			      "-4 -51 0.000008 0 0 3 2 8 1 0\n"
			      "-3 -51 0.000008 0 0 2 2 1 0\n"
			      "-4 -51 0.000009 0 0 3 2 8 1 0\n"
			      "-4 -901 0.000009 0 0 0\n");
	free(out);
}
END_TEST

/* Random consistent runs: rounds in which task i sends to i+r and receives
 * from i-r; times on a 1 us grid so that ties are frequent. */
static void random_run(unsigned seed, int ntask, int rounds)
{
	int64_t *clk = calloc((size_t)ntask, sizeof *clk), *arr = calloc((size_t)ntask, sizeof *arr);
	FILE **f = calloc((size_t)ntask, sizeof *f);
	uint32_t *seq = calloc((size_t)ntask, sizeof *seq);
	srand(seed);
	for (int i = 0; i < ntask; i++) {
		clk[i] = (rand() % 3) * 1000;
		f[i] = tw_open(0x40000 + i, clk[i]);
		tw_start(f[i], clk[i]);
	}
	for (int r = 1; r <= rounds; r++) {
		int d = (r % ntask) ? (r % ntask) : 1;
		for (int i = 0; i < ntask; i++) {
			int64_t t1 = clk[i] + (rand() % 3) * 1000;
			arr[(i + d) % ntask] = t1 + (rand() % 4) * 1000;
			tw_rec(f[i], VL_EV_SEND, 0, r % 5, 0x40000 + (i + d) % ntask, ++seq[i],
			       r, clk[i], t1, arr[(i + d) % ntask], 0);
			clk[i] = t1;
		}
		for (int i = 0; i < ntask; i++) {
			int src = (i - d + ntask) % ntask;
			int64_t t0 = clk[i] + (rand() % 2) * 1000, w = arr[i] > t0 ? arr[i] - t0 : 0;
			int64_t t1 = t0 + w + (rand() % 2) * 1000;
			tw_rec(f[i], VL_EV_RECV, 0, r % 5, 0x40000 + src, seq[src], r, t0, t1, w,
			       arr[i]);
			clk[i] = t1;
			if (rand() % 4 == 0)
				tw_rec(f[i], VL_EV_MARK, 0, 0, r % 3, 0, 0, t1, t1, 0, 0);
		}
	}
	for (int i = 0; i < ntask; i++) {
		tw_end(f[i], clk[i]);
		fclose(f[i]);
	}
	free(clk);
	free(arr);
	free(f);
	free(seq);
}

/* The output is sorted by (time, processor), balanced, and passes the checker. */
START_TEST(test_trf_random_sorted)
{
	char *out, err[512], *line, *save = NULL;
	vlpost_check_res res;
	int n;
	long long pt = -1, pp = -1, lines = 0;
	random_run(1234u + (unsigned)_i, 7, 60);
	ck_assert_int_eq(convert(0, &out, err, sizeof err, NULL, &n), 0);
	ck_assert_int_eq(check_text(out, &res, err, sizeof err), 0);
	ck_assert_int_eq(res.procs, 7);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long rt, ev, p;
		double t;
		long long us;
		ck_assert_int_eq(sscanf(line, "%ld %ld %lf %ld", &rt, &ev, &t, &p), 4);
		us = (long long)(t * 1e6 + 0.5);
		ck_assert(us > pt || (us == pt && p >= pp));
		pt = us;
		pp = p;
		lines++;
	}
	ck_assert_int_eq(lines, (long long)res.records);
	free(out);
}
END_TEST

/* ---- stats ---- */
/* A scatterv's blocks on its root's trace (VL_EV_BLOCKS): read as written;
 * with a duration, a first member not a multiple of 4, a count out of 1..4
 * or a negative block, the file is corrupt at that record */
START_TEST(test_read_blocks)
{
	vlpost_tfile f;
	vl_trec r;
	int form;

	for (form = 0; form < 5; form++) {
		FILE *w = tw_open(0x40002, 100);

		tw_start(w, 100);
		tw_rec(w, VL_EV_COLL, VL_TF_V, VL_COLL_MPI + VL_KIND_SCATTER, 0, 0, 8, 120, 300, 0, 5);
		tw_rec(w, VL_EV_BLOCKS, 0, 4, 0, 0, 8, 300, 300, 16, 24);
		tw_rec(w, VL_EV_BLOCKS, 0, form == 3 ? 5 : 1, form == 2 ? 5 : 4, 0,
		       form == 4 ? -1 : 40, 300, form == 1 ? 310 : 300, 0, 0);
		tw_end(w, 700);
		fclose(w);
		ck_assert_int_eq(vlpost_tfile_open(&f, path_of(0x40002), 0, 1), 0);
		if (form == 0) {
			ck_assert_int_eq(vlpost_tfile_next(&f, &r), 1);
			ck_assert_int_eq(vlpost_tfile_next(&f, &r), 1);
			ck_assert_int_eq(vlpost_tfile_next(&f, &r), 1);
			ck_assert_int_eq(r.type, VL_EV_BLOCKS);
			ck_assert_int_eq(r.peer, 0);
			ck_assert_int_eq(r.tag, 4);
			ck_assert(r.u.v.bytes == 8 && r.u.v.t2 == 16 && r.u.v.t3 == 24);
			ck_assert_int_eq(vlpost_tfile_next(&f, &r), 1);
			ck_assert(r.peer == 4 && r.tag == 1 && r.u.v.bytes == 40);
			ck_assert_int_eq(vlpost_tfile_next(&f, &r), 1);
			ck_assert_int_eq(r.type, VL_EV_END);
			ck_assert_int_eq(f.err, VL_TR_ENONE);
		} else {
			while (vlpost_tfile_next(&f, &r) == 1)
				;
			ck_assert_int_eq(f.err, VL_TR_ECORRUPT);
			if (!strstr(f.errmsg, "record 3:"))
				ck_abort_msg("form %d: message '%s'", form, f.errmsg);
		}
		vlpost_tfile_close(&f);
	}
}
END_TEST

START_TEST(test_stats_collect_print)
{
	vlpost_tset s;
	vlpost_tstats st[2];
	char err[512], *out;
	size_t len;
	FILE *f, *a = tw_open(0x40001, 0), *b = tw_open(0x40002, 1000);
	tw_start(a, 0);
	tw_rec(a, VL_EV_SEND, 0, 1, 0x40002, 1, 100, 1000, 3000, 4000, 0);
	tw_rec(a, VL_EV_END, 0, 0, 0, 0, 7000, 10000, 10000, 2000, 1000);
	tw_start(b, 1000);
	tw_rec(b, VL_EV_RECV, 0, 1, 0x40001, 1, 100, 2000, 4500, 2000, 4000);
	fclose(a);
	fclose(b);
	ck_assert_int_eq(vlpost_tset_open(&s, tdir, 0, NULL, err, sizeof err), 0);
	ck_assert_int_eq(vlpost_stats_collect(&s, st, NULL, err, sizeof err), 0);
	ck_assert_int_eq(st[1].has_end, 0);
	ck_assert_int_eq(st[1].end, 4500);
	ck_assert_int_eq(st[1].wait, 2000);
	ck_assert_int_eq(st[1].comm, 500);
	ck_assert_int_eq(st[1].comp, 1000);
	f = open_memstream(&out, &len);
	ck_assert_int_eq(vlpost_stats_print(f, st, 2, 0), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "predicted elapsed time: 0.000010 s\n"));
	ck_assert_ptr_nonnull(strstr(out, "  2.000*"));
	ck_assert_ptr_nonnull(strstr(out, "* no END record"));
	free(out);
	f = open_memstream(&out, &len);
	ck_assert_int_eq(vlpost_stats_print(f, st, 2, 1), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "\n0,0x40001,0,node1,prog,7.000,2.000,1.000,10.000,1,100,0,0,0\n"));
	ck_assert_ptr_nonnull(strstr(out, "\n1,0x40002,0,node2,prog,1.000,0.500,2.000,3.500,0,0,1,100,1\n"));
	free(out);
	vlpost_tset_close(&s);
}
END_TEST

START_TEST(test_fmt_sec)
{
	char b[32];
	vlpost_fmt_sec(b, 0);
	ck_assert_str_eq(b, "0.000000");
	vlpost_fmt_sec(b, 499);
	ck_assert_str_eq(b, "0.000000");
	vlpost_fmt_sec(b, 500);
	ck_assert_str_eq(b, "0.000001");
	vlpost_fmt_sec(b, 1234567890123);
	ck_assert_str_eq(b, "1234.567890");
}
END_TEST

/* ---- checker ---- */
static void check_bad(const char *text, uint64_t line, const char *want)
{
	vlpost_check_res res;
	char err[512];
	ck_assert_int_eq(check_text(text, &res, err, sizeof err), 1);
	if (!strstr(err, want) || res.line != line)
		ck_abort_msg("line %llu '%s', expected line %llu '%s'", (unsigned long long)res.line,
			     err, (unsigned long long)line, want);
}

START_TEST(test_check_good)
{
	vlpost_check_res res;
	char err[512];
	ck_assert_int_eq(check_text(pingpong_trf, &res, err, sizeof err), 0);
	ck_assert_int_eq(res.records, 8);
	ck_assert_int_eq(res.procs, 2);
	/* MPICL's "0 2" on user events, tabs, no final newline */
	ck_assert_int_eq(check_text("-3 -901 0.0 0 0 0\n-3 5 0.1 0 0 0 2\n"
				    "-4\t5 0.2 0 0 0\n-4 -901 0.3 0 0 0", &res, err, sizeof err), 0);
}
END_TEST

START_TEST(test_check_errors)
{
	check_bad("-3 -901 0.000002 0 0 0\n-4 -901 0.000001 0 0 0\n", 2,
		  "time goes backwards (0.000001 after 0.000002)");
	check_bad("-3 -21 0.0 0 0 3 2 1 1 0\n", 1, "first record is not -3 -901");
	check_bad("-3 -901 0.0 0 0 0\n-3 -21 0.1 0 0 0\n-4 -901 0.2 0 0 0\n", 2,
		  "message record needs 3 data values");
	check_bad("-3 -901 0.0 0 0 0\n-3 7 0.1 0 0 0\n-4 -901 0.2 0 0 0\n", 3,
		  "-4 -901 does not close -3 7 of line 2");
	check_bad("-3 -901 0.0 0 0 0\n-4 7 0.1 0 0 0\n", 2, "-4 7 does not close -3 -901 of line 1");
	check_bad("-3 -901 0.0 0 0 0\n-3 7 0.1 0 0 0\n", 2, "processor 0: no -4 -901 at its end");
	check_bad("-3 -901 0.0 0 0 0\n-4 -901 0.1 0 0 0\n-3 1 0.2 0 0 0\n", 3,
		  "record after -4 -901");
	check_bad("-3 -901 0.0 1 0 0\n-4 -901 0.1 1 0 0\n", 2, "processor 0 has no records");
	check_bad("-3 -901 x 0 0 0\n", 1, "syntax");
	check_bad("-3 -901 0.0 0 0 1 2\n", 1, "expected 1 integer data values");
	check_bad("-3 -901 0.0 0 0 1 3 5\n", 1, "data type must be 2");
	check_bad("-3 -901 0.0 0 0 0 2 9\n", 1, "extra fields");
	check_bad("-7 -901 0.0 0 0 0\n", 1, "unsupported record type -7");
	check_bad("\n", 1, "empty line");
	check_bad("", 0, "no records");
	/* receive end before the send begin of its channel */
	check_bad("-3 -901 0.0 0 0 0\n-3 -901 0.0 1 0 0\n"
		  "-3 -52 0.1 1 0 2 2 7 0\n-4 -52 0.2 1 0 3 2 8 7 0\n"
		  "-3 -21 0.3 0 0 3 2 8 7 1\n-4 -21 0.4 0 0 0\n"
		  "-4 -901 0.5 0 0 0\n-4 -901 0.5 1 0 0\n", 4,
		  "receive end before any matching send begin (source 0, destination 1, tag 7)");
	/* a send of another tag does not match */
	check_bad("-3 -901 0.0 0 0 0\n-3 -901 0.0 1 0 0\n"
		  "-3 -21 0.1 0 0 3 2 8 6 1\n-4 -21 0.1 0 0 0\n"
		  "-3 -52 0.1 1 0 2 2 7 0\n-4 -52 0.2 1 0 3 2 8 7 0\n"
		  "-4 -901 0.5 0 0 0\n-4 -901 0.5 1 0 0\n", 6, "receive end before any matching");
	check_bad("-3 -901 0.0 0 0 0\n-3 -21 0.1 0 0 3 2 8 6 3\n-4 -21 0.1 0 0 0\n"
		  "-4 -901 0.5 0 0 0\n", 2, "message names processor 3");
}
END_TEST

/* the send begin may follow the receive end in the file at the same time */
START_TEST(test_check_same_time)
{
	vlpost_check_res res;
	char err[512];
	ck_assert_int_eq(check_text("-3 -901 0.0 0 0 0\n-3 -901 0.0 1 0 0\n"
				    "-3 -52 0.1 0 0 2 2 7 1\n-4 -52 0.2 0 0 3 2 8 7 1\n"
				    "-3 -21 0.2 1 0 3 2 8 7 0\n-4 -21 0.3 1 0 0\n"
				    "-4 -901 0.5 0 0 0\n-4 -901 0.5 1 0 0\n",
				    &res, err, sizeof err), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tracereader");
	TCase *r = tcase_create("reader"), *c = tcase_create("trf"), *k = tcase_create("check");
	tcase_add_checked_fixture(r, setup, teardown);
	tcase_add_checked_fixture(c, setup, teardown);
	tcase_add_test(r, test_read_good);
	tcase_add_test(r, test_read_small_buffer);
	tcase_add_test(r, test_read_peek);
	tcase_add_test(r, test_read_truncated);
	tcase_add_test(r, test_read_truncated_header_only);
	tcase_add_test(r, test_read_no_end);
	tcase_add_test(r, test_read_unknown_type);
	tcase_add_test(r, test_read_corrupt);
	tcase_add_test(r, test_read_mcast_shared);
	tcase_add_test(r, test_read_nbcoll);
	tcase_add_test(r, test_read_blocks);
	tcase_add_test(r, test_read_bad_headers);
	tcase_add_test(r, test_read_short_header);
	tcase_add_test(r, test_read_printable_names);
	tcase_add_test(r, test_tset_order);
	tcase_add_test(r, test_tset_errors);
	tcase_add_test(c, test_trf_pingpong);
	tcase_add_test(c, test_trf_ties);
	tcase_add_test(c, test_trf_same_time_send);
	tcase_add_test(c, test_trf_tachyon);
	tcase_add_test(c, test_trf_missing_sender);
	tcase_add_test(c, test_trf_partial);
	tcase_add_test(c, test_trf_mcast_split);
	tcase_add_loop_test(c, test_trf_random_sorted, 0, 5);
	tcase_add_test(c, test_stats_collect_print);
	tcase_add_test(k, test_fmt_sec);
	tcase_add_test(k, test_check_good);
	tcase_add_test(k, test_check_errors);
	tcase_add_test(k, test_check_same_time);
	suite_add_tcase(s, r);
	suite_add_tcase(s, c);
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
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
