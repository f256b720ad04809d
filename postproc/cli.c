/* cli.c - what the commands of vlpost share (cli.h). */
#include "cli.h"
#include "util/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vlpost_cli_usage(const char *usage, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	vlu_err(VLPOST_EXIT_BAD, "%s\n%.*s (--help for more)", n < 0 ? "out of memory" : msg,
		(int)strcspn(usage, "\n"), usage);
	if (n >= 0)
		free(msg);
	return VLPOST_EXIT_BAD;
}

int vlpost_cli_one_arg(int argc, char **argv, const char *usage, const char *cmd,
		       const char *what, const char **arg)
{
	int i;

	*arg = NULL;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return fputs(usage, stdout), 0;
		if (argv[i][0] == '-' && argv[i][1])
			return vlpost_cli_usage(usage, "%s: unknown option %s", cmd, argv[i]);
		if (*arg)
			return vlpost_cli_usage(usage, "%s: extra argument %s", cmd, argv[i]);
		*arg = argv[i];
	}
	if (!*arg)
		return vlpost_cli_usage(usage, "%s: missing %s", cmd, what);
	return -1;
}

char *vlpost_cli_name(const char *path, const char *drop, const char *add)
{
	size_t n = strlen(path), d = strlen(drop), a = strlen(add);
	char *r;
	while (n > 1 && path[n - 1] == '/')
		n--;
	if (d && n > d && strncmp(path + n - d, drop, d) == 0)
		n -= d;
	r = malloc(n + a + 1);
	if (r) {
		memcpy(r, path, n);
		memcpy(r + n, add, a + 1);
	}
	return r;
}

int vlpost_cli_write(const char *path, vlu_write_fn fn, void *ctx)
{
	char err[1024];

	if (vlu_write_atomic(path, fn, ctx, err, sizeof err) == 0)
		return 0;
	return vlu_err(VLPOST_EXIT_BAD, "%s", err);
}
