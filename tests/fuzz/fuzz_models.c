/* fuzz_models.c - fuzz the parsers of vlcalib and vlmodel (tools/vlcalib, tools/vlmodel, util/csv.c).
 *
 * The first input byte picks the parser (byte % FZ_NKINDS) and its options
 * (byte / FZ_NKINDS); the rest is the input:
 *   csv    vlu_csv_read (csv.c), then vlu_csv_num on its cells, vlu_csv_need
 *   prog   vlmod_prog_read (bsp.c, an M-step file; --tasks 0 or 1..8), then
 *          vlmod_bspwb and vlmod_mpm
 *   gl     vlmod_read_gl (bsp.c, g and L from a parameter file; --link none,
 *          inter or intra)
 *   raw    vlcal_raw_load and vlcal_raw_merge (calib_raw.c, vlcalib's raw files;
 *          --stat, --link)
 *   expr   vlmod_expr_parse (speedup.c, `--op EXPR`), evaluated at 4 points
 *   plist  vlmod_parse_plist (speedup.c, `--p LIST`)
 *   net    vlmod_parse_net (alphabeta.c, `--a LAT,BW`)
 *   value  vlmod_parse_seconds, vlmod_parse_g, vlmod_parse_number, vlmod_parse_bandwidth
 * File parsers read the rest of the input from a memory file; the others get
 * it as one command-line argument (up to the first NUL or newline).
 *
 * Checked (abort() on a violation): no crash, leak or undefined behaviour
 * (under ASan/UBSan); an error message is one line that starts with the file
 * name and ":LINE:", LINE a line of the input (the few messages about the
 * whole file, "PATH: empty file", "PATH: step S has no rows", have none);
 * a successful parse gives finite values in their documented ranges and
 * consistent counts (rows, columns, lines, tasks, steps, messages, in/out
 * bytes recomputed from the messages, BSPWB non-decreasing, MPM <= BSPWB);
 * two parses of one input give the same result or the same message.  Oracles:
 * a table written back out (every field quoted) reads back the same; a raw
 * file loaded twice and merged gives the rows it gives alone; "A-B" gives
 * B-A+1 counts; a latency is that of the text before the comma; a time is its
 * number times its unit.
 *
 * stand-alone (-DVL_FUZZ_STANDALONE, `make check-fuzz-models`): argv[1] =
 *   iterations of a deterministic mutation loop (default 20000; bit flips,
 *   byte and token insertions, deletions, truncations, line duplication,
 *   repeats, one field replaced by a token or a number) over the golden CSV
 *   files (tests/golden/calib/CASE/input.csv, tests/golden/model/CASE/NAME.csv,
 *   sorted by their header into csv, prog, gl and raw seeds) and built-in texts;
 *   argv[2] an optional PRNG seed.  The inputs in tests/fuzz/models/ (each
 *   once failed; first byte = kind) run first.  `--seeds DIR` writes the seed
 *   inputs (with their kind byte) for libFuzzer; `--replay FILE...` runs the
 *   inputs in FILE...; FUZZ_SAVE=FILE writes each input there before it runs
 *   (the last one is the failing one); FUZZ_VERBOSE=1 prints every message.
 *
 * libFuzzer (clang; from the repository root):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
 *     -D_GNU_SOURCE -Iinclude -I. tests/fuzz/fuzz_models.c (every .c of util/) \
 *     tools/vlcalib/calib_raw.c (every .c of tools/vlmodel/ but vlmodel.c) \
 *     (every .c of postproc/ but vlpost.c) build/libvlayer-core.a \
 *     $(pkg-config --cflags --libs inih) -lm -o build/fuzz_models_lf
 *   mkdir -p build/models-corpus && build/tests/fuzz_models --seeds build/models-corpus
 *   build/fuzz_models_lf -max_total_time=120 -max_len=8192 build/models-corpus \
 *     tests/fuzz/models
 *   (build/fuzz_models_lf crash-... replays a crash; once fixed, copy it into
 *   tests/fuzz/models/ with a name saying what it was.)
 */
#include "tools/vlcalib/calib_raw.h"
#include "util/csv.h"
#include "tools/vlmodel/vlmodel.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { FZ_CSV, FZ_PROG, FZ_GL, FZ_RAW, FZ_EXPR, FZ_PLIST, FZ_NET, FZ_VALUE, FZ_NKINDS };
static const char *const fz_kind[FZ_NKINDS] = {"csv",  "prog",  "gl",  "raw",
                                               "expr", "plist", "net", "value"};

#define FZ_ERR 4096

/* The current input: its kind, its memory file, its text and its lines. */
static struct {
	int kind;
	int fd;
	char path[64];
	const char *text; /* NUL-terminated copy of the input */
	size_t len;
	int nlines;
} fz = {0, -1, "", NULL, 0, 0};

static void fz_fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_models (%s): %s%s%s\n", fz_kind[fz.kind], what, detail ? ": " : "",
	        detail ? detail : "");
	abort();
}

static void fz_check(int ok, const char *what)
{
	if (!ok)
		fz_fail(what, NULL);
}

static int fz_finite(double v)
{
	return isfinite(v);
}

