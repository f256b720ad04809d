/* diag.h - the one way the command-line tools (vlpost, vlcalib, vlmodel,
 * vlconfig, calib_mpi, calib_pvm) report errors and get memory.
 *
 * Every message goes to stderr as "PROG: message" (PROG as set by
 * vlu_progname), one line.  The allocators never return NULL: they report
 * "out of memory" and exit with VLU_EXIT_NOMEM.  Library code that must not
 * exit (readers, parsers) fills an error buffer with vlu_seterr instead and
 * lets its caller decide.
 */
#ifndef VLU_DIAG_H
#define VLU_DIAG_H

#include <stddef.h>

#define VLU_EXIT_NOMEM 1

/* The program name that prefixes every message ("vlpost"); default "vlayer". */
void vlu_progname(const char *name);
const char *vlu_prog(void);
/* Called (once, most recent registration) before vlu_die exits: a tool that
 * must take others down with it (calib_pvm kills its workers) registers it. */
void vlu_atdie(void (*fn)(void));

/* "PROG: warning: ..." */
void vlu_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: ..."; returns status, for `return vlu_err(2, ...)` error paths. */
int vlu_err(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "PROG: ...", then exit(status) (after the vlu_atdie hook). */
__attribute__((noreturn)) void vlu_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Format into err (errlen bytes; nothing if err is NULL or errlen 0); returns -1. */
int vlu_seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* malloc / calloc / realloc / strdup / strndup that exit on failure; a size
 * of 0 is taken as 1 so that the result is never NULL. */
void *vlu_xmalloc(size_t n);
void *vlu_xcalloc(size_t n, size_t size);
void *vlu_xrealloc(void *p, size_t n);
char *vlu_xstrdup(const char *s);
char *vlu_xstrndup(const char *s, size_t n);

#endif
