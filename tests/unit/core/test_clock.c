/* test_clock.c - the virtual clock through the engine (vlayer/clock.c, api.c,
 * trace.c) with compute = ignore, so that every time is exact: vli_comm,
 * vli_wait_until, vl_compute, vl_compute_flops, vl_components, vl_mark,
 * vl_set_param, then the trace file read back record by record.
 *
 * The engine keeps global state (vli_t, the trace writer) and vli_init installs
 * an atexit handler and signal handlers.  Under CK_FORK=yes each test runs in its
 * own process; under CK_FORK=no (the ASan run) they run one after the other, so
 * every test starts from a reset vli_t and writes into a trace directory of its own.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vlayer/core/engine.h"
#include "postproc/tracereader.h"
#include "vlayer.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ---- */

typedef struct trace {
	vl_thdr h;
	vl_trec *r;
	int n;
	long size;
} trace;

static char tdir[1024];  /* this test's VLAYER_TRACE_DIR */
static char tbase[512];  /* the mkdtemp directory (tdir may be below it) */

/* Forget any task a previous test (in the same process) left behind. */
static void reset_task(void)
{
	if (vli_t.ready && !vli_t.ended)
		vli_finish();
	vlcfg_free(&vli_t.cfg);
	memset(&vli_t, 0, sizeof vli_t);
}

/* A fresh trace directory (sub = a path below the mkdtemp one, or NULL). */
static void new_dir(const char *sub)
{
	const char *t = getenv("TMPDIR");

	snprintf(tbase, sizeof tbase, "%s/vl-clock-XXXXXX", t && *t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tbase));
	if (sub)
		snprintf(tdir, sizeof tdir, "%s/%s", tbase, sub);
	else
		snprintf(tdir, sizeof tdir, "%s", tbase);
	ck_assert_int_eq(setenv("VLAYER_TRACE_DIR", tdir, 1), 0);
}

/* Reset, default config with compute = ignore (and nhosts hosts n0.. if > 1). */
static void setup_cfg(int nhosts)
{
	int i;

	reset_task();
	vlcfg_default(&vli_t.cfg);
	ck_assert_ptr_nonnull(vli_t.cfg.hosts);
	vli_t.cfg.compute_ignore = 1;
	if (nhosts > 1) {
		free(vli_t.cfg.hosts);
		vli_t.cfg.hosts = calloc((size_t)nhosts, sizeof *vli_t.cfg.hosts);
		ck_assert_ptr_nonnull(vli_t.cfg.hosts);
		vli_t.cfg.nhosts = nhosts;
		for (i = 0; i < nhosts; i++) {
			vlcfg_host *h = &vli_t.cfg.hosts[i];

			snprintf(h->name, sizeof h->name, "n%d", i);
			h->procs = 1;
			h->send_delay = h->recv_delay = h->trans_delay = VLCFG_UNSET;
			h->trans_per_kib_ps = VLCFG_UNSET;
		}
	}
}

static void start_task(int id, int ptid, int host, int64_t start, const char *prog)
{
	new_dir(NULL);
	vli_init(id, ptid, host, start, prog);
	ck_assert_int_eq(vli_t.ready, 1);
}

static void trace_path(char *path, size_t size, int id)
{
	snprintf(path, size, "%s/vl-%08x.trc", tdir, (unsigned)id);
}

static void read_trace(int id, trace *t)
{
	char path[1200];
	FILE *f;
	struct stat st;
	long nrec;

	memset(t, 0, sizeof *t);
	trace_path(path, sizeof path, id);
	ck_assert_msg(stat(path, &st) == 0, "no trace %s", path);
	t->size = (long)st.st_size;
	ck_assert_int_ge(t->size, (long)sizeof(vl_thdr));
	ck_assert_msg((t->size - 256) % 64 == 0, "trace size %ld is not 256 + 64 k", t->size);
	nrec = (t->size - 256) / 64;
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fread(&t->h, sizeof t->h, 1, f), 1);
	t->r = calloc((size_t)nrec + 1, sizeof *t->r);
	ck_assert_ptr_nonnull(t->r);
	ck_assert_int_eq(fread(t->r, sizeof *t->r, (size_t)nrec, f), (size_t)nrec);
	ck_assert_int_eq(fgetc(f), EOF);
	fclose(f);
	t->n = (int)nrec;
}

