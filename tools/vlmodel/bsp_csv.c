/* bsp_csv.c - the M-step CSV file of `vlmodel bsp` (its --help; vlmodel.h):
 * columns step, task, work and optionally send and h, into a program. */
#include "vlmodel.h"
#include "util/csv.h"
#include "vlayer/core/vmconfig.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { F_STEP, F_TASK, F_WORK, NF };
#define VLMOD_PROG_MAXCELLS 10000000 /* tasks x M-steps of a file */
static const char *const prog_cols[] = {"step", "task", "work", NULL};

typedef struct prow {
	int step, task;
} prow;

/* A whole number >= LO in cell (r, col). */
static int cell_int(const vlu_csv *c, int r, int col, long lo, long *v, char *err, size_t el)
{
	const char *t = vlu_csv_text(c, r, col);
	char *end;
	errno = 0;
	*v = strtol(t, &end, 10);
	if (end == t || *end || errno || *v < lo || *v > 1000000) {
		snprintf(err, el, "%s:%d: column %s: '%s' is not a whole number in %ld..1000000",
		         c->path, c->line[r], c->cols[col], t, lo);
		return -1;
	}
	return 0;
}

/* Pass 1: step and task of every row, P and R. */
static int prog_scan(const vlu_csv *c, const int *idx, int ntasks, prow *rows, int *p, int *r,
                     char *err, size_t el)
{
	*p = ntasks;
	*r = 0;
	for (int k = 0; k < c->nrows; k++) {
		long s, t;
		if (cell_int(c, k, idx[F_STEP], 1, &s, err, el) < 0 ||
		    cell_int(c, k, idx[F_TASK], 0, &t, err, el) < 0)
			return -1;
		if (ntasks > 0 && t >= ntasks) {
			snprintf(err, el, "%s:%d: task %ld: --tasks is %d (tasks 0..%d)", c->path,
			         c->line[k], t, ntasks, ntasks - 1);
			return -1;
		}
		rows[k] = (prow){(int)s - 1, (int)t};
		if (ntasks <= 0 && t + 1 > *p)
			*p = (int)t + 1;
		if (s > *r)
			*r = (int)s;
		if ((long)*p * *r > VLMOD_PROG_MAXCELLS) { /* else a 1 KiB file takes GiBs */
			snprintf(err, el,
			         "%s:%d: step %ld task %ld: %d tasks x %d M-steps are more than "
			         "the model handles (%d)",
			         c->path, c->line[k], s, t, *p, *r, VLMOD_PROG_MAXCELLS);
			return -1;
		}
	}
	if (c->nrows == 0) {
		snprintf(err, el, "%s:%d: no M-steps (no data rows)", c->path, c->header_line);
		return -1;
	}
	return 0;
}

/* One "DEST:SIZE" item of a send cell. */
static int send_item(vlmod_prog *m, const vlu_csv *c, int r, const prow *pr, const char *it,
                     char *err, size_t el)
{
	const char *colon = strchr(it, ':');
	char *end;
	long to = VLMOD_TO_ALL;
	int64_t bytes;
	if (!colon) {
		snprintf(err, el, "%s:%d: column send: '%s' is not DEST:SIZE", c->path, c->line[r],
		         it);
		return -1;
	}
	if (!(colon == it + 1 && *it == '*')) {
		to = strtol(it, &end, 10);
		if (end != colon || end == it || to < 0 || to >= m->p || to == pr->task) {
			snprintf(err, el,
			         "%s:%d: column send: '%s': the destination must be a task "
			         "0..%d other than %d, or *",
			         c->path, c->line[r], it, m->p - 1, pr->task);
			return -1;
		}
	}
	if (vlcfg_parse_size(colon + 1, &bytes) < 0) {
		snprintf(err, el,
		         "%s:%d: column send: '%s': bad size '%s' (bytes, or B KiB MiB "
		         "GiB KB MB GB)",
		         c->path, c->line[r], it, colon + 1);
		return -1;
	}
	return vlmod_prog_msg(m, pr->step, pr->task, (int)to, (double)bytes, pr->step);
}

