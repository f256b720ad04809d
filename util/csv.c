/* csv.c - see csv.h */
#include "csv.h"
#include "diag.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits LINE into fields.  Returns the number of fields, or -1 for an
 * unterminated quote or text after a closing quote. */
static int split(const char *line, char ***out)
{
	char **f = NULL;
	int n = 0;
	const char *p = line;

	for (;;) {
		size_t cap = strlen(p) + 1, len = 0;
		char *buf = vlu_xmalloc(cap);

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '"') {
			p++;
			for (;;) {
				if (!*p) {
					free(buf);
					goto bad;
				}
				if (*p == '"' && p[1] == '"') {
					buf[len++] = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					buf[len++] = *p++;
				}
			}
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p && *p != ',') {
				free(buf);
				goto bad;
			}
		} else {
			while (*p && *p != ',')
				buf[len++] = *p++;
			while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\t'))
				len--;
		}
		buf[len] = 0;
		f = vlu_xrealloc(f, sizeof(*f) * (size_t)(n + 1));
		f[n++] = buf;
		if (*p != ',')
			break;
		p++;
	}
	*out = f;
	return n;
bad:
	while (n)
		free(f[--n]);
	free(f);
	return -1;
}

static void free_fields(char **f, int n)
{
	while (n > 0)
		free(f[--n]);
	free(f);
}

static int blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return !*s;
}

static void add_meta(vlu_csv *c, const char *line)
{
	const char *p = line + 1, *colon;

	while (*p == ' ' || *p == '\t')
		p++;
	colon = strchr(p, ':');
	if (!colon || colon == p)
		return;
	for (const char *q = p; q < colon; q++)
		if (isspace((unsigned char)*q))
			return;
	c->meta_key = vlu_xrealloc(c->meta_key, sizeof(char *) * (size_t)(c->nmeta + 1));
	c->meta_val = vlu_xrealloc(c->meta_val, sizeof(char *) * (size_t)(c->nmeta + 1));
	c->meta_key[c->nmeta] = vlu_xstrndup(p, (size_t)(colon - p));
	colon++;
	while (*colon == ' ' || *colon == '\t')
		colon++;
	c->meta_val[c->nmeta] = vlu_xstrndup(colon, strlen(colon));
	c->nmeta++;
}

static int add_line(vlu_csv *c, char *line, int lineno, char *err, size_t errlen)
{
	char **f;
	int n;

	if (line[0] == '#' && c->ncols == 0) {
		add_meta(c, line);
		return 0;
	}
	if (blank(line))
		return 0;
	n = split(line, &f);
	if (n < 0) {
		vlu_seterr(err, errlen, "%s:%d: unterminated quote or text after a closing quote",
		           c->path, lineno);
		return -1;
	}
	if (c->ncols == 0) {
		for (int i = 0; i < n; i++) {
			if (!f[i][0]) {
				vlu_seterr(err, errlen, "%s:%d: header: column %d has no name",
				           c->path, lineno, i + 1);
				free_fields(f, n);
				return -1;
			}
			for (int j = 0; j < i; j++)
				if (!strcmp(f[i], f[j])) {
					vlu_seterr(err, errlen,
					           "%s:%d: header: column '%s' named twice",
					           c->path, lineno, f[i]);
					free_fields(f, n);
					return -1;
				}
		}
		c->cols = f;
		c->ncols = n;
		c->header_line = lineno;
		return 0;
	}
	if (n != c->ncols) {
		vlu_seterr(err, errlen, "%s:%d: %d fields, but the header has %d columns", c->path,
		           lineno, n, c->ncols);
		free_fields(f, n);
		return -1;
	}
	c->cell = vlu_xrealloc(c->cell, sizeof(char *) * (size_t)(c->nrows + 1) * (size_t)n);
	memcpy(c->cell + (size_t)c->nrows * (size_t)n, f, sizeof(char *) * (size_t)n);
	free(f);
	c->line = vlu_xrealloc(c->line, sizeof(int) * (size_t)(c->nrows + 1));
	c->line[c->nrows++] = lineno;
	return 0;
}

