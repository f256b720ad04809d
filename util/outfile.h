/* outfile.h - how vlpost writes its output files: never a half-written or
 * silently wrong file, and CSV fields quoted one way everywhere. */
#ifndef VLU_OUTFILE_H
#define VLU_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* Writes the content of one file into f; returns 0, or -1 with a message in err. */
typedef int (*vlu_write_fn)(FILE *f, void *ctx, char *err, size_t errlen);

/* Write path through fn: into path.tmp (fully buffered), renamed to path when fn
 * and the close succeeded.  On failure path.tmp is removed, path is untouched
 * and err holds "FILE: reason".  Returns 0 or -1. */
int vlu_write_atomic(const char *path, vlu_write_fn fn, void *ctx, char *err, size_t errlen);

/* One CSV field: as it is, or in double quotes (quotes doubled) if it holds a
 * comma, a quote or a line break, or starts with a blank or '#'. */
void vlu_csv_str(FILE *out, const char *s);

#endif
