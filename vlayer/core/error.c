/* error.c - the one path for vlayer diagnostics: "vlayer: ..." on stderr.
 * A fatal error first runs the hook registered with vli_on_fatal (the trace
 * writer registers its flush), so that nothing already recorded is lost. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "vlayer/core/engine.h"

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	char line[1024];
	vsnprintf(line, sizeof line, fmt, ap);
	fprintf(stderr, "vlayer: %s%s\n", kind, line);
	fflush(stderr);
}

static void (*fatal_hook)(void);

void vli_on_fatal(void (*fn)(void))
{
	fatal_hook = fn;
}

void vli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void vli_error(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	if (fatal_hook)
		fatal_hook();
	exit(status);
}
