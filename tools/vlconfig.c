/* vlconfig - check a VMConfig file, or print it in canonical form. */
#include <stdio.h>
#include <string.h>
#include "vlayer/core/vmconfig.h"
#include "util/diag.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vlconfig [--dump] FILE\n"
		"Check the VMConfig FILE (see docs/vmconfig.md).\n"
		"  --dump   print it in canonical form (base units, every key,\n"
		"           [hosts] templates expanded) instead of \"FILE: ok, N hosts\"\n"
		"  --help   print this help\n"
		"Exit status: 0 if FILE is valid, 2 on an error (message on stderr).\n");
}

/* Sets *path and *dump from argv; returns -1 to print help, 2 on a usage error. */
static int parse_args(int argc, char **argv, const char **path, int *dump)
{
	int i, opts = 1;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts && !strcmp(a, "--")) {
			opts = 0;
		} else if (opts && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			return -1;
		} else if (opts && !strcmp(a, "--dump")) {
			*dump = 1;
		} else if (opts && a[0] == '-' && a[1]) {
			return vlu_err(2, "unknown option %s (try --help)", a);
		} else if (*path) {
			return vlu_err(2, "only one FILE, please (try --help)");
		} else {
			*path = a;
		}
	}
	if (!*path) {
		usage(stderr);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	vlcfg_config cfg;
	char err[2048];
	const char *path = NULL;
	int dump = 0, rc;

	vlu_progname("vlconfig");
	rc = parse_args(argc, argv, &path, &dump);

	if (rc < 0) {
		usage(stdout);
		return 0;
	}
	if (rc)
		return rc;
	if (vlcfg_load(path, &cfg, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (dump)
		vlcfg_dump(&cfg, stdout);
	else
		printf("%s: ok, %d host%s\n", path, cfg.nhosts, cfg.nhosts == 1 ? "" : "s");
	vlcfg_free(&cfg);
	if (fflush(stdout) || ferror(stdout)) {
		return vlu_err(2, "cannot write the output");
	}
	return 0;
}
