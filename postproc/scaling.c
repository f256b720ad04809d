/* scaling.c - `vlpost scaling`: a table and a gnuplot plot over several runs. */
#include "scaling.h"
#include "cli.h"
#include "util/diag.h"
#include "util/outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scan.h"
#include "stats.h"
#include "tracereader.h"

#define EXIT_BAD VLPOST_EXIT_BAD

const char vlpost_scaling_usage[] =
	"usage: vlpost scaling [-o PREFIX] [--base RUN] [--csv] RUN...\n"
	"\n"
	"Compare several runs of one program (1, 2, 4, ... tasks, or one task count on\n"
	"several VMConfigs).  RUN is a trace directory, or LABEL=DIR (the label defaults\n"
	"to DIR).  Per run, sorted by number of tasks: label, tasks, predicted elapsed\n"
	"time T (s), speed-up S = T(base) / T(run), efficiency E = S * tasks(base) /\n"
	"tasks(run), and the sums over the tasks of computation, communication and\n"
	"waiting (s, from the END records, and in % of their sum).\n"
	"\n"
	"  --base RUN   the base run (a label or DIR); default: the run with the fewest\n"
	"               tasks (the first given of those)\n"
	"  --csv        a header row and one row per run, comma-separated\n"
	"  -o PREFIX    also write PREFIX.dat and the gnuplot script PREFIX.gp, and run\n"
	"               gnuplot (or $VLPOST_GNUPLOT) on it to draw PREFIX.svg (and\n"
	"               PREFIX.png with the pngcairo or png terminal): time and speed-up\n"
	"               (with the ideal line) over tasks, efficiency below; one curve per\n"
	"               label prefix (vienna/4: curve vienna).  Without gnuplot, only\n"
	"               .gp and .dat are written (a note on stderr, exit status 0)\n";