static int send_cell(vlmod_prog *m, const vlu_csv *c, int r, int col, const prow *pr, char *err,
                     size_t el)
{
	char *copy = strdup(vlu_csv_text(c, r, col)), *save = NULL, *it;
	int rc = copy ? 0 : -1;
	for (it = copy ? strtok_r(copy, " \t;", &save) : NULL; it && !rc;
	     it = strtok_r(NULL, " \t;", &save))
		rc = send_item(m, c, r, pr, it, err, el);
	free(copy);
	return rc;
}

/* Pass 2: work, send, h of row R. */
static int prog_row(vlmod_prog *m, const vlu_csv *c, int r, const int *idx, int csend, int ch,
                    const prow *pr, char *err, size_t el)
{
	size_t k = (size_t)pr->step * (size_t)m->p + (size_t)pr->task;
	const char *t = vlu_csv_text(c, r, idx[F_WORK]);
	int64_t h;
	if (*t && (vlmod_parse_seconds(t, 1, &m->w[k]) < 0 || m->w[k] < 0)) {
		snprintf(err, el,
		         "%s:%d: column work: '%s' is not a time >= 0 (seconds, or with "
		         "a unit: ns, us, ms, s)",
		         c->path, c->line[r], t);
		return -1;
	}
	if (csend >= 0 && send_cell(m, c, r, csend, pr, err, el) < 0)
		return -1;
	t = ch >= 0 ? vlu_csv_text(c, r, ch) : "";
	if (*t && vlcfg_parse_size(t, &h) < 0) {
		snprintf(err, el,
		         "%s:%d: column h: '%s' is not a size (bytes, or B KiB MiB GiB "
		         "KB MB GB)",
		         c->path, c->line[r], t);
		return -1;
	}
	if (*t)
		m->hx[k] = (double)h;
	return 0;
}

/* Every (step, task) at most once, every step 1..R present. */
static int prog_check(const vlu_csv *c, const prow *rows, int p, int r, char *err, size_t el)
{
	int *seen = calloc((size_t)p * (size_t)r + 1, sizeof *seen), rc = 0;
	unsigned char *step = calloc((size_t)r + 1, 1);
	if (!seen || !step)
		rc = -1;
	for (int k = 0; !rc && k < c->nrows; k++) {
		int *s = &seen[(size_t)rows[k].step * (size_t)p + (size_t)rows[k].task];
		if (*s) {
			snprintf(err, el, "%s:%d: step %d task %d is also on line %d", c->path,
			         c->line[k], rows[k].step + 1, rows[k].task, c->line[*s - 1]);
			rc = -1;
		}
		*s = k + 1;
		step[rows[k].step] = 1;
	}
	for (int s = 0; !rc && s < r; s++)
		if (!step[s]) {
			snprintf(err, el, "%s: step %d has no rows (steps are numbered 1..%d)",
			         c->path, s + 1, r);
			rc = -1;
		}
	free(seen);
	free(step);
	return rc;
}

int vlmod_prog_read(const char *path, int ntasks, vlmod_prog *m, char *err, size_t el)
{
	vlu_csv c;
	prow *rows = NULL;
	int idx[NF], p, r, rc = -1;
	memset(m, 0, sizeof *m);
	err[0] = '\0';
	if (vlu_csv_read(path, &c, err, el) < 0)
		return -1;
	if (vlu_csv_need(&c, prog_cols, idx, err, el) < 0)
		goto out;
	rows = calloc((size_t)c.nrows + 1, sizeof *rows);
	if (!rows || prog_scan(&c, idx, ntasks, rows, &p, &r, err, el) < 0 ||
	    prog_check(&c, rows, p, r, err, el) < 0)
		goto out;
	if (vlmod_prog_init(m, p, r) < 0)
		goto out;
	for (int k = 0; k < c.nrows; k++)
		if (prog_row(m, &c, k, idx, vlu_csv_col(&c, "send"), vlu_csv_col(&c, "h"), &rows[k],
		             err, el) < 0)
			goto out;
	rc = vlmod_prog_finish(m);
out:
	if (rc < 0 && !*err)
		snprintf(err, el, "%s: out of memory", path);
	if (rc < 0)
		vlmod_prog_free(m);
	free(rows);
	vlu_csv_free(&c);
	return rc;
}
