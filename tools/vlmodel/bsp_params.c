/* bsp_params.c - g and L of `vlmodel bsp`: their command-line form, and a
 * parameter file (`vlcalib fit --csv` output, or any table of them; vlmodel.h). */
#include "vlmodel.h"
#include "util/csv.h"
#include "vlayer/core/vmconfig.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int vlmod_parse_g(const char *text, double *g)
{
	static const struct {
		const char *u;
		double f;
	} u[] = {{"", 1},        {"s/B", 1},     {"ms/B", 1e-3},
	         {"us/B", 1e-6}, {"ns/B", 1e-9}, {"ps/B", 1e-12}};
	char *end;
	double v, bw;
	while (isspace((unsigned char)*text))
		text++;
	v = strtod(text, &end);
	if (end != text && isfinite(v) && v >= 0) {
		size_t n;
		while (isspace((unsigned char)*end))
			end++;
		n = strlen(end);
		while (n && isspace((unsigned char)end[n - 1]))
			n--;
		for (size_t k = 0; k < sizeof u / sizeof u[0]; k++)
			if (strlen(u[k].u) == n && !strncmp(end, u[k].u, n)) {
				*g = v * u[k].f;
				return 0;
			}
	}
	if (vlcfg_parse_rate(text, &bw) < 0 || !isfinite(1 / bw)) /* 1e-320B/s: g inf */
		return -1;
	*g = 1 / bw;
	return 0;
}

/* "g", "bsp_g", "BSP g" -> 'g'; the same for L; else 0. */
static int gl_name(const char *s)
{
	if (!strncasecmp(s, "bsp", 3)) {
		s += 3;
		s += strspn(s, "_. ");
	}
	if (!strcmp(s, "g"))
		return 'g';
	if (!strcmp(s, "L") || !strcmp(s, "l"))
		return 'L';
	return 0;
}

static int gl_set(int which, const char *v, const char *unit, double *g, double *L)
{
	char buf[256];
	if (snprintf(buf, sizeof buf, "%s%s%s", v, unit && *unit ? " " : "", unit ? unit : "") >=
	    (int)sizeof buf)
		return -1; /* cut short, it could parse as something else */
	if (which == 'g')
		return vlmod_parse_g(buf, g);
	return vlmod_parse_seconds(buf, 1, L);
}

static int col_any(const vlu_csv *c, const char *const *names)
{
	for (; *names; names++) {
		int k = vlu_csv_col(c, *names);
		if (k >= 0)
			return k;
	}
	return -1;
}

/* The long form of `vlcalib fit --csv`: rows NAME,VALUE[,UNIT] (link, model
 * columns optional).  Rows of models naming bsp only; those of the paper's
 * overall fit "bsp(eq.11)" if there are any; of LINK if given. */
typedef struct gl_cols {
	int name, value, unit, model, link;
} gl_cols;

static int gl_row_ok(const vlu_csv *c, const gl_cols *k, int r, const char *link, int eq11)
{
	const char *model = k->model >= 0 ? vlu_csv_text(c, r, k->model) : "bsp";
	if (!gl_name(vlu_csv_text(c, r, k->name)))
		return 0;
	if (!strcasestr(model, "bsp") && strncasecmp(vlu_csv_text(c, r, k->name), "bsp", 3))
		return 0;
	if (link && k->link >= 0 && strcmp(vlu_csv_text(c, r, k->link), link))
		return 0;
	return !eq11 || !strncmp(model, "bsp(eq.11)", 10);
}

/* Several links among the rows chosen: the caller must pick one. */
static int gl_links(const vlu_csv *c, const gl_cols *k, const char *link, int eq11, char *err,
                    size_t el)
{
	const char *first = NULL;
	if (link || k->link < 0)
		return 0;
	for (int r = 0; r < c->nrows; r++) {
		const char *l;
		if (!gl_row_ok(c, k, r, NULL, eq11))
			continue;
		l = vlu_csv_text(c, r, k->link);
		if (!first)
			first = l;
		else if (strcmp(first, l)) {
			snprintf(err, el,
			         "%s:%d: g and L of links %s and %s: choose one with --link",
			         c->path, c->line[r], first, l);
			return -1;
		}
	}
	return 0;
}

