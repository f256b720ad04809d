/* vlmodel_util.c - the option, unit and message helpers shared by the vlmodel
 * commands (vlmodel.h); apart from vlmodel.c so that the unit tests can link
 * the commands without its main(). */
#include "vlmodel.h"
#include "vlayer/core/vmconfig.h"
#include "util/diag.h"
#include "util/outfile.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int vlmod_usage_err(const char *cmd, const char *usage, const char *fmt, ...)
{
	va_list ap;
	const char *nl = strchr(usage, '\n');
	fprintf(stderr, "%s %s: ", vlu_prog(), cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%.*s\n", nl ? (int)(nl - usage) : (int)strlen(usage), usage);
	return VLMOD_EXIT_BAD;
}

const char *vlmod_opt(int argc, char **argv, int *i, const char *name, int *missing)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	*missing = 0;
	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=') {
		++*i;
		return a + n + 1;
	}
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	*i += 2;
	return argv[*i - 1];
}

int vlmod_args(int argc, char **argv, const vlmod_cmdline *c)
{
	int i = 0;
	while (i < argc) {
		const char *v = NULL;
		int miss = 0, k, rc, flag = 0;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(c->usage, stdout);
			return 1;
		}
		for (k = 0; k < c->nflags && !flag; k++)
			if (!strcmp(argv[i], c->flags[k]))
				flag = *c->flagv[k] = 1;
		if (flag) {
			i++;
			continue;
		}
		for (k = 0; k < c->nopts && !v && !miss; k++)
			v = vlmod_opt(argc, argv, &i, c->opts[k], &miss);
		if (miss)
			return vlmod_usage_err(c->cmd, c->usage, "%s needs a value", argv[i]);
		if (v && (rc = c->value(c->ctx, c->opts[k - 1], v)))
			return rc;
		if (v)
			continue;
		if (!c->file)
			return vlmod_usage_err(c->cmd, c->usage, "unknown argument '%s'", argv[i]);
		if (argv[i][0] == '-' && argv[i][1])
			return vlmod_usage_err(c->cmd, c->usage, "unknown option '%s'", argv[i]);
		if (*c->file)
			return vlmod_usage_err(c->cmd, c->usage, "more than one input file");
		*c->file = argv[i++];
	}
	return 0;
}

int vlmod_parse_number(const char *text, double *v)
{
	char *end;
	double x;
	while (*text == ' ' || *text == '\t')
		text++;
	if (!*text)
		return -1;
	x = strtod(text, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end || !isfinite(x))
		return -1;
	*v = x;
	return 0;
}

/* The number NUM (LEN characters) times 10^-SHIFT, with one rounding: the
 * exponent is moved in the text before strtod reads it. */
static double scaled(const char *num, size_t len, int shift)
{
	char buf[96];
	const char *e = memchr(num, 'e', len);
	long ex = 0;
	if (!e)
		e = memchr(num, 'E', len);
	if (e)
		ex = strtol(e + 1, NULL, 10);
	/* "1e-99999999999999999999" is 0 to strtod, but its exponent LONG_MIN:
	 * keep ex - shift from overflowing (beyond +-1e5 the result is 0 anyway,
	 * as the number itself is finite) */
	ex = ex < -100000 ? -100000 : ex > 100000 ? 100000 : ex;
	snprintf(buf, sizeof buf, "%.*se%ld", (int)(e ? (size_t)(e - num) : len), num, ex - shift);
	return strtod(buf, NULL);
}

/* Not vlcfg_parse_time: that rounds to whole nanoseconds, and fitted values
 * (vlcalib's L in us with 10 digits) have more. */
