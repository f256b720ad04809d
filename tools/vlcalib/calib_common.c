/* calib_common.c - options, clocks, statistics, the raw CSV file and the
 * experiments of the vlcalib measurement programs (see calib_common.h for the
 * raw file "vlcalib raw v1").  Nothing here knows MPI or PVM.
 */
#include "calib_common.h"
#include "vlayer/core/vmconfig.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const exp_names[VL_CALIB_NEXP] = {
    "rtt",          "oneway",       "send",         "pack",         "recv",
    "gap",          "contention",   "bsp_exchange", "bsp_pingpong", "bsp_onetoall",
    "bsp_alltoone", "bsp_alltoall", "bsp_barrier",
};

#define BSP_MASK (((1u << (VL_CALIB_BSP_BARRIER + 1)) - 1) & ~((1u << VL_CALIB_BSP_EXCHANGE) - 1))
#define KIB      1024L
#define MIB      (1024L * 1024L)

const char *vlcal_exp_name(int e)
{
	return e >= 0 && e < VL_CALIB_NEXP ? exp_names[e] : "?";
}

const char vlcal_common_usage[] =
    "  -o FILE            the raw CSV file (default: standard output)\n"
    "  --sizes MIN:MAX    ping-pong sizes: 0, powers of two and their 1.5x midpoints\n"
    "                     in [MIN, MAX] (default 0:4MiB; units B KiB MiB GiB KB MB, K=KiB)\n"
    "  --min-time T       per row, repeat until T is spent (default 20ms; bare number = ms)\n"
    "  --max-reps N       at most N repetitions per row (default 1000; at least min(10, N))\n"
    "  --only LIST        experiments to run, comma-separated: rtt oneway send pack recv gap\n"
    "                     contention bsp_exchange bsp_pingpong bsp_onetoall bsp_alltoone\n"
    "                     bsp_alltoall bsp_barrier, or bsp (all six bsp_*) (default: all)\n"
    "  --bsp-procs LIST   task counts for the BSP patterns (default 2, 4, 8, ... and P)\n"
    "  --bsp-h LIST       h-relation targets in bytes (default 1KiB 4KiB ... 4MiB), rounded\n"
    "                     to a multiple of 2(p-1) for every p so that all five patterns\n"
    "                     move whole bytes at the same h\n"
    "  --ranks-per-node N treat tasks r / N as one node (overrides the detection)\n"
    "  --quick            few sizes (0 1 8 1KiB 64KiB 1MiB), few repetitions (5..20,\n"
    "                     1ms), h 1KiB 16KiB 256KiB, BSP at P tasks only: for tests\n"
    "  --command STR      the `command:` metadata line (default: this argument list)\n"
    "  -h, --help         this text\n";

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

/* ---------------------------------------------------------------- options */

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
		if (!strcmp(tok, "bsp")) {
			*mask |= BSP_MASK;
			continue;
		}
		for (e = 0; e < VL_CALIB_NEXP; e++)
			if (!strcmp(tok, exp_names[e]))
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
	long tmp[VL_CALIB_MAX_LIST];

	memset(o, 0, sizeof *o);
	o->prog = prog;
	o->out = "-";
	o->only = (1u << VL_CALIB_NEXP) - 1;
	o->min_time_ns = 20000000;
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
			k = parse_list_long(next, tmp, VL_CALIB_MAX_LIST, 0);
			if (k < 0)
				return bad(prog, a, next,
				           "expected task counts >= 2, comma-separated");
			for (o->nbsp_procs = 0; o->nbsp_procs < k; o->nbsp_procs++)
				o->bsp_procs[o->nbsp_procs] = (int)tmp[o->nbsp_procs];
		} else if (!strcmp(a, "--bsp-h")) {
			if (!need(prog, a, next))
				return 2;
			o->nbsp_h = parse_list_long(next, o->bsp_h, VL_CALIB_MAX_LIST, 1);
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
	o->nsizes = vlcal_default_sizes(lo, hi, o->sizes, VL_CALIB_MAX_LIST);
	if (!have_h) {
		for (o->nbsp_h = 0; o->nbsp_h < 7; o->nbsp_h++)
			o->bsp_h[o->nbsp_h] = KIB << (2 * o->nbsp_h);
	}
	if (o->quick)
		quick_defaults(o, lo, hi, have_time, have_reps, have_h);
	if (o->nsizes == 0 && (o->only & ~BSP_MASK)) {
		fprintf(stderr, "%s: --sizes %zu:%zu: no ping-pong size in that range\n", prog, lo,
		        hi);
		return 2;
	}
	return 0;
}

