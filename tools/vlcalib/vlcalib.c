/* vlcalib.c - `vlcalib fit`: raw ping-pong/BSP measurements (CSV, see
 * models/fit.h and the README) into a VMConfig fragment and the
 * parameters of the classic models; `vlcalib run` starts the measurement
 * driver vlcalib-run found beside this program.
 *
 * What the VMConfig gets, per link kind (intra, inter), is what vlayer's model
 * (vlayer/model.c) will compute: a message costs the sender S(n) (send_model),
 * arrives T(n) after the send ends (trans_model) and costs the receiver the
 * constant R (recv_delay); k sends of a pvm_mcast cost S(n) x f(k) each
 * (contention).  So
 *   S = piecewise-linear fit of `send`,
 *   R = median of `recv` over the sizes <= 1 KiB,
 *   T = piecewise-linear fit of oneway(n) - S(n) - R (else rtt(n)/2 - S(n) - R),
 *       clamped at 0, S the fitted send model, so that S + T + R reproduces
 *       the measured one-way time (a receive time that grows with the size
 *       goes into T: vlayer's R is a constant),
 *   f(k) = least-squares factor of contention(k, n) against k S(n).
 * The errors reported are those of the VMConfig models as vlayer evaluates
 * them (whole bytes and ns, vli_pwl_eval): of S against `send`, and of
 * S + T + R against the one-way time.
 *
 * With share_* rows (messages at once) the fragment also gets a [topology]:
 * a link's bandwidth, duplex and a switch's backplane fitted by the closed
 * forms of vlayer's flow model (fit_share.h).
 *
 * This file has the commands; the fits, the table and the fragment are in
 * fit_*.c (vlcalib.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vlcalib.h"
#include "util/diag.h"
#include "util/outfile.h"

static const char usage[] =
    "usage: vlcalib fit RAW.csv... [--stat median|min] [--penalty P|auto] [--floor T]\n"
    "                   [--link intra|inter|all] [--csv] [-o OUT.ini]\n"
    "       vlcalib run ARGS...      (runs vlcalib-run ARGS... from vlcalib's directory)\n"
    "       vlcalib --help\n";

static const char help[] =
    "\n"
    "vlcalib fit reads raw measurement files (CSV, first line \"# vlcalib raw v1\",\n"
    "columns experiment,link,procs,bytes,h,reps,min_ns,median_ns,...; written by\n"
    "vlcalib run) and fits, per link kind (intra: both tasks on one node, inter:\n"
    "different nodes):\n"
    "  send_model   piecewise-linear fit of the time in the send call\n"
    "  trans_model  piecewise-linear fit of oneway - send_model - recv_delay\n"
    "               (rtt/2 instead of oneway if the file has no oneway rows)\n"
    "  recv_delay   median time in the receive call, sizes <= 1 KiB\n"
    "  contention   k:factor, the send-time factor of a send to k >= 2 tasks at\n"
    "               once (vlayer applies it to pvm_mcast)\n"
    "and, from the share_* rows (messages at once, measured by calib_mpi), the\n"
    "[topology] of link inter's rows (else intra's): a link's bandwidth, duplex\n"
    "full or half (whichever's closed forms of vlayer's flow model fit better),\n"
    "a switch's backplane where one limits, the latency (trans_model at 0 B),\n"
    "and each experiment's error.  It prints the Hockney (t0, r_inf, n_1/2),\n"
    "LogGP (L, o_s, o_r, g, G), MSGSETUP/ALCBW (application-to-application\n"
    "bandwidth, 004 eqs. 13-17) and BSP g and L (003 section 3: per pattern and\n"
    "processor count, per pattern, the paper's average over patterns (eq. 11),\n"
    "and the mean of the patterns') parameters.  Several files are combined: the\n"
    "value of a row is the median (or the minimum, with --stat min) of its value\n"
    "in each file.\n"
    "\n"
    "Breakpoints are found by segmented least squares: dynamic programming over\n"
    "the sorted sizes minimising the sum of squared relative errors (see --floor)\n"
    "+ P x the number of segments; neighbouring lines are joined where they\n"
    "cross (two points at a jump), then the values are refitted continuously.\n"
    "At most 32 points, and few enough for the VMConfig's 199-character line.\n"
    "\n"
    "options:\n"
    "  --stat median|min   which column to fit: median_ns (default) or min_ns\n"
    "  --penalty P|auto    P >= 0 in squared relative error per segment; auto\n"
    "                      (default): max(0.01, 6 ln(m) s^2), s the data's own\n"
    "                      relative noise estimated from its m sizes\n"
    "  --floor T           errors are relative to the time, but to T (default 1us)\n"
    "                      for times below T: the clock's resolution and the\n"
    "                      layer's own cost per call make smaller ones moot\n"
    "  --link K            intra, inter or all (default): which rows to use\n"
    "  --csv               print the parameters as CSV (link,model,parameter,\n"
    "                      value,unit) instead of the table and the fragment\n"
    "  -o FILE             also write the VMConfig fragment to FILE (replaced\n"
    "                      atomically); add [host] sections to make it complete\n"
    "\n"
    "Units: times in us, rates in MB/s (10^6 bytes/s), per-byte costs in ns/B,\n"
    "errors in % (relative, root mean square and largest over the sizes).\n"
    "Errors name the file and line; exit status 2 on bad input, 0 on success.\n";

/* ---- commands ---- */

