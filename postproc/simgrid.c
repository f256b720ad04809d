/* simgrid.c - `vlpost simgrid`: export a run to SimGrid (time-independent
 * trace, platform, hostfile, the smpirun command) and, with --run (or from
 * `vlpost replay --engine simgrid`), replay it with SimGrid's smpirun and
 * read the per-rank end times back.  docs/simgrid.md says what maps to what.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "simgrid.h"
#include "tracereader.h"
#include "util/diag.h"
#include "vlayer/core/engine.h"

#define EXIT_BAD VLPOST_EXIT_BAD
#define EXIT_SIM 3 /* smpirun missing or failed */

static const char usage[] =
    "usage: vlpost simgrid [-o OUTDIR] [--vmconfig FILE.ini] [--topology T] [--run]\n"
    "                      [--keep] TRACEDIR\n"
    "\n"
    "Export the run of TRACEDIR to SimGrid 3.32: OUTDIR/rank-R.txt (the actions of\n"
    "rank R in SimGrid's time-independent trace format; ranks are the tasks ordered\n"
    "by (start time, tid), as in vlpost trf), OUTDIR/traces.txt (their list),\n"
    "OUTDIR/platform.xml (hosts, speeds, links and routes of the VMConfig),\n"
    "OUTDIR/hostfile (the virtual host of each rank) and OUTDIR/replay.sh; print\n"
    "the one-line smpirun command that replays it.  Computation becomes compute\n"
    "actions (flops at the host's speed), the send and receive times of the model\n"
    "sleeps, messages and MPI_COMM_WORLD collectives SimGrid's own; what has no\n"
    "action (probes, spawns, PVM group operations) a sleep of its duration.\n"
    "\n"
    "  -o OUTDIR        output directory (default: TRACEDIR.simgrid)\n"
    "  --vmconfig FILE  the run's VMConfig (default: TRACEDIR/vmconfig.ini)\n"
    "  --topology T     vmconfig: the VMConfig's [topology] (star, switch, bus,\n"
    "                   torus; full or half duplex: links shared by the messages\n"
    "                   that cross them), the default if it has one; fatpipe (the\n"
    "                   default otherwise: no contention, as vlayer's model), star\n"
    "                   (a shared up and down link per host) or bus (one shared\n"
    "                   link between hosts), both of [network inter]'s values\n"
    "  --run            also replay it with smpirun ($SMPIRUN, else from PATH) and\n"
    "                   print per rank vlayer's end time and SimGrid's (ns); without\n"
    "                   -o in a temporary directory\n"
    "  --keep           with --run and no -o: keep the temporary directory\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage or bad input, 3 smpirun missing or failed.\n";

typedef struct sg_args {
	const char *out, *dir, *vmconfig;
	int topology, run, keep;
} sg_args;

/* ---- the export ---- */

typedef struct sg_export {
	vlcfg_config cfg;
	vlpost_tset set;
	int mpi;         /* the tids are the ranks 0..n-1: an MPI run */
	int *host;       /* per rank: its host index */
	int64_t *vl_end; /* per rank: vlayer's end time (ns) */
	uint64_t as_sleep[VL_EV_LAST + 1];
} sg_export;

static int rank_of(void *ctx, int32_t tid)
{
	return vlpost_tset_find(ctx, tid);
}

static void export_free(sg_export *x)
{
	vlpost_tset_close(&x->set);
	vlcfg_free(&x->cfg);
	free(x->host);
	free(x->vl_end);
	memset(x, 0, sizeof *x);
}

static char *path_in(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		vlu_die(VLU_EXIT_NOMEM, "out of memory");
	return p;
}

static FILE *open_out(const char *dir, const char *name)
{
	char *p = path_in(dir, name);
	FILE *f = fopen(p, "w");

	if (!f)
		vlu_err(EXIT_BAD, "%s: %s", p, strerror(errno));
	free(p);
	return f;
}

static int close_out(FILE *f, const char *dir, const char *name)
{
	int bad = ferror(f);

	if (fclose(f) != 0 || bad)
		return vlu_err(EXIT_BAD, "%s/%s: write error", dir, name);
	return 0;
}

