/* outfile.c - output files of the tools: a regular file is written to
 * FILE.tmp and renamed when complete (through symbolic links: the link stays,
 * its target is replaced); "-", a FIFO or a device is written directly;
 * CSV quoting. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "outfile.h"

/* The file a path names once its symbolic links are followed (a dangling
 * link names the file it would create); malloc'd, NULL with err set. */
static char *follow_links(const char *path, char *err, size_t errlen)
{
	char *cur = strdup(path);
	int hops;

	for (hops = 0; cur && hops < 40; hops++) {
		struct stat sb;
		char target[4096], *next, *slash;
		ssize_t n;

		if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode))
			return cur;
		n = readlink(cur, target, sizeof target - 1);
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", cur, strerror(errno));
			free(cur);
			return NULL;
		}
		target[n] = 0;
		slash = strrchr(cur, '/');
		if (target[0] == '/' || !slash) {
			next = strdup(target);
		} else {
			size_t d = (size_t)(slash - cur) + 1;
			next = malloc(d + (size_t)n + 1);
			if (next) {
				memcpy(next, cur, d);
				memcpy(next + d, target, (size_t)n + 1);
			}
		}
		free(cur);
		cur = next;
	}
	if (!cur)
		snprintf(err, errlen, "out of memory");
	else {
		snprintf(err, errlen, "%s: %s", path, strerror(ELOOP));
		free(cur);
	}
	return NULL;
}

/* Write straight into f (standard output, a FIFO, a device): no temporary
 * file, nothing to rename. */
static int write_direct(FILE *f, const char *name, vlu_write_fn fn, void *ctx, char *err,
			size_t errlen)
{
	int rc;

	int e;

	errno = 0;
	rc = fn(f, ctx, err, errlen);
	e = errno;
	errno = 0;
	if (fflush(f) != 0 || ferror(f)) {
		/* the device's own reason (ENOSPC ...) says more than the writer's */
		if (errno)
			e = errno;
		snprintf(err, errlen, "%s: %s", name, e ? strerror(e) : "write error");
		rc = -1;
	}
	return rc;
}

int vlu_write_atomic(const char *path, vlu_write_fn fn, void *ctx, char *err, size_t errlen)
{
	struct stat sb;
	char *real, *tmp;
	size_t n;
	FILE *f;
	int rc, bad, exists;

	if (strcmp(path, "-") == 0)
		return write_direct(stdout, "standard output", fn, ctx, err, errlen);
	real = follow_links(path, err, errlen);
	if (!real)
		return -1;
	exists = stat(real, &sb) == 0;
	if (exists && !S_ISREG(sb.st_mode)) {
		if (S_ISDIR(sb.st_mode)) {
			snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
			free(real);
			return -1;
		}
		f = fopen(real, "w");
		if (!f) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(real);
			return -1;
		}
		rc = write_direct(f, path, fn, ctx, err, errlen);
		if (fclose(f) != 0 && rc == 0)
			rc = -1, snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(real);
		return rc;
	}
	n = strlen(real);
	tmp = malloc(n + 5);
	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		free(real);
		return -1;
	}
	memcpy(tmp, real, n);
	memcpy(tmp + n, ".tmp", 5);
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		free(tmp);
		free(real);
		return -1;
	}
	/* the file keeps the permissions it had */
	if (exists)
		(void)fchmod(fileno(f), sb.st_mode & 07777);
	setvbuf(f, NULL, _IOFBF, 256u << 10);
	rc = fn(f, ctx, err, errlen);
	bad = ferror(f);
	if (fclose(f) != 0)
		bad = 1;
	if (rc == 0 && bad)
		rc = -1, snprintf(err, errlen, "%s: %s", tmp, errno ? strerror(errno) : "write error");
	if (rc == 0 && rename(tmp, real) != 0)
		rc = -1, snprintf(err, errlen, "%s: %s", real, strerror(errno));
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	free(real);
	return rc;
}

void vlu_csv_str(FILE *out, const char *s)
{
	/* quoted also when it starts with a blank or '#': readers trim blanks and
	 * take a line starting with '#' for a comment (util/csv.c) */
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
