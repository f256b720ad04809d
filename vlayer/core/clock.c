/* clock.c - the virtual clock of one task.
 *
 * virtual time = start + computation + communication + waiting, all int64 ns.
 * Computation is the thread CPU time spent between two layer calls (read at
 * the entry and exit of each call, so time inside the layer and the message
 * library is never counted), scaled by the host's performance factor.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "vlayer/core/engine.h"

vli_task vli_t;
__thread int vli_depth;
__thread int vli_main_thread;

typedef int (*clock_fn)(clockid_t, struct timespec *);
static clock_fn real_clock;

static int64_t read_clock(clockid_t id)
{
	struct timespec ts;

	if (!real_clock) {
		real_clock = (clock_fn)dlsym(RTLD_NEXT, "clock_gettime");
		if (!real_clock)
			real_clock = clock_gettime;
	}
	real_clock(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t vli_cpu_ns(void)
{
	return read_clock(CLOCK_THREAD_CPUTIME_ID);
}

int64_t vli_mono_ns(void)
{
	return read_clock(CLOCK_MONOTONIC);
}

int64_t vli_real_ns(void)
{
	return read_clock(CLOCK_REALTIME);
}

void vli_load_config(vlcfg_config *cfg)
{
	const char *path = getenv("VMCONFIG");
	char err[1200];

	if (path && *path) {
		if (vlcfg_load(path, cfg, err, sizeof err) < 0)
			vli_error(2, "%s", err);
		return;
	}
	if (access("VMConfig", F_OK) == 0) {
		if (vlcfg_load("VMConfig", cfg, err, sizeof err) < 0)
			vli_error(2, "%s", err);
		return;
	}
	vlcfg_default(cfg);
}

/* The handlers there were before the layer's (the program's own, or the MPI
 * library's: Open MPI installs its own in MPI_Init, before the layer starts). */
static struct sigaction before[NSIG];

volatile sig_atomic_t vli_in_handler;

static void on_fatal(int sig, siginfo_t *info, void *ctx)
{
	const struct sigaction *old = sig > 0 && sig < NSIG ? &before[sig] : NULL;

	if (old && (old->sa_flags & SA_SIGINFO ? old->sa_sigaction != NULL
					       : (old->sa_handler != SIG_DFL &&
						  old->sa_handler != SIG_IGN))) {
		/* someone else handles it (and may go on running): keep what is
		 * recorded, then hand over */
		vli_trace_flush();
		if (old->sa_flags & SA_SIGINFO)
			old->sa_sigaction(sig, info, ctx);
		else
			old->sa_handler(sig);
		return;
	}
	/* killed from outside (pvm_kill, pvmd halt, mpirun, ^C), also while blocked
	 * in a receive: the task ends here, with an END record; a crash only flushes */
	if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP) {
		vli_in_handler = 1;
		vli_finish();
	}
	vli_trace_flush();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_exit_hook(void)
{
	vli_finish();
}

static void install_handlers(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT,
				    SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fatal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction *old = &before[sigs[i]];

		/* an ignored signal stays ignored; any other handler is chained to */
		if (sigaction(sigs[i], NULL, old) != 0 ||
		    (!(old->sa_flags & SA_SIGINFO) && old->sa_handler == SIG_IGN))
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	atexit(on_exit_hook);
}

/* CPU time one read of the thread clock adds to the next difference (the part
 * of the system call after the reading at leave plus the part before the
 * reading at enter): the smallest of a few back-to-back differences.  Taken
 * off every computation segment so that a program that computes nothing
 * between two calls gets no computation. */
static int64_t read_cost;

/* The thread CPU time at the layer's load: the dynamic loader's work before
 * it (mapping and relocating the MPI or PVM libraries: about 2 ms here, more
 * with many processes starting at once) is the real machine's, not the
 * program's computation. */
static int64_t cpu_at_load;

__attribute__((constructor)) static void mark_load(void)
{
	cpu_at_load = vli_cpu_ns();
}

int64_t vli_cpu_since_load(void)
{
	int64_t c = vli_cpu_ns() - cpu_at_load;

	return c > 0 ? c : 0;
}