/* Load the VMConfig and the traces, check that they belong together. */
static int export_open(sg_export *x, const char *dir, const char *vmconfig)
{
	char err[1024], *def = NULL;
	int i, n;

	memset(x, 0, sizeof *x);
	if (!vmconfig) {
		struct stat st;

		def = path_in(dir, "vmconfig.ini");
		if (stat(def, &st) != 0) {
			vlu_err(EXIT_BAD,
			        "%s: no VMConfig copy in the trace directory: give "
			        "--vmconfig FILE.ini (the run's)",
			        dir);
			free(def);
			return EXIT_BAD;
		}
		vmconfig = def;
	}
	if (vlcfg_load(vmconfig, &x->cfg, err, sizeof err) != 0) {
		free(def);
		return vlu_err(EXIT_BAD, "%s", err);
	}
	free(def);
	if (vlpost_tset_open(&x->set, dir, 0, stderr, err, sizeof err) != 0)
		return vlu_err(EXIT_BAD, "%s", err);
	n = x->set.n;
	x->host = vlu_xcalloc((size_t)n, sizeof *x->host);
	x->vl_end = vlu_xcalloc((size_t)n, sizeof *x->vl_end);
	x->mpi = 1;
	for (i = 0; i < n; i++) {
		const vl_thdr *h = &x->set.f[i].hdr;

		if (h->tid != i)
			x->mpi = 0;
		if (h->host < 0 || h->host >= x->cfg.nhosts)
			return vlu_err(EXIT_BAD,
			               "%s: host %d of the trace is not in %s (%d hosts): "
			               "give the run's VMConfig",
			               x->set.f[i].path, h->host, x->cfg.path, x->cfg.nhosts);
		if (strcmp(h->host_name, x->cfg.hosts[h->host].name) != 0)
			vlu_warn("%s: host %d is %s in the trace, %s in %s", x->set.f[i].path,
			         h->host, h->host_name, x->cfg.hosts[h->host].name, x->cfg.path);
		x->host[i] = h->host;
	}
	return 0;
}

/* The TI file of rank i: two passes over its trace. */
static int export_rank(sg_export *x, int i, const char *out)
{
	vlpost_tfile *f = &x->set.f[i];
	vlpost_sg_ti t;
	vl_trec r;
	char name[64];
	FILE *o;
	int rc, k;

	vlpost_sg_ti_init(&t, i, x->set.n, x->mpi, vlpost_sg_speed(&x->cfg, x->host[i]), rank_of,
	                  &x->set);
	while ((rc = vlpost_tfile_next(f, &r)) == 1)
		vlpost_sg_ti_note(&t, &r);
	if (rc < 0 || vlpost_tfile_rewind(f) != 0) {
		vlpost_sg_ti_free(&t);
		return vlu_err(EXIT_BAD, "%s", f->errmsg);
	}
	snprintf(name, sizeof name, "rank-%d.txt", i);
	if (!(o = open_out(out, name))) {
		vlpost_sg_ti_free(&t);
		return EXIT_BAD;
	}
	vlpost_sg_ti_begin(&t, f->hdr.start_ns, o);
	while ((rc = vlpost_tfile_next(f, &r)) == 1)
		vlpost_sg_ti_rec(&t, &r, o);
	vlpost_sg_ti_end(&t, o);
	x->vl_end[i] = t.cur;
	for (k = 0; k <= VL_EV_LAST; k++)
		x->as_sleep[k] += t.as_sleep[k];
	vlpost_sg_ti_free(&t);
	if (rc < 0) {
		fclose(o);
		return vlu_err(EXIT_BAD, "%s", f->errmsg);
	}
	return close_out(o, out, name);
}

