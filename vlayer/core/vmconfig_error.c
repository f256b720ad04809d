/* vmconfig_error.c - the error messages of the VMConfig loader: only the
 * first error of a load (or of a vlcfg_set) is kept, as one line
 * "FILE:LINE: [section] key: what is wrong (what is valid)", in the caller's
 * buffer (printable: bytes that are not text are shown as \xNN); later
 * errors, which usually follow from the first, are dropped.
 */
#include "vmconfig.h"
#include "vmconfig_int.h"

#include <stdarg.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Copy in to out (size outlen) so that the message is one printable line
 * whatever the file held: control characters, DEL and bytes that are not
 * UTF-8 become \xNN; valid UTF-8 ("50µs") stays readable. */
static void printable(char *out, size_t outlen, const char *in)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;

	if (outlen == 0)
		return;
	while (*s) {
		int n = utf8_len(s);

		if (n == 1 && (*s < 0x20 || *s == 0x7f))
			n = 0;
		if (n > 0) {
			if (o + (size_t)n >= outlen)
				break;
			while (n--)
				out[o++] = (char)*s++;
		} else {
			if (o + 4 >= outlen)
				break;
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", *s++);
		}
	}
	out[o] = 0;
}

static int vlcfg_vfail(vlcfg_ld *st, int line, const char *key, const char *fmt, va_list ap)
{
	char where[VLCFG_PATH_MAX + 32], ctx[VLCFG_LINE + 96], msg[2 * VLCFG_LINE];
	char line_[VLCFG_PATH_MAX + 4 * VLCFG_LINE];

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
	snprintf(line_, sizeof(line_), "%s%s%s", where, ctx, msg);
	printable(st->err, st->errlen, line_);
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