/* ------------------------------------------------------------ the runner */

enum collect { FROM_ROOT, FROM_PARTNER, MAX_ALL, ONEWAY };

typedef struct calib {
	const vlcal_opts *o;
	const vlcal_ops *ops;
	void *be;
	const vlcal_world *w;
	FILE *f;
	int err;
	int bsp_p[VL_CALIB_MAX_LIST], nbsp_p;
	long h[VL_CALIB_MAX_LIST];
	int nh;
	int same_clock[2]; /* per link kind: the partner has the same clock */
	int64_t offset[2]; /* the first estimate (metadata) */
	int64_t offset_rtt[2];
	int *parts, nparts; /* the participants of the current phase */
	int *dst, *src;     /* scratch lists for the BSP patterns */
} calib;

typedef struct row {
	int exp;
	const char *link;
	int procs;
	size_t bytes;
	long h;
	int partner;    /* 2-task experiments */
	int count;      /* gap: messages per sample */
	int p;          /* BSP: tasks */
	int nd, ns;     /* BSP: this task's destinations and sources (c->dst, c->src) */
	int64_t offset; /* oneway: partner clock - own clock */
	enum collect collect;
} row;

typedef int64_t (*sample_fn)(calib *c, const row *r);

static const char *const link_name[2] = {"intra", "inter"};

static int is_part(const calib *c, int rank)
{
	int i;

	for (i = 0; i < c->nparts; i++)
		if (c->parts[i] == rank)
			return 1;
	return 0;
}

/* a phase: the tasks in parts[] work, the others wait for rank 0's wake-up
 * (without spinning: on a machine with fewer cores than tasks a spinning idle
 * task would steal the measured tasks' processor).  Returns 1 if this task
 * takes part. */
static int phase_begin(calib *c, const int *parts, int n)
{
	const struct timespec nap = {0, 500000};

	memcpy(c->parts, parts, n * sizeof *parts);
	c->nparts = n;
	if (is_part(c, c->w->rank))
		return 1;
	while (!c->ops->iprobe(c->be, 0, VL_CALIB_TAG_CTRL))
		nanosleep(&nap, NULL);
	c->ops->recv_i64(c->be, 0, VL_CALIB_TAG_CTRL, NULL, 0);
	return 0;
}

static void phase_end(calib *c)
{
	int r;

	if (c->w->rank != 0)
		return;
	for (r = 1; r < c->w->size; r++)
		if (!is_part(c, r))
			c->ops->send_i64(c->be, r, VL_CALIB_TAG_CTRL, NULL, 0);
}

static int64_t clamp_reps(const calib *c, int64_t per_iter)
{
	int64_t reps =
	    per_iter > 0 ? (c->o->min_time_ns + per_iter - 1) / per_iter : c->o->max_reps;

	if (reps < c->o->min_reps)
		reps = c->o->min_reps;
	if (reps > c->o->max_reps)
		reps = c->o->max_reps;
	return reps;
}

/* warm-up (discarded), agree on the repetitions (rank 0 decides from the
 * median warm-up iteration, so that one slow first iteration does not cut the
 * repetitions), one more discarded sample to absorb the control message, then
 * the samples */
static int64_t *sample_row(calib *c, const row *r, sample_fn fn, int *nreps)
{
	int64_t t0, reps, *s, w[16];
	int i, nw = c->o->warmup < 1 ? 1 : c->o->warmup > 16 ? 16 : c->o->warmup;
	vlcal_stats st;

	for (i = 0; i < nw; i++) {
		t0 = vlcal_now_ns();
		fn(c, r);
		w[i] = vlcal_now_ns() - t0;
	}
	if (c->w->rank == 0) {
		vlcal_stats_of(w, nw, 1.0, &st);
		reps = clamp_reps(c, (int64_t)st.median);
		for (i = 1; i < c->nparts; i++)
			c->ops->send_i64(c->be, c->parts[i], VL_CALIB_TAG_CTRL, &reps, 1);
	} else {
		c->ops->recv_i64(c->be, 0, VL_CALIB_TAG_CTRL, &reps, 1);
	}
	fn(c, r);
	s = malloc(reps * sizeof *s);
	if (!s) {
		fprintf(stderr, "%s: out of memory\n", c->o->prog);
		exit(1);
	}
	for (i = 0; i < reps; i++)
		s[i] = fn(c, r);
	*nreps = (int)reps;
	return s;
}

