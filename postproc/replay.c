/* replay.c - vlpost replay (issue 13): re-time a recorded run on another
 * VMConfig without running it again (docs/replay.md).  The command line, the
 * trace files as record sources of the engine (replay_engine.c), the per-task
 * table of the replayed run and the replayed traces (-o DIR).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "replay.h"
#include "replay_engine.h"
#include "simgrid.h"
#include "stats.h"
#include "tracereader.h"
#include "util/diag.h"

static const char usage[] =
	"usage: vlpost replay --vmconfig NEW.ini [--from OLD.ini] [-o DIR] [--csv | --json]\n"
	"                     [--engine vlayer | simgrid] TRACEDIR\n"
	"\n"
	"Re-time the recorded run of TRACEDIR on the machine NEW.ini without running it\n"
	"again: the time between a task's records (its computation) is scaled by the\n"
	"new host factor over the old one, every message, receive, probe, spawn and\n"
	"collective is costed again by the model of NEW.ini; receives keep the recorded\n"
	"matching.  Prints the per-task table of the replayed run (as vlpost stats\n"
	"--brief) on stdout; on stderr how many records were replayed and, where the\n"
	"program's path may depend on timing (polls, wildcard receives that would now\n"
	"choose another message, sleeps ...), that the result is an approximation.\n"
	"Replaying a run on its own VMConfig reproduces every record.\n"
	"\n"
	"  --vmconfig NEW.ini  the machine to replay on\n"
	"  --from OLD.ini      the VMConfig of the recorded run (default: TRACEDIR/\n"
	"                      vmconfig.ini, the copy the run left there)\n"
	"  -o DIR              also write the replayed traces to DIR (created; its old\n"
	"                      vl-*.trc are replaced), for every other view\n"
	"  --csv, --json       the table as vlpost stats --brief --csv / --json\n"
	"  --engine simgrid    replay with SimGrid instead (vlpost simgrid --run with\n"
	"                      NEW.ini's platform: its [topology], links shared, else\n"
	"                      contention-free; computation, S and R as recorded): per\n"
	"                      rank, vlayer's and SimGrid's end time\n";

/* ---- the trace files as record sources ---- */
typedef struct fsrc {
	vlpost_tfile *f;
	int pfd;       /* descriptor for peeking, opened on first use */
} fsrc;

static int fsrc_next(void *ctx, vl_trec *r)
{
	return vlpost_tfile_next(((fsrc *)ctx)->f, r);
}