static int is_dir(const char *p)
{
	struct stat sb;
	return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int vlpost_run_parse(vlpost_run *r, const char *arg, int order, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	char *slash;
	memset(r, 0, sizeof *r);
	r->order = order;
	if (eq && !is_dir(arg)) {
		if (eq == arg || !eq[1])
			return vlu_seterr(err, errlen, "%s: empty LABEL or DIR in LABEL=DIR", arg);
		r->label = strndup(arg, (size_t)(eq - arg));
		r->dir = eq + 1;
	} else {
		size_t n = strlen(arg);
		if (!n)
			return vlu_seterr(err, errlen, "empty RUN");
		while (n > 1 && arg[n - 1] == '/')
			n--;
		r->label = strndup(arg, n);
		r->dir = arg;
	}
	if (!r->label)
		return vlu_seterr(err, errlen, "out of memory");
	slash = strrchr(r->label, '/');
	r->curve = strndup(r->label, slash ? (size_t)(slash - r->label) : 0);
	if (!r->curve)
		return vlu_seterr(err, errlen, "out of memory");
	return 0;
}

int vlpost_run_load(vlpost_run *r, char *err, size_t errlen)
{
	vlpost_tset set;
	vlpost_tstats *st = NULL;
	int rc = -1;
	if (vlpost_tset_open(&set, r->dir, 0, NULL, err, errlen) < 0)
		goto out;
	st = calloc((size_t)set.n, sizeof *st);
	if (!st) {
		vlu_seterr(err, errlen, "out of memory");
		goto out;
	}
	if (vlpost_scan(&set, VLPOST_SCAN_INCOMPLETE, NULL, st, NULL, err, errlen) < 0)
		goto out;
	r->tasks = set.n;
	r->comp = r->comm = r->wait = 0;
	for (int i = 0; i < set.n; i++) {
		/* incomplete: truncated, or no END record */
		if (set.f[i].err != VL_TR_ENONE) {
			vlu_seterr(err, errlen, "%s; scaling needs complete runs", set.f[i].errmsg);
			goto out;
		}
		r->comp += st[i].comp;
		r->comm += st[i].comm;
		r->wait += st[i].wait;
	}
	r->elapsed_us = (vlpost_stats_elapsed(st, set.n) + 500) / 1000;
	rc = 0;
out:
	free(st);
	vlpost_tset_close(&set);
	return rc;
}

int vlpost_run_speedup(const vlpost_run *r, const vlpost_run *base, double *s, double *e)
{
	if (r->elapsed_us <= 0)
		return -1;
	*s = (double)base->elapsed_us / (double)r->elapsed_us;
	*e = *s * base->tasks / r->tasks;
	return 0;
}

/* ---- the table ---- */

/* 100 * part / sum with 1 decimal, or "-" for an empty sum */
static void fmt_pct(char *buf, int64_t part, int64_t sum)
{
	if (sum <= 0)
		strcpy(buf, "-");
	else
		snprintf(buf, 32, "%.1f", 100.0 * (double)part / (double)sum);
}

static void fmt_us(char *buf, int64_t us)
{
	snprintf(buf, 32, "%" PRId64 ".%06" PRId64, us / 1000000, us % 1000000);
}


static void print_row(FILE *out, const vlpost_run *r, const vlpost_run *base, int csv, int lw)
{
	char t[32], sp[32] = "-", ef[32] = "-", c[3][32], p[3][32];
	int64_t v[3] = { r->comp, r->comm, r->wait }, sum = r->comp + r->comm + r->wait;
	double s, e;
	fmt_us(t, r->elapsed_us);
	if (vlpost_run_speedup(r, base, &s, &e) == 0) {
		snprintf(sp, sizeof sp, csv ? "%.6f" : "%.3f", s);
		snprintf(ef, sizeof ef, csv ? "%.6f" : "%.3f", e);
	} else if (csv) {
		sp[0] = ef[0] = '\0';
	}
	for (int i = 0; i < 3; i++) {
		vlpost_fmt_sec(c[i], v[i]);
		fmt_pct(p[i], v[i], sum);
		if (csv && p[i][0] == '-')
			p[i][0] = '\0';
	}
	if (!csv) {
		fprintf(out, "%-*s  %5d  %10s  %7s  %10s  %10s  %10s  %10s  %5s  %5s  %5s\n", lw,
			r->label, r->tasks, t, sp, ef, c[0], c[1], c[2], p[0], p[1], p[2]);
		return;
	}
	vlu_csv_str(out, r->label);
	fputc(',', out);
	vlu_csv_str(out, r->curve);
	fprintf(out, ",%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,", r->tasks, t, sp, ef, c[0], c[1], c[2],
		p[0], p[1], p[2], r == base);
	vlu_csv_str(out, r->dir);
	fputc('\n', out);
}

int vlpost_scaling_print(FILE *out, const vlpost_run *runs, int n, const vlpost_run *base, int csv)
{
	int lw = 5;
	for (int i = 0; i < n; i++)
		if ((int)strlen(runs[i].label) > lw)
			lw = (int)strlen(runs[i].label);
	if (csv)
		fputs("label,curve,tasks,elapsed_s,speedup,efficiency,comp_s,comm_s,wait_s,"
		      "comp_pct,comm_pct,wait_pct,base,dir\n", out);
	else
		fprintf(out, "%-*s  %5s  %10s  %7s  %10s  %10s  %10s  %10s  %5s  %5s  %5s\n", lw,
			"label", "tasks", "elapsed_s", "speedup", "efficiency", "comp_s", "comm_s",
			"wait_s", "comp%", "comm%", "wait%");
	for (int i = 0; i < n; i++)
		print_row(out, &runs[i], base, csv, lw);
	if (!csv) {
		char t[32];
		fmt_us(t, base->elapsed_us);
		fprintf(out, "base: %s (%d task%s, %s s); speed-up = T(base) / T, efficiency = "
			     "speed-up * %d / tasks\n", base->label, base->tasks,
			base->tasks == 1 ? "" : "s", t, base->tasks);
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

/* ---- the plot ---- */

typedef struct plot {
	const char *prefix;
	const char *name;     /* prefix without its directory */
	const vlpost_run *runs;  /* sorted */
	int n, ncurves;
	const vlpost_run *base;
} plot;

/* a gnuplot single-quoted string ('' is a quote) */
static void gp_str(FILE *f, const char *pre, const char *s, const char *post)
{
	fputc('\'', f);
	fputs(pre, f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputs(post, f);
	fputc('\'', f);
}

static const char *curve_name(const plot *p, int c)
{
	for (int i = 0; i < p->n; i++)
		if (p->runs[i].curve_idx == c)
			return p->runs[i].curve;
	return "";
}

static int write_dat(FILE *f, const plot *p)
{
	fprintf(f, "# %s.dat - written by vlpost scaling, plotted by %s.gp\n", p->name, p->name);
	fprintf(f, "# one block per curve (gnuplot index 0..%d), two blank lines apart;\n",
		p->ncurves - 1);
	fputs("# '-': undefined (elapsed time 0)\n", f);
	for (int c = 0; c < p->ncurves; c++) {
		if (c)
			fputs("\n\n", f);
		fprintf(f, "# index %d: curve \"%s\"\n# tasks elapsed_s speedup efficiency label\n",
			c, curve_name(p, c));
		for (int i = 0; i < p->n; i++) {
			const vlpost_run *r = &p->runs[i];
			char t[32];
			double s, e;
			if (r->curve_idx != c)
				continue;
			fmt_us(t, r->elapsed_us);
			if (vlpost_run_speedup(r, p->base, &s, &e) == 0)
				fprintf(f, "%d %s %.6f %.6f", r->tasks, t, s, e);
			else
				fprintf(f, "%d %s - -", r->tasks, t);
			fprintf(f, " # %s\n", r->label);
		}
	}
	return 0;
}

/* the title of a curve's line: "NAME: what", or "what" for a single unnamed curve */
static void gp_title(FILE *f, const plot *p, int c, const char *what)
{
	const char *name = curve_name(p, c);
	char post[64];
	fputs(" title ", f);
	if (p->ncurves == 1 && !*name) {
		gp_str(f, "", what, "");
		return;
	}
	snprintf(post, sizeof post, ": %s", what);
	gp_str(f, "", *name ? name : "(no prefix)", post);
}

/* the multiplot: time and speed-up over tasks, efficiency below */
static void gp_plot(FILE *f, const plot *p)
{
	int lo = p->runs[0].tasks, hi = p->runs[p->n - 1].tasks, first = 1;
	fputs("reset\nset datafile missing '-'\nset termoption noenhanced\n", f);
	fputs("set multiplot layout 2,1 title ", f);
	gp_str(f, "vlpost scaling, base ", p->base->label, "");
	fprintf(f, "\nset logscale x 2\nset xrange [%g:%g]\nset xtics (", lo / 1.25, hi * 1.25);
	for (int i = 0; i < p->n; i++) {
		if (i && p->runs[i].tasks == p->runs[i - 1].tasks)
			continue;
		fprintf(f, "%s%d", first ? "" : ", ", p->runs[i].tasks);
		first = 0;
	}
	fputs(")\nset xlabel 'tasks'\nset grid\nset key below\n"
	      "set ylabel 'predicted elapsed time (s)'\nset yrange [0:*]\nset ytics nomirror\n"
	      "set y2label 'speed-up'\nset y2range [0:*]\nset y2tics\nplot ", f);
	for (int c = 0; c < p->ncurves; c++) {
		fprintf(f, "'%s.dat' index %d using 1:2 with linespoints lc %d pt 7", p->name, c,
			c + 1);
		gp_title(f, p, c, "time");
		fprintf(f, ", \\\n     '%s.dat' index %d using 1:3 axes x1y2 with linespoints lc %d "
			   "pt 6 dt 2", p->name, c, c + 1);
		gp_title(f, p, c, "speed-up");
		fputs(", \\\n     ", f);
	}
	fputs("x / base_tasks axes x1y2 with lines lc 'gray' dt 3 title 'ideal speed-up'\n", f);
	fputs("unset y2label\nunset y2tics\nset ytics mirror\nset ylabel 'efficiency'\n"
	      "set yrange [0:1.2<*]\nplot ", f);
	for (int c = 0; c < p->ncurves; c++) {
		fprintf(f, "'%s.dat' index %d using 1:4 with linespoints lc %d pt 7", p->name, c,
			c + 1);
		gp_title(f, p, c, "efficiency");
		fputs(", \\\n     ", f);
	}
	fputs("1 with lines lc 'gray' dt 3 title 'ideal efficiency'\nunset multiplot\n", f);
}

static int write_gp(FILE *f, const plot *p)
{
	char t[32];
	fmt_us(t, p->base->elapsed_us);
	fprintf(f, "# %s.gp - written by vlpost scaling; edit it and run `gnuplot %s.gp` in\n"
		   "# its directory.  Data: %s.dat (tasks, elapsed_s, speedup, efficiency; one\n"
		   "# index per curve).  Base: %s (%d tasks, %s s).\n",
		p->name, p->name, p->name, p->base->label, p->base->tasks, t);
	fprintf(f, "base_tasks = %d.0\n", p->base->tasks);
	fputs("png_term = ''\ndo for [t in GPVAL_TERMINALS] {\n"
	      "    if (t eq 'png' && png_term eq '') { png_term = 'png' }\n"
	      "    if (t eq 'pngcairo') { png_term = 'pngcairo' }\n}\n", f);
	fprintf(f, "set terminal svg size 800,900 dynamic\nset output '%s.svg'\n", p->name);
	gp_plot(f, p);
	fprintf(f, "set output\nif (png_term ne '') {\n"
		   "    set terminal png_term size 800,900\n    set output '%s.png'\n", p->name);
	gp_plot(f, p);
	fputs("    set output\n}\n", f);
	return 0;
}

/* write path through fn (outfile.c) */
struct sc_out {
	int (*fn)(FILE *, const plot *);
	const plot *p;
};

static int sc_write_cb(FILE *f, void *ctx, char *err, size_t errlen)
{
	struct sc_out *c = ctx;
	(void)err;
	(void)errlen;
	c->fn(f, c->p);
	return 0;
}

static int write_file(const char *path, int (*fn)(FILE *, const plot *), const plot *p,
		      char *err, size_t errlen)
{
	struct sc_out c = { fn, p };
	return vlu_write_atomic(path, sc_write_cb, &c, err, errlen);
}

/* prog is an executable file, itself (with a '/') or in $PATH */
static int have_prog(const char *prog)
{
	const char *path = getenv("PATH"), *p;
	char buf[4096];
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	for (p = path ? path : "/usr/bin:/bin"; ; p++) {
		size_t n = strcspn(p, ":");
		if (n + strlen(prog) + 2 < sizeof buf) {
			snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? p : ".", prog);
			if (access(buf, X_OK) == 0 && !is_dir(buf))
				return 1;
		}
		p += n;
		if (!*p)
			return 0;
	}
}

/* run gnuplot NAME.gp in the directory of the prefix; 0, or -1 with err */
static int run_gnuplot(const char *prog, const plot *p, char *err, size_t errlen)
{
	size_t dl = (size_t)(p->name - p->prefix);
	char *dir = strndup(p->prefix, dl ? dl : 1), *gp = malloc(strlen(p->name) + 4);
	pid_t pid;
	int st;
	if (!dir || !gp) {
		free(dir);
		free(gp);
		return vlu_seterr(err, errlen, "out of memory");
	}
	if (!dl)
		strcpy(dir, ".");
	sprintf(gp, "%s.gp", p->name);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (chdir(dir) != 0) {
			vlu_err(126, "%s: %s", dir, strerror(errno));
			_exit(126);
		}
		execlp(prog, prog, gp, (char *)NULL);
		vlu_err(127, "%s: %s", prog, strerror(errno));
		_exit(127);
	}
	free(dir);
	free(gp);
	if (pid < 0)
		return vlu_seterr(err, errlen, "fork: %s", strerror(errno));
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return vlu_seterr(err, errlen, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return vlu_seterr(err, errlen, "%s %s.gp failed (status %d)", prog, p->prefix,
			    WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 0;
}

/* PREFIX + ext, malloc'ed */
static char *with_ext(const char *prefix, const char *ext)
{
	char *s = malloc(strlen(prefix) + strlen(ext) + 1);
	if (s)
		sprintf(s, "%s%s", prefix, ext);
	return s;
}

static int svg_ok(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[256];
	size_t n;
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, "<?xml") || strstr(buf, "<svg");
}

static int make_plot(const plot *p, char *err, size_t errlen)
{
	const char *prog = getenv("VLPOST_GNUPLOT");
	char *f[4] = { with_ext(p->prefix, ".gp"), with_ext(p->prefix, ".dat"),
		       with_ext(p->prefix, ".svg"), with_ext(p->prefix, ".png") };
	int rc = -1;
	if (!prog || !*prog)
		prog = "gnuplot";
	if (!f[0] || !f[1] || !f[2] || !f[3]) {
		vlu_seterr(err, errlen, "out of memory");
		goto out;
	}
	if (write_file(f[1], write_dat, p, err, errlen) < 0 ||
	    write_file(f[0], write_gp, p, err, errlen) < 0)
		goto out;
	if (!have_prog(prog)) {
		vlu_err(0, "%s not found (Debian: apt-get install gnuplot-nox): wrote %s and %s only; "
			"`gnuplot %s.gp` in their directory draws the plot", prog, f[0], f[1], p->name);
		rc = 0;
		goto out;
	}
	unlink(f[2]);
	unlink(f[3]);
	if (run_gnuplot(prog, p, err, errlen) < 0)
		goto out;
	if (!svg_ok(f[2])) {
		vlu_seterr(err, errlen, "%s: not written by %s", f[2], prog);
		goto out;
	}
	rc = 0;
out:
	for (int i = 0; i < 4; i++)
		free(f[i]);
	return rc;
}

/* ---- the command ---- */

static int run_cmp(const void *a, const void *b)
{
	const vlpost_run *x = a, *y = b;
	if (x->tasks != y->tasks)
		return x->tasks < y->tasks ? -1 : 1;
	return x->order - y->order;
}

/* the run named by --base: its label, or its DIR (trailing '/' ignored) */
static const vlpost_run *find_base(const vlpost_run *runs, int n, const char *name)
{
	size_t len = strlen(name);
	while (len > 1 && name[len - 1] == '/')
		len--;
	for (int i = 0; i < n; i++)
		if (strcmp(runs[i].label, name) == 0)
			return &runs[i];
	for (int i = 0; i < n; i++) {
		size_t dl = strlen(runs[i].dir);
		while (dl > 1 && runs[i].dir[dl - 1] == '/')
			dl--;
		if (dl == len && strncmp(runs[i].dir, name, len) == 0)
			return &runs[i];
	}
	return NULL;
}

static int scaling(vlpost_run *runs, int n, const char *out, const char *basename, int csv)
{
	char err[1024];
	const vlpost_run *base;
	plot p;
	for (int i = 0; i < n; i++) {
		if (vlpost_run_load(&runs[i], err, sizeof err) < 0)
			return vlu_err(EXIT_BAD, "%s", err);
		runs[i].curve_idx = i;
		for (int j = 0; j < i; j++)
			if (strcmp(runs[j].curve, runs[i].curve) == 0) {
				runs[i].curve_idx = runs[j].curve_idx;
				break;
			}
	}
	p.ncurves = 0;
	for (int i = 0; i < n; i++) {
		if (runs[i].curve_idx == i)
			runs[i].curve_idx = p.ncurves++;
		else
			runs[i].curve_idx = runs[runs[i].curve_idx].curve_idx;
	}
	qsort(runs, (size_t)n, sizeof *runs, run_cmp);
	base = basename ? find_base(runs, n, basename) : &runs[0];
	if (!base)
		return vlpost_cli_usage(vlpost_scaling_usage,
					"scaling: --base %s: not one of the runs (a LABEL or DIR)", basename);
	if (vlpost_scaling_print(stdout, runs, n, base, csv) < 0)
		return vlu_err(EXIT_BAD, "write error on stdout");
	if (!out)
		return 0;
	p.prefix = out;
	p.name = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
	p.runs = runs;
	p.n = n;
	p.base = base;
	if (make_plot(&p, err, sizeof err) < 0)
		return vlu_err(EXIT_BAD, "%s", err);
	return 0;
}

int vlpost_scaling_main(int argc, char **argv)
{
	const char *out = NULL, *base = NULL;
	int csv = 0, n = 0, rc;
	vlpost_run *runs = calloc((size_t)argc, sizeof *runs);
	char err[1024];
	if (!runs)
		return vlu_err(EXIT_BAD, "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(vlpost_scaling_usage, stdout);
			rc = 0;
			goto done;
		} else if (strcmp(a, "--csv") == 0) {
			csv = 1;
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--base") == 0) {
			if (++i == argc) {
				rc = vlpost_cli_usage(vlpost_scaling_usage, "scaling: %s: missing argument", a);
				goto done;
			}
			*(a[1] == 'o' ? &out : &base) = argv[i];
		} else if (a[0] == '-' && a[1]) {
			rc = vlpost_cli_usage(vlpost_scaling_usage, "scaling: unknown option %s", a);
			goto done;
		} else if (vlpost_run_parse(&runs[n], a, n, err, sizeof err) < 0) {
			n++;
			rc = vlpost_cli_usage(vlpost_scaling_usage, "scaling: %s", err);
			goto done;
		} else {
			n++;
		}
	}
	if (!n)
		rc = vlpost_cli_usage(vlpost_scaling_usage, "scaling: missing RUN");
	else if (out && (!*out || out[strlen(out) - 1] == '/'))
		rc = vlpost_cli_usage(vlpost_scaling_usage,
				      "scaling: -o %s: PREFIX must name a file (PREFIX.gp, ...)", out);
	else
		rc = scaling(runs, n, out, base, csv);
done:
	for (int i = 0; i < n; i++) {
		free(runs[i].label);
		free(runs[i].curve);
	}
	free(runs);
	return rc;
}