/* bring the samples to rank 0 (returns 1 there, with s[] final) */
static int collect(calib *c, const row *r, int64_t *s, int n)
{
	int64_t *t;
	int i, j;

	if (r->collect == FROM_ROOT)
		return c->w->rank == 0;
	if (c->w->rank != 0) {
		if (r->collect == MAX_ALL || c->w->rank == r->partner)
			c->ops->send_i64(c->be, 0, VL_CALIB_TAG_RESULT, s, n);
		return 0;
	}
	t = malloc(n * sizeof *t);
	if (!t) {
		fprintf(stderr, "%s: out of memory\n", c->o->prog);
		exit(1);
	}
	if (r->collect == MAX_ALL) {
		for (i = 1; i < c->nparts; i++) {
			c->ops->recv_i64(c->be, c->parts[i], VL_CALIB_TAG_RESULT, t, n);
			for (j = 0; j < n; j++)
				if (t[j] > s[j])
					s[j] = t[j];
		}
	} else {
		c->ops->recv_i64(c->be, r->partner, VL_CALIB_TAG_RESULT, t, n);
		for (j = 0; j < n; j++)
			s[j] = r->collect == ONEWAY ? t[j] - r->offset - s[j] : t[j];
	}
	free(t);
	return 1;
}

static void write_row(calib *c, const row *r, int64_t *s, int n)
{
	vlcal_stats st;

	vlcal_stats_of(s, n, r->count > 1 ? 1.0 / r->count : 1.0, &st);
	if (fprintf(c->f, "%s,%s,%d,%zu,%ld,%d,%.1f,%.1f,%.1f,%.1f,%.1f\n", exp_names[r->exp],
	            r->link, r->procs, r->bytes, r->h, n, st.min, st.median, st.mean, st.max,
	            st.stddev) < 0 ||
	    fflush(c->f))
		c->err = 1;
}

/* one row of the raw file: every participant calls it */
static void run_row(calib *c, const row *r, sample_fn fn)
{
	int64_t *s;
	int n;

	c->ops->set_size(c->be, r->bytes);
	s = sample_row(c, r, fn, &n);
	if (collect(c, r, s, n))
		write_row(c, r, s, n);
	free(s);
}

/* ------------------------------------------------------- the experiments */

static void ack_send(calib *c, int to)
{
	c->ops->send_i64(c->be, to, VL_CALIB_TAG_ACK, NULL, 0);
}

static void ack_recv(calib *c, int from)
{
	c->ops->recv_i64(c->be, from, VL_CALIB_TAG_ACK, NULL, 0);
}

static int64_t s_rtt(calib *c, const row *r)
{
	int64_t t0;

	if (c->w->rank != 0) {
		c->ops->recv(c->be, 0);
		c->ops->send(c->be, 0);
		return 0;
	}
	t0 = vlcal_now_ns();
	c->ops->send(c->be, r->partner);
	c->ops->recv(c->be, r->partner);
	return vlcal_now_ns() - t0;
}

/* A: the send start; B: the receive return (combined by collect()) */
static int64_t s_oneway(calib *c, const row *r)
{
	int64_t t;

	if (c->w->rank != 0) {
		c->ops->recv(c->be, 0);
		t = vlcal_now_ns();
		ack_send(c, 0);
		return t;
	}
	t = vlcal_now_ns();
	c->ops->send(c->be, r->partner);
	ack_recv(c, r->partner);
	return t;
}

static int64_t s_send(calib *c, const row *r)
{
	int64_t t0, t1;

	if (c->w->rank != 0) {
		c->ops->recv(c->be, 0);
		ack_send(c, 0);
		return 0;
	}
	t0 = vlcal_now_ns();
	c->ops->send(c->be, r->partner);
	t1 = vlcal_now_ns();
	ack_recv(c, r->partner);
	return t1 - t0;
}