__attribute__((noreturn)) static void cmd_run(int argc, char **argv)
{
	char self[4096], *slash, **av;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 32);

	if (n <= 0)
		vlu_die(VLCAL_EXIT_BAD, "cannot find my own directory: %s", strerror(errno));
	self[n] = 0;
	slash = strrchr(self, '/');
	strcpy(slash ? slash + 1 : self, "vlcalib-run");
	if (access(self, X_OK) != 0)
		vlu_die(VLCAL_EXIT_BAD, "%s: %s (build it with make)", self, strerror(errno));
	av = vlcal_xmalloc(sizeof(char *) * (size_t)(argc + 1));
	av[0] = self;
	for (int i = 1; i < argc; i++)
		av[i] = argv[i];
	av[argc] = NULL;
	execv(self, av);
	vlu_die(VLCAL_EXIT_BAD, "%s: %s", self, strerror(errno));
}

typedef struct opts {
	int use_min, linkmask, fixed_pen, csv;
	double pen;
	const char *out, *pen_text, *floor_text;
} opts;

/* The value of option ARGV[*I] (--opt VALUE or --opt=VALUE). */
static const char *optval(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (*i + 1 >= argc)
		vlu_die(VLCAL_EXIT_BAD, "%s needs a value (see vlcalib --help)", name);
	return argv[++*i];
}

static int is_opt(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arg, name, n) && (arg[n] == 0 || arg[n] == '=');
}

static int parse_fit_args(int argc, char **argv, opts *o, vlcal_input *in)
{
	const char **files = vlcal_xmalloc(sizeof(char *) * (size_t)argc);
	int nf = 0, dashdash = 0;

	in->files = files;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v;

		if (dashdash || a[0] != '-' || !strcmp(a, "-")) {
			files[nf++] = a;
		} else if (!strcmp(a, "--")) {
			dashdash = 1;
		} else if (is_opt(a, "--stat")) {
			v = optval(argc, argv, &i, "--stat");
			if (strcmp(v, "median") && strcmp(v, "min"))
				vlu_die(VLCAL_EXIT_BAD, "--stat: '%s' is not median or min", v);
			o->use_min = !strcmp(v, "min");
		} else if (is_opt(a, "--penalty")) {
			char *end;

			v = optval(argc, argv, &i, "--penalty");
			o->pen_text = v;
			if (!strcmp(v, "auto")) {
				o->fixed_pen = 0;
				continue;
			}
			o->pen = strtod(v, &end);
			if (!*v || *end || !isfinite(o->pen) || o->pen < 0)
				vlu_die(VLCAL_EXIT_BAD,
				        "--penalty: '%s' is not a number >= 0 or auto", v);
			o->fixed_pen = 1;
		} else if (is_opt(a, "--link")) {
			v = optval(argc, argv, &i, "--link");
			if (!strcmp(v, "intra"))
				o->linkmask = 1;
			else if (!strcmp(v, "inter"))
				o->linkmask = 2;
			else if (!strcmp(v, "all"))
				o->linkmask = 3;
			else
				vlu_die(VLCAL_EXIT_BAD,
				        "--link: '%s' is not intra, inter or all", v);
		} else if (is_opt(a, "--floor")) {
			int64_t ns;

			v = optval(argc, argv, &i, "--floor");
			if (vlcfg_parse_time(v, &ns))
				vlu_die(
				    VLCAL_EXIT_BAD,
				    "--floor: '%s' is not a time (a number with ns, us, ms or s)",
				    v);
			in->floor_ns = ns > 0 ? (double)ns : 1;
			o->floor_text = v;
		} else if (!strcmp(a, "--csv")) {
			o->csv = 1;
		} else if (!strcmp(a, "-o") || is_opt(a, "--output")) {
			o->out = optval(argc, argv, &i, !strcmp(a, "-o") ? "-o" : "--output");
		} else {
			vlu_die(VLCAL_EXIT_BAD, "unknown option '%s' (see vlcalib --help)", a);
		}
	}
	if (!nf)
		vlu_die(VLCAL_EXIT_BAD, "fit: no raw file given\n%s", usage);
	return nf;
}