/* Remove the trace of id and the directories made for it; reset the task. */
static void cleanup(int id, trace *t)
{
	char path[1200];

	free(t->r);
	t->r = NULL;
	trace_path(path, sizeof path, id);
	unlink(path);
	while (strlen(tdir) > strlen(tbase)) { /* the created subdirectories */
		char *slash;

		rmdir(tdir);
		slash = strrchr(tdir, '/');
		if (!slash)
			break;
		*slash = 0;
	}
	rmdir(tbase);
	reset_task();
	unsetenv("VLAYER_TRACE_DIR");
}

static void check_header(const trace *t, int id, int ptid, int host, int64_t start,
			 const char *host_name, const char *program)
{
	ck_assert_int_eq(sizeof(vl_thdr), 256);
	ck_assert_int_eq(sizeof(vl_trec), 64);
	ck_assert_mem_eq(t->h.magic, "VLTRACE1", 8);
	ck_assert_uint_eq(t->h.version, 1);
	ck_assert_uint_eq(t->h.hdr_size, 256);
	ck_assert_uint_eq(t->h.rec_size, 64);
	ck_assert_int_eq(t->h.tid, id);
	ck_assert_int_eq(t->h.ptid, ptid);
	ck_assert_int_eq(t->h.host, host);
	ck_assert_int_eq(t->h.start_ns, start);
	ck_assert_str_eq(t->h.host_name, host_name);
	ck_assert_str_eq(t->h.program, program);
}

static void check_rec(const vl_trec *r, int type, int peer, int64_t bytes, int64_t t0,
		      int64_t t1, int64_t t2, int64_t t3)
{
	ck_assert_uint_eq(r->type, (unsigned)type);
	ck_assert_uint_eq(r->flags, 0);
	ck_assert_int_eq(r->tag, 0);
	ck_assert_int_eq(r->peer, peer);
	ck_assert_uint_eq(r->seq, 0);
	ck_assert_int_eq(r->u.v.bytes, bytes);
	ck_assert_int_eq(r->u.v.t0, t0);
	ck_assert_int_eq(r->u.v.t1, t1);
	ck_assert_int_eq(r->u.v.t2, t2);
	ck_assert_int_eq(r->u.v.t3, t3);
}

static void check_start(const vl_trec *r, int64_t start)
{
	check_rec(r, VL_EV_START, -1, 0, start, start, 0, 0);
}

static void check_end(const vl_trec *r, int64_t now, int64_t comp, int64_t comm, int64_t wait)
{
	check_rec(r, VL_EV_END, -1, comp, now, now, comm, wait);
}

static void check_compute(const vl_trec *r, int64_t t0, int64_t t1)
{
	check_rec(r, VL_EV_COMPUTE, -1, 0, t0, t1, 0, 0);
}

static void check_text(const vl_trec *r, int type, int peer, int64_t t, const char *text)
{
	ck_assert_uint_eq(r->type, (unsigned)type);
	ck_assert_uint_eq(r->flags, 0);
	ck_assert_int_eq(r->tag, 0);
	ck_assert_int_eq(r->peer, peer);
	ck_assert_uint_eq(r->seq, 0);
	ck_assert_int_eq(r->u.m.bytes, 0);
	ck_assert_int_eq(r->u.m.t0, t);
	ck_assert_int_eq(r->u.m.t1, t);
	ck_assert_ptr_nonnull(memchr(r->u.m.text, 0, sizeof r->u.m.text));
	ck_assert_str_eq(r->u.m.text, text);
}

/* comp + comm + wait + start == vl_time_ns(), and each is what we expect */
static void check_components(int64_t comp, int64_t comm, int64_t wait)
{
	int64_t c = -1, m = -1, w = -1;

	vl_components(&c, &m, &w);
	ck_assert_int_eq(c, comp);
	ck_assert_int_eq(m, comm);
	ck_assert_int_eq(w, wait);
	ck_assert_int_eq(c + m + w + vli_t.start, vl_time_ns());
}

