/* vmconfig_int.h - shared between the files of the VMConfig module only
 * (vmconfig_units.c, vmconfig_error.c, vmconfig_keys.c, vmconfig_load.c);
 * everyone else uses vmconfig.h.  The units know nothing of the loader; the
 * error messages know only its state; the keys use both; the loader uses all
 * three.  vmconfig_dump.c needs none of this.
 */
#ifndef VLCFG_VMCONFIG_INT_H
#define VLCFG_VMCONFIG_INT_H

#include "vmconfig.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define VLCFG_LINE 1024        /* longest line we take (inih's own limit is lower) */
#define VLCFG_MAX_HOSTS 100000 /* hosts in one file, and the largest [hosts] count */
#define VLCFG_COLL_SELECTION "selection" /* the [collectives] key that is not a kind */

/* ---- numbers and units (vmconfig_units.c) ---- */

/* What a unit parser below returns: VLCFG_OK, or why text was rejected (no
 * number, no unit, unknown unit, out of range, not a whole number of bytes,
 * negative, not > 0).  vmconfig_keys.c turns each into a message. */
enum { VLCFG_OK, VLCFG_ENUM, VLCFG_ENOUNIT, VLCFG_EUNIT, VLCFG_ERANGE, VLCFG_EWHOLE,
       VLCFG_ENEG, VLCFG_EZERO };

/* Number of blanks (isspace) at the start of s. */
size_t vlcfg_blanks(const char *s);

/* s without its leading and trailing blanks: cuts s in place (a NUL after the
 * last non-blank) and returns a pointer into s. */
char *vlcfg_trim(char *s);

/* A time "NUMBER UNIT" (unit required: ns us ms s; with ps != 0 also ps, and
 * the result is in ps instead of ns) into *out, rounded to the nearest
 * integer (halves away from zero); may be negative.  VLCFG_OK, VLCFG_ENUM, VLCFG_ENOUNIT,
 * VLCFG_EUNIT or VLCFG_ERANGE; *out is set only on VLCFG_OK. */
int vlcfg_time(const char *text, int ps, int64_t *out);

/* A size in bytes (B KiB MiB GiB KB MB GB, bare number = B) into *out; must be
 * a whole number of bytes >= 0.  VLCFG_OK, VLCFG_ENUM, VLCFG_EUNIT,
 * VLCFG_ENEG, VLCFG_EWHOLE or VLCFG_ERANGE; *out is set only on VLCFG_OK. */
int vlcfg_size(const char *text, int64_t *out);

/* A rate (B/s ... GiB/s, bit/s ... Gbit/s, unit required) in bytes/s into
 * *out, finite and > 0.  VLCFG_OK, VLCFG_ENUM, VLCFG_ENOUNIT, VLCFG_EUNIT,
 * VLCFG_ERANGE or VLCFG_EZERO; *out is set only on VLCFG_OK. */
int vlcfg_rate(const char *text, double *out);

/* A plain finite number >= 0, no unit (factor, flops).  VLCFG_OK, VLCFG_ENUM,
 * VLCFG_ENEG or VLCFG_ERANGE; *out is set on VLCFG_OK (and on VLCFG_ERANGE). */
int vlcfg_number(const char *text, double *out);

/* Digits only (surrounding blanks ok), value in lo..hi, into *out.  VLCFG_OK,
 * VLCFG_ENUM or VLCFG_ERANGE; *out is set only on VLCFG_OK. */
int vlcfg_integer(const char *text, long lo, long hi, long *out);

/* ---- the loader's state (vmconfig_load.c) ---- */

/* The kind of section being read; also the bit of vlcfg_keys' "in" masks. */
enum { VLCFG_K_NONE, VLCFG_K_SIM, VLCFG_K_NET, VLCFG_K_INTRA, VLCFG_K_INTER, VLCFG_K_HOST,
       VLCFG_K_HOSTS, VLCFG_K_MPI, VLCFG_K_COLL, VLCFG_K_TOPO };

