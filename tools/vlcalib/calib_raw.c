/* calib_raw.c - see calib_raw.h */
#include "calib_raw.h"
#include "util/csv.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const vlcal_raw_xname[VLCAL_NX] = {
    "rtt",          "oneway",        "send",         "pack",           "recv",
    "gap",          "contention",    "bsp_exchange", "bsp_pingpong",   "bsp_onetoall",
    "bsp_alltoone", "bsp_alltoall",  "bsp_barrier",  "share_exchange", "share_fanout",
    "share_fanin",  "share_alltoall", "share_first"};
const char *const vlcal_raw_lname[2] = {"intra", "inter"};

static const char *const need[] = {"experiment", "link",   "procs",     "bytes", "h",
                                   "reps",       "min_ns", "median_ns", NULL};
enum { C_EXP, C_LINK, C_PROCS, C_BYTES, C_H, C_REPS, C_MIN, C_MEDIAN, NC };

/* *ERR = the message; returns -1. */
__attribute__((format(printf, 2, 3))) static int fail(char **err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(err, fmt, ap) < 0)
		*err = NULL;
	va_end(ap);
	return -1;
}

void vlcal_raw_init(vlcal_raw *raw)
{
	memset(raw, 0, sizeof *raw);
}

void vlcal_raw_free(vlcal_raw *raw)
{
	free(raw->row);
	free(raw->library);
	free(raw->hosts);
	vlcal_raw_init(raw);
}

/* The first line must be VLCAL_RAW_MAGIC (trailing blanks and CR allowed). */
static int check_magic(const char *path, char **err)
{
	char buf[256];
	FILE *f;
	size_t n;

	if (!strcmp(path, "-"))
		return fail(err, "-: standard input is not supported, name a file");
	f = fopen(path, "r");
	if (!f)
		return fail(err, "%s: %s", path, strerror(errno));
	if (!fgets(buf, sizeof buf, f))
		buf[0] = 0;
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' ||
	             buf[n - 1] == '\t'))
		buf[--n] = 0;
	if (strcmp(buf, VLCAL_RAW_MAGIC) != 0)
		return fail(err, "%s:1: not a vlcalib raw file (the first line must be \"%s\")",
		            path, VLCAL_RAW_MAGIC);
	return 0;
}

/* A whole number in [LO, HI] from cell (R, COL) into *V. */
static int cell_int(const vlu_csv *c, int r, int col, long long lo, long long hi, long long *v,
                    char **err)
{
	char e[512];
	double d;

	if (vlu_csv_num(c, r, col, &d, e, sizeof e))
		return fail(err, "%s", e);
	if (d != floor(d) || d < (double)lo || d > (double)hi)
		return fail(err, "%s:%d: column %s: '%s' is not a whole number in %lld..%lld",
		            c->path, c->line[r], c->cols[col], vlu_csv_text(c, r, col), lo, hi);
	*v = (long long)d;
	return 0;
}

/* A number in [0, 1e15] (1e15 ns is 11.6 days; sizes stay below 2^50). */
static int cell_nonneg(const vlu_csv *c, int r, int col, double *v, char **err)
{
	char e[512];

	if (vlu_csv_num(c, r, col, v, e, sizeof e))
		return fail(err, "%s", e);
	if (*v < 0)
		return fail(err, "%s:%d: column %s: '%s' is negative", c->path, c->line[r],
		            c->cols[col], vlu_csv_text(c, r, col));
	if (*v > 1e15)
		return fail(err, "%s:%d: column %s: '%s' is too large (at most 1e15)", c->path,
		            c->line[r], c->cols[col], vlu_csv_text(c, r, col));
	return 0;
}