/* ---- tests ---- */

/* A clock that would pass VLI_TIME_MAX stops the task with a named error
 * (exit 2) and keeps what it recorded, instead of wrapping into negative
 * times.  Run in a child process (also when Check does not fork). */
START_TEST(overflow_is_a_named_error)
{
	const int id = 0x40001;
	int fd[2], st;
	char msg[512] = "";
	ssize_t n;
	pid_t pid;
	trace t;

	setup_cfg(1);
	new_dir(NULL);
	ck_assert_int_eq(pipe(fd), 0);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 2);
		vli_init(id, -1, 0, 0, "big");
		vl_compute(1e9); /* 31.7 years each, 73 at most */
		vl_compute(1e9);
		vl_compute(1e9);
		_exit(0);
	}
	close(fd[1]);
	n = read(fd[0], msg, sizeof msg - 1);
	msg[n > 0 ? n : 0] = 0;
	close(fd[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 2);
	ck_assert_msg(strstr(msg, "vlayer: virtual time overflow: computation would take task "
				  "0x40001 past 73 years of virtual time (now 2000000000.000000000 s)"),
		      "message: %s", msg);
	/* the two computations before it are in the trace */
	read_trace(id, &t);
	ck_assert_int_ge(t.n, 3);
	ck_assert_int_eq(t.r[2].type, VL_EV_COMPUTE);
	ck_assert(t.r[2].u.v.t1 == 2000000000000000000LL);
	cleanup(id, &t); /* (the child's trace and its directory) */
}
END_TEST

START_TEST(init_and_finish_only)
{
	const int id = 0x40001;
	const int64_t start = 1000000;
	trace t;

	setup_cfg(1);
	new_dir("sub/dir"); /* created, with its parents */
	vli_init(id, -1, 0, start, "/usr/local/bin/myprog");
	ck_assert_int_eq(vli_t.id, id);
	ck_assert_int_eq(vli_t.ptid, -1);
	ck_assert_int_eq(vli_t.host, 0);
	ck_assert_int_eq(vl_time_ns(), start);
	ck_assert_double_eq_tol(vl_time(), 0.001, 1e-15);
	ck_assert_str_eq(vl_host_name(), "localhost");
	check_components(0, 0, 0);
	vli_finish();
	ck_assert_int_eq(vli_t.ended, 1);
	vli_finish(); /* idempotent: one END */
	vl_mark(1, "after the end"); /* the trace is closed: not written */

	read_trace(id, &t);
	check_header(&t, id, -1, 0, start, "localhost", "myprog");
	ck_assert_int_eq(t.size, 256 + 2 * 64);
	ck_assert_int_eq(t.n, 2);
	check_start(&t.r[0], start);
	check_end(&t.r[1], start, 0, 0, 0);
	cleanup(id, &t);
}
END_TEST

START_TEST(header_of_a_child)
{
	const int id = 0x40002, ptid = 0x40001;
	trace t;

	setup_cfg(3);
	start_task(id, ptid, 2, 0, "prog");
	ck_assert_str_eq(vl_host_name(), "n2");
	vli_finish();
	read_trace(id, &t);
	check_header(&t, id, ptid, 2, 0, "n2", "prog");
	ck_assert_int_eq(t.n, 2);
	check_start(&t.r[0], 0);
	check_end(&t.r[1], 0, 0, 0, 0);
	cleanup(id, &t);

	/* a host outside the table: empty host name; no program: "?" */
	setup_cfg(1);
	start_task(0x7fffffff, -1, 4, 77, NULL);
	ck_assert_str_eq(vl_host_name(), "localhost");
	vli_finish();
	read_trace(0x7fffffff, &t);
	check_header(&t, 0x7fffffff, -1, 4, 77, "", "?");
	cleanup(0x7fffffff, &t);
}
END_TEST