/* The program's CPU time before its first layer call (-1: not taken). */
static int64_t cpu_first = -1;

void vli_first_call(void)
{
	if (cpu_first < 0)
		cpu_first = vli_cpu_since_load();
}

void vli_init_done(void)
{
	if (vli_t.ready && !vli_t.cfg.compute_ignore)
		vli_t.cpu_mark = vli_cpu_ns();
}

static void (*leave_hook)(void), (*finish_hook)(void), (*seg_begin)(void), (*seg_end)(void);
static void (*pass_hook)(int phase, int64_t cpu);
/* The CPU time of the calls the layer passed through since the segment
 * began (vli_pass_end); the CPU clock at the entry of the one the task is
 * in (-1: none); a count that is odd while either changes */
static _Atomic int64_t pass_ns, pass_cap = -1;
static _Atomic uint32_t pass_gen;
/* The task computes: between a layer call's vli_leave and the next
 * vli_enter (a call passed through inside a layer call - libgpvm3's inside a
 * group operation - is the layer's time, not a segment's) */
static int computing;
/* the CPU gate (cpugate.c), once a front end installed it */
static void (*gate_take)(void), (*gate_give)(void), (*gate_end)(void);

void vli_on_gate(void (*take)(void), void (*give)(void), void (*end)(void))
{
	gate_take = take;
	gate_give = give;
	gate_end = end;
}

static void measure_read_cost(void)
{
	int64_t best = INT64_MAX, a, b;
	int i;

	for (i = 0; i < 64; i++) {
		a = vli_cpu_ns();
		b = vli_cpu_ns();
		if (b - a < best)
			best = b - a;
	}
	read_cost = best > 0 && best < 100000 ? best : 0;
}

const char *vli_trace_dir(void)
{
	const char *dir = getenv("VLAYER_TRACE_DIR");

	if (!dir || !*dir)
		dir = vli_t.cfg.trace_dir[0] ? vli_t.cfg.trace_dir : "vltrace";
	return dir;
}

/* ---- real-time interference (measured computation only) ----
 * What the layer cannot remove from measured CPU times: the machine's CPU
 * steal (a virtual machine's host running others) and the task being
 * preempted (more tasks than processors, other load).  Read at the task's
 * start and end with read(2) only (the end may run in a signal handler) and
 * written into its END record for vlpost stats. */
static int64_t real_start_ns, steal_start_ms = -1;
static long clk_tck;

/* Unsigned decimal numbers of text after skipping n of them; -1 if none. */
static int64_t nth_number(const char *p, int n)
{
	int64_t v;

	for (;;) {
		while (*p && (*p < '0' || *p > '9'))
			p++;
		if (!*p)
			return -1;
		for (v = 0; *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (*p - '0');
		if (n-- == 0)
			return v;
	}
}

/* Read up to len - 1 bytes of path into buf; 0 or -1. */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return 0;
}

/* The machine's CPU steal so far, ms over all CPUs (/proc/stat: the 8th
 * number of the "cpu" line); -1 if unknown. */
static int64_t steal_ms(void)
{
	char buf[256];
	int64_t j;

	if (clk_tck <= 0 || read_small("/proc/stat", buf, sizeof buf) < 0 ||
	    strncmp(buf, "cpu ", 4) != 0 || (j = nth_number(buf, 7)) < 0)
		return -1;
	return j * 1000 / clk_tck;
}

/* This thread's involuntary context switches (preemptions) so far; -1. */
static int64_t preemptions(void)
{
	char buf[2048];
	const char *p;

	if (read_small("/proc/thread-self/status", buf, sizeof buf) < 0 ||
	    !(p = strstr(buf, "nonvoluntary_ctxt_switches:")))
		return -1;
	return nth_number(p, 0);
}