static int cmd_fit(int argc, char **argv)
{
	/* static: still reachable when vlu_die() leaves */
	static vlcal_input in = {.floor_ns = 1000};
	static vlcal_linkfit lf[2];
	static vlcal_topofit topo;
	static char *msg;
	opts o = {0, 3, 0, 0, 0, NULL, "auto", "1us"};
	vlcal_fragment fr = {{NULL, NULL}, &topo, 0, 0, NULL, NULL};
	int nf = parse_fit_args(argc, argv, &o, &in), any = 0;
	vlcal_raw *raw = &in.raw;
	char err[1024];

	vlcal_table_csv(o.csv);
	for (int i = 0; i < nf; i++)
		if (vlcal_raw_load(raw, in.files[i], i, o.use_min, o.linkmask, &msg))
			vlu_die(VLCAL_EXIT_BAD, "%s", msg ? msg : "out of memory");
	if (vlcal_raw_merge(raw, in.files, o.use_min, &msg))
		vlu_die(VLCAL_EXIT_BAD, "%s", msg ? msg : "out of memory");
	if (!raw->n)
		vlu_die(VLCAL_EXIT_BAD, "%s: no rows%s", in.files[0],
		        o.linkmask == 3   ? ""
		        : o.linkmask == 1 ? " for link intra"
		                          : " for link inter");
	for (int k = 0; k < 2; k++) {
		vlcal_linkfit *L = &lf[k];

		L->in = &in;
		L->link = k;
		L->fixed_pen = o.fixed_pen;
		L->pen_send = o.pen;
		if (!vlcal_ping_family(&in, k)) {
			vlcal_fit_bsp(&in, k);
			continue;
		}
		vlcal_fit_link(L);
		vlcal_put_link(L);
		vlcal_fit_bsp(&in, k);
		fr.lf[k] = L;
		any = 1;
	}
	vlcal_fit_topology(&in, fr.lf, &topo);
	any |= topo.ok;
	if (o.out && !any)
		vlu_die(VLCAL_EXIT_BAD,
		        "-o %s: no ping-pong rows (send, oneway or rtt), so no VMConfig section to "
		        "write",
		        o.out);
	fr.nfiles = nf;
	fr.use_min = o.use_min;
	fr.pen_text = o.pen_text;
	fr.floor_text = o.floor_text;
	if (o.csv) {
		vlcal_print_csv(stdout);
	} else {
		/* library and hosts cut at 63 and 255 bytes */
		printf("vlcalib fit: %d raw file%s, library %.63s, hosts %.255s; statistic %s, "
		       "penalty %s, floor %s\n\n",
		       nf, nf == 1 ? "" : "s", raw->library && raw->library[0] ? raw->library : "?",
		       raw->hosts && raw->hosts[0] ? raw->hosts : "?", o.use_min ? "min" : "median",
		       o.pen_text, o.floor_text);
		vlcal_print_table(stdout);
		if (any) {
			putchar('\n');
			vlcal_write_fragment(stdout, &fr, err, sizeof err);
		}
	}
	if (o.out) {
		if (vlu_write_atomic(o.out, vlcal_write_fragment, &fr, err, sizeof err))
			vlu_die(VLCAL_EXIT_BAD, "%s", err);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		vlu_die(VLCAL_EXIT_BAD, "standard output: %s", strerror(errno));
	return 0;
}

int main(int argc, char **argv)
{
	vlu_progname("vlcalib");
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (argc > 2 && !strcmp(argv[1], "fit") &&
	     (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")))) {
		fputs(usage, stdout);
		fputs(help, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "fit"))
		return cmd_fit(argc, argv);
	if (!strcmp(argv[1], "run"))
		cmd_run(argc - 1, argv + 1);
	vlu_die(VLCAL_EXIT_BAD, "unknown command '%s'\n%s", argv[1], usage);
}