START_TEST(comm_and_wait)
{
	const int id = 0x40003;
	const int64_t start = 5000;
	trace t;

	setup_cfg(1);
	start_task(id, -1, 0, start, "prog");
	vli_comm(100);
	ck_assert_int_eq(vl_time_ns(), 5100);
	check_components(0, 100, 0);
	vli_comm(0);
	vli_comm(-50); /* ignored */
	ck_assert_int_eq(vl_time_ns(), 5100);
	check_components(0, 100, 0);

	/* waiting never goes back */
	vli_wait_until(5099);
	ck_assert_int_eq(vl_time_ns(), 5100);
	check_components(0, 100, 0);
	vli_wait_until(5000);
	vli_wait_until(0);
	vli_wait_until(INT64_MIN);
	vli_wait_until(5100); /* = now: nothing */
	ck_assert_int_eq(vl_time_ns(), 5100);
	check_components(0, 100, 0);
	vli_wait_until(6000);
	ck_assert_int_eq(vl_time_ns(), 6000);
	check_components(0, 100, 900);
	vli_wait_until(5500);
	ck_assert_int_eq(vl_time_ns(), 6000);
	/* waiting accumulates, communication too */
	vli_comm(1);
	vli_wait_until(7001);
	ck_assert_int_eq(vl_time_ns(), 7001);
	check_components(0, 101, 1900);
	vli_wait_until(7002);
	vli_comm(INT64_C(3000000000));
	vli_wait_until(INT64_C(10000000000));
	check_components(0, INT64_C(3000000101), INT64_C(10000000000) - 3000000101 - 5000);
	ck_assert_int_eq(vl_time_ns(), INT64_C(10000000000));
	ck_assert_double_eq_tol(vl_time(), 10.0, 1e-12);
	vli_finish();

	read_trace(id, &t);
	check_header(&t, id, -1, 0, start, "localhost", "prog");
	ck_assert_int_eq(t.n, 2); /* comm and wait write no records themselves */
	check_start(&t.r[0], start);
	check_end(&t.r[1], INT64_C(10000000000), 0, INT64_C(3000000101),
		  INT64_C(10000000000) - 3000000101 - 5000);
	cleanup(id, &t);
}
END_TEST

START_TEST(compute_exact)
{
	const int id = 0x40004;
	const int64_t start = 1000;
	int64_t now = start, comp = 0;
	trace t;

	setup_cfg(1);
	start_task(id, -1, 0, start, "prog");
	ck_assert_int_eq(vl_compute(1.5e-6), 0);       /* 1500 ns */
	ck_assert_int_eq(vl_time_ns(), 2500);
	ck_assert_int_eq(vl_compute(0.25), 0);         /* 250 ms */
	ck_assert_int_eq(vl_time_ns(), 250002500);
	ck_assert_int_eq(vl_compute(0), 0);            /* a record of length 0 */
	ck_assert_int_eq(vl_compute(4e-10), 0);        /* 0.4 ns -> 0 */
	ck_assert_int_eq(vl_compute(6e-10), 0);        /* 0.6 ns -> 1 */
	ck_assert_int_eq(vl_time_ns(), 250002501);
	ck_assert_int_eq(vl_compute(-1), -1);          /* errors: nothing happens */
	ck_assert_int_eq(vl_compute(-1e-12), -1);
	ck_assert_int_eq(vl_compute(NAN), -1);
	ck_assert_int_eq(vl_compute(INFINITY), -1);
	ck_assert_int_eq(vl_compute(2e9), -1);
	ck_assert_int_eq(vl_time_ns(), 250002501);
	vli_comm(10);
	ck_assert_int_eq(vl_compute(1e-6), 0);         /* 1000 ns after the comm */
	check_components(1500 + 250000000 + 1 + 1000, 10, 0);
	ck_assert_int_eq(vl_compute(1e9), 0);          /* the largest: 1e18 ns */
	check_components(INT64_C(1000000000000000000) + 250002501, 10, 0);
	vli_finish();

	read_trace(id, &t);
	ck_assert_int_eq(t.n, 9);
	check_start(&t.r[0], start);
	check_compute(&t.r[1], 1000, 2500);
	check_compute(&t.r[2], 2500, 250002500);
	check_compute(&t.r[3], 250002500, 250002500);
	check_compute(&t.r[4], 250002500, 250002500);
	check_compute(&t.r[5], 250002500, 250002501);
	check_compute(&t.r[6], 250002511, 250003511);
	now = 250003511 + INT64_C(1000000000000000000);
	comp = INT64_C(1000000000000000000) + 250002501;
	check_compute(&t.r[7], 250003511, now);
	check_end(&t.r[8], now, comp, 10, 0);
	cleanup(id, &t);
}
END_TEST