static int fsrc_peek(void *ctx, uint64_t k, vl_trec *r)
{
	fsrc *s = ctx;
	off_t off;

	if (s->pfd < 0 && (s->pfd = open(s->f->path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	off = (off_t)s->f->hdr.hdr_size + (off_t)(s->f->nrec + k) * (off_t)sizeof *r;
	return pread(s->pfd, r, sizeof *r, off) == (ssize_t)sizeof *r;
}

static const char *fsrc_errmsg(void *ctx)
{
	return ((fsrc *)ctx)->f->errmsg;
}

/* ---- what the replayed records go to ---- */
typedef struct sink {
	vlpost_tstats *st;
	FILE **out;        /* -o: one file per task, or NULL */
	char **tmp;        /* their temporary names */
	const char *dir;
} sink;

static int emit(void *ctx, int task, const vl_thdr *h, const vl_trec *r)
{
	sink *k = ctx;

	if (r->type == VL_EV_START) {
		vlpost_stats_init(&k->st[task], task, h);
		if (k->out) {
			size_t n = strlen(k->dir) + 64;

			k->tmp[task] = vlu_xmalloc(n);
			snprintf(k->tmp[task], n, "%s/.vl-%08x.trc.tmp", k->dir, (unsigned)h->tid);
			k->out[task] = fopen(k->tmp[task], "wb");
			if (!k->out[task] || fwrite(h, sizeof *h, 1, k->out[task]) != 1)
				return -1;
		}
	}
	vlpost_stats_add(&k->st[task], r);
	if (k->out && k->out[task] && fwrite(r, sizeof *r, 1, k->out[task]) != 1)
		return -1;
	return 0;
}

/* Close the replayed traces and give them their names (0, or -1). */
static int finish_out(sink *k, const vlpost_tset *set)
{
	int i, rc = 0;
	char path[4200];

	for (i = 0; i < set->n; i++) {
		if (!k->out[i])
			continue;
		if (fclose(k->out[i]) != 0)
			rc = -1;
		snprintf(path, sizeof path, "%s/vl-%08x.trc", k->dir, (unsigned)set->f[i].hdr.tid);
		if (rc == 0 && rename(k->tmp[i], path) != 0)
			rc = -1;
		if (rc < 0)
			unlink(k->tmp[i]);
	}
	return rc;
}

/* Remove the vl-*.trc of dir (an earlier replay's). */
static void clean_out(const char *dir)
{
	char cmdpath[4200];
	vlpost_tset old;
	char err[512];
	int i;

	if (vlpost_tset_open(&old, dir, VLPOST_TSET_SKIPBAD, NULL, err, sizeof err) == 0)
		for (i = 0; i < old.n; i++) {
			snprintf(cmdpath, sizeof cmdpath, "%s", old.f[i].path);
			unlink(cmdpath);
		}
	vlpost_tset_close(&old);
}

/* Whether two configs describe the same machine (their canonical dumps). */
static int same_machine(const vlcfg_config *a, const vlcfg_config *b)
{
	char *ta = NULL, *tb = NULL;
	size_t la = 0, lb = 0;
	FILE *fa = open_memstream(&ta, &la), *fb = open_memstream(&tb, &lb);
	int same = 0;

	if (fa && fb) {
		vlcfg_dump(a, fa);
		vlcfg_dump(b, fb);
		fclose(fa);
		fclose(fb);
		fa = fb = NULL;
		same = la == lb && memcmp(ta, tb, la) == 0;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	free(ta);
	free(tb);
	return same;
}

typedef struct args {
	const char *nw, *old, *out, *dir;
	enum vlpost_fmt fmt;
	int simgrid;
} args;

static int parse(int argc, char **argv, args *a)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			fputs(usage, stdout);
			return 1;
		} else if (!strcmp(o, "--vmconfig") || !strcmp(o, "--from") || !strcmp(o, "-o")) {
			if (++i == argc)
				return vlpost_cli_usage(usage, "%s needs an argument", o);
			if (!strcmp(o, "--vmconfig"))
				a->nw = argv[i];
			else if (!strcmp(o, "--from"))
				a->old = argv[i];
			else
				a->out = argv[i];
		} else if (!strcmp(o, "--engine")) {
			if (++i == argc)
				return vlpost_cli_usage(usage, "%s needs an argument", o);
			if (!strcmp(argv[i], "simgrid"))
				a->simgrid = 1;
			else if (strcmp(argv[i], "vlayer"))
				return vlpost_cli_usage(usage, "--engine: vlayer or simgrid, not %s", argv[i]);
		} else if (!strcmp(o, "--csv")) {
			a->fmt = VLP_FMT_CSV;
		} else if (!strcmp(o, "--json")) {
			a->fmt = VLP_FMT_JSON;
		} else if (o[0] == '-' && o[1]) {
			return vlpost_cli_usage(usage, "unknown option %s", o);
		} else if (a->dir) {
			return vlpost_cli_usage(usage, "one TRACEDIR only (%s and %s)", a->dir, o);
		} else {
			a->dir = o;
		}
	}
	if (!a->dir)
		return vlpost_cli_usage(usage, "no TRACEDIR given");
	if (!a->nw)
		return vlpost_cli_usage(usage, "no --vmconfig NEW.ini given");
	return 0;
}

static void report(const vlcfg_config *old, const vlcfg_config *nw, const vlpost_rpl_result *res,
		   int n)
{
	unsigned b;

	fprintf(stderr, "vlpost: replay: %llu records of %d tasks replayed on %s; %llu differ "
		"from the recorded run\n", (unsigned long long)res->events, n, nw->path,
		(unsigned long long)res->differ);
	if (same_machine(old, nw) && res->differ == 0) {
		fprintf(stderr, "vlpost: replay: the VMConfig of the run: every record "
			"reproduced\n");
		return;
	}
	for (b = 1; b < 1u << VLPOST_RPL_NMSGS; b <<= 1)
		if (res->approx & b)
			fprintf(stderr, "vlpost: replay: warning: approximation: %s\n",
				vlpost_rpl_approx_text(b));
}

int vlpost_replay_main(int argc, char **argv)
{
	args a = { 0 };
	vlcfg_config old, nw;
	vlpost_tset set;
	vlpost_rpl_src *src = NULL;
	fsrc *fs = NULL;
	sink k = { 0 };
	vlpost_rpl_result res;
	char err[1400], *oldpath = NULL;
	int rc, i, status = VLPOST_EXIT_BAD;

	a.fmt = VLP_FMT_TEXT;
	if ((rc = parse(argc, argv, &a)) != 0)
		return rc == 1 ? 0 : rc;
	if (a.simgrid)
		return vlpost_simgrid_replay(a.dir, a.nw, VLPOST_SG_AUTO, 0, stdout);
	memset(&old, 0, sizeof old);
	memset(&nw, 0, sizeof nw);
	memset(&set, 0, sizeof set);
	if (!a.old) {
		oldpath = vlpost_cli_name(a.dir, "", "/vmconfig.ini");
		if (!oldpath || access(oldpath, F_OK) != 0) {
			vlu_err(VLPOST_EXIT_BAD, "replay: %s has no vmconfig.ini (the copy of the run's "
				"VMConfig; a run with the built-in machine leaves none): give the run's "
				"VMConfig with --from", a.dir);
			goto out;
		}
		a.old = oldpath;
	}
	if (vlcfg_load(a.old, &old, err, sizeof err) < 0 || vlcfg_load(a.nw, &nw, err, sizeof err) < 0) {
		vlu_err(VLPOST_EXIT_BAD, "replay: %s", err);
		goto out;
	}
	if (vlpost_tset_open(&set, a.dir, 0, stderr, err, sizeof err) < 0) {
		vlu_err(VLPOST_EXIT_BAD, "replay: %s", err);
		goto out;
	}
	src = vlu_xcalloc((size_t)set.n, sizeof *src);
	fs = vlu_xcalloc((size_t)set.n, sizeof *fs);
	k.st = vlu_xcalloc((size_t)set.n, sizeof *k.st);
	for (i = 0; i < set.n; i++) {
		fs[i].f = &set.f[i];
		fs[i].pfd = -1;
		src[i].hdr = set.f[i].hdr;
		src[i].next = fsrc_next;
		src[i].peek = fsrc_peek;
		src[i].errmsg = fsrc_errmsg;
		src[i].ctx = &fs[i];
		vlpost_stats_init(&k.st[i], i, &set.f[i].hdr);
	}
	if (a.out) {
		if (mkdir(a.out, 0777) != 0 && errno != EEXIST) {
			vlu_err(VLPOST_EXIT_BAD, "replay: cannot create %s: %s", a.out, strerror(errno));
			goto out;
		}
		clean_out(a.out);
		k.dir = a.out;
		k.out = vlu_xcalloc((size_t)set.n, sizeof *k.out);
		k.tmp = vlu_xcalloc((size_t)set.n, sizeof *k.tmp);
	}
	rc = vlpost_rpl_run(&old, &nw, set.n, src, emit, &k, &res, err, sizeof err);
	if (k.out && (finish_out(&k, &set) < 0) && rc == 0) {
		snprintf(err, sizeof err, "cannot write the replayed traces to %s: %s", a.out,
			 strerror(errno));
		rc = -1;
	}
	if (rc < 0) {
		vlu_err(VLPOST_EXIT_BAD, "replay: %s: %s", a.dir, err);
		goto out;
	}
	for (i = 0; i < set.n; i++)
		vlpost_stats_done(&k.st[i]);
	if (vlpost_report_print(stdout, k.st, set.n, NULL, a.fmt, VLPOST_REP_BRIEF) < 0 ||
	    fflush(stdout) != 0) {
		vlu_err(VLPOST_EXIT_BAD, "replay: cannot write the table: %s", strerror(errno));
		goto out;
	}
	report(&old, &nw, &res, set.n);
	status = 0;
out:
	for (i = 0; fs && i < set.n; i++)
		if (fs[i].pfd >= 0)
			close(fs[i].pfd);
	for (i = 0; k.tmp && i < set.n; i++)
		free(k.tmp[i]);
	free(k.tmp);
	free(k.out);
	free(k.st);
	free(fs);
	free(src);
	vlpost_tset_close(&set);
	vlcfg_free(&old);
	vlcfg_free(&nw);
	free(oldpath);
	return status;
}