/* One load of a file (vlcfg_load) or one run-time change (vlcfg_set).
 * Zero-initialised, then cfg, path, err and errlen set by the caller. */
typedef struct vlcfg_ld {
	vlcfg_config *cfg;
	const char *path;
	FILE *f;
	char *err;
	size_t errlen;
	int failed;
	int lineno;
	int read_errno;
	int kind;                    /* the section being read */
	int sect_line;               /* its header line */
	unsigned seen;               /* keys given in it, bit (1 << key id) */
	int keyline[32];             /* ... and the line of each */
	unsigned coll_seen;          /* [collectives]: kinds given in it, bit (1 << kind) */
	int coll_keyline[VL_KIND_N]; /* ... and the line of each */
	int coll_select_line;        /* [collectives] selection: its line, 0 = not given */
	char sect[VLCFG_LINE];       /* its name, for messages */
	char prefix[VLCFG_NAME_MAX]; /* [hosts PREFIX] ... */
	long count;                  /* ... its count (0 = not given) ... */
	vlcfg_host tmpl;             /* ... and its other keys */
	int hostcap;
	int *hostline;               /* header line of the section of each host */
	int *slot;                   /* hash of host names: index + 1, 0 = free */
	size_t nslots;               /* a power of 2 */
	char rank_hosts[VLCFG_LINE]; /* [mpi] rank_hosts, resolved at the end of the file */
	int rank_hosts_line;         /* its line, 0 = not given */
} vlcfg_ld;

/* ---- error messages (vmconfig_error.c) ---- */

/* Record the first error of st, at line (0 = the whole file): sets st->failed
 * and, if st->err is given, writes "PATH:LINE: [SECT] KEY: MESSAGE" there
 * (no LINE and no [SECT] when line is 0, no [SECT] when st->sect is empty, no
 * KEY when key is NULL); does nothing once st->failed is set.  Always -1. */
__attribute__((format(printf, 4, 5)))
int vlcfg_fail_at(vlcfg_ld *st, int line, const char *key, const char *fmt, ...);

/* vlcfg_fail_at at the current line, st->lineno.  Always returns -1. */
__attribute__((format(printf, 3, 4)))
int vlcfg_fail(vlcfg_ld *st, const char *key, const char *fmt, ...);

/* ---- keys (vmconfig_keys.c) ---- */

/* 1 if s is non-empty, shorter than size and only letters, digits, _ . -
 * (and : if colon is nonzero); else 0. */
int vlcfg_name_ok(const char *s, size_t size, int colon);

/* The next entry of the comma-separated list at *cur, cut in place and
 * trimmed (possibly empty); advances *cur (NULL after the last entry).
 * NULL at the end of the list. */
char *vlcfg_item(char **cur);

/* inih's handler (user is the vlcfg_ld): one "name = value" line of the
 * section st->kind, checked and stored.  1, or 0 after an error (recorded in
 * st) or when st has already failed.  section is ignored: the line reader of
 * vmconfig_load.c tracks sections. */
int vlcfg_handler(void *user, const char *section, const char *name, const char *value);

/* The part of vlcfg_set after the section: key = value in section st->kind
 * (for VLCFG_K_HOST into host st->cfg->hosts[host]), refusing what cannot be
 * changed while the program runs; section is the caller's name of it, for
 * messages.  0, or -1 with the error recorded in st and st->cfg unchanged. */
int vlcfg_set_key(vlcfg_ld *st, const char *section, int host, const char *key,
		  const char *value);

/* ---- [topology] (vmconfig_topo.c) ---- */

/* The default: no topology (contention-free). */
void vlcfg_topo_default(vlcfg_topo *t);
/* One "key = value" line of [topology]; 0 or -1 after the message. */
int vlcfg_topo_line(vlcfg_ld *st, const char *name, const char *text);
/* At the end of the file: what involves the hosts (a torus's size); 0 or -1. */
int vlcfg_topo_check(vlcfg_ld *st);
/* The section in canonical form (nothing without a topology). */
void vlcfg_topo_dump(const vlcfg_topo *t, FILE *out);

#endif
