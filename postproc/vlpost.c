/* vlpost.c - post-processing of vlayer traces: vlpost trf | stats | check here;
 * paje, otf2, svg and scaling in their own files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dump.h"
#include "otf2.h"
#include "paje.h"
#include "replay.h"
#include "scaling.h"
#include "simgrid.h"
#include "stats.h"
#include "svg.h"
#include "trf.h"
#include "tracereader.h"
#include "util/diag.h"

#define EXIT_BAD VLPOST_EXIT_BAD

static const char usage_main[] =
	"usage: vlpost COMMAND [OPTIONS] ARG\n"
	"\n"
	"Post-process the traces of a vlayer run (one vl-XXXXXXXX.trc per task).\n"
	"\n"
	"commands:\n"
	"  trf [-o FILE.trf] [--partial] TRACEDIR   PICL 2.0 trace for ParaGraph\n"
	"  paje [-o FILE.paje] [--partial] TRACEDIR Pajé trace for pj_dump and ViTE\n"
	"  otf2 [-o DIR] [--partial] TRACEDIR       OTF2 archive for otf2-print, Vampir\n"
	"  svg [-o FILE.svg] [--width PX] TRACEDIR  SVG space-time diagram for a browser\n"
	"  stats [OPTIONS] TRACEDIR                 per-task times, messages, critical path\n"
	"  scaling [-o PREFIX] [--base RUN] RUN...  speed-up table and gnuplot plot\n"
	"  replay --vmconfig NEW.ini [-o DIR] TRACEDIR\n"
	"                                           re-time the run on another machine\n"
	"  simgrid [-o DIR] [--run] TRACEDIR        SimGrid TI trace + platform; --run replays it\n"
	"  check FILE.trf                           validate a .trf file\n"
	"  dump TRACEDIR                            every record as a line of text (exact ns)\n"
	"\n"
	"'vlpost COMMAND --help' describes a command.  Exit status: 0 ok, 1 check found\n"
	"an invalid file, 2 bad usage or bad input.\n";

static const char usage_trf[] =
	"usage: vlpost trf [-o FILE.trf] [--partial] TRACEDIR\n"
	"\n"
	"Write the traces of TRACEDIR as one PICL 2.0 trace for ParaGraph, sorted by\n"
	"virtual time, then print the stats table.  Processors 0..P-1 are the tasks\n"
	"ordered by (start time, tid).\n"
	"\n"
	"  -o FILE      output file (default: TRACEDIR with .trf appended); written to\n"
	"               FILE.tmp and renamed when complete (through a symbolic link:\n"
	"               its target); - is standard output (the table then goes to\n"
	"               stderr), a FIFO or device is written directly\n"
	"  --partial    use incomplete traces: truncated files, tasks without END,\n"
	"               corrupt records (the records before them are used), receives\n"
	"               whose send is missing, receives ending before their send\n"
	"               (warnings on stderr instead of errors)\n";

static const char usage_stats[] =
	"usage: vlpost stats [--csv | --json] [--brief | --matrix] TRACEDIR\n"
	"\n"
	"Per task: processor, tid, virtual host, program, computation, communication\n"
	"and waiting time (us, from the END record; '*' = no END record, estimated\n"
	"from the records), total (end - start), messages and bytes sent and received;\n"
	"then a totals row and the predicted elapsed time (latest end - earliest start).\n"
	"Then per task comm/comp, (comm+wait)/total, messages sent and their average\n"
	"size (the LS-DYNA method's M and s), the message size histogram, the sender x\n"
	"receiver matrix (up to 16 tasks) and the critical path.\n"
	"\n"
	"  --brief      only the per-task table (and no critical path: memory bounded\n"
	"               by the number of tasks)\n"
	"  --full       accepted for compatibility: everything, as without options\n"
	"  --matrix     the matrix for any number of tasks\n"
	"  --csv        sections separated by an empty line, each a header row and its\n"
	"               rows: tasks (the table's columns, then comm_comp_ratio,\n"
	"               commwait_total_ratio, avg_bytes_sent), totals, histogram,\n"
	"               matrix, critical path; with --brief the tasks only\n"
	"  --json       everything as one JSON object: tasks, totals, histogram, matrix,\n"
	"               critical_path, predicted_elapsed_s; with --brief tasks, totals\n"
	"               and the elapsed time\n";

static const char usage_check[] =
	"usage: vlpost check FILE.trf\n"
	"\n"
	"Validate a PICL 2.0 trace: line syntax, non-decreasing time, -3 -901 first and\n"
	"-4 -901 last on every processor, entries and exits balanced and nested, every\n"
	"receive end at or after the matching send begin (same source, destination and\n"
	"tag, in FIFO order).  Prints 'FILE: ok (N records, P processors)' and exits 0,\n"
	"or prints the first error with its line number and exits 1.\n";

static int is_help(const char *a)
{
	return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

/* ---- trf ---- */
typedef struct trf_args {
	const char *out, *dir;
	int partial;
} trf_args;

