/* vli_error.c - the one path for vlayer diagnostics. */
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
	vli_trace_flush();
	exit(status);
}