static void warn_sleeps(const sg_export *x)
{
	static const char *const what[VL_EV_LAST + 1] = {
	    [VL_EV_SEND] = "sends to tasks without a trace",
	    [VL_EV_RECV] = "receives from tasks without a trace or untimed",
	    [VL_EV_SPAWN] = "spawns (the children start at their own start time)",
	    [VL_EV_PROBE] = "probes",
	    [VL_EV_COLL] = "group operations (PVM groups, communicators other than "
	                   "MPI_COMM_WORLD)",
	    [VL_EV_IRECV] = "nonblocking receives never completed",
	    [VL_EV_WAIT] = "send completions to tasks without a trace",
	};
	int k;

	for (k = 0; k <= VL_EV_LAST; k++)
		if (x->as_sleep[k])
			vlu_warn("%" PRIu64 " %s exported as sleeps of their duration",
			         x->as_sleep[k], what[k] ? what[k] : "records");
}

/* The smpirun arguments after "smpirun", separated by sep (malloc'd). */
static char *smpirun_args(const sg_export *x, const char *sep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		vlu_die(VLU_EXIT_NOMEM, "out of memory");
	fprintf(f,
	        "-no-privatize%s-np%s%d%s-platform%splatform.xml%s-hostfile%shostfile%s"
	        "-replay%straces.txt%s",
	        sep, sep, x->set.n, sep, sep, sep, sep, sep, sep, sep);
	vlpost_sg_cfg_opts(f, &x->cfg, x->mpi, sep);
	fclose(f);
	return buf;
}

static int export_all(sg_export *x, const char *out, int topology)
{
	int *ranks, i, rc = 0;
	FILE *f;
	char *args;

	if (vli_mkdirs(out) != 0)
		return vlu_err(EXIT_BAD, "%s: %s", out, strerror(errno));
	for (i = 0; i < x->set.n && rc == 0; i++)
		rc = export_rank(x, i, out);
	if (rc)
		return rc;
	warn_sleeps(x);
	if (!(f = open_out(out, "traces.txt")))
		return EXIT_BAD;
	for (i = 0; i < x->set.n; i++)
		fprintf(f, "rank-%d.txt\n", i);
	if ((rc = close_out(f, out, "traces.txt")))
		return rc;
	if (!(f = open_out(out, "hostfile")))
		return EXIT_BAD;
	for (i = 0; i < x->set.n; i++)
		fprintf(f, "%s\n", x->cfg.hosts[x->host[i]].name);
	if ((rc = close_out(f, out, "hostfile")))
		return rc;
	ranks = vlu_xcalloc((size_t)x->cfg.nhosts, sizeof *ranks);
	for (i = 0; i < x->set.n; i++)
		ranks[x->host[i]]++;
	if (!(f = open_out(out, "platform.xml"))) {
		free(ranks);
		return EXIT_BAD;
	}
	vlpost_sg_platform(f, &x->cfg, ranks, topology, stderr);
	free(ranks);
	if ((rc = close_out(f, out, "platform.xml")))
		return rc;
	if (!(f = open_out(out, "replay.sh")))
		return EXIT_BAD;
	args = smpirun_args(x, " ");
	fprintf(f,
	        "#!/bin/sh\n# generated by vlpost simgrid: replay %s with SimGrid\n"
	        "cd \"$(dirname \"$0\")\" && exec smpirun %s \"$@\"\n",
	        x->set.dir, args);
	free(args);
	rc = close_out(f, out, "replay.sh");
	if (rc == 0) {
		char *p = path_in(out, "replay.sh");
		chmod(p, 0755);
		free(p);
	}
	return rc;
}

/* ---- running smpirun ---- */

