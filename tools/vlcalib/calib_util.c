/* calib_util.c - what every part of the measurement programs uses: the names
 * of the experiments and links, the clock, statistics, the unit parsers of the
 * command line, the default sizes, the kernel clock's identity
 * (calib_common.h). */
#include "calib_impl.h"
#include "vlayer/core/vmconfig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const exp_names[VL_CALIB_NEXP] = {
    "rtt",          "oneway",         "send",         "pack",           "recv",
    "gap",          "contention",     "bsp_exchange", "bsp_pingpong",   "bsp_onetoall",
    "bsp_alltoone", "bsp_alltoall",   "bsp_barrier",  "share_exchange", "share_fanout",
    "share_fanin",  "share_alltoall", "share_first",
};

const char *const vlcal_link_name[2] = {"intra", "inter"};

const char *vlcal_exp_name(int e)
{
	return e >= 0 && e < VL_CALIB_NEXP ? exp_names[e] : "?";
}

int64_t vlcal_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void vlcal_stats_of(int64_t *s, int n, double scale, vlcal_stats *st)
{
	double sum = 0, ss = 0;
	int i;

	memset(st, 0, sizeof *st);
	if (n <= 0)
		return;
	qsort(s, n, sizeof *s, cmp_i64);
	for (i = 0; i < n; i++)
		sum += (double)s[i];
	st->mean = sum / n;
	for (i = 0; i < n; i++)
		ss += ((double)s[i] - st->mean) * ((double)s[i] - st->mean);
	st->stddev = n > 1 ? sqrt(ss / (n - 1)) : 0;
	st->min = (double)s[0];
	st->max = (double)s[n - 1];
	st->median = n % 2 ? (double)s[n / 2] : ((double)s[n / 2 - 1] + (double)s[n / 2]) / 2;
	st->min *= scale;
	st->median *= scale;
	st->mean *= scale;
	st->max *= scale;
	st->stddev *= scale;
	/* rounding of the mean may put it a hair outside [min, max] */
	if (st->mean < st->min)
		st->mean = st->min;
	if (st->mean > st->max)
		st->mean = st->max;
}

/* The engine's unit parsers (vlayer/vmconfig.c), with two conveniences of the
 * command line: K, M, G for KiB, MiB, GiB, and a bare time in ms. */
int vlcal_parse_size(const char *s, size_t *v)
{
	char buf[64];
	size_t n = strlen(s);
	int64_t b;

	if (n == 0 || n + 3 >= sizeof buf)
		return -1;
	memcpy(buf, s, n + 1);
	if (strchr("KMG", buf[n - 1]))
		memcpy(buf + n, "iB", 3);
	if (vlcfg_parse_size(buf, &b) || b < 0 || b > (int64_t)1e15)
		return -1;
	*v = (size_t)b;
	return 0;
}

int vlcal_parse_time(const char *s, int64_t *ns)
{
	char buf[64];
	size_t n = strlen(s);

	if (n == 0 || n + 3 >= sizeof buf)
		return -1;
	memcpy(buf, s, n + 1);
	if (strchr("0123456789.", buf[n - 1]))
		memcpy(buf + n, "ms", 3);
	if (vlcfg_parse_time(buf, ns) || *ns < 0 || *ns > (int64_t)1e13)
		return -1;
	return 0;
}

int vlcal_default_sizes(size_t lo, size_t hi, size_t *out, int max)
{
	int n = 0;
	size_t p;

	if (lo == 0 && n < max)
		out[n++] = 0;
	for (p = 1; p <= hi && n < max; p *= 2) {
		if (p >= lo)
			out[n++] = p;
		if (p >= 2 && p + p / 2 <= hi && p + p / 2 >= lo && n < max)
			out[n++] = p + p / 2;
		if (p > ((size_t)1 << 40))
			break;
	}
	return n;
}

int64_t vlcal_clock_id(void)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	char buf[128];
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	if (!f)
		return 0;
	if (!fgets(buf, sizeof buf, f))
		buf[0] = 0;
	fclose(f);
	for (i = 0; buf[i] && buf[i] != '\n'; i++)
		h = (h ^ (unsigned char)buf[i]) * 1099511628211ULL;
	return i ? (int64_t)(h >> 1) : 0;
}