/* CPU time of this thread, ns (the clock the layer reads) */
static int64_t thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Uses about ms of CPU time; returns how much it used. */
static int64_t burn_ms(int ms)
{
	int64_t t0 = thread_cpu(), t;
	volatile double x = 1.0;

	while ((t = thread_cpu()) - t0 < (int64_t)ms * 1000000)
		for (int i = 0; i < 10000; i++)
			x = x * 1.0000001 + 1e-9;
	return t - t0;
}

/* A call passed through (PVM's pack and info calls): its thread CPU time is
 * left out of the computation, a real wait inside it takes nothing off, the
 * CPU time of the calls is told (vli_segment_passed, as the board server's
 * answer thread reads it) and inside one the computation reads as frozen;
 * inside a layer call a call passed through is the layer's (no effect). */
START_TEST(pass_through_calls_leave_their_cpu_time_out)
{
	const int id = 0x40009;
	struct timespec nap = { 0, 30000000 };
	int64_t user = 0, c0, passed, cap, inside, comp0;
	uint32_t gen;
	trace t;

	setup_cfg(1);
	vli_t.cfg.compute_ignore = 0;
	start_task(id, -1, 0, 0, "prog");
	vli_enter();
	comp0 = vli_t.comp; /* (the CPU time before the first call: the test's run so far) */
	vli_leave(); /* a segment of computation begins */
	user += burn_ms(5);
	gen = vli_segment_passed(&passed, &cap);
	ck_assert_uint_eq(gen % 2, 0);
	ck_assert_int_eq(passed, 0);
	ck_assert_int_eq(cap, -1);
	c0 = vli_pass_begin();
	ck_assert_int_gt(c0, 0);
	gen = vli_segment_passed(&passed, &cap);
	ck_assert_uint_eq(gen % 2, 0); /* readable ... */
	ck_assert_int_eq(cap, c0);      /* ... frozen at the entry */
	inside = burn_ms(5);
	syscall(SYS_nanosleep, &nap, NULL); /* 30 ms of real time, past the layer */
	vli_pass_end(c0);
	gen = vli_segment_passed(&passed, &cap);
	ck_assert_uint_eq(gen % 2, 0);
	ck_assert_int_eq(cap, -1);
	ck_assert_int_ge(passed, inside);
	ck_assert_int_lt(passed, inside + 2000000); /* not the 30 ms asleep */
	user += burn_ms(5);
	vli_enter();
	/* the computation: the CPU time outside the call, to within the few us
	 * of the calls themselves */
	ck_assert_int_ge(vli_t.comp - comp0, user - 10000);
	ck_assert_int_lt(vli_t.comp - comp0, user + 1000000);
	/* inside a layer call: no effect */
	ck_assert_int_eq(vli_pass_begin(), -1);
	vli_pass_end(-1);
	gen = vli_segment_passed(&passed, &cap);
	ck_assert_int_eq(cap, -1);
	vli_finish();
	read_trace(id, &t);
	cleanup(id, &t);
}
END_TEST