static int64_t s_recv(calib *c, const row *r)
{
	int64_t t0, t1;

	if (c->w->rank == 0) {
		c->ops->send(c->be, r->partner);
		ack_recv(c, r->partner);
		return 0;
	}
	c->ops->probe(c->be, 0);
	t0 = vlcal_now_ns();
	c->ops->recv(c->be, 0);
	t1 = vlcal_now_ns();
	ack_send(c, 0);
	return t1 - t0;
}

static int64_t s_gap(calib *c, const row *r)
{
	int64_t t0;
	int i;

	if (c->w->rank != 0) {
		for (i = 0; i < r->count; i++)
			c->ops->recv(c->be, 0);
		ack_send(c, 0);
		return 0;
	}
	t0 = vlcal_now_ns();
	for (i = 0; i < r->count; i++)
		c->ops->send(c->be, r->partner);
	ack_recv(c, r->partner);
	return vlcal_now_ns() - t0;
}

static int64_t s_pack(calib *c, const row *r)
{
	return c->ops->pack(c->be, r->bytes);
}

static int64_t s_contention(calib *c, const row *r)
{
	int64_t t0, t1;
	int i;

	(void)r;
	if (c->w->rank != 0) {
		c->ops->recv(c->be, 0);
		ack_send(c, 0);
		return 0;
	}
	t0 = vlcal_now_ns();
	c->ops->multisend(c->be, c->parts + 1, c->nparts - 1);
	t1 = vlcal_now_ns();
	for (i = 1; i < c->nparts; i++)
		ack_recv(c, c->parts[i]);
	return t1 - t0;
}

static int64_t s_bsp(calib *c, const row *r)
{
	int64_t t0;

	c->ops->barrier(c->be, r->p);
	t0 = vlcal_now_ns();
	if (r->exp == VL_CALIB_BSP_BARRIER)
		c->ops->barrier(c->be, r->p);
	else {
		c->ops->exchange(c->be, c->dst, r->nd, c->src, r->ns);
		c->ops->barrier(c->be, r->p);
	}
	return vlcal_now_ns() - t0;
}

/* ----------------------------------------------------- clocks and phases */

/* Cristian's method on rank 0: offset = t_B - (t_send + rtt / 2) of the
 * smallest of n round trips; the partner answers with its clock */
static int64_t estimate_offset(calib *c, int partner, int n, int64_t *best_rtt)
{
	int64_t best = INT64_MAX, off = 0, t0, t1, tb;
	int i;

	for (i = 0; i < n; i++) {
		if (c->w->rank != 0) {
			c->ops->recv_i64(c->be, 0, VL_CALIB_TAG_STAMP, NULL, 0);
			tb = vlcal_now_ns();
			c->ops->send_i64(c->be, 0, VL_CALIB_TAG_STAMP, &tb, 1);
			continue;
		}
		t0 = vlcal_now_ns();
		c->ops->send_i64(c->be, partner, VL_CALIB_TAG_STAMP, NULL, 0);
		c->ops->recv_i64(c->be, partner, VL_CALIB_TAG_STAMP, &tb, 1);
		t1 = vlcal_now_ns();
		if (t1 - t0 < best) {
			best = t1 - t0;
			off = tb - (t0 + best / 2);
		}
	}
	if (best_rtt)
		*best_rtt = best;
	return off;
}

static int offset_pings(const calib *c)
{
	return c->o->quick ? 20 : 200;
}

/* the partner of rank 0 over link kind k (0 intra, 1 inter), -1 if none */
static int partner_of(const calib *c, int k)
{
	int r;

	for (r = 1; r < c->w->size; r++)
		if ((c->w->node[r] != c->w->node[0]) == k)
			return r;
	return -1;
}