int vlmod_parse_seconds(const char *text, int plain_seconds, double *s)
{
	static const struct {
		const char *u;
		int shift;
	} u[] = {{"s", 0}, {"ms", 3}, {"us", 6}, {"ns", 9}};
	char *end;
	double v;
	size_t n, len;
	while (*text == ' ' || *text == '\t')
		text++;
	v = strtod(text, &end);
	len = (size_t)(end - text);
	if (!len || len > 64 || !isfinite(v) || memchr(text, 'x', len) || memchr(text, 'X', len) ||
	    memchr(text, 'n', len) || memchr(text, 'N', len))
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	n = strcspn(end, " \t");
	if (end[n + strspn(end + n, " \t")])
		return -1;
	if (n == 0 && (plain_seconds || v == 0)) {
		*s = v;
		return 0;
	}
	for (size_t k = 0; k < sizeof u / sizeof u[0]; k++)
		if (strlen(u[k].u) == n && !strncmp(end, u[k].u, n)) {
			*s = scaled(text, len, u[k].shift);
			return 0;
		}
	return -1;
}

static int is_inf(const char *text)
{
	while (*text == ' ' || *text == '\t')
		text++;
	return !strncmp(text, "inf", 3) && !text[3 + strspn(text + 3, " \t")];
}

int vlmod_parse_bandwidth(const char *text, int allow_inf, double *bytes_per_s)
{
	if (is_inf(text)) {
		if (!allow_inf)
			return -1;
		*bytes_per_s = INFINITY;
		return 0;
	}
	return vlcfg_parse_rate(text, bytes_per_s);
}

const char *vlmod_g(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "nan");
	else if (isinf(v))
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v == 0 ? 0.0 : v);
	else
		snprintf(buf, len, "%.6g", v);
	return buf;
}

double vlmod_clean(double v, double scale)
{
	return fabs(v) < 1e-12 * fabs(scale) ? 0 : v;
}

/* ---- tables ---- */

static void *tab_grow(vlmod_tab *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		vlmod_cell *c = realloc(t->cell, cap * sizeof *c);
		if (!c)
			return NULL;
		t->cell = c;
		t->cap = cap;
	}
	return &t->cell[t->n++];
}

void vlmod_tab_init(vlmod_tab *t, int ncol)
{
	memset(t, 0, sizeof *t);
	t->ncol = ncol;
}

int vlmod_tab_str(vlmod_tab *t, const char *s)
{
	vlmod_cell *c = tab_grow(t);
	if (!c)
		return -1;
	c->s = strdup(s);
	c->num = 0;
	return c->s ? 0 : -1;
}

int vlmod_tab_num(vlmod_tab *t, double v)
{
	vlmod_cell *c = tab_grow(t);
	if (!c)
		return -1;
	c->s = NULL;
	c->v = v;
	c->num = 1;
	return 0;
}

static void cell_text(char *buf, size_t len, const vlmod_cell *c, int csv)
{
	if (!c->num)
		snprintf(buf, len, "%s", c->s);
	else if (csv && isfinite(c->v) && !(c->v == floor(c->v) && fabs(c->v) < 1e15))
		snprintf(buf, len, "%.9g", c->v == 0 ? 0.0 : c->v);
	else
		vlmod_g(buf, len, c->v);
}

/* The first row is the header; the first column is left-aligned in text. */
int vlmod_tab_print(FILE *out, const vlmod_tab *t, int csv)
{
	char buf[64];
	int *wd = calloc((size_t)t->ncol, sizeof *wd);
	if (!wd)
		return -1;
	for (size_t i = 0; i < t->n && !csv; i++) {
		int l;
		cell_text(buf, sizeof buf, &t->cell[i], 0);
		l = (int)strlen(buf);
		if (l > wd[i % (size_t)t->ncol])
			wd[i % (size_t)t->ncol] = l;
	}
	for (size_t i = 0; i < t->n; i++) {
		int j = (int)(i % (size_t)t->ncol);
		cell_text(buf, sizeof buf, &t->cell[i], csv);
		if (csv) {
			if (j)
				fputc(',', out);
			vlu_csv_str(out, buf);
		} else if (j == 0) {
			fprintf(out, "%-*s", wd[0], buf);
		} else {
			fprintf(out, "  %*s", wd[j], buf);
		}
		if (j == t->ncol - 1)
			fputc('\n', out);
	}
	free(wd);
	return ferror(out) ? -1 : 0;
}

void vlmod_tab_free(vlmod_tab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->cell[i].s);
	free(t->cell);
	memset(t, 0, sizeof *t);
}