static int trf_parse(int argc, char **argv, trf_args *a)
{
	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			fputs(usage_trf, stdout);
			return 0;
		} else if (strcmp(argv[i], "--partial") == 0) {
			a->partial = 1;
		} else if (strcmp(argv[i], "-o") == 0) {
			if (++i == argc)
				return vlpost_cli_usage(usage_trf, "-o: missing file name");
			a->out = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return vlpost_cli_usage(usage_trf, "trf: unknown option %s", argv[i]);
		} else if (a->dir) {
			return vlpost_cli_usage(usage_trf, "trf: extra argument %s", argv[i]);
		} else {
			a->dir = argv[i];
		}
	}
	if (!a->dir)
		return vlpost_cli_usage(usage_trf, "trf: missing TRACEDIR");
	return -1;
}

struct trf_out {
	vlpost_tset *set;
	vlpost_trf_opt opt;
	vlpost_tstats *st;
};

static int trf_write_cb(FILE *f, void *ctx, char *err, size_t errlen)
{
	struct trf_out *c = ctx;
	return vlpost_trf_write(c->set, f, &c->opt, c->st, err, errlen);
}

static int trf_to(vlpost_tset *set, const char *out, const trf_args *a, vlpost_tstats *st)
{
	struct trf_out c = { set, { a->partial, stderr }, st };

	return vlpost_cli_write(out, trf_write_cb, &c);
}

static int cmd_trf(int argc, char **argv)
{
	trf_args a = { NULL, NULL, 0 };
	vlpost_tset set;
	vlpost_tstats *st = NULL;
	char err[1024], *out = NULL;
	int rc = trf_parse(argc, argv, &a);
	if (rc >= 0)
		return rc;
	if (vlpost_tset_open(&set, a.dir, a.partial ? VLPOST_TSET_SKIPBAD : 0, stderr, err, sizeof err) < 0) {
		vlu_err(EXIT_BAD, "%s", err);
		vlpost_tset_close(&set);
		return EXIT_BAD;
	}
	out = a.out ? strdup(a.out) : vlpost_cli_name(a.dir, "", ".trf");
	st = calloc((size_t)set.n, sizeof *st);
	if (!out || !st)
		rc = vlu_err(EXIT_BAD, "out of memory");
	else
		rc = trf_to(&set, out, &a, st);
	/* with -o - the .trf is standard output: the table goes to stderr */
	if (rc == 0 && vlpost_stats_print(strcmp(out, "-") ? stdout : stderr, st, set.n, 0) < 0)
		rc = EXIT_BAD;
	free(st);
	free(out);
	vlpost_tset_close(&set);
	return rc;
}

/* ---- stats ---- */
/* The summaries, and without --brief the report. */
static int stats_collect(vlpost_tset *set, vlpost_tstats *st, vlpost_report *rep, unsigned flags,
			 char *err, size_t errlen)
{
	if (flags & VLPOST_REP_BRIEF)
		return vlpost_stats_collect(set, st, stderr, err, errlen);
	return vlpost_report_collect(set, st, rep, stderr, err, errlen);
}

