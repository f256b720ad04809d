/* calib_opts.c - the options of calib_mpi and calib_pvm (vlcal_parse) and the
 * part of their usage text that they share. */
#include "calib_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KIB 1024L
#define MIB (1024L * 1024L)

const char vlcal_common_usage[] =
    "  -o FILE            the raw CSV file (default: standard output)\n"
    "  --sizes MIN:MAX    ping-pong sizes: 0, powers of two and their 1.5x midpoints\n"
    "                     in [MIN, MAX] (default 0:4MiB; units B KiB MiB GiB KB MB, K=KiB)\n"
    "  --min-time T       per row, repeat until T is spent (default 20ms; bare number = ms)\n"
    "  --max-reps N       at most N repetitions per row (default 1000; at least min(10, N))\n"
    "  --row-budget T     per row, warm-up included, about T at most (default 3s): on a\n"
    "                     slow link a row of large messages takes fewer warm-ups and\n"
    "                     repetitions (at least 1 and 3), with a line on stderr\n"
    "  --only LIST        experiments to run, comma-separated: rtt oneway send pack recv gap\n"
    "                     contention bsp_exchange bsp_pingpong bsp_onetoall bsp_alltoone\n"
    "                     bsp_alltoall bsp_barrier, or bsp (all six bsp_*); share_exchange\n"
    "                     share_fanout share_fanin share_alltoall share_first, or share\n"
    "                     (all five) (default: all; PVM: all but share*)\n"
    "  --bsp-procs LIST   task counts for the BSP patterns (default 2, 4, 8, ... and P)\n"
    "  --bsp-h LIST       h-relation targets in bytes (default 1KiB 4KiB ... 4MiB), rounded\n"
    "                     to a multiple of 2(p-1) for every p so that all five patterns\n"
    "                     move whole bytes at the same h\n"
    "  --ranks-per-node N treat tasks r / N as one node (overrides the detection)\n"
    "  --quick            few sizes (0 1 8 1KiB 64KiB 1MiB), few repetitions (5..20,\n"
    "                     1ms), h 1KiB 16KiB 256KiB, BSP at P tasks only: for tests\n"
    "  --command STR      the `command:` metadata line (default: this argument list)\n"
    "  -h, --help         this text\n";

static int parse_list_long(const char *s, long *out, int max, int sizes)
{
	char buf[1024], *tok, *save = NULL;
	int n = 0;

	if (strlen(s) >= sizeof buf)
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t v;
		char *end;
		long x;

		if (n >= max)
			return -1;
		if (sizes) {
			if (vlcal_parse_size(tok, &v) || v == 0 || v > (size_t)1 << 40)
				return -1;
			x = (long)v;
		} else {
			errno = 0;
			x = strtol(tok, &end, 10);
			if (end == tok || *end || errno || x < 2 || x > 1000000)
				return -1;
		}
		out[n++] = x;
	}
	return n > 0 ? n : -1;
}

static int parse_only(const char *s, unsigned *mask)
{
	char buf[1024], *tok, *save = NULL;
	int e;

	if (strlen(s) >= sizeof buf)
		return -1;
	strcpy(buf, s);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "bsp") || !strcmp(tok, "share")) {
			*mask |= tok[0] == 'b' ? VLCAL_BSP_MASK : VLCAL_SHARE_MASK;
			continue;
		}
		for (e = 0; e < VL_CALIB_NEXP; e++)
			if (!strcmp(tok, vlcal_exp_name(e)))
				break;
		if (e == VL_CALIB_NEXP)
			return -1;
		*mask |= 1u << e;
	}
	return *mask ? 0 : -1;
}

static int parse_sizes_range(const char *s, size_t *lo, size_t *hi)
{
	char buf[256], *colon;

	if (strlen(s) >= sizeof buf)
		return -1;
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (!colon)
		return -1;
	*colon = 0;
	if (vlcal_parse_size(buf, lo) || vlcal_parse_size(colon + 1, hi) || *lo > *hi)
		return -1;
	return *hi <= ((size_t)1 << 40) ? 0 : -1;
}

static int parse_int(const char *s, int lo, int hi, int *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(s, &end, 10);
	if (end == s || *end || errno || x < lo || x > hi)
		return -1;
	*v = (int)x;
	return 0;
}

/* the option's value or NULL (message printed) */
static const char *need(const char *prog, const char *opt, const char *next)
{
	if (!next)
		fprintf(stderr, "%s: %s needs a value (see --help)\n", prog, opt);
	return next;
}

static int bad(const char *prog, const char *opt, const char *val, const char *what)
{
	fprintf(stderr, "%s: %s %s: %s (see --help)\n", prog, opt, val, what);
	return 2;
}

static void quick_defaults(vlcal_opts *o, size_t lo, size_t hi, int have_time, int have_reps,
                           int have_h)
{
	static const size_t qs[] = {0, 1, 8, 1024, 65536, 1048576};
	size_t i;

	o->nsizes = 0;
	for (i = 0; i < sizeof qs / sizeof qs[0]; i++)
		if (qs[i] >= lo && qs[i] <= hi)
			o->sizes[o->nsizes++] = qs[i];
	if (!have_time)
		o->min_time_ns = 1000000;
	if (!have_reps)
		o->max_reps = 20;
	o->min_reps = o->max_reps < 5 ? o->max_reps : 5;
	o->warmup = 2;
	if (!have_h) {
		o->bsp_h[0] = KIB;
		o->bsp_h[1] = 16 * KIB;
		o->bsp_h[2] = 256 * KIB;
		o->nbsp_h = 3;
	}
}