/* The same double (NaN equals NaN). */
static int fz_same(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

/* Replace the contents of memory file *FD (created on first use, named PATH). */
static void fz_put_fd(int *fd, char *path, const void *data, size_t size)
{
	if (*fd < 0) {
		*fd = memfd_create("models", 0);
		fz_check(*fd >= 0, "memfd_create failed");
		snprintf(path, 64, "/proc/self/fd/%d", *fd);
	}
	fz_check(ftruncate(*fd, 0) == 0, "ftruncate failed");
	fz_check(size == 0 || pwrite(*fd, data, size, 0) == (ssize_t)size, "pwrite failed");
}

static void fz_put(const uint8_t *data, size_t size)
{
	fz_put_fd(&fz.fd, fz.path, data, size);
}

/* ---- messages ---- */

/* ERR is one terminated line ($FUZZ_VERBOSE: print it). */
static void fz_one_line(const char *err, size_t len)
{
	static int verbose = -1;

	if (verbose < 0)
		verbose = getenv("FUZZ_VERBOSE") != NULL;
	fz_check(memchr(err, '\0', len) != NULL, "message not terminated");
	if (verbose)
		fprintf(stderr, "%s: %s\n", fz_kind[fz.kind], err);
	if (strchr(err, '\n'))
		fz_fail("message of more than one line", err);
	fz_check(err[0] != '\0', "empty message");
}

/* "PATH:LINE: what" with LINE in 1..max(lines, 1), or "PATH: what" for a
 * message about the whole file (one of LINELESS, NULL-terminated). */
static void fz_file_msg(const char *err, size_t len, const char *const *lineless)
{
	size_t n = strlen(fz.path);
	const char *p = err + n;
	long line;
	char *end;

	fz_one_line(err, len);
	if (strncmp(err, fz.path, n) != 0)
		fz_fail("message without the file name", err);
	if (p[0] == ':' && isdigit((unsigned char)p[1])) {
		line = strtol(p + 1, &end, 10);
		if (*end != ':' || line < 1 || line > (fz.nlines > 1 ? fz.nlines : 1))
			fz_fail("message with a bad line number", err);
		return;
	}
	for (; lineless && *lineless; lineless++)
		if (p[0] == ':' && p[1] == ' ' && !strncmp(p + 2, *lineless, strlen(*lineless)))
			return;
	fz_fail("message without a line number", err);
}

/* ---- csv ---- */

/* The same table (and, with LINES, on the same lines). */
static void fz_csv_same(const vlu_csv *a, const vlu_csv *b, int lines)
{
	fz_check(a->ncols == b->ncols && a->nrows == b->nrows && a->nmeta == b->nmeta &&
	             (!lines || a->header_line == b->header_line),
	         "two reads differ");
	for (int i = 0; i < a->ncols; i++)
		fz_check(!strcmp(a->cols[i], b->cols[i]), "two reads differ (header)");
	for (int r = 0; r < a->nrows; r++) {
		fz_check(!lines || a->line[r] == b->line[r], "two reads differ (lines)");
		for (int i = 0; i < a->ncols; i++)
			fz_check(!strcmp(vlu_csv_text(a, r, i), vlu_csv_text(b, r, i)),
			         "two reads differ (cells)");
	}
	for (int k = 0; k < a->nmeta; k++)
		fz_check(!strcmp(a->meta_key[k], b->meta_key[k]) &&
		             !strcmp(a->meta_val[k], b->meta_val[k]),
		         "two reads differ (metadata)");
}

static void fz_csv_ok(const vlu_csv *c)
{
	static const char *const nope[] = {"", NULL}; /* no column has an empty name */
	char err[FZ_ERR];
	int idx[2], cells = 0;

	fz_check(c->ncols >= 1 && c->cols != NULL, "no columns");
	fz_check(c->header_line >= 1 && c->header_line <= fz.nlines, "header line out of range");
	fz_check(c->nrows >= 0 && (c->nrows == 0 || (c->cell && c->line)), "bad row arrays");
	for (int i = 0; i < c->ncols; i++) {
		fz_check(c->cols[i] && c->cols[i][0], "a column without a name");
		fz_check(vlu_csv_col(c, c->cols[i]) == i, "a column named twice");
	}
	for (int r = 0; r < c->nrows; r++) {
		fz_check(c->line[r] > (r ? c->line[r - 1] : c->header_line) &&
		             c->line[r] <= fz.nlines,
		         "row lines not increasing or out of range");
		for (int i = 0; i < c->ncols; i++) {
			double v;

			fz_check(c->cell[(size_t)r * (size_t)c->ncols + (size_t)i] != NULL,
			         "NULL cell");
			if (cells++ > 4000)
				continue;
			if (vlu_csv_num(c, r, i, &v, err, sizeof err) == 0)
				fz_check(fz_finite(v), "a number that is not finite");
			else
				fz_file_msg(err, sizeof err, NULL);
		}
	}
	fz_check(!strcmp(vlu_csv_text(c, -1, 0), "") && !strcmp(vlu_csv_text(c, c->nrows, 0), "") &&
	             !strcmp(vlu_csv_text(c, 0, c->ncols), ""),
	         "vlu_csv_text outside the table");
	for (int k = 0; k < c->nmeta; k++) {
		fz_check(c->meta_key[k][0] && !strpbrk(c->meta_key[k], " \t:"), "bad metadata key");
		fz_check(vlu_csv_meta(c, c->meta_key[k]) != NULL, "metadata key not found");
	}
	{
		const char *const first[] = {c->cols[c->ncols - 1], NULL};

		fz_check(vlu_csv_need(c, first, idx, err, sizeof err) == 0 &&
		             idx[0] == c->ncols - 1,
		         "vlu_csv_need misses a column");
	}
	fz_check(vlu_csv_need(c, nope, idx, err, sizeof err) < 0 && idx[0] == -1,
	         "vlu_csv_need finds a missing column");
	fz_file_msg(err, sizeof err, NULL);
}

/* One field, quoted ("" for a quote). */
static void fz_csv_field(FILE *f, const char *s, int last)
{
	fputc('"', f);
	for (; *s; s++)
		fputs(*s == '"' ? "\"\"" : (char[2]){*s, 0}, f);
	fputs(last ? "\"\n" : "\",", f);
}

/* C written out (metadata comments, then every field quoted) reads back the same. */
static void fz_csv_roundtrip(const vlu_csv *c)
{
	static int fd = -1;
	static char path[64];
	char *out = NULL, err[FZ_ERR];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	vlu_csv again;

	fz_check(f != NULL, "open_memstream failed");
	for (int k = 0; k < c->nmeta; k++)
		fprintf(f, "# %s: %s\n", c->meta_key[k], c->meta_val[k]);
	for (int i = 0; i < c->ncols; i++)
		fz_csv_field(f, c->cols[i], i == c->ncols - 1);
	for (int r = 0; r < c->nrows; r++)
		for (int i = 0; i < c->ncols; i++)
			fz_csv_field(f, vlu_csv_text(c, r, i), i == c->ncols - 1);
	fclose(f);
	fz_put_fd(&fd, path, out, len);
	if (vlu_csv_read(path, &again, err, sizeof err) < 0)
		fz_fail("the table written out does not read back", err);
	fz_csv_same(c, &again, 0);
	vlu_csv_free(&again);
	free(out);
}

static int fz_csv(void)
{
	static const char *const lineless[] = {"empty file", NULL};
	vlu_csv a, b;
	char e1[FZ_ERR], e2[FZ_ERR];
	int r1 = vlu_csv_read(fz.path, &a, e1, sizeof e1);
	int r2 = vlu_csv_read(fz.path, &b, e2, sizeof e2);

	fz_check(r1 == r2, "two reads differ (outcome)");
	if (r1 < 0) {
		fz_file_msg(e1, sizeof e1, lineless);
		fz_check(!strcmp(e1, e2), "two reads differ (message)");
		fz_check(a.ncols == 0 && a.cols == NULL && a.path == NULL,
		         "not freed after an error");
		return 0;
	}
	fz_csv_ok(&a);
	fz_csv_same(&a, &b, 1);
	vlu_csv_free(&b);
	fz_csv_roundtrip(&a);
	vlu_csv_free(&a);
	return 1;
}

/* ---- prog: M-steps ---- */

static void fz_prog_msgs(const vlmod_prog *m)
{
	size_t p = (size_t)m->p, r = (size_t)m->r;
	double *in = calloc(p * r + 1, sizeof *in), *out = calloc(p * r + 1, sizeof *out);
	int recount = 1; /* in[] recounted */

	fz_check(in && out, "out of memory");
	fz_check(m->first[0] == 0 && m->first[r] == m->nmsg, "first[] does not span the messages");
	for (size_t s = 0; s < r; s++) {
		fz_check(m->first[s] <= m->first[s + 1], "first[] decreasing");
		for (size_t k = m->first[s]; k < m->first[s + 1]; k++)
			fz_check(m->msg[k].step == (int)s, "a message outside its step's range");
	}
	for (size_t k = 0; k < m->nmsg; k++) {
		const vlmod_msg *g = &m->msg[k];

		fz_check(g->step >= 0 && g->step < m->r && g->out_step == g->step, "message step");
		fz_check(g->from >= 0 && g->from < m->p, "message sender");
		fz_check((g->to >= 0 && g->to < m->p && g->to != g->from) || g->to == VLMOD_TO_ALL,
		         "message receiver");
		fz_check(fz_finite(g->bytes) && g->bytes >= 0, "message size");
		fz_check(m->comm[g->step], "a step with a message does not communicate");
		if (k)
			fz_check(g[-1].step < g->step ||
			             (g[-1].step == g->step &&
			              (g[-1].from < g->from ||
			               (g[-1].from == g->from && g[-1].to <= g->to))),
			         "messages not sorted");
		if (g->to != VLMOD_TO_ALL)
			in[(size_t)g->step * p + (size_t)g->to] += g->bytes;
		else if (p * m->nmsg <= 10000000) /* else too slow */
			for (size_t i = 0; i < p; i++)
				in[(size_t)g->step * p + i] += i != (size_t)g->from ? g->bytes : 0;
		else
			recount = 0;
		out[(size_t)g->step * p + (size_t)g->from] +=
		    g->to == VLMOD_TO_ALL ? g->bytes * (double)(m->p - 1) : g->bytes;
	}
	for (size_t k = 0; k < p * r; k++)
		fz_check((!recount || fabs(in[k] - m->in[k]) <= 1e-9 * in[k]) &&
		             fabs(out[k] - m->out[k]) <= 1e-9 * out[k],
		         "in or out bytes differ from the messages");
	free(in);
	free(out);
}

/* The models on M: finite unless a value overflows, MPM <= BSPWB. */
static void fz_prog_models(const vlmod_prog *m, int at_max)
{
	size_t p = (size_t)m->p, r = (size_t)m->r;
	double *t = malloc(r * sizeof *t), *phi = malloc(p * r * sizeof *phi);
	double *smax = malloc(r * sizeof *smax), psi;

	fz_check(t && phi && smax, "out of memory");
	vlmod_bspwb(m, 1e-9, 1e-5, at_max, t);
	psi = vlmod_mpm(m, 1e-9, 1e-5, at_max, phi, smax);
	fz_check(!isnan(psi) && fz_same(psi, smax[r - 1]), "MPM: Psi is not the last step's max");
	for (size_t s = 0; s < r; s++) {
		double wmax = 0;

		for (size_t i = 0; i < p; i++)
			wmax = fmax(wmax, m->w[s * p + i]);
		fz_check(!isnan(t[s]) && t[s] >= (s ? t[s - 1] : 0) + wmax, "BSPWB: T decreases");
	}
	if (isfinite(t[r - 1]))
		fz_check(psi <= t[r - 1] * (1 + 1e-12), "MPM above BSPWB");
	free(t);
	free(phi);
	free(smax);
}

static void fz_prog_ok(const vlmod_prog *m, int ntasks)
{
	size_t n = (size_t)m->p * (size_t)m->r;

	fz_check(m->p >= 1 && m->r >= 1 && (ntasks <= 0 || m->p == ntasks), "tasks or steps");
	fz_check(m->w && m->hx && m->in && m->out && m->comm && m->first, "arrays missing");
	for (size_t k = 0; k < n; k++) {
		fz_check(fz_finite(m->w[k]) && m->w[k] >= 0, "work not finite or < 0");
		fz_check(m->hx[k] == -1 || (fz_finite(m->hx[k]) && m->hx[k] >= 0),
		         "bad explicit h");
		fz_check(fz_finite(m->in[k]) && m->in[k] >= 0 && fz_finite(m->out[k]) &&
		             m->out[k] >= 0,
		         "in or out not finite or < 0");
		if (m->hx[k] >= 0)
			fz_check(m->comm[k / (size_t)m->p],
			         "a step with an explicit h does not communicate");
	}
	for (int s = 0; s < m->r; s++)
		fz_check(m->comm[s] == 0 || m->comm[s] == 1, "comm not 0 or 1");
	fz_prog_msgs(m);
	fz_prog_models(m, 0);
	fz_prog_models(m, 1);
}

static void fz_prog_same(const vlmod_prog *a, const vlmod_prog *b)
{
	size_t n = (size_t)a->p * (size_t)a->r;

	fz_check(a->p == b->p && a->r == b->r && a->nmsg == b->nmsg, "two reads differ");
	for (size_t k = 0; k < n; k++)
		fz_check(fz_same(a->w[k], b->w[k]) && fz_same(a->hx[k], b->hx[k]) &&
		             fz_same(a->in[k], b->in[k]) && fz_same(a->out[k], b->out[k]),
		         "two reads differ (values)");
	for (size_t k = 0; k < a->nmsg; k++) {
		const vlmod_msg *x = &a->msg[k], *y = &b->msg[k];

		fz_check(x->step == y->step && x->from == y->from && x->to == y->to &&
		             fz_same(x->bytes, y->bytes) && x->out_step == y->out_step,
		         "two reads differ (messages)");
	}
}

static int fz_prog(int opt)
{
	static const char *const lineless[] = {"empty file", "step ", "out of memory", NULL};
	int ntasks = opt % 4 == 0 ? 0 : opt % 8 + 1;
	vlmod_prog a, b;
	char e1[FZ_ERR], e2[FZ_ERR];
	int r1 = vlmod_prog_read(fz.path, ntasks, &a, e1, sizeof e1);
	int r2 = vlmod_prog_read(fz.path, ntasks, &b, e2, sizeof e2);

	fz_check(r1 == r2, "two reads differ (outcome)");
	if (r1 < 0) {
		fz_file_msg(e1, sizeof e1, lineless);
		fz_check(!strcmp(e1, e2), "two reads differ (message)");
		fz_check(a.w == NULL && a.msg == NULL && a.in == NULL, "not freed after an error");
		return 0;
	}
	fz_prog_ok(&a, ntasks);
	fz_prog_same(&a, &b);
	vlmod_prog_free(&a);
	vlmod_prog_free(&b);
	return 1;
}

/* ---- gl: g and L ---- */

static int fz_gl(int opt)
{
	static const char *const links[] = {NULL, "inter", NULL, "intra"};
	static const char *const lineless[] = {"empty file", NULL};
	const char *link = links[opt % 4];
	double g1 = -7, l1 = -7, g2 = -7, l2 = -7;
	char e1[FZ_ERR], e2[FZ_ERR];
	int r1 = vlmod_read_gl(fz.path, link, &g1, &l1, e1, sizeof e1);
	int r2 = vlmod_read_gl(fz.path, link, &g2, &l2, e2, sizeof e2);

	fz_check(r1 == r2, "two reads differ (outcome)");
	if (r1 < 0) {
		fz_file_msg(e1, sizeof e1, lineless);
		fz_check(!strcmp(e1, e2), "two reads differ (message)");
		return 0;
	}
	fz_check(fz_finite(g1) && g1 >= 0 && fz_finite(l1), "g or L not finite, or g < 0");
	fz_check(fz_same(g1, g2) && fz_same(l1, l2), "two reads differ (values)");
	return 1;
}

/* ---- raw: vlcalib's raw files ---- */

static void fz_raw_row_ok(const vlcal_raw_row *w, int linkmask)
{
	int want = w->x == VLCAL_X_PACK ? 1 : w->x == VLCAL_X_CONT || w->x >= VLCAL_X_BSP ? 0 : 2;

	fz_check(w->x >= 0 && w->x < VLCAL_NX, "experiment out of range");
	fz_check((w->link == 0 || w->link == 1) && (linkmask & (1 << w->link)),
	         "a row of a link not asked for");
	fz_check(want ? w->procs == want : w->procs >= 2 && w->procs <= 1000000, "procs");
	fz_check(w->bytes >= 0 && w->bytes <= (1LL << 50), "bytes out of range");
	fz_check(fz_finite(w->h) && w->h >= 0 && w->h <= 1e15, "h out of range");
	fz_check(fz_finite(w->v) && w->v >= 0 && w->v <= 1e15, "value out of range");
	fz_check(w->line >= 2 && w->line <= fz.nlines, "row line out of range");
}

static int fz_raw_key_cmp(const vlcal_raw_row *a, const vlcal_raw_row *b)
{
	if (a->link != b->link)
		return a->link - b->link;
	if (a->x != b->x)
		return a->x - b->x;
	if (a->procs != b->procs)
		return a->procs - b->procs;
	return (a->bytes > b->bytes) - (a->bytes < b->bytes);
}

static int fz_same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int fz_raw_same(const vlcal_raw_row *a, const vlcal_raw_row *b)
{
	return a->x == b->x && a->link == b->link && a->procs == b->procs && a->file == b->file &&
	       a->bytes == b->bytes && fz_same(a->h, b->h) && fz_same(a->v, b->v) &&
	       a->line == b->line;
}

static int fz_raw(int opt)
{
	static const char *const lineless[] = {"empty file", NULL};
	const char *files[2] = {fz.path, fz.path};
	int use_min = opt & 1, linkmask = 1 + (opt >> 1) % 3, rm1, rm2;
	vlcal_raw one, two;
	char *e1 = NULL, *e2 = NULL;
	int r1;

	vlcal_raw_init(&one);
	vlcal_raw_init(&two);
	r1 = vlcal_raw_load(&one, fz.path, 0, use_min, linkmask, &e1);
	if (r1 < 0) {
		fz_check(e1 != NULL, "no message");
		fz_file_msg(e1, strlen(e1) + 1, lineless);
		fz_check(one.n == 0 && !one.library && !one.hosts, "the set changed on an error");
		fz_check(vlcal_raw_load(&two, fz.path, 1, use_min, linkmask, &e2) < 0 && e2 &&
		             !strcmp(e1, e2),
		         "two loads differ");
		free(e1);
		free(e2);
		vlcal_raw_free(&one);
		vlcal_raw_free(&two);
		return 0;
	}
	fz_check(e1 == NULL, "a message on success");
	for (int k = 0; k < one.n; k++) {
		fz_raw_row_ok(&one.row[k], linkmask);
		fz_check(one.row[k].file == 0 && (k == 0 || one.row[k].line > one.row[k - 1].line),
		         "rows not in file order");
	}
	/* the file twice (numbers 0 and 1): the same rows after the merge */
	fz_check(vlcal_raw_load(&two, fz.path, 0, use_min, linkmask, &e2) == 0 &&
	             vlcal_raw_load(&two, fz.path, 1, use_min, linkmask, &e2) == 0 &&
	             two.n == 2 * one.n && fz_same_text(one.library, two.library) &&
	             fz_same_text(one.hosts, two.hosts),
	         "the second load differs");
	rm1 = vlcal_raw_merge(&one, files, use_min, &e1);
	rm2 = vlcal_raw_merge(&two, files, use_min, &e2);
	fz_check(rm1 == rm2, "merging the file with itself changes the outcome");
	if (rm1 < 0) {
		fz_check(e1 && e2, "no message");
		fz_file_msg(e1, strlen(e1) + 1, NULL);
		fz_check(!strcmp(e1, e2), "merging the file with itself changes the message");
		fz_check(strstr(e1, ": a second row for experiment ") != NULL,
		         "unexpected merge error");
	} else {
		fz_check(one.n == two.n, "merging the file with itself changes the rows");
		for (int k = 0; k < one.n; k++) {
			fz_raw_row_ok(&one.row[k], linkmask);
			fz_check(k == 0 || fz_raw_key_cmp(&one.row[k - 1], &one.row[k]) < 0,
			         "merged rows not sorted or a key twice");
			fz_check(fz_raw_same(&one.row[k], &two.row[k]),
			         "merging the file with itself changes a row");
		}
	}
	free(e1);
	free(e2);
	vlcal_raw_free(&one);
	vlcal_raw_free(&two);
	return 1;
}

/* ---- the argument parsers ---- */

static void fz_expr_msg(const char *err, size_t len, const char *text)
{
	const char *at = strstr(err, " at column ");
	long col;

	fz_one_line(err, len);
	if (strcmp(err, "out of memory") == 0)
		return;
	if (!at)
		fz_fail("message without a column", err);
	col = strtol(at + 11, NULL, 10);
	if (col < 1 || col > (long)strlen(text) + 1)
		fz_fail("message with a bad column", err);
}

static int fz_expr(const char *text)
{
	static const double pts[][VLMOD_NVARS] = {
	    {1000, 1, 8, 1.0 / 3}, {1000, 64, 8, 1.0 / 3}, {0, 0, 0, 0}, {-1, 1e300, 1e-300, 2}};
	char e1[FZ_ERR], e2[FZ_ERR];
	vlmod_expr *a = vlmod_expr_parse(text, e1, sizeof e1), *b = vlmod_expr_parse(text, e2, sizeof e2);

	fz_check(!a == !b, "two parses differ (outcome)");
	if (!a) {
		fz_expr_msg(e1, sizeof e1, text);
		fz_check(!strcmp(e1, e2), "two parses differ (message)");
		return 0;
	}
	for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++)
		fz_check(fz_same(vlmod_expr_eval(a, pts[k]), vlmod_expr_eval(b, pts[k])),
		         "two parses evaluate differently");
	for (int v = 0; v < VLMOD_NVARS; v++)
		fz_check(vlmod_expr_uses(a, v) == vlmod_expr_uses(b, v) &&
		             (!vlmod_expr_uses(a, v) || strchr(text, "npwa"[v])),
		         "uses a variable not in the text");
	vlmod_expr_free(a);
	vlmod_expr_free(b);
	return 1;
}