static int lookup(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* Experiment X may have PROCS tasks: pack 1, contention, BSP and sharing at
 * least 2, the others (and share_exchange) 2. */
static int check_procs(const vlu_csv *c, int r, int x, int procs, char **err)
{
	int many = x == VLCAL_X_CONT || (x >= VLCAL_X_BSP && x != VLCAL_X_SHARE);
	int want = x == VLCAL_X_PACK ? 1 : many ? 0 : 2;

	if (want && procs != want)
		return fail(err, "%s:%d: column procs: experiment %s has %d task%s, not %d",
		            c->path, c->line[r], vlcal_raw_xname[x], want, want > 1 ? "s" : "",
		            procs);
	if (!want && procs < 2)
		return fail(err, "%s:%d: experiment %s needs at least 2 tasks, not %d", c->path,
		            c->line[r], vlcal_raw_xname[x], procs);
	return 0;
}

/* Row R of C (columns COL) into *W. */
static int parse_row(const vlu_csv *c, int r, const int *col, int use_min, vlcal_raw_row *w,
                     char **err)
{
	const char *xs = vlu_csv_text(c, r, col[C_EXP]), *ls = vlu_csv_text(c, r, col[C_LINK]);
	long long procs, reps;
	double vmin, vmed;

	w->x = lookup(xs, vlcal_raw_xname, VLCAL_NX);
	if (w->x < 0)
		return fail(err,
		            "%s:%d: unknown experiment '%s' (valid: rtt, oneway, send, pack, "
		            "recv, gap, contention, bsp_exchange, bsp_pingpong, bsp_onetoall, "
		            "bsp_alltoone, bsp_alltoall, bsp_barrier, share_exchange, "
		            "share_fanout, share_fanin, share_alltoall, share_first)",
		            c->path, c->line[r], xs);
	w->link = lookup(ls, vlcal_raw_lname, 2);
	if (w->link < 0)
		return fail(err, "%s:%d: unknown link '%s' (valid: intra, inter)", c->path,
		            c->line[r], ls);
	if (cell_int(c, r, col[C_PROCS], 1, 1000000, &procs, err) ||
	    check_procs(c, r, w->x, (int)procs, err) ||
	    cell_int(c, r, col[C_BYTES], 0, (long long)1 << 50, &w->bytes, err) ||
	    cell_nonneg(c, r, col[C_H], &w->h, err) ||
	    cell_int(c, r, col[C_REPS], 1, LLONG_MAX / 2, &reps, err) ||
	    cell_nonneg(c, r, col[C_MIN], &vmin, err) ||
	    cell_nonneg(c, r, col[C_MEDIAN], &vmed, err))
		return -1;
	w->procs = (int)procs;
	w->v = use_min ? vmin : vmed;
	w->line = c->line[r];
	return 0;
}

static int add_row(vlcal_raw *raw, const vlcal_raw_row *w, char **err)
{
	if (raw->n == raw->cap) {
		int cap = raw->cap ? 2 * raw->cap : 256;
		vlcal_raw_row *q = realloc(raw->row, sizeof *q * (size_t)cap);

		if (!q)
			return fail(err, "out of memory");
		raw->row = q;
		raw->cap = cap;
	}
	raw->row[raw->n++] = *w;
	return 0;
}

/* *DST: the value of metadata KEY if *DST is NULL or "", else (differing) "(differs
 * between files)".  0 or -1 (out of memory). */
static int keep_meta(const vlu_csv *c, const char *key, char **dst)
{
	const char *v = vlu_csv_meta(c, key);
	char *d;

	if (!v || (*dst && (*dst)[0] && !strcmp(*dst, v)))
		return 0;
	d = strdup(*dst && (*dst)[0] ? "(differs between files)" : v);
	if (!d)
		return -1;
	free(*dst);
	*dst = d;
	return 0;
}

int vlcal_raw_load(vlcal_raw *raw, const char *path, int file, int use_min, int linkmask, char **err)
{
	vlu_csv c;
	int col[NC], n0 = raw->n, rc = 0;
	char e[1024];

	*err = NULL;
	if (check_magic(path, err))
		return -1;
	if (vlu_csv_read(path, &c, e, sizeof e))
		return fail(err, "%s", e);
	if (vlu_csv_need(&c, need, col, e, sizeof e))
		rc = fail(err, "%s", e);
	for (int r = 0; !rc && r < c.nrows; r++) {
		vlcal_raw_row w;

		w.file = file;
		rc = parse_row(&c, r, col, use_min, &w, err);
		if (!rc && (linkmask & (1 << w.link)))
			rc = add_row(raw, &w, err);
	}
	if (!rc && (keep_meta(&c, "library", &raw->library) || keep_meta(&c, "hosts", &raw->hosts)))
		rc = fail(err, "out of memory");
	if (rc)
		raw->n = n0;
	vlu_csv_free(&c);
	return rc;
}

static int cmp_row(const void *a, const void *b)
{
	const vlcal_raw_row *p = a, *q = b;

	if (p->link != q->link)
		return p->link - q->link;
	if (p->x != q->x)
		return p->x - q->x;
	if (p->procs != q->procs)
		return p->procs - q->procs;
	if (p->bytes != q->bytes)
		return p->bytes < q->bytes ? -1 : 1;
	if (p->file != q->file)
		return p->file - q->file;
	return p->line - q->line;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int same_key(const vlcal_raw_row *a, const vlcal_raw_row *b)
{
	return a->link == b->link && a->x == b->x && a->procs == b->procs && a->bytes == b->bytes;
}

int vlcal_raw_merge(vlcal_raw *raw, const char *const *files, int use_min, char **err)
{
	vlcal_raw_row *rows = raw->row;
	int out = 0;
	double *v;

	*err = NULL;
	if (!raw->n)
		return 0;
	v = malloc(sizeof(double) * (size_t)(raw->n + 1));
	if (!v)
		return fail(err, "out of memory");
	qsort(rows, (size_t)raw->n, sizeof *rows, cmp_row);
	for (int i = 0; i < raw->n;) {
		int j = i + 1, n;

		for (; j < raw->n && same_key(&rows[i], &rows[j]); j++)
			if (rows[j].file == rows[j - 1].file) {
				free(v);
				return fail(err,
				            "%s:%d: a second row for experiment %s, link %s, procs "
				            "%d, bytes %lld (the first is at line %d)",
				            files[rows[j].file], rows[j].line,
				            vlcal_raw_xname[rows[j].x], vlcal_raw_lname[rows[j].link],
				            rows[j].procs, rows[j].bytes, rows[j - 1].line);
			}
		n = j - i;
		for (int k = 0; k < n; k++)
			v[k] = rows[i + k].v;
		qsort(v, (size_t)n, sizeof(double), cmp_dbl);
		rows[out] = rows[i];
		rows[out].v = use_min ? v[0] : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		out++;
		i = j;
	}
	raw->n = out;
	free(v);
	return 0;
}
