/* time_wrap.c - time(), gettimeofday() and clock_gettime() return virtual
 * time in a virtualised program (CLUE redirected time()).  Calls made inside
 * the layer or the message library, and clocks that are not wall clocks (CPU
 * clocks), get the real value.
 * Virtual wall-clock time = VLAYER_EPOCH (the real time at which the first
 * task of the run started) + the task's virtual time.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include "vli.h"

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