/* Run smpirun in dir, its output into dir/smpirun.log.  0, or EXIT_SIM. */
static int run_smpirun(const sg_export *x, const char *dir)
{
	const char *smpirun = getenv("SMPIRUN");
	char *args = smpirun_args(x, "\n"), *p, *log = path_in(dir, "smpirun.log");
	char **argv;
	size_t n = 8, i = 0;
	pid_t pid;
	int st;

	for (p = args; *p; p++)
		n += *p == '\n';
	argv = vlu_xcalloc(n + 2, sizeof *argv);
	argv[i++] = (char *)(smpirun && *smpirun ? smpirun : "smpirun");
	for (p = strtok(args, "\n"); p; p = strtok(NULL, "\n"))
		argv[i++] = p;
	argv[i++] = (char *)"--log=smpi_replay.thres:verbose";
	argv[i++] = (char *)"--log=smpi_replay.fmt:VLSG%e%.12d%e%m%n";
	argv[i++] = (char *)"--log=xbt_cfg.thres:warning";
	argv[i++] = (char *)"--log=smpi_config.thres:warning";
	argv[i] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || chdir(dir) != 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
		execvp(argv[0], argv);
		fprintf(stderr, "VLSG-EXEC %s\n", strerror(errno));
		_exit(127);
	}
	free(argv);
	free(args);
	if (pid < 0) {
		free(log);
		return vlu_err(EXIT_SIM, "fork: %s", strerror(errno));
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		vlu_err(EXIT_SIM,
		        "%s: cannot run it (SimGrid: Debian package libsimgrid-dev; "
		        "or set $SMPIRUN)",
		        smpirun && *smpirun ? smpirun : "smpirun");
		free(log);
		return EXIT_SIM;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		vlu_err(EXIT_SIM, "smpirun failed (status %d): see %s",
		        WIFEXITED(st) ? WEXITSTATUS(st) : -1, log);
		free(log);
		return EXIT_SIM;
	}
	free(log);
	return 0;
}

/* Per rank, the date of its last action (the marker "R sleep 0"), in ns. */
static int read_ends(const sg_export *x, const char *dir, int64_t *end)
{
	char *log = path_in(dir, "smpirun.log"), *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(log, "r");
	int i, missing = 0;
	int *seen;

	if (!f) {
		vlu_err(EXIT_SIM, "%s: %s", log, strerror(errno));
		free(log);
		return EXIT_SIM;
	}
	seen = vlu_xcalloc((size_t)x->set.n, sizeof *seen);
	while (getline(&line, &cap, f) > 0) {
		double date;
		int rank, pos = 0;
		char act[32];

		if (sscanf(line, "VLSG %lf %d %31s %n", &date, &rank, act, &pos) < 3 || rank < 0 ||
		    rank >= x->set.n)
			continue;
		end[rank] = llround(date * 1e9);
		seen[rank] = strcmp(act, "sleep") == 0 && strncmp(line + pos, "0 ", 2) == 0;
	}
	free(line);
	fclose(f);
	for (i = 0; i < x->set.n; i++)
		missing += !seen[i];
	free(seen);
	if (missing) {
		vlu_err(EXIT_SIM, "%s: %d rank(s) did not finish their replay", log, missing);
		free(log);
		return EXIT_SIM;
	}
	free(log);
	return 0;
}

static void print_ends(const sg_export *x, const int64_t *end, FILE *out)
{
	int64_t vmax = 0, smax = 0;
	int i;

	fprintf(out, "%-5s %-10s %-16s %16s %16s %12s\n", "rank", "tid", "host", "vlayer_ns",
	        "simgrid_ns", "diff_ns");
	for (i = 0; i < x->set.n; i++) {
		fprintf(out, "%-5d %-10x %-16s %16" PRId64 " %16" PRId64 " %12" PRId64 "\n", i,
		        (unsigned)x->set.f[i].hdr.tid, x->cfg.hosts[x->host[i]].name, x->vl_end[i],
		        end[i], end[i] - x->vl_end[i]);
		if (x->vl_end[i] > vmax)
			vmax = x->vl_end[i];
		if (end[i] > smax)
			smax = end[i];
	}
	fprintf(out,
	        "elapsed %" PRId64 " ns (vlayer), %" PRId64 " ns (SimGrid), diff %" PRId64 " ns\n",
	        vmax, smax, smax - vmax);
}

static int replay_in(sg_export *x, const char *dir, int topology, FILE *out)
{
	int64_t *end;
	int rc;

	if ((rc = export_all(x, dir, topology)))
		return rc;
	if ((rc = run_smpirun(x, dir)))
		return rc;
	end = vlu_xcalloc((size_t)x->set.n, sizeof *end);
	rc = read_ends(x, dir, end);
	if (rc == 0)
		print_ends(x, end, out);
	free(end);
	return rc;
}