/* "A-B" (whole numbers, B - A < 10^6): parsed with N values, or R1 < 0. */
static void fz_plist_range(const char *text, int n)
{
	long a, b;
	int used = 0;

	if (sscanf(text, "%9ld-%9ld%n", &a, &b, &used) != 2 || text[used] ||
	    !isdigit((unsigned char)*text) || a < 1 || b < a || b - a >= 1000000 ||
	    strpbrk(text, " +"))
		return;
	if (n != b - a + 1)
		fz_fail("A-B: not B - A + 1 values", text);
}

static int fz_plist(const char *text)
{
	double *p1, *p2;
	int n1, n2, r1, r2;
	char e1[FZ_ERR], e2[FZ_ERR];

	r1 = vlmod_parse_plist(text, &p1, &n1, e1, sizeof e1);
	r2 = vlmod_parse_plist(text, &p2, &n2, e2, sizeof e2);
	fz_check(r1 == r2, "two parses differ (outcome)");
	if (r1 < 0)
		fz_plist_range(text, -1);
	if (r1 < 0) {
		if (!p1 && !p2 && strcmp(e1, "") == 0)
			return 0; /* strdup failed: no message */
		fz_one_line(e1, sizeof e1);
		fz_check(e1[0] == '\'' && !strcmp(e1, e2), "message");
		fz_check(p1 == NULL && p2 == NULL, "a list after an error");
		return 0;
	}
	fz_check(n1 >= 1 && n1 <= 1000000 && n1 == n2 && p1 && p2, "count");
	fz_plist_range(text, n1);
	for (int i = 0; i < n1; i++)
		fz_check(fz_finite(p1[i]) && p1[i] >= 1 && fz_same(p1[i], p2[i]), "a bad count");
	free(p1);
	free(p2);
	return 1;
}

