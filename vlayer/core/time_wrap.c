/* time_wrap.c - time(), gettimeofday() and clock_gettime() return virtual
 * time in a virtualised program (CLUE redirected time()).  Calls made inside
 * the layer or the message library, and clocks that are not wall clocks (CPU
 * clocks), get the real value.
 * Virtual wall-clock time = VLAYER_EPOCH (the real time at which the first
 * task of the run started) + the task's virtual time.
 * A sleep (nanosleep, usleep, sleep, a relative clock_nanosleep) of the program
 * sleeps for real and advances the virtual clock by the time asked for, as
 * waiting (trace record SLEEP): a program that polls with sleeps in between
 * takes as long in virtual time as on the modelled machine.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "vlayer/core/engine.h"

typedef int (*cg_fn)(clockid_t, struct timespec *);
typedef int (*gtod_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);

static int64_t epoch_ns(void)
{
	static int64_t epoch = -1;
	if (epoch < 0) {
		const char *e = getenv("VLAYER_EPOCH");
		epoch = e ? atoll(e) : 0;
		if (epoch <= 0) {
			char buf[32];
			epoch = vli_real_ns() / 1000000000 * 1000000000;
			snprintf(buf, sizeof buf, "%lld", (long long)epoch);
			setenv("VLAYER_EPOCH", buf, 1);
		}
	}
	return epoch;
}

static int virtual_now(int wall, int64_t *ns)
{
	if (!vli_t.ready || vli_t.ended || vli_depth || !vli_main_thread)
		return 0;
	vli_enter();
	*ns = vli_t.now + (wall ? epoch_ns() : 0);
	vli_leave();
	return 1;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	static cg_fn real;
	int64_t ns;
	int wall = id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE;
	int mono = id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW ||
		   id == CLOCK_MONOTONIC_COARSE || id == CLOCK_BOOTTIME;

	if (!real)
		real = (cg_fn)dlsym(RTLD_NEXT, "clock_gettime");
	if ((wall || mono) && virtual_now(wall, &ns)) {
		ts->tv_sec = ns / 1000000000;
		ts->tv_nsec = ns % 1000000000;
		return 0;
	}
	return real(id, ts);
}

int gettimeofday(struct timeval *tv, void *tz)
{
	static gtod_fn real;
	int64_t ns;

	if (!real)
		real = (gtod_fn)dlsym(RTLD_NEXT, "gettimeofday");
	if (virtual_now(1, &ns)) {
		tv->tv_sec = ns / 1000000000;
		tv->tv_usec = (ns % 1000000000) / 1000;
		return 0;
	}
	return real(tv, tz);
}

time_t time(time_t *t)
{
	static time_fn real;
	int64_t ns;
	time_t r;

	if (!real)
		real = (time_fn)dlsym(RTLD_NEXT, "time");
	if (!virtual_now(1, &ns))
		return real(t);
	r = (time_t)(ns / 1000000000);
	if (t)
		*t = r;
	return r;
}

/* The program (main thread, outside the layer) slept ns: the clock waits. */
static void virtual_sleep(int64_t ns)
{
	int64_t t0;

	if (!vli_t.ready || vli_t.ended || vli_depth || !vli_main_thread || ns <= 0)
		return;
	vli_enter();
	t0 = vli_t.now;
	vli_wait_until(t0 + ns);
	vli_trace_msg(VL_EV_SLEEP, -1, -1, 0, 0, t0, vli_t.now, 0, 0, 0);
	vli_leave();
}

static int64_t ts_ns(const struct timespec *t)
{
	return t->tv_sec < 0 || t->tv_nsec < 0 ? 0 : (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

typedef int (*nsl_fn)(const struct timespec *, struct timespec *);
typedef int (*cns_fn)(clockid_t, int, const struct timespec *, struct timespec *);
typedef int (*usl_fn)(useconds_t);
typedef unsigned (*sl_fn)(unsigned);

/* What a relative sleep of *req slept: all of it, or (interrupted, rc != 0)
 * all but the rest left in *left. */
static void slept(const struct timespec *req, int rc, const struct timespec *left)
{
	virtual_sleep(ts_ns(req) - (rc ? ts_ns(left) : 0));
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	static nsl_fn real;
	struct timespec left = {0, 0}, *r = rem ? rem : &left;
	int rc;

	if (!real)
		real = (nsl_fn)dlsym(RTLD_NEXT, "nanosleep");
	rc = real(req, r);
	slept(req, rc, r);
	return rc;
}

int clock_nanosleep(clockid_t id, int flags, const struct timespec *req, struct timespec *rem)
{
	static cns_fn real;
	struct timespec left = {0, 0}, *r = rem ? rem : &left;
	int rc;

	if (!real)
		real = (cns_fn)dlsym(RTLD_NEXT, "clock_nanosleep");
	rc = real(id, flags, req, r);
	/* an absolute deadline is a real time: only relative sleeps are counted */
	if (!(flags & TIMER_ABSTIME) && id != CLOCK_PROCESS_CPUTIME_ID && id != CLOCK_THREAD_CPUTIME_ID)
		slept(req, rc, r);
	return rc;
}

int usleep(useconds_t us)
{
	static usl_fn real;
	int rc;

	if (!real)
		real = (usl_fn)dlsym(RTLD_NEXT, "usleep");
	rc = real(us);
	if (!rc)
		virtual_sleep((int64_t)us * 1000);
	return rc;
}

unsigned sleep(unsigned s)
{
	static sl_fn real;
	unsigned left;

	if (!real)
		real = (sl_fn)dlsym(RTLD_NEXT, "sleep");
	left = real(s);
	virtual_sleep((int64_t)(s - left) * 1000000000);
	return left;
}