static void join_args(vlcal_opts *o, int argc, char **argv)
{
	size_t len = 0;
	int i;

	o->argv_line[0] = 0;
	for (i = 0; i < argc; i++) {
		size_t l = strlen(argv[i]);

		if (len + l + 2 >= sizeof o->argv_line)
			break;
		if (i)
			o->argv_line[len++] = ' ';
		memcpy(o->argv_line + len, argv[i], l + 1);
		len += l;
	}
}

int vlcal_parse(vlcal_opts *o, int argc, char **argv, const char *prog, const char *usage,
                int (*extra)(const char *arg, const char *next, void *ctx), void *ctx)
{
	size_t lo = 0, hi = 4 * MIB;
	int i, have_time = 0, have_reps = 0, have_h = 0, k;
	long tmp[VLCAL_MAX_LIST];

	memset(o, 0, sizeof *o);
	o->prog = prog;
	o->out = "-";
	o->only = (1u << VL_CALIB_NEXP) - 1;
	o->min_time_ns = 20000000;
	o->budget_ns = 3000000000LL;
	o->max_reps = 1000;
	o->warmup = 3;
	join_args(o, argc, argv);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
		int used = 2;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("%s%s", usage, vlcal_common_usage);
			return 1;
		} else if (!strcmp(a, "--quick")) {
			o->quick = 1;
			used = 1;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!(o->out = need(prog, a, next)))
				return 2;
		} else if (!strcmp(a, "--command")) {
			if (!(o->command = need(prog, a, next)))
				return 2;
		} else if (!strcmp(a, "--sizes")) {
			if (!need(prog, a, next))
				return 2;
			if (parse_sizes_range(next, &lo, &hi))
				return bad(prog, a, next,
				           "expected MIN:MAX sizes with MIN <= MAX <= 1TiB");
		} else if (!strcmp(a, "--min-time")) {
			if (!need(prog, a, next))
				return 2;
			if (vlcal_parse_time(next, &o->min_time_ns))
				return bad(prog, a, next,
				           "expected a time such as 20ms, 0.5s, 800us");
			have_time = 1;
		} else if (!strcmp(a, "--row-budget")) {
			if (!need(prog, a, next))
				return 2;
			if (vlcal_parse_time(next, &o->budget_ns) || o->budget_ns <= 0)
				return bad(prog, a, next, "expected a time > 0 such as 3s, 500ms");
		} else if (!strcmp(a, "--max-reps")) {
			if (!need(prog, a, next))
				return 2;
			if (parse_int(next, 1, 100000000, &o->max_reps))
				return bad(prog, a, next, "expected an integer 1..100000000");
			have_reps = 1;
		} else if (!strcmp(a, "--ranks-per-node")) {
			if (!need(prog, a, next))
				return 2;
			if (parse_int(next, 1, 1000000, &o->ranks_per_node))
				return bad(prog, a, next, "expected an integer >= 1");
		} else if (!strcmp(a, "--only")) {
			if (!need(prog, a, next))
				return 2;
			if (parse_only(next, &o->only))
				return bad(prog, a, next, "unknown experiment name");
			o->only_given = 1;
		} else if (!strcmp(a, "--bsp-procs")) {
			if (!need(prog, a, next))
				return 2;
			k = parse_list_long(next, tmp, VLCAL_MAX_LIST, 0);
			if (k < 0)
				return bad(prog, a, next,
				           "expected task counts >= 2, comma-separated");
			for (o->nbsp_procs = 0; o->nbsp_procs < k; o->nbsp_procs++)
				o->bsp_procs[o->nbsp_procs] = (int)tmp[o->nbsp_procs];
		} else if (!strcmp(a, "--bsp-h")) {
			if (!need(prog, a, next))
				return 2;
			o->nbsp_h = parse_list_long(next, o->bsp_h, VLCAL_MAX_LIST, 1);
			if (o->nbsp_h < 0)
				return bad(prog, a, next, "expected sizes > 0, comma-separated");
			have_h = 1;
		} else {
			used = extra ? extra(a, next, ctx) : 0;
			if (used < 0)
				return 2;
			if (used == 0) {
				fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog, a);
				return 2;
			}
		}
		i += used - 1;
	}
	o->min_reps = o->max_reps < 10 ? o->max_reps : 10;
	o->nsizes = vlcal_default_sizes(lo, hi, o->sizes, VLCAL_MAX_LIST);
	if (!have_h) {
		for (o->nbsp_h = 0; o->nbsp_h < 7; o->nbsp_h++)
			o->bsp_h[o->nbsp_h] = KIB << (2 * o->nbsp_h);
	}
	if (o->quick)
		quick_defaults(o, lo, hi, have_time, have_reps, have_h);
	if (o->nsizes == 0 && (o->only & ~VLCAL_BSP_MASK)) {
		fprintf(stderr, "%s: --sizes %zu:%zu: no ping-pong size in that range\n", prog, lo,
		        hi);
		return 2;
	}
	return 0;
}
