/* test_share.c - unit tests of the sharing fit (tools/vlcalib/fit_share.c):
 * raw files of share_* rows made from known parameters (a star or a switch,
 * full or half duplex, with and without a backplane that limits) are loaded
 * by the raw reader and fitted; the fit must give the parameters back and
 * choose the right duplex, and with share_first rows the right sharing
 * (fair or fifo).  The times come from the closed forms of
 * fit_share.h, written out here once more (exact: relative 1e-9; with 2 %
 * seeded noise: within a stated tolerance), and from vlayer's own flow model
 * (vlayer/core/links.c), so that the closed forms are the engine's.
 */
#include "tools/vlcalib/fit_share.h"
#include "vlayer/core/engine.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXACT  1e-9
#define NSIZES 13 /* 0, then 4^0 .. 4^11 (4 MiB): what calib_mpi measures */
#define P      4  /* tasks: exchange, k = 1..3, all-to-all p = 3, 4 */

enum { EXCH, FANOUT, FANIN, A2A, FIRST };
static const char *const xname[] = {"share_exchange", "share_fanout", "share_fanin",
                                    "share_alltoall", "share_first"};

/* a machine: bandwidth and backplane in MB/s (0: none), latency in ns,
 * sharing = fifo */
typedef struct machine {
	int half;
	double bw, bp, lat;
	int fifo;
} machine;

/* fifo: the all-to-all of P hosts in rounds - in each, every flow not yet
 * through, in the order (sender, receiver), goes if both its ends' links
 * (directions) are free; the number of rounds */
static int a2a_rounds(int p, int half)
{
	int went[P][P] = {{0}}, n = 0, r;

	for (r = 0; n < p * (p - 1); r++) {
		int out[P] = {0}, in[P] = {0};

		for (int a = 0; a < p; a++)
			for (int b = 0; b < p; b++) {
				int *x = &out[a], *y = half ? &out[b] : &in[b];

				if (a != b && !went[a][b] && !*x && !*y && !(half && (in[a] || in[b]))) {
					*x = *y = went[a][b] = 1;
					n++;
				}
			}
	}
	return r;
}

/* the last flow's end of experiment X with TASKS tasks and M bytes each,
 * written from docs/vmconfig.md's routes (not from fit_share.c's table) */
static double closed_form(const machine *mc, int x, int tasks, double m)
{
	double k = tasks - 1, p = tasks, B = mc->bw * 1e-3, C = mc->bp * 1e-3; /* B/ns */
	double link, all;

	switch (x) {
	case EXCH: /* one flow each way: 1 per direction, 2 on a half-duplex link */
		link = mc->half ? 2 : 1;
		all = 2;
		break;
	case A2A: /* p - 1 out and p - 1 in at every host; fifo: in rounds */
		link = mc->fifo ? a2a_rounds(tasks, mc->half)
		                : mc->half ? 2 * (p - 1) : p - 1;
		all = p * (p - 1);
		break;
	case FIRST: /* the first of k leaving one host's link: alone if fifo */
		link = all = mc->fifo ? 1 : k;
		break;
	default: /* k leave (or enter) one host's link */
		link = all = k;
		break;
	}
	return mc->lat + m * fmax(link / B, C > 0 ? all / C : 0);
}

/* ---- raw files ---- */

static uint32_t seed;

/* uniform in [-1, 1) (xorshift32) */
static double unoise(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return (double)seed / 2147483648.0 - 1;
}

typedef double (*time_fn)(const machine *mc, int x, int tasks, double m);

/* A new file /tmp/test_share.XXXXXX (its name into PATH, 32 bytes), open
 * for writing. */
