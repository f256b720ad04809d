/* outfile.h - how the tools write their output files: never a half-written or
 * silently wrong file, and CSV fields quoted one way everywhere. */
#ifndef VLU_OUTFILE_H
#define VLU_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* Writes the content of one file into f; returns 0, or -1 with a message in err. */
typedef int (*vlu_write_fn)(FILE *f, void *ctx, char *err, size_t errlen);

/* Write path through fn.  A regular file (or none yet): into path.tmp (fully
 * buffered), renamed to path when fn and the close succeeded; on failure
 * path.tmp is removed, path is untouched.  Symbolic links are followed: the
 * link stays and the file it names is replaced (keeping its permissions).
 * "-" is standard output; a FIFO or a device is opened and written directly
 * (no temporary file, no rename); a directory is an error.  Errors: err holds
 * "FILE: reason".  Returns 0 or -1. */
int vlu_write_atomic(const char *path, vlu_write_fn fn, void *ctx, char *err, size_t errlen);

/* One CSV field: as it is, or in double quotes (quotes doubled) if it holds a
 * comma, a quote or a line break, or starts with a blank or '#'. */
void vlu_csv_str(FILE *out, const char *s);

#endif
