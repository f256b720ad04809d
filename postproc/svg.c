/* svg.c - vlayer traces -> a self-contained SVG space-time diagram.
 *
 * The states and the messages are those of the Pajé converter: the events of
 * timeline.c (the merge of merge.c, the states of states.c, the messages
 * matched as links), drawn as they come.  The picture's time scale needs the
 * end of every task before the first event: a first pass over the records
 * (the per-task summaries only) finds it.  State rectangles and marks are
 * written while merging; the messages (16 bytes per end) are kept until the
 * end and drawn as lines from send begin to receive end.
 */
#include "svg.h"
#include "cli.h"
#include "timeline.h"
#include "util/diag.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { S_COMP, S_COMM, S_WAIT, S_N };

static const char *const sv_name[S_N] = { "Computing", "Communicating", "Waiting" };
static const char *const sv_color[S_N] = { "#00b300", "#ffcc00", "#cc0000" };

/* one end of a message: key (sender + 1) << 32 | seq, time, row */
typedef struct sv_end {
	uint64_t key;
	int64_t t;
	int proc;
} sv_end;

typedef struct sv_ends {
	sv_end *v;
	size_t n, cap;
} sv_ends;

typedef struct sv {
	FILE *out;
	vlpost_tset *set;
	int n;
	int64_t t0, t1;      /* ns: the earliest start, the latest end */
	int64_t span;        /* ns; span >= 1 */
	double left, pw;     /* plot area: x of time t0, width */
	int rh, y0;          /* row height, y of row 0 */
	int *cur;            /* per row: current state or -1 */
	int64_t *since;      /* per row: its begin */
	int nbin;
	double *acc;         /* S_N x nbin: ns of each state per bin, summed over rows */
	sv_ends snd, rcv;
	uint64_t nmarks;
	char *err;
	size_t errlen;
} sv;

static double sv_x(const sv *c, int64_t t)
{
	return c->left + (double)(t - c->t0) * c->pw / (double)c->span;
}

/* XML text: & < > " ' escaped */
static void sv_text(FILE *o, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", o); break;
		case '<': fputs("&lt;", o); break;
		case '>': fputs("&gt;", o); break;
		case '"': fputs("&quot;", o); break;
		case '\'': fputs("&apos;", o); break;
		default: fputc(*s, o);
		}
	}
}

/* seconds with 9 decimals; buf needs 32 bytes */
static const char *sv_time(char *buf, int64_t t)
{
	snprintf(buf, 32, "%" PRId64 ".%09" PRId64, t / 1000000000, t % 1000000000);
	return buf;
}

static int sv_push(sv *c, sv_ends *a, uint64_t key, int64_t t, int proc)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		sv_end *v = realloc(a->v, cap * sizeof *v);
		if (!v)
			return vlu_seterr(c->err, c->errlen, "out of memory");
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = (sv_end){ key, t, proc };
	return 0;
}

/* ---- the rows ---- */
static void sv_label(const sv *c, int p, char *buf, size_t len)
{
	const vl_thdr *h = &c->set->f[p].hdr;
	char host[24];
	if (h->host_name[0])
		snprintf(host, sizeof host, "%.23s", h->host_name);
	else
		snprintf(host, sizeof host, "host%d", (int)h->host);
	/* PVM tids have the host part set; an MPI task's tid is its rank */
	if (h->tid >= 0x40000 || h->tid < 0)
		snprintf(buf, len, "0x%x %.40s @%s", (unsigned)h->tid,
			 h->program[0] ? h->program : "?", host);
	else
		snprintf(buf, len, "rank %d %.40s @%s", (int)h->tid,
			 h->program[0] ? h->program : "?", host);
}

static void sv_rows(sv *c)
{
	int fs = c->rh - 2 < 12 ? c->rh - 2 : 12;
	char lb[96];
	fputs("<g class=\"rows\">\n", c->out);
	for (int p = 0; p < c->n; p++) {
		int y = c->y0 + p * c->rh;
		sv_label(c, p, lb, sizeof lb);
		fprintf(c->out, "<rect class=\"row\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\"><title>",
			c->left, y, c->pw, c->rh);
		sv_text(c->out, lb);
		fputs("</title></rect>\n", c->out);
		if (fs < 6)
			continue;
		fprintf(c->out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"end\" font-size=\"%d\">",
			c->left - 6, y + c->rh / 2 + fs / 3, fs);
		sv_text(c->out, lb);
		fputs("</text>\n", c->out);
	}
	fputs("</g>\n", c->out);
}