static int fz_net(const char *text, int opt)
{
	int extremes = opt & 1;
	vlmod_net a, b;
	char e1[FZ_ERR], e2[FZ_ERR];
	int r1 = vlmod_parse_net(text, extremes, &a, e1, sizeof e1);
	int r2 = vlmod_parse_net(text, extremes, &b, e2, sizeof e2);

	fz_check(r1 == r2, "two parses differ (outcome)");
	if (r1 < 0) {
		fz_one_line(e1, sizeof e1);
		fz_check(e1[0] == '\'' && !strcmp(e1, e2), "message");
		return 0;
	}
	fz_check(fz_finite(a.lat) && a.lat >= 0 && a.bw > 0 && !isnan(a.bw) &&
	             (extremes || isfinite(a.bw)),
	         "latency or bandwidth out of range");
	fz_check(fz_same(a.lat, b.lat) && fz_same(a.bw, b.bw), "two parses differ (values)");
	{ /* the latency is the text before the comma, whole */
		char *lat = strndup(text, (size_t)(strchr(text, ',') - text));
		double l;

		fz_check(lat != NULL, "out of memory");
		fz_check(vlmod_parse_seconds(lat, 0, &l) == 0 && fz_same(l, a.lat),
		         "latency not that of the text before the comma");
		free(lat);
	}
	return 1;
}