START_TEST(compute_flops)
{
	const int id = 0x40005;
	trace t;

	setup_cfg(2);
	start_task(id, 0x40001, 1, 0, "prog");
	/* no flops rate: error, nothing happens */
	ck_assert_int_eq(vl_compute_flops(1e6), -1);
	ck_assert_int_eq(vl_time_ns(), 0);
	/* the rate of this task's host (n1), not of another one */
	vli_t.cfg.hosts[0].flops = 1e3;
	ck_assert_int_eq(vl_compute_flops(1e6), -1);
	vli_t.cfg.hosts[1].flops = 1e6;
	ck_assert_int_eq(vl_compute_flops(500), 0);    /* 500 / 1e6 s = 500 us */
	ck_assert_int_eq(vl_time_ns(), 500000);
	ck_assert_int_eq(vl_compute_flops(-1), -1);
	ck_assert_int_eq(vl_compute_flops(NAN), -1);
	ck_assert_int_eq(vl_compute_flops(0), 0);
	ck_assert_int_eq(vl_compute_flops(3), 0);      /* 3 us */
	ck_assert_int_eq(vl_time_ns(), 503000);
	/* the rate changed at run time applies from the next call */
	ck_assert_int_eq(vl_set_param("host n1", "flops", "2e6"), 0);
	ck_assert_double_eq(vli_t.cfg.hosts[1].flops, 2e6);
	ck_assert_int_eq(vl_compute_flops(1e6), 0);    /* 0.5 s */
	ck_assert_int_eq(vl_time_ns(), 500503000);
	/* a failed change writes nothing and changes nothing */
	ck_assert_int_eq(vl_set_param("host n1", "flops", "-3"), -1);
	ck_assert_int_eq(vl_set_param("host nosuch", "flops", "3"), -1);
	ck_assert_double_eq(vli_t.cfg.hosts[1].flops, 2e6);
	/* more than 1e9 s of work is refused */
	ck_assert_int_eq(vl_compute_flops(1e16), -1);  /* 5e9 s */
	/* a task on a host outside the table has no rate */
	vli_t.host = 2;
	ck_assert_int_eq(vl_compute_flops(1), -1);
	vli_t.host = -1;
	ck_assert_int_eq(vl_compute_flops(1), -1);
	vli_t.host = 1;
	check_components(500503000, 0, 0);
	vli_finish();

	read_trace(id, &t);
	check_header(&t, id, 0x40001, 1, 0, "n1", "prog");
	ck_assert_int_eq(t.n, 7);
	check_start(&t.r[0], 0);
	check_compute(&t.r[1], 0, 500000);
	check_compute(&t.r[2], 500000, 500000);
	check_compute(&t.r[3], 500000, 503000);
	check_text(&t.r[4], VL_EV_PARAM, -1, 503000, "flops=2e6");
	check_compute(&t.r[5], 503000, 500503000);
	check_end(&t.r[6], 500503000, 500503000, 0, 0);
	cleanup(id, &t);
}
END_TEST

START_TEST(components_and_marks)
{
	const int id = 0x40006;
	const int64_t start = 123456789;
	int64_t c = -1, m = -1, w = -1;
	trace t;

	setup_cfg(1);
	start_task(id, -1, 0, start, "prog");
	vl_mark(0, "begin");
	vli_comm(250);
	ck_assert_int_eq(vl_compute(2e-6), 0);
	vli_wait_until(start + 250 + 2000 + 750);
	vl_mark(7, "phase two");
	vl_mark(-1, "not written");
	vl_mark(3, "a label longer than twenty-three characters");
	vl_mark(4, NULL);
	vl_mark(5, "exactly 23 characters!!");
	vl_mark(6, "");
	vli_comm(1);

	/* any pointer may be NULL */
	vl_components(NULL, NULL, NULL);
	vl_components(&c, NULL, NULL);
	ck_assert_int_eq(c, 2000);
	vl_components(NULL, &m, NULL);
	ck_assert_int_eq(m, 251);
	vl_components(NULL, NULL, &w);
	ck_assert_int_eq(w, 750);
	check_components(2000, 251, 750);
	ck_assert_int_eq(vl_time_ns(), start + 3001);
	vli_finish();

	read_trace(id, &t);
	ck_assert_int_eq(t.n, 9);
	check_start(&t.r[0], start);
	check_text(&t.r[1], VL_EV_MARK, 0, start, "begin");
	check_compute(&t.r[2], start + 250, start + 2250);
	check_text(&t.r[3], VL_EV_MARK, 7, start + 3000, "phase two");
	check_text(&t.r[4], VL_EV_MARK, 3, start + 3000, "a label longer than twe");
	check_text(&t.r[5], VL_EV_MARK, 4, start + 3000, "");
	check_text(&t.r[6], VL_EV_MARK, 5, start + 3000, "exactly 23 characters!!");
	check_text(&t.r[7], VL_EV_MARK, 6, start + 3000, "");
	check_end(&t.r[8], start + 3001, 2000, 251, 750);
	cleanup(id, &t);
}
END_TEST