/* ---- states, marks and message ends, from the timeline ---- */

/* Row p was in state s during [a, b): its rectangle, and the utilisation bins. */
static void sv_seg(sv *c, int p, int64_t a, int64_t b, int s)
{
	double x0 = sv_x(c, a), x1 = sv_x(c, b), h = c->rh >= 6 ? c->rh - 2 : c->rh;
	double da = (double)(a - c->t0), db = (double)(b - c->t0);
	double bw = (double)c->span / c->nbin;
	int i, last;
	if (b <= a)
		return;
	fprintf(c->out, "<rect class=\"s%d\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\"/>\n",
		s, x0, c->y0 + p * c->rh + (c->rh - h) / 2, x1 - x0, h);
	i = (int)(da / bw);
	last = (int)(db / bw);
	if (last >= c->nbin)
		last = c->nbin - 1;
	for (; i <= last; i++) {
		double lo = i * bw, hi = lo + bw;
		double ov = (db < hi ? db : hi) - (da > lo ? da : lo);
		if (ov > 0)
			c->acc[s * c->nbin + i] += ov;
	}
}

static void sv_state(sv *c, int p, int64_t t, int s)
{
	if (c->cur[p] >= 0)
		sv_seg(c, p, c->since[p], t, c->cur[p]);
	c->cur[p] = s;
	c->since[p] = t;
}

static void sv_mark(sv *c, int p, int64_t t, const char *text)
{
	char tb[32];
	double x = sv_x(c, t);
	int y = c->y0 + p * c->rh;
	fprintf(c->out, "<line class=\"mk\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"><title>", x, y,
		x, y + c->rh);
	sv_text(c->out, text);
	fprintf(c->out, " at %s s</title></line>\n", sv_time(tb, t));
	c->nmarks++;
}

/* A mark's label as the Pajé output writes it: '"', '\\' and control
 * characters become '_'; d holds 32 bytes. */
static void sv_label_text(char *d, const char *s)
{
	size_t i = 0;
	for (; *s && i < 31; s++) {
		unsigned char ch = (unsigned char)*s;
		d[i++] = (char)(ch < 0x20 || ch == 0x7f || ch == '"' || ch == '\\' ? '_' : ch);
	}
	d[i] = 0;
}

static uint64_t sv_key(int sender, uint32_t seq)
{
	return (uint64_t)(sender + 1) << 32 | seq;
}

/* One event of the timeline. */
static int sv_event(void *ctx, const vlpost_tl_ev *e)
{
	sv *c = ctx;
	char text[32];
	switch (e->kind) {
	case VLP_TL_DESTROY:
		sv_state(c, e->proc, e->t, -1);
		return 0;
	case VLP_TL_STATE:
		if (e->val >= 0 && e->val < S_N)
			sv_state(c, e->proc, e->t, e->val);
		return 0;
	case VLP_TL_MARK:
		sv_label_text(text, e->text);
		sv_mark(c, e->proc, e->t, text);
		return 0;
	case VLP_TL_LINK_START:
		return sv_push(c, &c->snd, sv_key(e->sender, e->seq), e->t, e->proc);
	case VLP_TL_LINK_END:
		return sv_push(c, &c->rcv, sv_key(e->sender, e->seq), e->t, e->proc);
	default:
		return 0;
	}
}

/* c->t0 and c->t1 before the merge: the summary of every task (into st, which
 * the merge computes again) over its records as far as they are valid, with
 * no message (the merge reports the errors), then the set rewound.  0, or -1
 * (a read error, message in err). */
static int sv_prescan(sv *c, vlpost_tstats *st)
{
	vl_trec r;
	for (int i = 0; i < c->n; i++) {
		vlpost_tfile *f = &c->set->f[i];
		vlpost_stats_init(&st[i], i, &f->hdr);
		while (vlpost_tfile_next(f, &r) == 1)
			vlpost_stats_add(&st[i], &r);
		vlpost_stats_done(&st[i]);
		if (f->err == VL_TR_EIO)
			return vlu_seterr(c->err, c->errlen, "%s", f->errmsg);
		if (i == 0 || f->hdr.start_ns < c->t0)
			c->t0 = f->hdr.start_ns;
		if (st[i].end > c->t1)
			c->t1 = st[i].end;
	}
	return vlpost_tset_rewind(c->set, c->err, c->errlen);
}

