/* outfile.c - output files of vlpost: written to FILE.tmp and renamed when
 * complete; CSV quoting. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "outfile.h"

int vlu_write_atomic(const char *path, vlu_write_fn fn, void *ctx, char *err, size_t errlen)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 5);
	FILE *f;
	int rc, bad;

	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp", 5);
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	setvbuf(f, NULL, _IOFBF, 256u << 10);
	rc = fn(f, ctx, err, errlen);
	bad = ferror(f);
	if (fclose(f) != 0)
		bad = 1;
	if (rc == 0 && bad)
		rc = -1, snprintf(err, errlen, "%s: %s", tmp, errno ? strerror(errno) : "write error");
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1, snprintf(err, errlen, "%s: %s", path, strerror(errno));
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

void vlu_csv_str(FILE *out, const char *s)
{
	/* quoted also when it starts with a blank or '#': readers trim blanks and
	 * take a line starting with '#' for a comment (models/csv.c) */
	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && s[0] != '\t' && s[0] != '#') {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