/* S, parsed from TEXT by vlmod_parse_seconds, is the number times its unit. */
static void fz_seconds_oracle(const char *text, double s)
{
	static const char *const unit[] = {"", "s", "ms", "us", "ns"};
	static const double f[] = {1, 1, 1e-3, 1e-6, 1e-9};
	char *end;
	double v = strtod(text, &end), want = 0;
	size_t n;
	int found = v == 0;

	end += strspn(end, " \t");
	n = strcspn(end, " \t");
	for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
		if (strlen(unit[k]) == n && !strncmp(end, unit[k], n)) {
			want = v * f[k];
			found = 1;
		}
	fz_check(found, "a time with an unknown unit");
	if (fabs(want) > 1e-290 && fabs(s - want) > 1e-12 * fabs(want))
		fz_fail("a time not its number times its unit", text);
}

static int fz_value(const char *text, int opt)
{
	double a = -7, b = -7;
	int r1 = -1, r2 = -1, which = opt % 5, flag = (opt / 5) & 1;

	for (int k = 0; k < 2; k++) {
		double *v = k ? &b : &a;
		int rc;

		switch (which) {
		case 0:
			rc = vlmod_parse_seconds(text, flag, v);
			break;
		case 1:
			rc = vlmod_parse_g(text, v);
			break;
		case 2:
			rc = vlmod_parse_number(text, v);
			break;
		default:
			rc = vlmod_parse_bandwidth(text, flag, v);
			break;
		}
		if (k)
			r2 = rc;
		else
			r1 = rc;
	}
	fz_check(r1 == r2 && fz_same(a, b), "two parses differ");
	if (r1 < 0)
		return 0;
	if (which == 3 || which == 4)
		fz_check(a > 0 && !isnan(a) && (flag || isfinite(a)), "bandwidth out of range");
	else
		fz_check(fz_finite(a) && (which != 1 || a >= 0), "value not finite (or g < 0)");
	if (which == 0)
		fz_seconds_oracle(text, a);
	return 1;
}