START_TEST(set_param_records)
{
	const int id = 0x40007;
	trace t;

	setup_cfg(1);
	start_task(id, -1, 0, 0, "prog");
	vli_comm(5);
	ck_assert_int_eq(vl_set_param("network", "send_delay", "50us"), 0);
	ck_assert_int_eq(vli_t.cfg.intra.send_delay, 50000);
	ck_assert_int_eq(vli_t.cfg.inter.send_delay, 50000);
	ck_assert_int_eq(vl_set_param("network", "send_delay", "50"), -1);
	ck_assert_int_eq(vl_set_param(NULL, "send_delay", "5us"), -1);
	ck_assert_int_eq(vli_t.cfg.intra.send_delay, 50000);
	ck_assert_int_eq(vl_set_param("network inter", "bandwidth", "100Mbit/s"), 0);
	ck_assert_int_eq(vli_t.cfg.inter.trans_per_kib_ps, 81920000);
	ck_assert_int_eq(vli_t.cfg.intra.trans_per_kib_ps, 0);
	/* "key=value" is cut to 23 characters */
	ck_assert_int_eq(vl_set_param("network intra", "trans_delay", "1234567.50000us"), 0);
	ck_assert_int_eq(vli_t.cfg.intra.trans_delay, 1234567500);
	/* compute = measured would read the CPU clock: set it back at once */
	ck_assert_int_eq(vl_set_param("simulation", "compute", "ignore"), 0);
	ck_assert_int_eq(vli_t.cfg.compute_ignore, 1);
	ck_assert_int_eq(vl_time_ns(), 5);
	vli_finish();

	read_trace(id, &t);
	ck_assert_int_eq(t.n, 6);
	check_start(&t.r[0], 0);
	check_text(&t.r[1], VL_EV_PARAM, -1, 5, "send_delay=50us");
	check_text(&t.r[2], VL_EV_PARAM, -1, 5, "bandwidth=100Mbit/s");
	check_text(&t.r[3], VL_EV_PARAM, -1, 5, "trans_delay=1234567.500");
	check_text(&t.r[4], VL_EV_PARAM, -1, 5, "compute=ignore");
	check_end(&t.r[5], 5, 0, 5, 0);
	cleanup(id, &t);
}
END_TEST

START_TEST(many_records_in_order)
{
	const int id = 0x40008, nops = 3000;
	const int64_t start = 42;
	int i;
	int64_t now = start;
	trace t;
	char label[24];

	setup_cfg(1);
	start_task(id, -1, 0, start, "prog");
	for (i = 0; i < nops; i++) {
		if (i % 2 == 0) {
			snprintf(label, sizeof label, "m%d", i);
			vl_mark(i, label);
		} else {
			ck_assert_int_eq(vl_compute(1e-6), 0);
		}
		if (i % 3 == 0)
			vli_comm(7);
	}
	vli_finish();

	read_trace(id, &t);
	ck_assert_int_eq(t.n, nops + 2);
	ck_assert_int_eq(t.size, 256 + 64L * (nops + 2));
	check_header(&t, id, -1, 0, start, "localhost", "prog");
	check_start(&t.r[0], start);
	for (i = 0; i < nops; i++) {
		const vl_trec *r = &t.r[i + 1];

		if (i % 2 == 0) {
			snprintf(label, sizeof label, "m%d", i);
			check_text(r, VL_EV_MARK, i, now, label);
		} else {
			check_compute(r, now, now + 1000);
			now += 1000;
		}
		if (i % 3 == 0)
			now += 7;
	}
	check_end(&t.r[nops + 1], now, 1000 * (nops / 2), 7 * (nops / 3), 0);
	ck_assert_int_eq(now, start + 1000 * (nops / 2) + 7 * (nops / 3));
	for (i = 1; i < t.n; i++)
		ck_assert_int_ge(t.r[i].u.v.t0, t.r[i - 1].u.v.t0);
	cleanup(id, &t);
}
END_TEST