/* both tasks learn whether they read the same clock; rank 0 estimates the offset */
static void clock_setup(calib *c, int k)
{
	int partner = partner_of(c, k), parts[2] = {0, partner};
	int64_t mine = vlcal_clock_id(), theirs = 0;

	if (partner < 0 || !phase_begin(c, parts, 2))
		return;
	if (c->w->rank == 0) {
		c->ops->send_i64(c->be, partner, VL_CALIB_TAG_STAMP, &mine, 1);
		c->ops->recv_i64(c->be, partner, VL_CALIB_TAG_STAMP, &theirs, 1);
	} else {
		c->ops->recv_i64(c->be, 0, VL_CALIB_TAG_STAMP, &theirs, 1);
		c->ops->send_i64(c->be, 0, VL_CALIB_TAG_STAMP, &mine, 1);
	}
	c->same_clock[k] = mine != 0 && mine == theirs;
	c->offset[k] = estimate_offset(c, partner, offset_pings(c), &c->offset_rtt[k]);
	phase_end(c);
}

/* ---------------------------------------------------------- the plan */

static int gap_count(size_t bytes)
{
	size_t n = bytes ? (size_t)(16 * MIB) / bytes : 100;

	return n < 8 ? 8 : n > 100 ? 100 : (int)n;
}

static int want(const calib *c, int e)
{
	return (c->o->only >> e) & 1;
}

static void pingpong_family(calib *c, int k)
{
	static const struct {
		int exp;
		sample_fn fn;
		enum collect col;
	} fam[] = {{VL_CALIB_RTT, s_rtt, FROM_ROOT},
	           {VL_CALIB_ONEWAY, s_oneway, ONEWAY},
	           {VL_CALIB_SEND, s_send, FROM_ROOT},
	           {VL_CALIB_RECV, s_recv, FROM_PARTNER},
	           {VL_CALIB_GAP, s_gap, FROM_ROOT}};
	int partner = partner_of(c, k), parts[2] = {0, partner};
	size_t e;
	int i;

	if (partner < 0 || !phase_begin(c, parts, 2))
		return;
	for (e = 0; e < sizeof fam / sizeof fam[0]; e++) {
		if (!want(c, fam[e].exp))
			continue;
		for (i = 0; i < c->o->nsizes; i++) {
			row r = {.exp = fam[e].exp,
			         .link = link_name[k],
			         .procs = 2,
			         .bytes = c->o->sizes[i],
			         .partner = partner,
			         .collect = fam[e].col};

			if (r.exp == VL_CALIB_GAP)
				r.count = gap_count(r.bytes);
			if (r.exp == VL_CALIB_ONEWAY && !c->same_clock[k])
				r.offset = estimate_offset(c, partner, offset_pings(c) / 4, NULL);
			run_row(c, &r, fam[e].fn);
		}
	}
	phase_end(c);
}

static void pack_rows(calib *c)
{
	int parts[1] = {0}, i;

	if (!c->ops->pack || !want(c, VL_CALIB_PACK) || !phase_begin(c, parts, 1))
		return;
	for (i = 0; i < c->o->nsizes; i++) {
		row r = {
		    .exp = VL_CALIB_PACK, .link = "intra", .procs = 1, .bytes = c->o->sizes[i]};

		run_row(c, &r, s_pack);
	}
	phase_end(c);
}

static void contention_rows(calib *c, int k)
{
	int *parts = malloc(c->w->size * sizeof *parts), n = 1, r, i, j;

	if (!parts)
		exit(1);
	parts[0] = 0;
	for (r = 1; r < c->w->size; r++)
		if ((c->w->node[r] != c->w->node[0]) == k)
			parts[n++] = r;
	for (j = 2; j <= n; j++) {
		if (!phase_begin(c, parts, j))
			continue;
		for (i = 0; i < c->o->nsizes; i++) {
			row rw = {.exp = VL_CALIB_CONTENTION,
			          .link = link_name[k],
			          .procs = j,
			          .bytes = c->o->sizes[i]};

			run_row(c, &rw, s_contention);
		}
		phase_end(c);
	}
	free(parts);
}