/* Inputs run and inputs accepted, per kind (for the stand-alone summary). */
static long fz_runs[FZ_NKINDS], fz_accepted[FZ_NKINDS];

/* Runs the parser of fz.kind on fz.text / the memory file; 1 if it accepts. */
static int fz_dispatch(int opt)
{
	char *text = (char *)fz.text;

	switch (fz.kind) {
	case FZ_CSV:
		return fz_csv();
	case FZ_PROG:
		return fz_prog(opt);
	case FZ_GL:
		return fz_gl(opt);
	case FZ_RAW:
		return fz_raw(opt);
	}
	text[strcspn(text, "\n")] = '\0';
	switch (fz.kind) {
	case FZ_EXPR:
		return fz_expr(text);
	case FZ_PLIST:
		return fz_plist(text);
	case FZ_NET:
		return fz_net(text, opt);
	}
	return fz_value(text, opt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size == 0)
		return 0;
	fz.kind = data[0] % FZ_NKINDS;
	text = malloc(size);
	fz_check(text != NULL, "out of memory");
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	fz.text = text;
	fz.len = size - 1;
	fz.nlines = 0;
	for (size_t i = 0; i < fz.len; i++)
		fz.nlines += text[i] == '\n' || i + 1 == fz.len;
	if (fz.kind <= FZ_RAW)
		fz_put(data + 1, fz.len);
	fz_runs[fz.kind]++;
	fz_accepted[fz.kind] += fz_dispatch(data[0] / FZ_NKINDS);
	free(text);
	return 0;
}

#ifdef VL_FUZZ_STANDALONE
#include <glob.h>

#ifndef SRCDIR
#define SRCDIR "."
#endif
#define FZ_MAX 8192

static uint64_t fz_state = 88172645463325252ULL;

static uint32_t fz_rand(uint32_t n) /* xorshift64*, in 0..n-1 */
{
	fz_state ^= fz_state >> 12;
	fz_state ^= fz_state << 25;
	fz_state ^= fz_state >> 27;
	return n ? (uint32_t)((fz_state * 2685821657736338717ULL) >> 32) % n : 0;
}

/* The argument parsers' seeds (and those of the golden tests). */
static const char *const fz_expr_seeds[] = {"2*n",
                                            "2*n*w",
                                            "p*w",
                                            "2*n^3",
                                            "2*n^2*w",
                                            "2*n^2*sqrt(p)*(1-1/sqrt(p))*w",
                                            "2/3*n^3",
                                            "(2+log2(p)/12)*n^2*w/(3*alpha)",
                                            "exp(-ln(p))+log10(n)",
                                            "-2^-3^2",
                                            "1e12",
                                            "(((p)))",
                                            NULL};
static const char *const fz_plist_seeds[] = {
    "1-1024:*2", "1,2,4",           "1-64",
    "8-64:8",    "1-10:*2,80,1300", "1,10,100,500,684,1000,10000",
    "16,64,152", "1-4:*1.5",        "2.5-3.5:0.25",
    NULL};
static const char *const fz_net_seeds[] = {
    "43us,112MB/s",  "10us,100MB/s",     "0,inf", "0,216MB/s", "22us,216MB/s",
    "1.5ms,1Gbit/s", "5 us , 200 KiB/s", NULL};
static const char *const fz_value_seeds[] = {"1us",    "0",       "1e-6", "8.9ns/B",   "112MB/s",
                                             "2.5 ms", "1.5GB/s", "inf",  "10 Mbit/s", "0.000001s",
                                             "5e-9",   "1E3us",   NULL};