static int cmd_stats(int argc, char **argv)
{
	const char *dir = NULL;
	enum vlpost_fmt fmt = VLP_FMT_TEXT;
	unsigned flags = 0;
	int rc = 0, full = 0;
	vlpost_tset set;
	vlpost_tstats *st;
	vlpost_report rep;
	char err[1024];
	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i]))
			return fputs(usage_stats, stdout), 0;
		if (strcmp(argv[i], "--csv") == 0 || strcmp(argv[i], "--json") == 0) {
			enum vlpost_fmt f = argv[i][2] == 'c' ? VLP_FMT_CSV : VLP_FMT_JSON;
			if (fmt != VLP_FMT_TEXT && fmt != f)
				return vlpost_cli_usage(usage_stats, "stats: --csv or --json, not both");
			fmt = f;
		} else if (strcmp(argv[i], "--full") == 0)
			full = 1;
		else if (strcmp(argv[i], "--brief") == 0)
			flags |= VLPOST_REP_BRIEF;
		else if (strcmp(argv[i], "--matrix") == 0)
			flags |= VLPOST_REP_MATRIX;
		else if (argv[i][0] == '-' && argv[i][1])
			return vlpost_cli_usage(usage_stats, "stats: unknown option %s", argv[i]);
		else if (dir)
			return vlpost_cli_usage(usage_stats, "stats: extra argument %s", argv[i]);
		else
			dir = argv[i];
	}
	if ((flags & VLPOST_REP_BRIEF) && (full || (flags & VLPOST_REP_MATRIX)))
		return vlpost_cli_usage(usage_stats, "stats: --brief, or --full/--matrix, not both");
	if (!dir)
		return vlpost_cli_usage(usage_stats, "stats: missing TRACEDIR");
	if (vlpost_tset_open(&set, dir, 0, stderr, err, sizeof err) < 0) {
		vlu_err(EXIT_BAD, "%s", err);
		vlpost_tset_close(&set);
		return EXIT_BAD;
	}
	memset(&rep, 0, sizeof rep);
	st = calloc((size_t)set.n, sizeof *st);
	if (!st)
		rc = vlu_err(EXIT_BAD, "out of memory");
	else if (stats_collect(&set, st, &rep, flags, err, sizeof err) < 0)
		rc = vlu_err(EXIT_BAD, "%s", err);
	else if (vlpost_report_print(stdout, st, set.n, &rep, fmt, flags) < 0)
		rc = EXIT_BAD;
	vlpost_report_free(&rep);
	free(st);
	vlpost_tset_close(&set);
	return rc;
}

/* ---- check ---- */
static int cmd_check(int argc, char **argv)
{
	const char *file = NULL;
	vlpost_check_res res;
	char err[1024];
	FILE *f;
	int rc;
	if ((rc = vlpost_cli_one_arg(argc, argv, usage_check, "check", "FILE.trf", &file)) >= 0)
		return rc;
	f = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
	if (!f)
		return vlu_err(EXIT_BAD, "%s: %s", file, strerror(errno));
	rc = vlpost_trf_check(f, &res, err, sizeof err);
	if (f != stdin)
		fclose(f);
	if (rc < 0)
		return vlu_err(EXIT_BAD, "%s: %s", file, err);
	if (rc > 0) {
		printf("%s:%llu: %s\n", file, (unsigned long long)res.line, err);
		return 1;
	}
	printf("%s: ok (%llu records, %d processors)\n", file, (unsigned long long)res.records,
	       res.procs);
	return 0;
}

static int run(int argc, char **argv)
{
	if (argc < 2)
		return vlpost_cli_usage(usage_main, "missing command");
	if (is_help(argv[1]))
		return fputs(usage_main, stdout), 0;
	if (strcmp(argv[1], "trf") == 0)
		return cmd_trf(argc - 1, argv + 1);
	if (strcmp(argv[1], "stats") == 0)
		return cmd_stats(argc - 1, argv + 1);
	if (strcmp(argv[1], "check") == 0)
		return cmd_check(argc - 1, argv + 1);
	if (strcmp(argv[1], "paje") == 0)
		return vlpost_paje_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "otf2") == 0)
		return vlpost_otf2_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "scaling") == 0)
		return vlpost_scaling_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "svg") == 0)
		return vlpost_svg_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "replay") == 0)
		return vlpost_replay_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "simgrid") == 0)
		return vlpost_simgrid_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "dump") == 0)
		return vlpost_dump_main(argc - 1, argv + 1);
	return vlpost_cli_usage(usage_main, "unknown command %s", argv[1]);
}

int main(int argc, char **argv)
{
	int rc;

	vlu_progname("vlpost");
	rc = run(argc, argv);
	/* what could not be written to standard output (a full disk, /dev/full)
	 * is an error, never a silent success */
	errno = 0;
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0)
		rc = vlu_err(EXIT_BAD, "standard output: %s", errno ? strerror(errno) : "write error");
	return rc;
}