/* Remove what the export and the run wrote into dir, then dir. */
static void remove_dir(const sg_export *x, const char *dir)
{
	static const char *const names[] = {"traces.txt", "hostfile", "platform.xml", "replay.sh",
	                                    "smpirun.log"};
	char name[64], *p;
	size_t k;
	int i;

	for (i = 0; i < x->set.n; i++) {
		snprintf(name, sizeof name, "rank-%d.txt", i);
		p = path_in(dir, name);
		unlink(p);
		free(p);
	}
	for (k = 0; k < sizeof names / sizeof names[0]; k++) {
		p = path_in(dir, names[k]);
		unlink(p);
		free(p);
	}
	if (rmdir(dir) != 0)
		vlu_warn("%s: %s", dir, strerror(errno));
}

static char *make_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *d;

	if (asprintf(&d, "%s/vlpost-simgrid.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
		vlu_die(VLU_EXIT_NOMEM, "out of memory");
	if (!mkdtemp(d)) {
		vlu_err(EXIT_BAD, "%s: %s", d, strerror(errno));
		free(d);
		return NULL;
	}
	return d;
}

int vlpost_simgrid_replay(const char *tracedir, const char *vmconfig, int topology, int keep,
                          FILE *out)
{
	sg_export x;
	char *dir;
	int rc;

	if ((rc = export_open(&x, tracedir, vmconfig))) {
		export_free(&x);
		return rc;
	}
	if (!(dir = make_tmpdir())) {
		export_free(&x);
		return EXIT_BAD;
	}
	rc = replay_in(&x, dir, topology, out);
	if (keep || rc == EXIT_SIM)
		fprintf(stderr, "%s: SimGrid files kept in %s\n", vlu_prog(), dir);
	else
		remove_dir(&x, dir);
	free(dir);
	export_free(&x);
	return rc;
}

/* ---- the command ---- */

static int parse(int argc, char **argv, sg_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(o, "-o") || !strcmp(o, "--vmconfig") ||
		           !strcmp(o, "--topology")) {
			if (++i == argc)
				return vlpost_cli_usage(usage, "%s: missing value", o);
			if (!strcmp(o, "-o"))
				a->out = argv[i];
			else if (!strcmp(o, "--vmconfig"))
				a->vmconfig = argv[i];
			else if ((a->topology = vlpost_sg_topo_parse(argv[i])) < 0)
				return vlpost_cli_usage(
				    usage, "--topology %s: vmconfig, fatpipe, star or bus", argv[i]);
		} else if (!strcmp(o, "--run")) {
			a->run = 1;
		} else if (!strcmp(o, "--keep")) {
			a->keep = 1;
		} else if (o[0] == '-' && o[1]) {
			return vlpost_cli_usage(usage, "simgrid: unknown option %s", o);
		} else if (a->dir) {
			return vlpost_cli_usage(usage, "simgrid: extra argument %s", o);
		} else {
			a->dir = o;
		}
	}
	if (!a->dir)
		return vlpost_cli_usage(usage, "simgrid: missing TRACEDIR");
	return -1;
}

int vlpost_simgrid_main(int argc, char **argv)
{
	sg_args a = {0};
	sg_export x;
	char *out;
	int rc;

	a.topology = VLPOST_SG_AUTO;
	if ((rc = parse(argc, argv, &a)) >= 0)
		return rc;
	if (a.run && !a.out)
		return vlpost_simgrid_replay(a.dir, a.vmconfig, a.topology, a.keep, stdout);
	if ((rc = export_open(&x, a.dir, a.vmconfig))) {
		export_free(&x);
		return rc;
	}
	out = a.out ? vlu_xstrdup(a.out) : vlpost_cli_name(a.dir, "", ".simgrid");
	if (!out)
		vlu_die(VLU_EXIT_NOMEM, "out of memory");
	if (a.run) {
		rc = replay_in(&x, out, a.topology, stdout);
	} else if ((rc = export_all(&x, out, a.topology)) == 0) {
		char *args = smpirun_args(&x, " ");

		printf("cd %s && smpirun %s\n", out, args);
		free(args);
	}
	free(out);
	export_free(&x);
	return rc;
}