/* this task's destinations and sources in pattern e among p tasks; message size */
static size_t bsp_pattern(calib *c, row *r, long h)
{
	int me = c->w->rank, p = r->p, i;

	r->nd = r->ns = 0;
	switch (r->exp) {
	case VL_CALIB_BSP_PINGPONG:
		if (me % 2 == 0 && me + 1 < p)
			c->dst[r->nd++] = me + 1;
		if (me % 2 == 1)
			c->src[r->ns++] = me - 1;
		return (size_t)h;
	case VL_CALIB_BSP_EXCHANGE:
		if ((me ^ 1) < p) {
			c->dst[r->nd++] = me ^ 1;
			c->src[r->ns++] = me ^ 1;
		}
		return (size_t)h / 2;
	case VL_CALIB_BSP_ONETOALL:
	case VL_CALIB_BSP_ALLTOONE: {
		int out = r->exp == VL_CALIB_BSP_ONETOALL;

		for (i = 1; i < p && me == 0; i++) {
			if (out)
				c->dst[r->nd++] = i;
			else
				c->src[r->ns++] = i;
		}
		if (me != 0 && out)
			c->src[r->ns++] = 0;
		else if (me != 0)
			c->dst[r->nd++] = 0;
		return (size_t)h / (p - 1);
	}
	case VL_CALIB_BSP_ALLTOALL:
		for (i = 0; i < p; i++) {
			if (i != me) {
				c->dst[r->nd++] = i;
				c->src[r->ns++] = i;
			}
		}
		return (size_t)h / (2 * (p - 1));
	}
	return 0;
}

static void bsp_rows(calib *c, int p)
{
	int *parts = malloc(p * sizeof *parts), i, e, all_one = 1;
	const char *link;

	if (!parts)
		exit(1);
	for (i = 0; i < p; i++) {
		parts[i] = i;
		all_one &= c->w->node[i] == c->w->node[0];
	}
	link = link_name[!all_one];
	if (phase_begin(c, parts, p)) {
		for (e = VL_CALIB_BSP_EXCHANGE; e <= VL_CALIB_BSP_BARRIER; e++) {
			int nh = e == VL_CALIB_BSP_BARRIER ? 1 : c->nh;

			for (i = 0; i < nh && want(c, e); i++) {
				row r = {
				    .exp = e, .link = link, .procs = p, .p = p, .collect = MAX_ALL};

				if (e != VL_CALIB_BSP_BARRIER) {
					r.h = c->h[i];
					r.bytes = bsp_pattern(c, &r, r.h);
				}
				run_row(c, &r, s_bsp);
			}
		}
		phase_end(c);
	}
	free(parts);
}