void vli_init(int id, int ptid, int host, int64_t start, const char *program)
{
	vl_thdr h;
	const char *dir = vli_trace_dir();
	const char *slash;

	vli_t.id = id;
	vli_t.ptid = ptid;
	vli_t.host = host;
	vli_t.start = vli_t.now = start;
	vli_t.ready = 1;
	vli_main_thread = 1;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, VL_TRACE_MAGIC, 8);
	h.version = VL_TRACE_VERSION;
	h.hdr_size = sizeof(vl_thdr);
	h.rec_size = sizeof(vl_trec);
	h.tid = id;
	h.ptid = ptid;
	h.host = host;
	h.start_ns = start;
	if (host >= 0 && host < vli_t.cfg.nhosts)
		snprintf(h.host_name, sizeof h.host_name, "%s", vli_t.cfg.hosts[host].name);
	slash = program ? strrchr(program, '/') : NULL;
	snprintf(h.program, sizeof h.program, "%s", slash ? slash + 1 : program ? program : "?");
	vli_trace_open(dir, &h);
	vli_trace_msg(VL_EV_START, -1, 0, 0, 0, start, start, 0, 0, 0);
	if (!vli_t.cfg.compute_ignore) {
		clk_tck = sysconf(_SC_CLK_TCK);
		real_start_ns = vli_mono_ns();
		steal_start_ms = steal_ms();
	}
	install_handlers();
	if (!vli_t.cfg.compute_ignore)
		measure_read_cost();
	vli_t.cpu_mark = vli_t.cfg.compute_ignore ? 0 : vli_cpu_ns();
	/* CPU time used before the first layer call counts too, from the
	 * program's start (not the dynamic loader's work before it) */
	if (!vli_t.cfg.compute_ignore) {
		vli_first_call();
		vli_compute(vli_scale_cpu(&vli_t.cfg, host, cpu_first));
	}
}

void vli_enter(void)
{
	int64_t cpu, c;

	if (!vli_t.ready)
		return;
	if (vli_t.cfg.compute_ignore) {
		if (gate_give)
			gate_give(); /* (compute changed to ignore while it held one) */
		return;
	}
	computing = 0;
	if (seg_end)
		seg_end();
	cpu = vli_cpu_ns();
	if (gate_give)
		gate_give();
	c = cpu - vli_t.cpu_mark - read_cost;
	c = vli_scale_cpu(&vli_t.cfg, vli_t.host, c > 0 ? c : 0);
	vli_t.cpu_mark = cpu;
	vli_compute(c);
}

void vli_on_leave(void (*fn)(void))
{
	leave_hook = fn;
}

void vli_on_segment(void (*begin)(void), void (*end)(void))
{
	seg_begin = begin;
	seg_end = end;
}

void vli_on_pass(void (*fn)(int phase, int64_t cpu))
{
	pass_hook = fn;
}

/* While the task is inside a call passed through, what it computed is
 * frozen at the CPU time it entered with (pass_cap): its clock counts none
 * of the call's CPU time.  pass_gen is odd only while that changes (at the
 * entry, before the CPU clock is read, until pass_cap is set; at the exit,
 * from before it is read until the mark has moved past the call). */
int64_t vli_pass_begin(void)
{
	int64_t c0;

	if (!vli_t.ready || vli_t.cfg.compute_ignore || !computing)
		return -1;
	atomic_fetch_or(&pass_gen, 1);
	if (pass_hook)
		pass_hook(0, 0);
	c0 = vli_cpu_ns();
	atomic_store(&pass_cap, c0);
	if (pass_hook)
		pass_hook(1, c0);
	atomic_fetch_add(&pass_gen, 1); /* even: frozen */
	return c0;
}

void vli_pass_end(int64_t cpu0)
{
	int64_t d;

	if (cpu0 < 0)
		return;
	atomic_fetch_or(&pass_gen, 1);
	if (pass_hook)
		pass_hook(2, 0);
	d = vli_cpu_ns() - cpu0;
	if (d > 0) {
		vli_t.cpu_mark += d;
		atomic_fetch_add(&pass_ns, d);
	}
	atomic_store(&pass_cap, -1);
	if (pass_hook)
		pass_hook(3, 0);
	atomic_fetch_add(&pass_gen, 1); /* even */
}

uint32_t vli_segment_passed(int64_t *ns, int64_t *cap)
{
	*ns = atomic_load(&pass_ns);
	*cap = atomic_load(&pass_cap);
	return atomic_load(&pass_gen);
}

