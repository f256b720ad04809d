/* diag.c - error messages and exiting allocators of the tools (diag.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"

static const char *prog = "vlayer";
static void (*atdie)(void);

void vlu_progname(const char *name)
{
	prog = name;
}

const char *vlu_prog(void)
{
	return prog;
}

void vlu_atdie(void (*fn)(void))
{
	atdie = fn;
}

/* One line, written with one call, so that lines of several processes
 * (MPI ranks, PVM workers) sharing a terminal do not interleave. */
static void say(const char *what, const char *fmt, va_list ap)
{
	char line[4096];
	int n = snprintf(line, sizeof line, "%s: %s", prog, what);

	if (n < 0 || (size_t)n >= sizeof line)
		n = 0;
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	fprintf(stderr, "%s\n", line);
}

void vlu_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}

int vlu_err(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
	return status;
}

void vlu_die(int status, const char *fmt, ...)
{
	va_list ap;
	void (*fn)(void) = atdie;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
	atdie = NULL;
	if (fn)
		fn();
	exit(status);
}

int vlu_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void *nonnull(void *p, size_t n)
{
	if (!p)
		vlu_die(VLU_EXIT_NOMEM, "out of memory (%zu bytes)", n);
	return p;
}

void *vlu_xmalloc(size_t n)
{
	return nonnull(malloc(n ? n : 1), n);
}

void *vlu_xcalloc(size_t n, size_t size)
{
	return nonnull(calloc(n ? n : 1, size ? size : 1), n * size);
}

void *vlu_xrealloc(void *p, size_t n)
{
	return nonnull(realloc(p, n ? n : 1), n);
}

char *vlu_xstrdup(const char *s)
{
	return vlu_xstrndup(s, strlen(s));
}

char *vlu_xstrndup(const char *s, size_t n)
{
	char *d = vlu_xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = 0;
	return d;
}