int vlu_csv_read(const char *path, vlu_csv *c, char *err, size_t errlen)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;

	memset(c, 0, sizeof(*c));
	c->path = vlu_xstrndup(path, strlen(path));
	fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!fp) {
		vlu_seterr(err, errlen, "%s: %s", path, strerror(errno));
		free(c->path);
		c->path = NULL;
		return -1;
	}
	while ((len = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		if ((size_t)len != strlen(line)) {
			vlu_seterr(err, errlen, "%s:%d: a NUL byte (not a text file?)", path,
			           lineno);
			rc = -1;
			break;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (lineno == 1 && !strncmp(line, "\xef\xbb\xbf", 3))
			memmove(line, line + 3, (size_t)len - 2);
		if (add_line(c, line, lineno, err, errlen)) {
			rc = -1;
			break;
		}
	}
	free(line);
	if (fp != stdin)
		fclose(fp);
	if (!rc && c->ncols == 0) {
		if (lineno)
			vlu_seterr(err, errlen, "%s:%d: no header row", path, lineno);
		else
			vlu_seterr(err, errlen, "%s: empty file (no header row)", path);
		rc = -1;
	}
	if (rc)
		vlu_csv_free(c);
	return rc;
}

void vlu_csv_free(vlu_csv *c)
{
	free_fields(c->cols, c->ncols);
	for (size_t i = 0; i < (size_t)c->nrows * (size_t)c->ncols; i++)
		free(c->cell[i]);
	free(c->cell);
	free(c->line);
	free_fields(c->meta_key, c->nmeta);
	free_fields(c->meta_val, c->nmeta);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

int vlu_csv_col(const vlu_csv *c, const char *name)
{
	for (int i = 0; i < c->ncols; i++)
		if (!strcmp(c->cols[i], name))
			return i;
	return -1;
}

const char *vlu_csv_text(const vlu_csv *c, int row, int col)
{
	if (row < 0 || row >= c->nrows || col < 0 || col >= c->ncols)
		return "";
	return c->cell[(size_t)row * (size_t)c->ncols + (size_t)col];
}

int vlu_csv_num(const vlu_csv *c, int row, int col, double *v, char *err, size_t errlen)
{
	const char *t = vlu_csv_text(c, row, col);
	char *end;

	errno = 0;
	*v = strtod(t, &end);
	if (!*t || end == t || *end || errno == ERANGE || !isfinite(*v)) {
		vlu_seterr(err, errlen, "%s:%d: column %s: '%s' is not a number", c->path,
		           row >= 0 && row < c->nrows ? c->line[row] : 0,
		           col >= 0 && col < c->ncols ? c->cols[col] : "?", t);
		return -1;
	}
	return 0;
}

const char *vlu_csv_meta(const vlu_csv *c, const char *key)
{
	for (int i = 0; i < c->nmeta; i++)
		if (!strcmp(c->meta_key[i], key))
			return c->meta_val[i];
	return NULL;
}

int vlu_csv_need(const vlu_csv *c, const char *const *names, int *idx, char *err, size_t errlen)
{
	for (int i = 0; names[i]; i++) {
		idx[i] = vlu_csv_col(c, names[i]);
		if (idx[i] < 0) {
			size_t o;

			vlu_seterr(err, errlen, "%s:%d: missing column '%s' (have:", c->path,
			           c->header_line, names[i]);
			o = strlen(err);
			for (int j = 0; j < c->ncols && o + 1 < errlen; j++) {
				snprintf(err + o, errlen - o, "%s %s", j ? "," : "", c->cols[j]);
				o = strlen(err);
			}
			if (o + 1 < errlen)
				snprintf(err + o, errlen - o, ")");
			return -1;
		}
	}
	return 0;
}