void vli_segment_base(int64_t *now, int64_t *mark, int64_t *rc, double *factor)
{
	const vlcfg_host *hp = vli_t.host >= 0 && vli_t.host < vli_t.cfg.nhosts
				       ? &vli_t.cfg.hosts[vli_t.host] : NULL;

	*now = vli_t.now;
	*mark = vli_t.cpu_mark;
	*rc = read_cost;
	*factor = hp ? hp->factor : 0.0;
}

void vli_on_finish(void (*fn)(void))
{
	finish_hook = fn;
}

void vli_leave(void)
{
	if (!vli_t.ready)
		return;
	if (leave_hook)
		leave_hook();
	if (!vli_t.cfg.compute_ignore) {
		if (gate_take)
			gate_take();
		vli_t.cpu_mark = vli_cpu_ns();
		atomic_store(&pass_ns, 0);
		if (seg_begin)
			seg_begin();
		computing = 1;
	}
}

void vli_check_advance(int64_t ns, const char *what)
{
	if (ns <= VLI_TIME_MAX - vli_t.now)
		return;
	vli_error(2, "virtual time overflow: %s would take task 0x%x past %.0f years of virtual "
		  "time (now %.9f s); a value of the VMConfig (%s) or of vl_compute is too large",
		  what, (unsigned)vli_t.id, (double)VLI_TIME_MAX / 1e9 / 86400 / 365.25,
		  (double)vli_t.now / 1e9, vli_t.cfg.path);
}

void vli_compute(int64_t ns)
{
	if (ns <= 0)
		return;
	vli_check_advance(ns, "computation");
	vli_t.comp += ns;
	vli_t.now += ns;
}

void vli_comm(int64_t ns)
{
	if (ns <= 0)
		return;
	vli_check_advance(ns, "communication");
	vli_t.comm += ns;
	vli_t.now += ns;
}

void vli_wait_until(int64_t t)
{
	if (t <= vli_t.now)
		return;
	vli_check_advance(t - vli_t.now, "waiting");
	vli_t.wait += t - vli_t.now;
	vli_t.now = t;
}

/* Measured computation counts the CPU time of the thread that started the
 * layer only: say so at the end when the process's other threads (OpenMP,
 * a threaded BLAS; the MPI library's own use little) used a good part of
 * that much CPU time too. */
static void warn_other_threads(void)
{
	struct timespec ts;
	int64_t proc, thr, other;

	if (vli_t.cfg.compute_ignore || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return;
	proc = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	thr = vli_cpu_ns();
	other = proc - thr;
	if (other > 100000000 && other > thr / 10)
		vli_warn("task 0x%x: other threads of its process used %.3f s of CPU; only the "
			 "CPU time of the thread that calls the layer is computation, so work done "
			 "in other threads (OpenMP, a threaded BLAS: set OMP_NUM_THREADS=1 and "
			 "OPENBLAS_NUM_THREADS=1) is not in the prediction",
			 (unsigned)vli_t.id, (double)other / 1e9);
}

void vli_finish(void)
{
	if (!vli_t.ready || vli_t.ended)
		return;
	warn_other_threads();
	vli_enter();
	vli_t.ended = 1;
	{
		/* measured computation: the real-time interference of the task's
		 * life (tag: CPU steal ms, seq: preemptions, t4: real ns) */
		int64_t st = steal_ms(), pr = preemptions(), real = 0;
		int32_t tag = 0;
		uint32_t seq = 0;

		if (!vli_t.cfg.compute_ignore && real_start_ns > 0) {
			real = vli_mono_ns() - real_start_ns;
			if (st >= 0 && steal_start_ms >= 0 && st >= steal_start_ms)
				tag = st - steal_start_ms > INT32_MAX ? INT32_MAX
								      : (int32_t)(st - steal_start_ms);
			if (pr >= 0)
				seq = pr > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)pr;
		}
		vli_trace_msg4(VL_EV_END, -1, tag, seq, vli_t.comp, vli_t.now, vli_t.now, vli_t.comm,
			       vli_t.wait, real > 0 ? real : 0, 0);
	}
	vli_trace_close();
	if (gate_end)
		gate_end();
	if (finish_hook)
		finish_hook();
	vli_tracedir_release();
}