/* clang-format off */
static const char *const fz_tokens[] = {
    ",", "\"", "\"\"", "\n", "\r\n", "\r", "#", "# library: x\n", "# g: 5ns/B\n", "# L: 3us\n",
    " ", "\t", "\xEF\xBB\xBF", "1e15", "1e16", "-1", "0.5", "nan", "inf", "1e308", "1e-320",
    "99999999999999999999", "1000000", "1000001", "1e-99999999999999999999", "0x10", "ns", "us",
    "ms", "s", "KiB", "MB/s", "GB/s", "Mbit/s", "ns/B", "B/s", "step", "task", "work", "send", "h",
    "*:", "1:1KiB", ";", "parameter", "value", "unit", "model", "link", "bsp", "bsp(eq.11)", "g",
    "L", "pattern", "all", "experiment", "procs", "bytes", "reps", "min_ns", "median_ns", "rtt",
    "oneway", "pack", "recv", "gap", "contention", "bsp_exchange", "bsp_barrier", "intra", "inter",
    "(", ")", "^", "*", "/", "+", "-", "sqrt(", "log2(", "exp(", "alpha", "p", "n", "w",
    "((((((((((", ":", ":*", "e", "E", "\0"};
/* clang-format on */

static size_t fz_insert(char *buf, size_t len, size_t at, const char *s, size_t n)
{
	if (len + n > FZ_MAX)
		return len;
	memmove(buf + at + n, buf + at, len - at);
	memcpy(buf + at, s, n);
	return len + n;
}

/* Copy the line around position AT (with its newline) after itself. */
static size_t fz_dup_line(char *buf, size_t len, size_t at)
{
	char line[FZ_MAX];
	size_t a = at, b = at;

	while (a > 0 && buf[a - 1] != '\n')
		a--;
	while (b < len && buf[b++] != '\n')
		;
	memcpy(line, buf + a, b - a);
	return fz_insert(buf, len, b, line, b - a);
}

/* Repeat the piece of up to 16 bytes at AT up to 64 times. */
static size_t fz_repeat(char *buf, size_t len, size_t at)
{
	char piece[16];
	size_t n = 1 + fz_rand(16), times = 1 + fz_rand(64);

	if (at + n > len)
		return len;
	memcpy(piece, buf + at, n);
	while (times-- > 0)
		len = fz_insert(buf, len, at, piece, n);
	return len;
}

static size_t fz_delete(char *buf, size_t len, size_t at, size_t n)
{
	if (at + n > len)
		return len;
	memmove(buf + at, buf + at + n, len - at - n);
	return len - n;
}

/* Replace the field around AT (between ',', ';', ' ', ':' or line ends) by a
 * token or a number: a mutation that keeps the field count. */
static size_t fz_field(char *buf, size_t len, size_t at)
{
	static const char *const seps = ",;: \n\r";
	char num[64];
	const char *tok;
	size_t a = at, b = at;

	while (a > 0 && !strchr(seps, buf[a - 1]))
		a--;
	while (b < len && !strchr(seps, buf[b]))
		b++;
	if (fz_rand(2)) {
		do
			tok = fz_tokens[fz_rand(sizeof fz_tokens / sizeof fz_tokens[0])];
		while (!*tok || strpbrk(tok, seps));
	} else {
		static const char *const fmt[] = {"%.0f", "%g", "%.17g", "-%g", "%gus", "%gKiB"};
		double v = ldexp((double)fz_rand(1000), (int)fz_rand(80) - 20);

		snprintf(num, sizeof num, fmt[fz_rand(6)], v);
		tok = num;
	}
	len = fz_delete(buf, len, a, b - a);
	return fz_insert(buf, len, a, tok, strlen(tok));
}

/* One mutation of BUF[0 .. LEN) (the kind byte is not in it). */
static size_t fz_mutate(char *buf, size_t len)
{
	size_t at = fz_rand((uint32_t)len + 1);
	const char *tok;
	char c;

	switch (fz_rand(11)) {
	case 0:
		if (len)
			buf[at % len] ^= (char)(1u << fz_rand(8));
		return len;
	case 1:
		c = (char)fz_rand(256);
		return fz_insert(buf, len, at, &c, 1);
	case 2:
	case 3:
		tok = fz_tokens[fz_rand(sizeof fz_tokens / sizeof fz_tokens[0])];
		return fz_insert(buf, len, at, tok, *tok ? strlen(tok) : 1);
	case 4:
		return fz_rand(4) ? fz_delete(buf, len, at, 1 + fz_rand(8)) : at;
	case 5:
		return fz_dup_line(buf, len, at);
	case 6:
		return fz_repeat(buf, len, at);
	case 7:
		if (len)
			buf[at % len] = "0123456789,:;-*/^.e "[fz_rand(20)];
		return len;
	default:
		return fz_field(buf, len, at);
	}
}

/* ---- the seeds: per kind, the golden files and texts ---- */

typedef struct fz_input {
	char *data;
	size_t len;
} fz_input;

static fz_input *fz_pool[FZ_NKINDS];
static size_t fz_npool[FZ_NKINDS];

static void fz_add(int kind, const char *data, size_t len)
{
	fz_input *q = realloc(fz_pool[kind], (fz_npool[kind] + 1) * sizeof *q);

	fz_check(q != NULL, "out of memory");
	fz_pool[kind] = q;
	q[fz_npool[kind]].data = malloc(len + 1);
	fz_check(q[fz_npool[kind]].data != NULL, "out of memory");
	memcpy(q[fz_npool[kind]].data, data, len);
	q[fz_npool[kind]++].len = len;
}

static void fz_add_texts(int kind, const char *const *t)
{
	for (; *t; t++)
		fz_add(kind, *t, strlen(*t));
}

/* Every file of PATTERN: to csv and to KIND (raw), or by its header row to
 * prog (step,...) and gl (...,parameter,...). */
static void fz_add_files(const char *pattern, int kind)
{
	static char buf[FZ_MAX];
	glob_t g;

	memset(&g, 0, sizeof g);
	glob(pattern, 0, NULL, &g);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "rb");
		size_t n;
		const char *head = buf;

		if (!f)
			continue;
		n = fread(buf, 1, sizeof buf - 1, f);
		if (fgetc(f) != EOF) /* too long: whole lines only */
			while (n > 0 && buf[n - 1] != '\n')
				n--;
		fclose(f);
		buf[n] = '\0';
		fz_add(FZ_CSV, buf, n);
		while (*head == '#' && strchr(head, '\n'))
			head = strchr(head, '\n') + 1;
		if (kind == FZ_RAW)
			fz_add(FZ_RAW, buf, n);
		else if (!strncmp(head, "step,", 5))
			fz_add(FZ_PROG, buf, n);
		else if (strstr(head, "parameter,") &&
		         strstr(head, "parameter,") < strchr(head, '\n'))
			fz_add(FZ_GL, buf, n);
	}
	globfree(&g);
}