static int gl_long(const vlu_csv *c, const char *link, double *g, double *L, int *found, char *err,
                   size_t el)
{
	static const char *const nm[] = {"parameter", "name", "key", "param", NULL};
	static const char *const md[] = {"model", "section", "method", "group", NULL};
	gl_cols k = {col_any(c, nm), vlu_csv_col(c, "value"), vlu_csv_col(c, "unit"),
	             col_any(c, md), vlu_csv_col(c, "link")};
	int eq11 = 0;
	if (k.name < 0 || k.value < 0)
		return 0;
	for (int r = 0; r < c->nrows && !eq11; r++)
		eq11 = gl_row_ok(c, &k, r, link, 1);
	if (gl_links(c, &k, link, eq11, err, el) < 0)
		return -1;
	for (int r = 0; r < c->nrows; r++) {
		const char *name = vlu_csv_text(c, r, k.name);
		int which = gl_name(name);
		if (!gl_row_ok(c, &k, r, link, eq11))
			continue;
		if (gl_set(which, vlu_csv_text(c, r, k.value),
		           k.unit >= 0 ? vlu_csv_text(c, r, k.unit) : NULL, g, L) < 0) {
			snprintf(err, el, "%s:%d: %s: bad value '%s%s%s'", c->path, c->line[r],
			         name, vlu_csv_text(c, r, k.value), k.unit >= 0 ? " " : "",
			         k.unit >= 0 ? vlu_csv_text(c, r, k.unit) : "");
			return -1;
		}
		*found |= which == 'g' ? 1 : 2;
	}
	return 0;
}

/* Columns g and L (or bsp_g, bsp_L): one row, or the row of an overall fit. */
static int gl_wide(const vlu_csv *c, double *g, double *L, int *found, char *err, size_t el)
{
	static const char *const gn[] = {"g", "bsp_g", NULL}, *const ln[] = {"L", "bsp_L", NULL};
	static const char *const pn[] = {"pattern", "experiment", "fit", NULL};
	int cg = col_any(c, gn), cl = col_any(c, ln), cp = col_any(c, pn), row = -1;
	if (cg < 0 || cl < 0)
		return 0;
	for (int r = 0; r < c->nrows; r++) {
		const char *p = cp >= 0 ? vlu_csv_text(c, r, cp) : "";
		if (c->nrows == 1 || !strcmp(p, "all") || !strcmp(p, "average") ||
		    !strcmp(p, "overall"))
			row = r;
	}
	if (row < 0) {
		snprintf(err, el,
		         "%s:%d: %d rows of g and L: which? (expected one row, or a "
		         "pattern column with a row 'all', 'average' or 'overall')",
		         c->path, c->header_line, c->nrows);
		return -1;
	}
	if (gl_set('g', vlu_csv_text(c, row, cg), NULL, g, L) < 0 ||
	    gl_set('L', vlu_csv_text(c, row, cl), NULL, g, L) < 0) {
		snprintf(err, el, "%s:%d: bad g '%s' or L '%s'", c->path, c->line[row],
		         vlu_csv_text(c, row, cg), vlu_csv_text(c, row, cl));
		return -1;
	}
	*found = 3;
	return 0;
}

int vlmod_read_gl(const char *path, const char *link, double *g, double *L, char *err, size_t el)
{
	vlu_csv c;
	int found = 0, rc;
	if (vlu_csv_read(path, &c, err, el) < 0)
		return -1;
	for (int k = 0; k < c.nmeta; k++) {
		int which = gl_name(c.meta_key[k]);
		if (which && gl_set(which, c.meta_val[k], NULL, g, L) == 0)
			found |= which == 'g' ? 1 : 2;
	}
	rc = gl_long(&c, link, g, L, &found, err, el);
	if (!rc)
		rc = gl_wide(&c, g, L, &found, err, el);
	if (!rc && found != 3) {
		snprintf(err, el,
		         "%s:%d: no BSP %s found (expected rows 'g' and 'L' in columns "
		         "parameter,value[,unit], or columns g and L)",
		         path, c.header_line,
		         found == 1   ? "L"
		         : found == 2 ? "g"
		                      : "g and L");
		rc = -1;
	}
	vlu_csv_free(&c);
	return rc;
}