/* ---- messages ---- */
static int cmp_end(const void *a, const void *b)
{
	const sv_end *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* The lines (every stride-th message, in (sender, seq) order); the number of messages. */
static size_t sv_msgs(sv *c, size_t *stride)
{
	size_t i = 0, j = 0, nm = 0, k;
	if (c->snd.n > 1)
		qsort(c->snd.v, c->snd.n, sizeof *c->snd.v, cmp_end);
	if (c->rcv.n > 1)
		qsort(c->rcv.v, c->rcv.n, sizeof *c->rcv.v, cmp_end);
	for (i = 0; i < c->snd.n && j < c->rcv.n;) {
		uint64_t a = c->snd.v[i].key, b = c->rcv.v[j].key;
		if (a == b) {
			c->snd.v[nm] = c->snd.v[i++];
			c->rcv.v[nm++] = c->rcv.v[j++];
		} else if (a < b) {
			i++;
		} else {
			j++;
		}
	}
	k = nm > VLPOST_SVG_MAXLINES ? (nm + VLPOST_SVG_MAXLINES - 1) / VLPOST_SVG_MAXLINES : 1;
	fputs("<g class=\"msgs\">\n", c->out);
	for (i = 0; i < nm; i += k) {
		const sv_end *s = &c->snd.v[i], *r = &c->rcv.v[i];
		fprintf(c->out, "<line class=\"m\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>\n",
			sv_x(c, s->t), c->y0 + (s->proc + 0.5) * c->rh, sv_x(c, r->t),
			c->y0 + (r->proc + 0.5) * c->rh);
	}
	fputs("</g>\n", c->out);
	*stride = k;
	return nm;
}

/* ---- axes, profile, legend ---- */

/* A tick every *step ns (1, 2 or 5 times a power of 10, about every 100 px);
 * *unit: the ns of the unit of the labels, *dec their decimals. */
static const char *sv_ticks(const sv *c, int64_t *step, int64_t *unit, int *dec)
{
	int64_t want = (int64_t)(c->span / (c->pw / 100 > 1 ? c->pw / 100 : 1)), p = 1, m = 1;
	static const char *const un[] = { "s", "ms", "us", "ns" };
	int u;
	while (p <= want / 10)
		p *= 10;
	if (p < want)
		m = p * 2 >= want ? 2 : p * 5 >= want ? 5 : 10;
	*step = m * p;
	u = *step >= 100000000 ? 0 : *step >= 100000 ? 1 : *step >= 100 ? 2 : 3;
	*unit = u == 0 ? 1000000000 : u == 1 ? 1000000 : u == 2 ? 1000 : 1;
	*dec = 0;
	for (int64_t q = *unit; q > *step && q > p; q /= 10)
		(*dec)++;
	return un[u];
}

/* the time axis at y, with labels if label */
static void sv_axis(sv *c, int y, int label)
{
	int64_t step, unit, t;
	int dec;
	const char *un = sv_ticks(c, &step, &unit, &dec);
	fprintf(c->out, "<g class=\"axis\">\n<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>\n",
		c->left, y, c->left + c->pw, y);
	for (t = (c->t0 + step - 1) / step * step; t <= c->t0 + c->span; t += step) {
		double x = sv_x(c, t);
		fprintf(c->out, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>\n", x, y, x, y + 5);
		if (label)
			fprintf(c->out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%.*f</text>\n", x,
				y + 17, dec, (double)t / (double)unit);
	}
	if (label)
		fprintf(c->out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">virtual time (%s)</text>\n",
			c->left + c->pw / 2, y + 32, un);
	fputs("</g>\n", c->out);
}

/* One edge of a stacked area: y[0..n-1] as steps, left to right (dir 1) or
 * right to left (dir -1), without the points of flat stretches. */
static void sv_edge(sv *c, const double *y, int dir)
{
	double xw = c->pw / c->nbin;
	int n = c->nbin, i = dir > 0 ? 0 : n - 1, e = dir > 0 ? n : -1;
	double x = c->left + (dir > 0 ? i : i + 1) * xw;
	fprintf(c->out, " %.2f %.2f", x, y[i]);
	for (i += dir; i != e; i += dir) {
		if (lround(y[i] * 100) == lround(y[i - dir] * 100))
			continue;
		x = c->left + (dir > 0 ? i : i + 1) * xw;
		fprintf(c->out, " %.2f %.2f %.2f %.2f", x, y[i - dir], x, y[i]);
	}
	fprintf(c->out, " %.2f %.2f", dir > 0 ? c->left + c->pw : c->left, y[i - dir]);
}

/* The utilisation profile at y (height ph): stacked areas, bottom up. */
static void sv_profile(sv *c, int y, int ph)
{
	double bw = (double)c->span / c->nbin;
	double *lo = malloc(2 * (size_t)c->nbin * sizeof *lo), *hi;
	if (!lo)
		return;
	hi = lo + c->nbin;
	fprintf(c->out, "<g class=\"profile\">\n<text x=\"%.2f\" y=\"%d\">utilisation: fraction of "
		"the %d tasks computing, communicating, waiting</text>\n", c->left, y - 6, c->n);
	fprintf(c->out, "<rect class=\"row\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\"/>\n",
		c->left, y, c->pw, ph);
	for (int i = 0; i < c->nbin; i++)
		lo[i] = y + ph;
	for (int s = 0; s < S_N; s++) {
		for (int i = 0; i < c->nbin; i++)
			hi[i] = lo[i] - c->acc[s * c->nbin + i] / (bw * c->n) * ph;
		fprintf(c->out, "<path class=\"s%d\" d=\"M", s);
		sv_edge(c, hi, 1);
		sv_edge(c, lo, -1);
		fputs(" Z\"/>\n", c->out);
		memcpy(lo, hi, (size_t)c->nbin * sizeof *lo);
	}
	for (int i = 0; i <= 2; i++)
		fprintf(c->out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"end\">%d%%</text>\n",
			c->left - 6, y + ph - i * ph / 2 + 4, i * 50);
	fputs("</g>\n", c->out);
	free(lo);
}

/* The legend at y (a second line at y + 18 if the first would be too long). */
static void sv_legend(sv *c, int y, int width, size_t nm, size_t stride)
{
	double x = 10;
	fputs("<g class=\"legend\">\n", c->out);
	for (int s = 0; s < S_N; s++, x += 120) {
		fprintf(c->out, "<rect class=\"s%d\" x=\"%.2f\" y=\"%d\" width=\"12\" height=\"12\"/>"
			"<text x=\"%.2f\" y=\"%d\">%s</text>\n", s, x, y - 10, x + 16, y, sv_name[s]);
	}
	fprintf(c->out, "<line class=\"m key\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>", x, y, x + 14,
		y - 10);
	if (stride > 1)
		fprintf(c->out, "<text x=\"%.2f\" y=\"%d\">message: a sample, 1 in %zu drawn "
			"(%zu of %zu)</text>\n", x + 18, y, stride, (nm + stride - 1) / stride, nm);
	else
		fprintf(c->out, "<text x=\"%.2f\" y=\"%d\">message (%zu, send to receive)</text>\n",
			x + 18, y, nm);
	x += stride > 1 ? 340 : 230;
	if (x + 230 > width) {
		x = 10;
		y += 18;
	}
	fprintf(c->out, "<line class=\"mk\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>"
		"<text x=\"%.2f\" y=\"%d\">mark (%" PRIu64 ", hover for its label)</text>\n</g>\n",
		x + 5, y - 11, x + 5, y + 1, x + 12, y, c->nmarks);
}

/* ---- the whole picture ---- */
static int sv_draw(sv *c, vlpost_tl *tl, const vlpost_svg_opt *opt)
{
	int yr, yp, ph = 100, h, rc;
	size_t nm, stride;
	char tb[32];
	c->span = c->t1 > c->t0 ? c->t1 - c->t0 : 1;
	c->left = opt->width >= 600 ? 220 : opt->width / 3;
	c->pw = opt->width - c->left - 20;
	c->rh = c->n <= 25 ? 22 : 550 / c->n > 2 ? 550 / c->n : 2;
	c->y0 = 72;
	c->nbin = (int)(c->pw / 4) > 1 ? (int)(c->pw / 4) : 1;
	c->cur = malloc((size_t)c->n * sizeof *c->cur);
	c->since = calloc((size_t)c->n, sizeof *c->since);
	c->acc = calloc((size_t)S_N * c->nbin, sizeof *c->acc);
	if (!c->cur || !c->since || !c->acc)
		return vlu_seterr(c->err, c->errlen, "out of memory");
	for (int i = 0; i < c->n; i++)
		c->cur[i] = -1;
	yr = c->y0 + c->n * c->rh;
	yp = yr + 70;
	h = yp + ph + 42;
	fprintf(c->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<style>\n.s0{fill:%s}\n.s1{fill:%s}\n.s2{fill:%s}\n.row{fill:#f2f2f2}\n"
		".m{stroke:#000;stroke-width:1;stroke-opacity:0.7}\n"
		".mk{stroke:#0040ff;stroke-width:2}\n.axis line{stroke:#000}\n</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n<text x=\"10\" y=\"20\" "
		"font-size=\"14\">", opt->width, h, opt->width, h, sv_color[0], sv_color[1], sv_color[2]);
	sv_text(c->out, opt->title);
	fprintf(c->out, ": %d tasks, predicted elapsed %s s (virtual)</text>\n", c->n,
		sv_time(tb, c->t1 - c->t0));
	sv_rows(c);
	fputs("<g class=\"states\">\n", c->out);
	rc = vlpost_tl_run(tl);
	if (rc < 0)
		return rc;
	fputs("</g>\n", c->out);
	nm = sv_msgs(c, &stride);
	sv_axis(c, yr + 2, 1);
	sv_profile(c, yp, ph);
	sv_axis(c, yp + ph, 1);
	sv_legend(c, 42, opt->width, nm, stride);
	fputs("</svg>\n", c->out);
	return 0;
}

int vlpost_svg_write(vlpost_tset *set, FILE *out, const vlpost_svg_opt *opt, vlpost_tstats *st,
		     char *err, size_t errlen)
{
	vlpost_tl tl;
	sv c;
	int rc;
	memset(&c, 0, sizeof c);
	memset(&tl, 0, sizeof tl);
	c.out = out;
	c.set = set;
	c.n = set->n;
	c.err = err;
	c.errlen = errlen;
	rc = sv_prescan(&c, st);
	if (rc == 0)
		rc = vlpost_tl_init(&tl, set, opt->partial, opt->warn, st, sv_event, &c, err, errlen);
	if (rc == 0)
		rc = sv_draw(&c, &tl, opt);
	if (rc == 0 && (fflush(out) != 0 || ferror(out)))
		rc = vlu_seterr(err, errlen, "write error");
	vlpost_tl_free(&tl);
	free(c.cur);
	free(c.since);
	free(c.acc);
	free(c.snd.v);
	free(c.rcv.v);
	return rc;
}

/* ---- the command ---- */
const char vlpost_svg_usage[] =
	"usage: vlpost svg [-o FILE.svg] [--width PX] [--partial] [--png] TRACEDIR\n"
	"\n"
	"Draw the traces of TRACEDIR as a self-contained SVG space-time diagram: one\n"
	"row per task (tid or rank, program, host), its states along the virtual time\n"
	"axis (Computing, Communicating, Waiting, as in vlpost paje), a line per\n"
	"message from its send to its receive (a sample of them if there are more than\n"
	"20000), a tick per user mark (its label as tooltip), a legend, and below the\n"
	"fraction of the tasks computing, communicating and waiting over time.\n"
	"\n"
	"  -o FILE      output file (default: TRACEDIR with .svg appended); written to\n"
	"               FILE.tmp and renamed when complete (through a symbolic link:\n"
	"               its target); - is standard output, a FIFO or device is\n"
	"               written directly\n"
	"  --width PX   width of the picture (default 1200, at least 300)\n"
	"  --partial    use incomplete traces, as vlpost paje --partial\n"
	"  --png        also write FILE.png (FILE without .svg) with rsvg-convert or\n"
	"               ImageMagick's convert if installed, else print a note\n";

/* Run argv; its exit status, 127 if it could not be run. */
static int sv_run(char *const argv[])
{
	int st;
	pid_t pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		dup2(2, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return 126;
	return WEXITSTATUS(st);
}

/* FILE.png beside the SVG, if a converter is installed; never fails. */
static void sv_png(const char *svg)
{
	char *png = vlpost_cli_name(svg, ".svg", ".png"), w[] = "-o";
	char rsvg[] = "rsvg-convert", conv[] = "convert";
	int rc;
	if (strcmp(svg, "-") == 0 || !png) {
		if (png)
			vlu_err(0, "note: --png needs an SVG file (-o FILE), not standard output");
		free(png);
		return;
	}
	{
		char *a[] = { rsvg, w, png, (char *)svg, NULL };
		rc = sv_run(a);
	}
	if (rc == 127) {
		char *a[] = { conv, (char *)svg, png, NULL };
		rc = sv_run(a);
	}
	if (rc == 127)
		vlu_err(0, "note: neither rsvg-convert (Debian librsvg2-bin) nor convert "
			"(imagemagick) is installed: %s not written", png);
	else if (rc != 0)
		vlu_err(0, "note: converting %s to PNG failed: %s not written", svg, png);
	free(png);
}

struct sv_out {
	vlpost_tset *set;
	vlpost_svg_opt *opt;
	vlpost_tstats *st;
};

static int sv_write_cb(FILE *f, void *ctx, char *err, size_t errlen)
{
	struct sv_out *c = ctx;
	return vlpost_svg_write(c->set, f, c->opt, c->st, err, errlen);
}

static int sv_to(vlpost_tset *set, const char *out, vlpost_svg_opt *opt, vlpost_tstats *st)
{
	struct sv_out c = { set, opt, st };

	return vlpost_cli_write(out, sv_write_cb, &c);
}

int vlpost_svg_main(int argc, char **argv)
{
	const char *dir = NULL, *o = NULL, *base;
	vlpost_svg_opt opt = { 0, 1200, NULL, stderr };
	int png = 0, rc;
	vlpost_tset set;
	vlpost_tstats *st;
	char err[1024], *out, *title;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return fputs(vlpost_svg_usage, stdout), 0;
		if (strcmp(argv[i], "--partial") == 0)
			opt.partial = 1;
		else if (strcmp(argv[i], "--png") == 0)
			png = 1;
		else if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--width") == 0) && i + 1 == argc)
			return vlpost_cli_usage(vlpost_svg_usage, "%s: missing argument", argv[i]);
		else if (strcmp(argv[i], "-o") == 0)
			o = argv[++i];
		else if (strcmp(argv[i], "--width") == 0) {
			char *e;
			long w = strtol(argv[++i], &e, 10);
			if (*e || e == argv[i] || w < 300 || w > 100000)
				return vlpost_cli_usage(vlpost_svg_usage,
							"svg: --width %s: a number of pixels from 300 to 100000",
							argv[i]);
			opt.width = (int)w;
		} else if (argv[i][0] == '-' && argv[i][1])
			return vlpost_cli_usage(vlpost_svg_usage, "svg: unknown option %s", argv[i]);
		else if (dir)
			return vlpost_cli_usage(vlpost_svg_usage, "svg: extra argument %s", argv[i]);
		else
			dir = argv[i];
	}
	if (!dir)
		return vlpost_cli_usage(vlpost_svg_usage, "svg: missing TRACEDIR");
	if (vlpost_tset_open(&set, dir, opt.partial ? VLPOST_TSET_SKIPBAD : 0, stderr, err, sizeof err) < 0) {
		rc = vlu_err(VLPOST_EXIT_BAD, "%s", err);
		vlpost_tset_close(&set);
		return rc;
	}
	out = o ? strdup(o) : vlpost_cli_name(dir, "", ".svg");
	title = vlpost_cli_name(dir, "", "");
	st = calloc((size_t)set.n, sizeof *st);
	if (!out || !st || !title) {
		rc = vlu_err(VLPOST_EXIT_BAD, "out of memory");
	} else {
		base = strrchr(title, '/');
		opt.title = base && base[1] ? base + 1 : title;
		rc = sv_to(&set, out, &opt, st);
	}
	if (rc == 0 && png)
		sv_png(out);
	free(title);
	free(st);
	free(out);
	vlpost_tset_close(&set);
	return rc;
}
