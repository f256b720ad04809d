/* vmconfig_error.c - the error messages of the VMConfig loader: only the
 * first error of a load (or of a vlcfg_set) is kept, as one line
 * "FILE:LINE: [section] key: what is wrong (what is valid)", in the caller's
 * buffer; later errors, which usually follow from the first, are dropped.
 */
#include "vmconfig.h"
#include "vmconfig_int.h"

#include <stdarg.h>
#include <stdio.h>

static int vlcfg_vfail(vlcfg_ld *st, int line, const char *key, const char *fmt, va_list ap)
{
	char where[VLCFG_PATH_MAX + 32], ctx[VLCFG_LINE + 96], msg[2 * VLCFG_LINE];

	if (st->failed)
		return -1;
	st->failed = 1;
	if (!st->err || st->errlen == 0)
		return -1;
	if (line > 0)
		snprintf(where, sizeof(where), "%s:%d: ", st->path, line);
	else
		snprintf(where, sizeof(where), "%s: ", st->path);
	if (line > 0 && *st->sect)
		snprintf(ctx, sizeof(ctx), "[%s]%s%s: ", st->sect, key ? " " : "", key ? key : "");
	else
		snprintf(ctx, sizeof(ctx), "%s%s", key ? key : "", key ? ": " : "");
	vsnprintf(msg, sizeof(msg), fmt, ap);
	snprintf(st->err, st->errlen, "%s%s%s", where, ctx, msg);
	return -1;
}

/* Record the first error, at line (0 = the whole file); always returns -1. */
int vlcfg_fail_at(vlcfg_ld *st, int line, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlcfg_vfail(st, line, key, fmt, ap);
	va_end(ap);
	return -1;
}

/* Record the first error, at the current line. */
int vlcfg_fail(vlcfg_ld *st, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlcfg_vfail(st, st->lineno, key, fmt, ap);
	va_end(ap);
	return -1;
}