static FILE *new_file(char *path)
{
	int fd;

	snprintf(path, 32, "/tmp/test_share.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	return fdopen(fd, "w");
}

/* A raw file of the columns a fit needs and the rows TEXT into PATH (32
 * bytes). */
static void raw_rows(char *path, const char *text)
{
	FILE *f = new_file(path);

	fprintf(f, "# vlcalib raw v1\nexperiment,link,procs,bytes,h,reps,min_ns,median_ns\n%s",
	        text);
	fclose(f);
}

static unsigned xmask = 0xf; /* the experiments write_raw writes (bit EXCH ...) */
static const char *wlib = "synthetic"; /* the library write_raw names */

/* A raw file of every share_* experiment of P tasks on LINK: times TF, plus
 * OVH * (tasks - 1) ns (what an experiment adds: its start and reply
 * messages), times (1 + NOISE u), u uniform in [-1, 1).  Its path (static). */
static const char *write_raw(const machine *mc, time_fn tf, const char *link, double ovh,
                             double noise)
{
	static char path[32];
	FILE *f = new_file(path);

	fprintf(f,
	        "# vlcalib raw v1\n# library: %s\n"
	        "experiment,link,procs,bytes,h,reps,min_ns,median_ns,mean_ns,max_ns,stddev_ns\n",
	        wlib);
	for (int x = EXCH; x <= FIRST; x++)
		for (int t = x >= A2A ? 3 : 2; t <= (x == EXCH ? 2 : P) && (xmask >> x & 1); t++)
			for (int i = 0; i < NSIZES; i++) {
				double m = i ? ldexp(1, 2 * (i - 1)) : 0;
				double v =
				    (tf(mc, x, t, m) + ovh * (t - 1)) * (1 + noise * unoise());

				fprintf(f, "%s,%s,%d,%.0f,0,20,%.6f,%.6f,%.6f,%.6f,0\n", xname[x],
				        link, t, m, v, v, v, v);
			}
	fclose(f);
	return path;
}

/* Loads PATH (then removes it) and fits its share_* rows of LINK into S;
 * the fit's return code.  RAW must stay while S is used. */
static int load_fit(const char *path, int link, vlcal_raw *raw, vlcal_share *s)
{
	const char *files[1] = {path};
	char *err = NULL;

	vlcal_raw_init(raw);
	ck_assert_msg(vlcal_raw_load(raw, path, 0, 0, 3, &err) == 0, "%s", err ? err : "?");
	ck_assert_msg(vlcal_raw_merge(raw, files, 0, &err) == 0, "%s", err ? err : "?");
	unlink(path);
	ck_assert_int_ge(vlcal_share_load(s, raw, link), 0);
	return vlcal_share_fit(s, 1000);
}

/* |got - want| <= tol * |want| */
#define ck_rel(got, want, tol)                                                                     \
	do {                                                                                       \
		double g_ = (got), w_ = (want);                                                    \
		ck_assert_msg(fabs(g_ - w_) <= (tol)*fabs(w_), "%s = %.12g, expected %.12g", #got, \
		              g_, w_);                                                             \
	} while (0)

/* S recovers MC exactly; every experiment's closed form fits it */
static void check_exact(const vlcal_share *s, const machine *mc)
{
	ck_assert_int_eq(s->ne, 1 + 2 * (P - 1) + (P - 2));
	ck_assert_int_eq(s->decided, 1);
	ck_assert_int_eq(s->half, mc->half);
	ck_rel(s->bw * 1e3, mc->bw, EXACT);
	if (mc->bp > 0)
		ck_rel(s->backplane * 1e3, mc->bp, EXACT);
	else
		ck_assert(s->backplane == 0);
	ck_assert_msg(s->err[mc->half] < EXACT, "slope error %g", s->err[mc->half]);
	ck_assert_msg(s->err[!mc->half] > 0.03, "the other duplex fits too: %g", s->err[!mc->half]);
	ck_assert_msg(s->max_rel < EXACT, "max error %g", s->max_rel);
	for (int i = 0; i < s->ne; i++) {
		const vlcal_share_exp *e = &s->e[i];
		double want = closed_form(mc, e->x - VLCAL_X_SHARE, e->procs, 1) - mc->lat;

		ck_rel(e->s, want, EXACT);
		ck_assert_msg(e->rms_rel < EXACT && e->max_rel < EXACT, "%s(%d): error %g",
		              xname[e->x - VLCAL_X_SHARE], e->procs, e->max_rel);
	}
}

/* the experiments the backplane bounds, as a string of B (backplane) and l */
static void bound_pattern(const vlcal_share *s, char *out)
{
	for (int i = 0; i < s->ne; i++)
		out[i] = s->e[i].backplane_bound ? 'B' : 'l';
	out[s->ne] = 0;
}

/* rows of MC (link inter) give it back; BOUND: which experiments the
 * backplane bounds (exchange, fan-out k = 1..3, fan-in k = 1..3, all-to-all
 * p = 3, 4: the rows' order) */
static void run_exact(const machine *mc, const char *bound)
{
	vlcal_raw raw;
	vlcal_share s;
	char b[16];

	ck_assert_int_eq(load_fit(write_raw(mc, closed_form, "inter", 0, 0), 1, &raw, &s),
	                 VLCAL_FIT_OK);
	check_exact(&s, mc);
	ck_rel(s.latency, mc->lat, EXACT);
	bound_pattern(&s, b);
	ck_assert_str_eq(b, bound);
	vlcal_share_free(&s);
	vlcal_raw_free(&raw);
}

/* stars and switches, full and half duplex, and which experiments the
 * backplane bounds: a switch of 250 MB/s bounds the all-to-alls (12 / 250 >
 * 3 / 100 at p = 4, 6 / 250 > 2 / 100 at p = 3), the rest are bound by the
 * links; with half duplex one of 120 MB/s (6 / 120 > 4 / 100 at p = 3) */
static const struct {
	machine mc;
	const char *bound;
} exact_cases[] = {{{0, 100, 0, 50000, 0}, "lllllllll"},
                   {{1, 100, 0, 50000, 0}, "lllllllll"},
                   {{0, 100, 250, 30000, 0}, "lllllllBB"},
                   {{1, 100, 120, 30000, 0}, "lllllllBB"}};

START_TEST(exact)
{
	run_exact(&exact_cases[_i].mc, exact_cases[_i].bound);
}
END_TEST

/* a backplane slower than a link bounds everything; the bandwidth is then
 * the smallest that leaves it so (= the backplane's: a fan-out of k) */
START_TEST(slow_backplane)
{
	machine mc = {0, 1000, 100, 30000, 0}, seen = {0, 100, 100, 30000, 0};
	vlcal_raw raw;
	vlcal_share s;
	char b[16];

	ck_assert_int_eq(load_fit(write_raw(&mc, closed_form, "inter", 0, 0), 1, &raw, &s), 0);
	ck_assert_int_eq(s.half, 0);
	ck_rel(s.backplane * 1e3, 100, EXACT);
	ck_rel(s.bw * 1e3, seen.bw, EXACT);
	bound_pattern(&s, b);
	ck_assert_str_eq(b, "BBBBBBBBB");
	ck_assert_msg(s.max_rel < EXACT, "max error %g", s.max_rel);
	vlcal_share_free(&s);
	vlcal_raw_free(&raw);
}
END_TEST

/* what an experiment adds to the flows (here 7 us per partner) moves its
 * intercept, not its slope: the parameters come back all the same, and each
 * experiment's intercept is the latency plus its own addition */
START_TEST(overheads)
{
	machine mc = {1, 117.5, 200, 40000, 0}; /* the backplane bounds p = 4 only */
	vlcal_raw raw;
	vlcal_share s;

	ck_assert_int_eq(load_fit(write_raw(&mc, closed_form, "intra", 7000, 0), 0, &raw, &s), 0);
	check_exact(&s, &mc);
	for (int i = 0; i < s.ne; i++)
		ck_rel(s.e[i].icpt, mc.lat + 7000 * (s.e[i].procs - 1), EXACT);
	ck_assert(s.latency > mc.lat && s.latency < mc.lat + 7000 * (P - 1));
	vlcal_share_free(&s);
	vlcal_raw_free(&raw);
}
END_TEST

/* a token bucket's burst: messages below 16 KiB pass at once (latency only),
 * the others take the closed form - the slopes come from the rows of 64 KiB
 * and more, so the bandwidth and duplex come back exactly (through all rows
 * the burst would bend them: 45 MB/s for 12.5 on the emulated cluster) */
static double burst_time(const machine *mc, int x, int tasks, double m)
{
	return m < 16384 ? mc->lat : closed_form(mc, x, tasks, m);
}

START_TEST(burst)
{
	machine mc = {1, 12.5, 0, 30000, 0};
	vlcal_raw raw;
	vlcal_share s;

	ck_assert_int_eq(load_fit(write_raw(&mc, burst_time, "inter", 0, 0), 1, &raw, &s), 0);
	ck_assert_int_eq(s.half, 1);
	ck_rel(s.bw * 1e3, mc.bw, EXACT);
	ck_assert(s.backplane == 0);
	vlcal_share_free(&s);
	vlcal_raw_free(&raw);
}
END_TEST

/* 2 % noise on every time, 25 seeds per machine: the duplex always right,
 * the bandwidth within 2 %, a backplane that limits within 4 % and none
 * invented where none limits */
START_TEST(noise)
{
	const machine ms[] = {
	    {0, 100, 0, 50000, 0}, {1, 100, 0, 50000, 0}, {0, 100, 250, 50000, 0}, {1, 100, 120, 50000, 0}};

	for (size_t j = 0; j < sizeof ms / sizeof ms[0]; j++)
		for (uint32_t sd = 1; sd <= 25; sd++) {
			vlcal_raw raw;
			vlcal_share s;

			seed = 2654435761u * sd;
			ck_assert_int_eq(
			    load_fit(write_raw(&ms[j], closed_form, "inter", 0, 0.02), 1, &raw, &s),
			    0);
			ck_assert_msg(s.half == ms[j].half, "machine %zu seed %u: duplex", j, sd);
			ck_assert_msg(fabs(s.bw * 1e3 / ms[j].bw - 1) < 0.02,
			              "machine %zu seed %u: bandwidth %g", j, sd, s.bw * 1e3);
			if (ms[j].bp > 0)
				ck_assert_msg(fabs(s.backplane * 1e3 / ms[j].bp - 1) < 0.04,
				              "machine %zu seed %u: backplane %g", j, sd,
				              s.backplane * 1e3);
			else
				ck_assert_msg(s.backplane == 0, "machine %zu seed %u: backplane %g",
				              j, sd, s.backplane * 1e3);
			vlcal_share_free(&s);
			vlcal_raw_free(&raw);
		}
}
END_TEST

/* ---- the engine's flow model ---- */

static vlcfg_config eng_cfg;

/* the last arrival of experiment X among TASKS hosts (host 0 and 1 ..), every
 * flow leaving at 0 (share_first: the first flow's arrival, the flows added
 * in the order of their destinations), by vlayer's flow model on eng_cfg */
static double engine_time(const machine *mc, int x, int tasks, double m)
{
	vli_flows f;
	int64_t end, last = 0;
	int n = 0, id[P * P];

	(void)mc;
	vli_flows_init(&f, &eng_cfg);
	for (int a = 0; a < tasks; a++)
		for (int b = 0; b < tasks; b++) {
			int use = a != b && (x == EXCH || x == A2A ||
			                     ((x == FANOUT || x == FIRST) && a == 0) ||
			                     (x == FANIN && b == 0));

			if (use)
				id[n++] = vli_flows_add(&f, a, b, (int64_t)m, 0);
		}
	vli_flows_advance(&f, INFINITY);
	for (int i = 0; i < (x == FIRST ? 1 : n); i++) {
		ck_assert(vli_flows_end(&f, id[i], &end));
		last = end > last ? end : last;
	}
	vli_flows_free(&f);
	return (double)last;
}

/* the machine MC as a VMConfig of P hosts into eng_cfg */
static void engine_load(const machine *mc)
{
	char path[32], err[512];
	FILE *f = new_file(path);

	fprintf(f, "[topology]\nkind = %s\nduplex = %s\nbandwidth = %gMB/s\nlatency = %.0fns\n",
	        mc->bp > 0 ? "switch" : "star", mc->half ? "half" : "full", mc->bw, mc->lat);
	if (mc->bp > 0)
		fprintf(f, "backplane = %gMB/s\n", mc->bp);
	if (mc->fifo)
		fprintf(f, "sharing = fifo\n");
	fprintf(f, "[hosts h]\ncount = %d\n", P);
	fclose(f);
	ck_assert_msg(vlcfg_load(path, &eng_cfg, err, sizeof err) == 0, "%s", err);
	unlink(path);
}

/* rows from the engine give its [topology] back (to its rounding to whole
 * ns), share_first's rows its sharing; the closed forms of fit_share.h agree
 * with the engine to the ns, under fair sharing and under fifo without a
 * backplane (fifo with a backplane that limits: the all-to-all's closed form
 * is an approximation, fit_share.h) */
START_TEST(engine)
{
	const machine ms[] = {{0, 100, 0, 25000, 0},   {1, 100, 0, 25000, 0},
	                      {0, 100, 250, 25000, 0}, {1, 100, 120, 25000, 0},
	                      {0, 100, 0, 25000, 1},   {1, 100, 0, 25000, 1}};

	xmask = 0x1f;
	for (size_t j = 0; j < sizeof ms / sizeof ms[0]; j++) {
		vlcal_raw raw;
		vlcal_share s;

		engine_load(&ms[j]);
		for (int x = EXCH; x <= FIRST; x++)
			for (int t = 2; t <= (x == EXCH ? 2 : P); t++)
				for (int i = 0; i < NSIZES; i++) {
					double m = i ? ldexp(1, 2 * (i - 1)) : 0;

					ck_assert_msg(fabs(engine_time(&ms[j], x, t, m) -
					                   closed_form(&ms[j], x, t, m)) <= 1,
					              "machine %zu: %s, %d tasks, %g B", j,
					              xname[x], t, m);
				}
		ck_assert_int_eq(
		    load_fit(write_raw(&ms[j], engine_time, "inter", 0, 0), 1, &raw, &s), 0);
		ck_assert_int_eq(s.half, ms[j].half);
		ck_assert_int_eq(s.sharing_decided, 1);
		ck_assert_msg(s.fifo == ms[j].fifo, "machine %zu: sharing", j);
		ck_rel(s.bw * 1e3, ms[j].bw, 1e-6);
		ck_rel(s.backplane * 1e3, ms[j].bp, 1e-6);
		ck_rel(s.latency, ms[j].lat, 1e-6);
		vlcal_share_free(&s);
		vlcal_raw_free(&raw);
		vlcfg_free(&eng_cfg);
	}
	xmask = 0xf;
}
END_TEST

/* share_first tells fair from fifo on every machine of the exact cases, also
 * with 2 % noise (25 seeds); without it the sharing is undecided (fair) */
START_TEST(sharing)
{
	for (size_t j = 0; j < sizeof exact_cases / sizeof exact_cases[0]; j++)
		for (int fifo = 0; fifo < 2; fifo++)
			for (uint32_t sd = 0; sd <= 25; sd++) {
				machine mc = exact_cases[j].mc;
				vlcal_raw raw;
				vlcal_share s;

				mc.fifo = fifo;
				seed = 2654435761u * (sd + 1);
				xmask = 0x1f;
				ck_assert_int_eq(load_fit(write_raw(&mc, closed_form, "inter", 0,
				                                    sd ? 0.02 : 0),
				                          1, &raw, &s),
				                 0);
				xmask = 0xf;
				ck_assert_int_eq(s.sharing_decided, 1);
				ck_assert_msg(s.fifo == fifo, "case %zu fifo %d seed %u", j, fifo, sd);
				ck_assert_msg(s.half == mc.half, "case %zu fifo %d seed %u: duplex", j,
				              fifo, sd);
				if (!sd) {
					ck_rel(s.bw * 1e3, mc.bw, EXACT);
					ck_assert(s.serr[fifo] < EXACT && s.serr[!fifo] > 0.03);
				}
				vlcal_share_free(&s);
				vlcal_raw_free(&raw);
			}
}
END_TEST

/* ---- what cannot be told, errors, old files ---- */

/* fan-out and fan-in alone look the same on both duplexes: full, undecided */
START_TEST(undecided)
{
	machine mc = {1, 100, 0, 50000, 0};
	vlcal_raw raw;
	vlcal_share s;

	xmask = 1 << FANOUT | 1 << FANIN;
	ck_assert_int_eq(load_fit(write_raw(&mc, closed_form, "inter", 0, 0), 1, &raw, &s), 0);
	xmask = 0xf;
	ck_assert_int_eq(s.ne, 2 * (P - 1));
	ck_assert_int_eq(s.decided, 0);
	ck_assert_int_eq(s.half, 0);
	ck_assert(s.err[0] == s.err[1]);
	ck_rel(s.bw * 1e3, 100, EXACT);
	vlcal_share_free(&s);
	vlcal_raw_free(&raw);
}
END_TEST

/* a PVM all-to-all: each task writes out all its messages before it takes in
 * others', so it takes twice the closed form (and more); the other
 * experiments as the closed forms */
static double pvm_time(const machine *mc, int x, int tasks, double m)
{
	return (x == A2A ? 2 : 1) * closed_form(mc, x, tasks, m);
}

/* from a PVM file the all-to-alls are left out (with them the fit invents a
 * backplane); the star comes back exactly, fifo from share_first; from another
 * library's they count */
START_TEST(pvm_alltoall)
{
	machine mc = {0, 12, 0, 40000, 1};
	vlcal_raw raw;
	vlcal_share s;

	xmask = 0x1f;
	wlib = "pvm";
	ck_assert_int_eq(load_fit(write_raw(&mc, pvm_time, "inter", 0, 0), 1, &raw, &s), 0);
	ck_assert_int_eq(s.a2a_left_out, P - 2);
	ck_assert_int_eq(s.ne, 1 + 2 * (P - 1) + (P - 2));
	ck_assert_int_eq(s.fifo, 1);
	ck_assert_int_eq(s.half, 0);
	ck_rel(s.bw * 1e3, mc.bw, EXACT);
	ck_assert(s.backplane == 0);
	vlcal_share_free(&s);
	vlcal_raw_free(&raw);
	wlib = "mpi";
	ck_assert_int_eq(load_fit(write_raw(&mc, pvm_time, "inter", 0, 0), 1, &raw, &s), 0);
	xmask = 0xf;
	wlib = "synthetic";
	ck_assert_int_eq(s.a2a_left_out, 0);
	ck_assert_msg(s.backplane > 0 || s.max_rel > 0.05, "the slow all-to-alls fitted without trace");
	vlcal_share_free(&s);
	vlcal_raw_free(&raw);
}
END_TEST

/* Fits the rows TEXT (after the header) of link inter: its return code, and
 * the experiment it names */
static int fit_rows(const char *text, int *bad)
{
	char path[32];
	vlcal_raw raw;
	vlcal_share s;
	int rc;

	raw_rows(path, text);
	rc = load_fit(path, 1, &raw, &s);
	*bad = s.bad;
	vlcal_share_free(&s);
	vlcal_raw_free(&raw);
	return rc;
}

START_TEST(errors)
{
	int bad;

	/* no share_* rows: nothing to fit (a v1 file of before them) */
	ck_assert_int_eq(fit_rows("rtt,inter,2,0,0,9,10,10\nrtt,inter,2,8,0,9,11,11\n", &bad),
	                 VLCAL_FIT_SINGULAR);
	/* one size only */
	ck_assert_int_eq(fit_rows("share_exchange,inter,2,0,0,9,10,10\n"
	                          "share_exchange,inter,2,64,0,9,12,12\n"
	                          "share_fanout,inter,3,64,0,9,12,12\n",
	                          &bad),
	                 VLCAL_FIT_FEW);
	ck_assert_int_eq(bad, 1);
	/* a time falling with the size */
	ck_assert_int_eq(fit_rows("share_fanin,inter,2,0,0,9,90,90\n"
	                          "share_fanin,inter,2,1024,0,9,80,80\n",
	                          &bad),
	                 VLCAL_FIT_DEGENERATE);
	ck_assert_int_eq(bad, 0);
}
END_TEST

/* the reader: share_* rows of other links are not loaded, task counts are
 * checked */
START_TEST(reader)
{
	const char *rows[] = {"share_exchange,inter,3,0,0,9,10,10\n",
	                      "share_alltoall,inter,1,0,0,9,10,10\n"};
	const char *want[] = {"experiment share_exchange has 2 tasks, not 3",
	                      "experiment share_alltoall needs at least 2 tasks, not 1"};

	for (int i = 0; i < 2; i++) {
		char path[32], *err = NULL;
		vlcal_raw raw;

		raw_rows(path, rows[i]);
		vlcal_raw_init(&raw);
		ck_assert_int_eq(vlcal_raw_load(&raw, path, 0, 0, 3, &err), -1);
		ck_assert_msg(err && strstr(err, want[i]), "%s", err ? err : "(none)");
		free(err);
		unlink(path);
		vlcal_raw_free(&raw);
	}
	{
		machine mc = {0, 100, 0, 50000, 0};
		vlcal_raw raw;
		vlcal_share s;

		ck_assert_int_eq(load_fit(write_raw(&mc, closed_form, "intra", 0, 0), 1, &raw, &s),
		                 VLCAL_FIT_SINGULAR);
		ck_assert_int_eq(s.ne, 0);
		ck_assert_int_eq(vlcal_share_load(&s, &raw, 0), 1 + 2 * (P - 1) + (P - 2));
		vlcal_share_free(&s);
		vlcal_raw_free(&raw);
	}
}
END_TEST

int main(void)
{
	Suite *su = suite_create("share");
	TCase *t = tcase_create("core");
	SRunner *r;
	int failed;

	tcase_set_timeout(t, 30);
	tcase_add_loop_test(t, exact, 0, sizeof exact_cases / sizeof exact_cases[0]);
	tcase_add_test(t, slow_backplane);
	tcase_add_test(t, overheads);
	tcase_add_test(t, noise);
	tcase_add_test(t, burst);
	tcase_add_test(t, engine);
	tcase_add_test(t, undecided);
	tcase_add_test(t, sharing);
	tcase_add_test(t, pvm_alltoall);
	tcase_add_test(t, errors);
	tcase_add_test(t, reader);
	suite_add_tcase(su, t);
	r = srunner_create(su);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