static void fz_load_seeds(void)
{
	static const char *const gl[] = {"pattern,g,L\nexchange,1e-9,2e-5\nall,5ns/B,3us\n",
	                                 "# g: 8.9ns/B\n# L: 20us\nnothing\n",
	                                 "name,value\nbsp_g,112MB/s\nbsp_L,1.5e-5\n", NULL};
	static const char *const prog[] = {"step,task,work,send\n1,0,2ms,1:1KiB\n1,1,2ms,0:1KiB\n"
	                                   "2,0,1ms,\n",
	                                   "step,task,work,send,h\n1,0,0,*:8 2:1;1:0,100\n"
	                                   "1,2,1us,0:3KB,\n2,1,1e-3,,\n",
	                                   NULL};

	fz_add_files(SRCDIR "/tests/golden/calib/*/input.csv", FZ_RAW);
	fz_add_files(SRCDIR "/tests/golden/model/*/*.csv", FZ_CSV);
	fz_add_texts(FZ_GL, gl);
	fz_add_texts(FZ_PROG, prog);
	fz_add_texts(FZ_EXPR, fz_expr_seeds);
	fz_add_texts(FZ_PLIST, fz_plist_seeds);
	fz_add_texts(FZ_NET, fz_net_seeds);
	fz_add_texts(FZ_VALUE, fz_value_seeds);
}

static void fz_free_seeds(void)
{
	for (int k = 0; k < FZ_NKINDS; k++) {
		for (size_t i = 0; i < fz_npool[k]; i++)
			free(fz_pool[k][i].data);
		free(fz_pool[k]);
	}
}

/* One input, written first to $FUZZ_SAVE if set (to keep the one that fails). */
static void fz_run(const char *d, size_t len)
{
	const char *save = getenv("FUZZ_SAVE");

	if (save && *save) {
		FILE *f = fopen(save, "wb");

		if (!f || fwrite(d, 1, len, f) != len || fclose(f) != 0) {
			perror(save);
			exit(2);
		}
	}
	LLVMFuzzerTestOneInput((const uint8_t *)d, len);
}

/* Runs the inputs in the files PATHS[0 .. N). */
static int fz_replay(int n, char **paths)
{
	for (int i = 0; i < n; i++) {
		FILE *f = fopen(paths[i], "rb");
		char *buf = NULL;
		size_t len = 0, k;
		char chunk[4096];
		FILE *m;

		if (!f) {
			perror(paths[i]);
			return 2;
		}
		m = open_memstream(&buf, &len);
		fz_check(m != NULL, "open_memstream failed");
		while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
			fwrite(chunk, 1, k, m);
		fclose(f);
		fclose(m);
		fz_run(buf, len);
		free(buf);
	}
	return 0;
}

/* --seeds DIR: every seed with its kind byte, for libFuzzer. */
static int fz_write_seeds(const char *dir)
{
	for (int kind = 0; kind < FZ_NKINDS; kind++)
		for (size_t i = 0; i < fz_npool[kind]; i++) {
			const fz_input *in = &fz_pool[kind][i];
			char p[4096], k = (char)kind;
			FILE *f;

			snprintf(p, sizeof p, "%s/%s-%zu", dir, fz_kind[kind], i);
			f = fopen(p, "wb");
			if (!f || fwrite(&k, 1, 1, f) != 1 ||
			    fwrite(in->data, 1, in->len, f) != in->len || fclose(f) != 0) {
				perror(p);
				return 2;
			}
		}
	return 0;
}

static int fz_main(int argc, char **argv)
{
	static char buf[FZ_MAX + 1];
	size_t nseeds = 0;
	glob_t old;
	long runs;

	for (int k = 0; k < FZ_NKINDS; k++) {
		if (fz_npool[k] == 0) {
			fprintf(stderr, "fuzz_models: no %s seeds under %s\n", fz_kind[k], SRCDIR);
			return 2;
		}
		nseeds += fz_npool[k];
	}
	if (argc > 2 && !strcmp(argv[1], "--seeds"))
		return fz_write_seeds(argv[2]);
	if (argc > 1 && !strcmp(argv[1], "--replay"))
		return fz_replay(argc - 2, argv + 2);
	runs = argc > 1 ? atol(argv[1]) : 20000;
	if (argc > 2)
		fz_state ^= strtoull(argv[2], NULL, 0) * 0x9E3779B97F4A7C15ULL;
	memset(&old, 0, sizeof old);
	if (glob(SRCDIR "/tests/fuzz/models/*", 0, NULL, &old) == 0)
		fz_replay((int)old.gl_pathc, old.gl_pathv);
	for (long i = 0; i < runs; i++) {
		int kind = (int)fz_rand(FZ_NKINDS);
		const fz_input *in = &fz_pool[kind][fz_rand((uint32_t)fz_npool[kind])];
		size_t len = in->len;

		memcpy(buf + 1, in->data, len);
		for (int k = 0, n = 1 + (int)fz_rand(3); k < n; k++)
			len = fz_mutate(buf + 1, len);
		buf[0] = (char)(kind + FZ_NKINDS * (int)fz_rand(256 / FZ_NKINDS));
		fz_run(buf, len + 1);
	}
	printf("fuzz_models: %ld runs on %zu seeds (+%zu saved inputs), no failure; accepted:",
	       runs, nseeds, old.gl_pathc);
	for (int k = 0; k < FZ_NKINDS; k++)
		printf(" %s %ld/%ld", fz_kind[k], fz_accepted[k], fz_runs[k]);
	putchar('\n');
	globfree(&old);
	return 0;
}

int main(int argc, char **argv)
{
	int rc;

	fz_load_seeds();
	rc = fz_main(argc, argv);
	fz_free_seeds();
	return rc;
}
#endif