static long gcd_l(long a, long b)
{
	while (b) {
		long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* the BSP task counts and the h values: multiples of 2(p-1) for every p */
static int bsp_plan(calib *c)
{
	const vlcal_opts *o = c->o;
	long l = 1, m;
	int i, p, P = c->w->size;

	c->nbsp_p = 0;
	if (o->nbsp_procs) {
		for (i = 0; i < o->nbsp_procs; i++) {
			if (o->bsp_procs[i] > P) {
				if (c->w->rank == 0)
					fprintf(stderr, "%s: --bsp-procs %d: only %d tasks run\n",
					        o->prog, o->bsp_procs[i], P);
				return 2;
			}
			c->bsp_p[c->nbsp_p++] = o->bsp_procs[i];
		}
	} else if (o->quick && P >= 2) {
		c->bsp_p[c->nbsp_p++] = P;
	} else {
		for (p = 2; p <= P && c->nbsp_p < VL_CALIB_MAX_LIST - 1; p *= 2)
			c->bsp_p[c->nbsp_p++] = p;
		if (P >= 2 && c->bsp_p[c->nbsp_p - 1] != P)
			c->bsp_p[c->nbsp_p++] = P;
	}
	for (i = 0; i < c->nbsp_p; i++)
		l = l / gcd_l(l, 2L * (c->bsp_p[i] - 1)) * (2L * (c->bsp_p[i] - 1));
	c->nh = 0;
	for (i = 0; i < o->nbsp_h; i++) {
		m = (o->bsp_h[i] + l / 2) / l * l;
		if (m < l)
			m = l;
		if (c->nh == 0 || m > c->h[c->nh - 1])
			c->h[c->nh++] = m;
	}
	return 0;
}

/* ----------------------------------------------------------- the file */

static void iso_date(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void write_header(calib *c)
{
	const vlcal_world *w = c->w;
	char date[64];
	int r, q, k, seen;

	iso_date(date, sizeof date);
	fprintf(c->f, "# vlcalib raw v1\n# library: %s\n", c->ops->library);
	if (w->library_version)
		fprintf(c->f, "# library_version: %s\n", w->library_version);
	fprintf(c->f, "# hosts: ");
	for (r = 0, seen = 0; r < w->size; r++) {
		for (q = 0; q < r && w->node[q] != w->node[r]; q++)
			;
		if (q == r)
			fprintf(c->f, "%s%s", seen++ ? "," : "", w->host[r]);
	}
	fprintf(c->f, "\n# tasks: %d\n# placement:", w->size);
	for (r = 0; r < w->size; r++)
		fprintf(c->f, " %d@%s(node %d)", r, w->host[r], w->node[r]);
	fprintf(c->f, "\n# date: %s\n# command: %s\n", date,
	        c->o->command ? c->o->command : c->o->argv_line);
	for (k = 0; k < 2; k++) {
		int p = partner_of(c, k);

		if (p < 0)
			continue;
		fprintf(
		    c->f,
		    "# clock_offset_ns: %s,%s: %lld (%s: rank %d - rank 0, min rtt %lld ns%s)\n",
		    w->host[0], w->host[p], (long long)c->offset[k], link_name[k], p,
		    (long long)c->offset_rtt[k],
		    c->same_clock[k] ? "; same kernel clock: oneway uses 0"
		                     : "; oneway re-estimates it before every size");
	}
	fprintf(c->f, "# reps: %d..%d, at least %.3f ms per row, %d warm-up\n", c->o->min_reps,
	        c->o->max_reps, c->o->min_time_ns / 1e6, c->o->warmup + 1);
	fprintf(c->f, "# gap: messages per sample = 16MiB / bytes, clamped to 8..100\n");
	fprintf(c->f,
	        "experiment,link,procs,bytes,h,reps,min_ns,median_ns,mean_ns,max_ns,stddev_ns\n");
	if (fflush(c->f))
		c->err = 1;
}

/* rank 0 opens the file and tells everybody whether it worked */
static int open_out(calib *c)
{
	int64_t ok = 1;
	int r;

	if (c->w->rank == 0) {
		if (!strcmp(c->o->out, "-"))
			c->f = stdout;
		else if (!(c->f = fopen(c->o->out, "w"))) {
			fprintf(stderr, "%s: %s: %s\n", c->o->prog, c->o->out, strerror(errno));
			ok = 0;
		}
		for (r = 1; r < c->w->size; r++)
			c->ops->send_i64(c->be, r, VL_CALIB_TAG_CTRL, &ok, 1);
	} else {
		c->ops->recv_i64(c->be, 0, VL_CALIB_TAG_CTRL, &ok, 1);
	}
	return ok ? 0 : 1;
}

int vlcal_run(const vlcal_opts *o, const vlcal_ops *ops, void *be, const vlcal_world *w)
{
	calib c = {.o = o, .ops = ops, .be = be, .w = w};
	int k, i, rc;

	if ((rc = bsp_plan(&c)) != 0)
		return rc;
	c.parts = malloc(w->size * sizeof *c.parts);
	c.dst = malloc(w->size * sizeof *c.dst);
	c.src = malloc(w->size * sizeof *c.src);
	if (!c.parts || !c.dst || !c.src) {
		fprintf(stderr, "%s: out of memory\n", o->prog);
		rc = 1;
		goto out;
	}
	if (open_out(&c)) {
		rc = 1;
		goto out;
	}
	for (k = 0; k < 2; k++)
		clock_setup(&c, k);
	if (w->rank == 0)
		write_header(&c);
	pack_rows(&c);
	for (k = 0; k < 2; k++) {
		pingpong_family(&c, k);
		if (want(&c, VL_CALIB_CONTENTION))
			contention_rows(&c, k);
	}
	for (i = 0; i < c.nbsp_p && (o->only & BSP_MASK); i++)
		bsp_rows(&c, c.bsp_p[i]);
	rc = 0;
	if (w->rank == 0) {
		if (c.f != stdout && fclose(c.f))
			c.err = 1;
		if (c.err) {
			fprintf(stderr, "%s: %s: write error\n", o->prog, o->out);
			rc = 1;
		}
	}
out:
	free(c.parts);
	free(c.dst);
	free(c.src);
	return rc;
}