START_TEST(exactly_full_buffers)
{
	/* 1022 records + START + END = 1024: one full buffer; then 2048 */
	static const int counts[] = { 1022, 1023, 2046, 2047 };
	size_t k;

	for (k = 0; k < sizeof counts / sizeof counts[0]; k++) {
		const int id = 0x40100 + (int)k;
		int i;
		trace t;

		setup_cfg(1);
		start_task(id, -1, 0, 0, "prog");
		for (i = 0; i < counts[k]; i++)
			vl_mark(i, "x");
		vli_finish();
		read_trace(id, &t);
		ck_assert_int_eq(t.n, counts[k] + 2);
		check_start(&t.r[0], 0);
		for (i = 0; i < counts[k]; i++)
			check_text(&t.r[i + 1], VL_EV_MARK, i, 0, "x");
		check_end(&t.r[counts[k] + 1], 0, 0, 0, 0);
		cleanup(id, &t);
	}
}
END_TEST

/* Round trip: what the engine writes, the post-processing reader reads back,
 * record for record, and finds complete (END last, nothing after it). */
START_TEST(round_trip_through_the_reader)
{
	vlpost_tfile f;
	vl_trec r;
	trace t;
	char path[1200];
	int i, got;

	setup_cfg(2);
	start_task(0x40001, -1, 1, 5000, "/usr/bin/roundtrip");
	vli_comm(1000);
	vli_trace_msg(VL_EV_SEND, 0x40002, 7, 1, 1024, 6000, 7000, 9000, 1, 0);
	vli_t.now = 7000;
	vli_wait_until(12000);
	vli_comm(500);
	vli_trace_msg(VL_EV_RECV, 0x40002, 8, 1, 16, 7000, 12500, 5000, 12000, 0);
	vl_mark(3, "phase three");
	vl_compute(0.000001);
	vli_finish();
	read_trace(0x40001, &t);
	trace_path(path, sizeof path, 0x40001);
	memset(&f, 0, sizeof f);
	ck_assert_int_eq(vlpost_tfile_open(&f, path, 0, 1), 0);
	ck_assert_int_eq(f.hdr.tid, 0x40001);
	ck_assert_int_eq(f.hdr.host, 1);
	ck_assert_int_eq(f.hdr.start_ns, 5000);
	ck_assert_str_eq(f.hdr.host_name, "n1");
	ck_assert_str_eq(f.hdr.program, "roundtrip");
	for (i = 0; (got = vlpost_tfile_next(&f, &r)) == 1; i++) {
		ck_assert_int_lt(i, t.n);
		ck_assert_int_eq(r.type, t.r[i].type);
		ck_assert_int_eq(r.peer, t.r[i].peer);
		ck_assert_int_eq(r.tag, t.r[i].tag);
		ck_assert_int_eq(r.u.v.t0, t.r[i].u.v.t0);
		ck_assert_int_eq(r.u.v.t1, t.r[i].u.v.t1);
	}
	ck_assert_msg(got == 0, "reader error: %s", f.errmsg);
	ck_assert_int_eq(i, t.n);
	ck_assert_int_eq(i, 6); /* START SEND RECV MARK COMPUTE END */
	ck_assert_int_eq(t.r[5].type, VL_EV_END);
	vlpost_tfile_close(&f);
	cleanup(0x40001, &t);
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("clock");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, init_and_finish_only);
	tcase_add_test(tc, header_of_a_child);
	tcase_add_test(tc, comm_and_wait);
	tcase_add_test(tc, compute_exact);
	tcase_add_test(tc, compute_flops);
	tcase_add_test(tc, pass_through_calls_leave_their_cpu_time_out);
	tcase_add_test(tc, components_and_marks);
	tcase_add_test(tc, set_param_records);
	tcase_add_test(tc, many_records_in_order);
	tcase_add_test(tc, exactly_full_buffers);
	tcase_add_test(tc, round_trip_through_the_reader);
	tcase_add_test(tc, overflow_is_a_named_error);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(clock_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
