/* vmconfig.c - the VMConfig: load an INI file (with inih), check it, print it.
 *
 * inih splits "key = value" lines and calls vlcfg_handler.  Our line reader in
 * front of it counts lines, rejects overlong lines and NUL bytes, and reads
 * section headers itself, because the handler is told neither line numbers
 * nor section starts.  [mpi] rank_hosts may name hosts declared further down,
 * so its names are looked up after the whole file.  Syntax and messages:
 * docs/vmconfig.md.
 */
#include "vmconfig.h"
#include "vlayer/coll/coll.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define VLI_LINE 1024        /* longest line we take (inih's own limit is lower) */
#define VLI_MAX_HOSTS 100000 /* hosts in one file, and the largest [hosts] count */
#define VLI_MAX_PROCS 1000000
#define VLI_MAX_K 1000000    /* largest contention k */
#define VLI_EAGER_LIMIT 65536 /* [mpi] eager_limit default, bytes */

_Static_assert(VL_KIND_N == VL_KIND_N, "VL_KIND_N must match coll.h");

#define VLI_USE_TIME "use a number with ns, us, ms or s, e.g. 50us"
#define VLI_USE_PERKIB "use a time per KiB with ps, ns, us, ms or s, e.g. 80us"
#define VLI_USE_SIZE "use bytes or a number with B, KiB, MiB, GiB, KB, MB or GB"
#define VLI_USE_RATE "use a number with B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, " \
	"GiB/s, bit/s, kbit/s, Mbit/s or Gbit/s, e.g. 100Mbit/s"

/* ---- numbers and units ---- */

enum { VLI_OK, VLI_ENUM, VLI_ENOUNIT, VLI_EUNIT, VLI_ERANGE, VLI_EWHOLE, VLI_ENEG, VLI_EZERO };

/* A decimal number m * 10^e, exact up to 19 significant digits. */
typedef struct vlcfg_dec {
	uint64_t m;
	int e;
	int neg;
	int inexact; /* nonzero digits after the 19th were dropped */
} vlcfg_dec;

/* A unit: value * 10^exp10 * 2^exp2 is the value in the base unit. */
typedef struct vlcfg_unit {
	const char *name;
	int exp10;
	int exp2;
} vlcfg_unit;

/* Base ns; the ps entry is used (with all exponents + 3) for trans_per_kib. */
static const vlcfg_unit vlcfg_time_units[] = {
	{"ps", -3, 0}, {"ns", 0, 0}, {"us", 3, 0}, {"ms", 6, 0}, {"s", 9, 0}, {NULL, 0, 0}
};

static const vlcfg_unit vlcfg_size_units[] = {
	{"B", 0, 0}, {"KiB", 0, 10}, {"MiB", 0, 20}, {"GiB", 0, 30},
	{"KB", 3, 0}, {"MB", 6, 0}, {"GB", 9, 0}, {NULL, 0, 0}
};

static const vlcfg_unit vlcfg_rate_units[] = {
	{"B/s", 0, 0}, {"KB/s", 3, 0}, {"MB/s", 6, 0}, {"GB/s", 9, 0},
	{"KiB/s", 0, 10}, {"MiB/s", 0, 20}, {"GiB/s", 0, 30},
	{"bit/s", 0, -3}, {"kbit/s", 3, -3}, {"Mbit/s", 6, -3}, {"Gbit/s", 9, -3},
	{NULL, 0, 0}
};

static size_t vlcfg_blanks(const char *s)
{
	size_t n = 0;

	while (isspace((unsigned char)s[n]))
		n++;
	return n;
}

static size_t vlcfg_trimlen(const char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return n;
}

static char *vlcfg_trim(char *s)
{
	s += vlcfg_blanks(s);
	s[vlcfg_trimlen(s)] = '\0';
	return s;
}

static const char *vlcfg_digits(const char *s, vlcfg_dec *d, int frac, int *nd)
{
	for (; isdigit((unsigned char)*s); s++) {
		unsigned v = (unsigned)(*s - '0');

		if (*nd == 19) {
			d->e += !frac;
			d->inexact |= v != 0;
			continue;
		}
		d->e -= frac;
		if (d->m == 0 && v == 0)
			continue;
		d->m = d->m * 10 + v;
		(*nd)++;
	}
	return s;
}

static const char *vlcfg_exponent(const char *s, vlcfg_dec *d)
{
	const char *p = s + 1;
	int neg = 0, x = 0;

	if (*s != 'e' && *s != 'E')
		return s;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (!isdigit((unsigned char)*p))
		return s; /* "e" starts the unit */
	for (; isdigit((unsigned char)*p); p++)
		if (x < 100000)
			x = x * 10 + (*p - '0');
	d->e += neg ? -x : x;
	return p;
}

/* Scan [+-]digits[.digits][e[+-]digits]; returns the end, or NULL if no number. */
static const char *vlcfg_scan(const char *s, vlcfg_dec *d)
{
	const char *p;
	int nd = 0, any;

	memset(d, 0, sizeof(*d));
	if (*s == '+' || *s == '-')
		d->neg = *s++ == '-';
	p = vlcfg_digits(s, d, 0, &nd);
	any = p > s;
	if (*p == '.') {
		s = p + 1;
		p = vlcfg_digits(s, d, 1, &nd);
		any |= p > s;
	}
	if (!any)
		return NULL;
	p = vlcfg_exponent(p, d);
	while (d->m != 0 && d->m % 10 == 0) {
		d->m /= 10;
		d->e++;
	}
	if (d->m == 0)
		d->e = 0;
	return p;
}

/* The number and the unit (from units) of text; *u = NULL if no unit follows. */
static int vlcfg_split(const char *text, const vlcfg_unit *units, vlcfg_dec *d, const vlcfg_unit **u)
{
	const char *p;
	size_t n;

	*u = NULL;
	p = vlcfg_scan(text + vlcfg_blanks(text), d);
	if (!p)
		return VLI_ENUM;
	p += vlcfg_blanks(p);
	n = vlcfg_trimlen(p);
	if (n == 0)
		return VLI_ENOUNIT;
	for (; units->name; units++) {
		if (strlen(units->name) == n && !memcmp(units->name, p, n)) {
			*u = units;
			return VLI_OK;
		}
	}
	return VLI_EUNIT;
}

static int vlcfg_mul(uint64_t *m, uint64_t f)
{
	if (*m > UINT64_MAX / f)
		return -1;
	*m *= f;
	return 0;
}

/* m * 10^e rounded to the nearest integer, halves up; -1 on overflow. */
static int vlcfg_round(uint64_t m, int e, uint64_t *out)
{
	uint64_t p = 1, r;

	if (m == 0 || e < -19) {
		*out = 0;
		return 0;
	}
	for (; e > 0; e--)
		if (vlcfg_mul(&m, 10))
			return -1;
	for (; e < 0; e++)
		p *= 10;
	r = m % p;
	*out = m / p + (r >= p - r);
	return 0;
}

/* d * 10^e * 2^twos, which must be a whole number. */
static int vlcfg_exact(const vlcfg_dec *d, int e, int twos, uint64_t *out)
{
	uint64_t m = d->m;

	if (m == 0) {
		*out = 0;
		return VLI_OK;
	}
	for (e += d->e; e < 0; e++) { /* divide by 10: by 5, and by 2 */
		if (m % 5 != 0)
			return VLI_EWHOLE;
		m /= 5;
		if (twos > 0)
			twos--;
		else if (m % 2 != 0)
			return VLI_EWHOLE;
		else
			m /= 2;
	}
	for (; e > 0; e--)
		if (vlcfg_mul(&m, 10))
			return VLI_ERANGE;
	for (; twos > 0; twos--)
		if (vlcfg_mul(&m, 2))
			return VLI_ERANGE;
	*out = m;
	return d->inexact ? VLI_EWHOLE : VLI_OK;
}

/* Correctly rounded, and independent of the locale (no decimal point). */
static double vlcfg_double(const vlcfg_dec *d, int exp10)
{
	char buf[64];

	if (d->m == 0)
		return 0.0;
	snprintf(buf, sizeof(buf), "%s%" PRIu64 "e%d", d->neg ? "-" : "", d->m, d->e + exp10);
	return strtod(buf, NULL);
}

static int vlcfg_time(const char *text, int ps, int64_t *out)
{
	const vlcfg_unit *u;
	vlcfg_dec d;
	uint64_t v;
	int rc = vlcfg_split(text, vlcfg_time_units + (ps ? 0 : 1), &d, &u);

	if (rc != VLI_OK)
		return rc;
	if (vlcfg_round(d.m, d.e + u->exp10 + (ps ? 3 : 0), &v) || v > INT64_MAX)
		return VLI_ERANGE;
	*out = d.neg ? -(int64_t)v : (int64_t)v;
	return VLI_OK;
}

static int vlcfg_size(const char *text, int64_t *out)
{
	const vlcfg_unit *u;
	vlcfg_dec d;
	uint64_t v;
	int rc = vlcfg_split(text, vlcfg_size_units, &d, &u);

	if (rc == VLI_ENOUNIT) {
		rc = VLI_OK;
		u = &vlcfg_size_units[0];
	}
	if (rc != VLI_OK)
		return rc;
	if (d.neg && d.m != 0)
		return VLI_ENEG;
	rc = vlcfg_exact(&d, u->exp10, u->exp2, &v);
	if (rc == VLI_OK && v > INT64_MAX)
		rc = VLI_ERANGE;
	if (rc == VLI_OK)
		*out = (int64_t)v;
	return rc;
}

static int vlcfg_rate(const char *text, double *out)
{
	const vlcfg_unit *u;
	vlcfg_dec d;
	double v;
	int rc = vlcfg_split(text, vlcfg_rate_units, &d, &u);

	if (rc != VLI_OK)
		return rc;
	v = ldexp(vlcfg_double(&d, u->exp10), u->exp2);
	if (!isfinite(v))
		return VLI_ERANGE;
	if (v <= 0)
		return VLI_EZERO;
	*out = v;
	return VLI_OK;
}

/* A plain number >= 0 (factor, flops). */
static int vlcfg_number(const char *text, double *out)
{
	vlcfg_dec d;
	const char *p = vlcfg_scan(text + vlcfg_blanks(text), &d);

	if (!p || p[vlcfg_blanks(p)])
		return VLI_ENUM;
	if (d.neg && d.m != 0)
		return VLI_ENEG;
	*out = vlcfg_double(&d, 0);
	return isfinite(*out) ? VLI_OK : VLI_ERANGE;
}

/* Digits only, in lo..hi. */
static int vlcfg_integer(const char *text, long lo, long hi, long *out)
{
	const char *p = text + vlcfg_blanks(text);
	long v = 0;

	if (!isdigit((unsigned char)*p))
		return VLI_ENUM;
	for (; isdigit((unsigned char)*p); p++)
		if (v <= hi)
			v = v * 10 + (*p - '0');
	if (p[vlcfg_blanks(p)])
		return VLI_ENUM;
	if (v < lo || v > hi)
		return VLI_ERANGE;
	*out = v;
	return VLI_OK;
}

int vlcfg_parse_time(const char *text, int64_t *ns)
{
	if (!text || !ns)
		return -1;
	return vlcfg_time(text, 0, ns) == VLI_OK ? 0 : -1;
}

int vlcfg_parse_size(const char *text, int64_t *bytes)
{
	if (!text || !bytes)
		return -1;
	return vlcfg_size(text, bytes) == VLI_OK ? 0 : -1;
}

int vlcfg_parse_rate(const char *text, double *bytes_per_s)
{
	if (!text || !bytes_per_s)
		return -1;
	return vlcfg_rate(text, bytes_per_s) == VLI_OK ? 0 : -1;
}

/* ---- the loader's state and its error messages ---- */

enum { VLI_K_NONE, VLI_K_SIM, VLI_K_NET, VLI_K_INTRA, VLI_K_INTER, VLI_K_HOST, VLI_K_HOSTS,
       VLI_K_MPI, VLI_K_COLL };

#define VLI_SECTIONS "simulation, network, network intra, network inter, mpi, collectives"

typedef struct vlcfg_ld {
	vlcfg_config *cfg;
	const char *path;
	FILE *f;
	char *err;
	size_t errlen;
	int failed;
	int lineno;
	int read_errno;
	int kind;                 /* the section being read */
	int sect_line;            /* its header line */
	unsigned seen;            /* keys given in it, bit (1 << key id) */
	char sect[VLI_LINE];      /* its name, for messages */
	char prefix[VLCFG_NAME_MAX]; /* [hosts PREFIX] ... */
	long count;               /* ... its count (0 = not given) ... */
	vlcfg_host tmpl;             /* ... and its other keys */
	int hostcap;
	int *hostline;            /* header line of the section of each host */
	int *slot;                /* hash of host names: index + 1, 0 = free */
	size_t nslots;            /* a power of 2 */
	char rank_hosts[VLI_LINE]; /* [mpi] rank_hosts, resolved at the end of the file */
	int rank_hosts_line;      /* its line, 0 = not given */
} vlcfg_ld;

static int vlcfg_vfail(vlcfg_ld *st, int line, const char *key, const char *fmt, va_list ap)
{
	char where[VLCFG_PATH_MAX + 32], ctx[VLI_LINE + 96], msg[2 * VLI_LINE];

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
__attribute__((format(printf, 4, 5)))
static int vlcfg_fail_at(vlcfg_ld *st, int line, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlcfg_vfail(st, line, key, fmt, ap);
	va_end(ap);
	return -1;
}

/* Record the first error, at the current line. */
__attribute__((format(printf, 3, 4)))
static int vlcfg_fail(vlcfg_ld *st, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlcfg_vfail(st, st->lineno, key, fmt, ap);
	va_end(ap);
	return -1;
}

static int vlcfg_nomem(vlcfg_ld *st)
{
	return vlcfg_fail_at(st, 0, NULL, "out of memory");
}

/* The message for a unit parser's error code rc. */
static int vlcfg_bad(vlcfg_ld *st, const char *key, const char *text, int rc,
		   const char *noun, const char *use)
{
	switch (rc) {
	case VLI_ENOUNIT:
		return vlcfg_fail(st, key, "\"%s\" has no %s unit (%s)", text, noun, use);
	case VLI_EUNIT:
		return vlcfg_fail(st, key, "\"%s\" has an unknown %s unit (%s)", text, noun, use);
	case VLI_ERANGE:
		return vlcfg_fail(st, key, "\"%s\" is out of range (%s)", text, use);
	case VLI_EWHOLE:
		return vlcfg_fail(st, key, "\"%s\" is not a whole number of bytes (%s)", text, use);
	case VLI_ENEG:
		return vlcfg_fail(st, key, "\"%s\" is negative (must be >= 0)", text);
	case VLI_EZERO:
		return vlcfg_fail(st, key, "\"%s\" is not > 0 (%s)", text, use);
	default:
		return vlcfg_fail(st, key, "\"%s\" is not a %s (%s)", text, noun, use);
	}
}

/* ---- keys ---- */

enum { VLI_T_WORD, VLI_T_TEXT, VLI_T_INT, VLI_T_NUM, VLI_T_TIME, VLI_T_PERKIB,
       VLI_T_RATE, VLI_T_PWL, VLI_T_CONT, VLI_T_SIZE, VLI_T_HOSTLIST };

enum { VLI_COMPUTE, VLI_PLACEMENT, VLI_TRACE_DIR, VLI_COUNT, VLI_PROCS, VLI_FACTOR,
       VLI_REAL, VLI_INIT, VLI_FLOPS, VLI_SEND, VLI_RECV, VLI_TRANS, VLI_PERKIB,
       VLI_BW, VLI_SEND_MODEL, VLI_TRANS_MODEL, VLI_CONT, VLI_EAGER, VLI_MPI_PLACEMENT,
       VLI_RANKS_PER_NODE, VLI_RANK_HOSTS, VLI_NKEYS };

#define VLI_IN(kind) (1u << (kind))
#define VLI_SIM VLI_IN(VLI_K_SIM)
#define VLI_LINK (VLI_IN(VLI_K_NET) | VLI_IN(VLI_K_INTRA) | VLI_IN(VLI_K_INTER))
#define VLI_HOST (VLI_IN(VLI_K_HOST) | VLI_IN(VLI_K_HOSTS))
#define VLI_MPI VLI_IN(VLI_K_MPI)

typedef struct vlcfg_key {
	const char *name;
	unsigned in;         /* VLI_IN() of the sections that take it */
	int type;
	long max;            /* VLI_T_INT: 1..max */
	const char *use;     /* what is valid */
	const char *word[2]; /* VLI_T_WORD: the values, stored as 0 and 1 */
} vlcfg_key;

/* In the order of the "valid:" lists and of the dump. */
static const vlcfg_key vlcfg_keys[VLI_NKEYS] = {
	{"compute", VLI_SIM, VLI_T_WORD, 0, "use measured or ignore", {"measured", "ignore"}},
	{"placement", VLI_SIM, VLI_T_WORD, 0, "use fill or roundrobin", {"fill", "roundrobin"}},
	{"trace_dir", VLI_SIM, VLI_T_TEXT, 0, "use a directory", {NULL, NULL}},
	{"count", VLI_IN(VLI_K_HOSTS), VLI_T_INT, VLI_MAX_HOSTS, "use an integer 1..100000",
	 {NULL, NULL}},
	{"processors", VLI_HOST, VLI_T_INT, VLI_MAX_PROCS, "use an integer 1..1000000",
	 {NULL, NULL}},
	{"factor", VLI_HOST, VLI_T_NUM, 0, "use a number >= 0, e.g. 1.0", {NULL, NULL}},
	{"real", VLI_HOST, VLI_T_TEXT, 0, "use letters, digits, _ . : and -", {NULL, NULL}},
	{"init_delay", VLI_HOST, VLI_T_TIME, 0, VLI_USE_TIME, {NULL, NULL}},
	{"flops", VLI_HOST, VLI_T_NUM, 0, "use a number >= 0, e.g. 3.5e8", {NULL, NULL}},
	{"send_delay", VLI_LINK | VLI_HOST, VLI_T_TIME, 0, VLI_USE_TIME, {NULL, NULL}},
	{"recv_delay", VLI_LINK | VLI_HOST, VLI_T_TIME, 0, VLI_USE_TIME, {NULL, NULL}},
	{"trans_delay", VLI_LINK | VLI_HOST, VLI_T_TIME, 0, VLI_USE_TIME, {NULL, NULL}},
	{"trans_per_kib", VLI_LINK | VLI_HOST, VLI_T_PERKIB, 0, VLI_USE_PERKIB, {NULL, NULL}},
	{"bandwidth", VLI_LINK | VLI_HOST, VLI_T_RATE, 0, VLI_USE_RATE, {NULL, NULL}},
	{"send_model", VLI_LINK, VLI_T_PWL, 0, "use SIZE:TIME points, e.g. 0B:10us, 1KiB:20us",
	 {NULL, NULL}},
	{"trans_model", VLI_LINK, VLI_T_PWL, 0, "use SIZE:TIME points, e.g. 0B:10us, 1KiB:20us",
	 {NULL, NULL}},
	{"contention", VLI_LINK, VLI_T_CONT, 0, "use k:factor pairs, e.g. 1:1.0, 2:1.3, 4:2.0",
	 {NULL, NULL}},
	{"eager_limit", VLI_MPI, VLI_T_SIZE, 0, VLI_USE_SIZE, {NULL, NULL}},
	{"placement", VLI_MPI, VLI_T_WORD, 0, "use fill or roundrobin", {"fill", "roundrobin"}},
	{"ranks_per_node", VLI_MPI, VLI_T_INT, VLI_MAX_PROCS, "use an integer 1..1000000",
	 {NULL, NULL}},
	{"rank_hosts", VLI_MPI, VLI_T_HOSTLIST, 0, "use host names separated by commas, "
	 "e.g. node1, node2", {NULL, NULL}},
};

/* A parsed value. */
typedef struct vlcfg_val {
	int64_t i;
	double d;
	const char *s;
	vlcfg_pwl pwl;
	int ncont;
	int k[VLCFG_MAX_CONT];
	double f[VLCFG_MAX_CONT];
} vlcfg_val;

static int vlcfg_namechar(int c, int colon)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-' || (colon && c == ':');
}

/* Non-empty, shorter than size, letters, digits, _ . - (and : if colon). */
static int vlcfg_name_ok(const char *s, size_t size, int colon)
{
	size_t n = strlen(s), i;

	if (n == 0 || n >= size)
		return 0;
	for (i = 0; i < n; i++)
		if (!vlcfg_namechar((unsigned char)s[i], colon))
			return 0;
	return 1;
}

static int vlcfg_get_word(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (!strcmp(text, k->word[i])) {
			v->i = i;
			return 0;
		}
	}
	return vlcfg_fail(st, k->name, "\"%s\" is not valid (%s)", text, k->use);
}

static int vlcfg_get_text(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	if (k == &vlcfg_keys[VLI_REAL] && !vlcfg_name_ok(text, sizeof(st->tmpl.real), 1))
		return vlcfg_fail(st, k->name, "bad host name \"%s\" (%s, at most %d characters)",
				text, k->use, (int)sizeof(st->tmpl.real) - 1);
	if (strlen(text) >= VLCFG_PATH_MAX)
		return vlcfg_fail(st, k->name, "too long (at most %d characters)", VLCFG_PATH_MAX - 1);
	v->s = text;
	return 0;
}

static int vlcfg_get_int(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	long x;
	int rc = vlcfg_integer(text, 1, k->max, &x);

	if (rc != VLI_OK)
		return vlcfg_bad(st, k->name, text, rc, "whole number", k->use);
	v->i = x;
	return 0;
}

static int vlcfg_get_num(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	int rc = vlcfg_number(text, &v->d);

	return rc == VLI_OK ? 0 : vlcfg_bad(st, k->name, text, rc, "number", k->use);
}

static int vlcfg_get_time(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	int rc = vlcfg_time(text, k->type == VLI_T_PERKIB, &v->i);

	if (rc == VLI_OK && v->i < 0)
		rc = VLI_ENEG;
	return rc == VLI_OK ? 0 : vlcfg_bad(st, k->name, text, rc, "time", k->use);
}

/* bandwidth, stored as trans_per_kib_ps */
static int vlcfg_get_rate(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	double bps = 0;
	int rc = vlcfg_rate(text, &bps);

	if (rc == VLI_OK) {
		double ps = 1024.0 * 1e12 / bps;

		if (ps >= 9.2e18)
			rc = VLI_ERANGE;
		else
			v->i = llround(ps);
	}
	return rc == VLI_OK ? 0 : vlcfg_bad(st, k->name, text, rc, "rate", k->use);
}

/* Next "LEFT:RIGHT" entry of the comma-separated list at *cur, cut in place:
 * 1, or 0 at the end, or -1 on error. */
static int vlcfg_pair(vlcfg_ld *st, const vlcfg_key *k, char **cur, char **left, char **right)
{
	char *item = *cur, *comma, *colon;

	if (!item)
		return 0;
	comma = strchr(item, ',');
	*cur = comma ? comma + 1 : NULL;
	if (comma)
		*comma = '\0';
	item = vlcfg_trim(item);
	colon = strchr(item, ':');
	if (!*item)
		return vlcfg_fail(st, k->name, "empty entry between commas (%s)", k->use);
	if (!colon)
		return vlcfg_fail(st, k->name, "\"%s\" has no ':' (%s)", item, k->use);
	*colon = '\0';
	*left = vlcfg_trim(item);
	*right = vlcfg_trim(colon + 1);
	return 1;
}

static int vlcfg_point(vlcfg_ld *st, const vlcfg_key *k, vlcfg_pwl *p, const char *size,
		     const char *time, const char *prev)
{
	int64_t b = 0, ns = 0;
	int rc;

	if (p->n == VLCFG_MAX_BP)
		return vlcfg_fail(st, k->name, "too many points (at most %d)", VLCFG_MAX_BP);
	rc = vlcfg_size(size, &b);
	if (rc != VLI_OK)
		return vlcfg_bad(st, k->name, size, rc, "size", VLI_USE_SIZE);
	rc = vlcfg_time(time, 0, &ns);
	if (rc == VLI_OK && ns < 0)
		rc = VLI_ENEG;
	if (rc != VLI_OK)
		return vlcfg_bad(st, k->name, time, rc, "time", VLI_USE_TIME);
	if (p->n > 0 && b <= p->bytes[p->n - 1])
		return vlcfg_fail(st, k->name, "sizes must increase strictly (%s after %s)", size, prev);
	p->bytes[p->n] = b;
	p->ns[p->n] = ns;
	p->n++;
	return 0;
}

static int vlcfg_get_pwl(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	char buf[VLI_LINE], *cur = buf, *size, *time;
	const char *prev = "";
	int rc;

	snprintf(buf, sizeof(buf), "%s", text);
	v->pwl.n = 0;
	while ((rc = vlcfg_pair(st, k, &cur, &size, &time)) > 0) {
		if (vlcfg_point(st, k, &v->pwl, size, time, prev))
			return -1;
		prev = size;
	}
	return rc;
}

static int vlcfg_cont_entry(vlcfg_ld *st, const vlcfg_key *k, vlcfg_val *v, const char *ks,
			  const char *fs)
{
	long kv = 0;
	double f = 0;
	int rc;

	if (v->ncont == VLCFG_MAX_CONT)
		return vlcfg_fail(st, k->name, "too many entries (at most %d)", VLCFG_MAX_CONT);
	rc = vlcfg_integer(ks, 1, VLI_MAX_K, &kv);
	if (rc != VLI_OK)
		return vlcfg_bad(st, k->name, ks, rc, "whole number", "use an integer k 1..1000000");
	rc = vlcfg_number(fs, &f);
	if (rc != VLI_OK)
		return vlcfg_bad(st, k->name, fs, rc, "number", "use a factor >= 0, e.g. 1.3");
	if (v->ncont > 0 && kv <= v->k[v->ncont - 1])
		return vlcfg_fail(st, k->name, "k must increase strictly (%s after %d)", ks,
				v->k[v->ncont - 1]);
	v->k[v->ncont] = (int)kv;
	v->f[v->ncont] = f;
	v->ncont++;
	return 0;
}

static int vlcfg_get_cont(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	char buf[VLI_LINE], *cur = buf, *ks, *fs;
	int rc;

	snprintf(buf, sizeof(buf), "%s", text);
	v->ncont = 0;
	while ((rc = vlcfg_pair(st, k, &cur, &ks, &fs)) > 0)
		if (vlcfg_cont_entry(st, k, v, ks, fs))
			return -1;
	return rc;
}

static int vlcfg_get_size(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	int rc = vlcfg_size(text, &v->i);

	return rc == VLI_OK ? 0 : vlcfg_bad(st, k->name, text, rc, "size", k->use);
}

/* Next entry of the comma-separated list at *cur, cut in place and trimmed;
 * NULL at the end. */
static char *vlcfg_item(char **cur)
{
	char *item = *cur, *comma;

	if (!item)
		return NULL;
	comma = strchr(item, ',');
	*cur = comma ? comma + 1 : NULL;
	if (comma)
		*comma = '\0';
	return vlcfg_trim(item);
}

/* rank_hosts: only the form here; the names are looked up at the end of the file. */
static int vlcfg_get_hostlist(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	char buf[VLI_LINE], *cur = buf, *name;

	if (strlen(text) >= sizeof(buf))
		return vlcfg_fail(st, k->name, "too long (at most %d characters)", VLI_LINE - 1);
	snprintf(buf, sizeof(buf), "%s", text);
	while ((name = vlcfg_item(&cur)) != NULL) {
		if (!*name)
			return vlcfg_fail(st, k->name, "empty entry between commas (%s)", k->use);
		if (!vlcfg_name_ok(name, VLCFG_NAME_MAX, 0))
			return vlcfg_fail(st, k->name, "bad host name \"%s\" (use letters, digits, "
					"_ . and -, at most %d characters)", name, VLCFG_NAME_MAX - 1);
	}
	v->s = text;
	return 0;
}

static int vlcfg_value(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	if (!*text)
		return vlcfg_fail(st, k->name, "empty value (%s)", k->use);
	switch (k->type) {
	case VLI_T_WORD:
		return vlcfg_get_word(st, k, text, v);
	case VLI_T_TEXT:
		return vlcfg_get_text(st, k, text, v);
	case VLI_T_INT:
		return vlcfg_get_int(st, k, text, v);
	case VLI_T_NUM:
		return vlcfg_get_num(st, k, text, v);
	case VLI_T_RATE:
		return vlcfg_get_rate(st, k, text, v);
	case VLI_T_PWL:
		return vlcfg_get_pwl(st, k, text, v);
	case VLI_T_CONT:
		return vlcfg_get_cont(st, k, text, v);
	case VLI_T_SIZE:
		return vlcfg_get_size(st, k, text, v);
	case VLI_T_HOSTLIST:
		return vlcfg_get_hostlist(st, k, text, v);
	default:
		return vlcfg_get_time(st, k, text, v);
	}
}

/* Checks that involve other keys of the section. */
static int vlcfg_check(vlcfg_ld *st, const vlcfg_key *k, const vlcfg_val *v)
{
	char name[VLCFG_NAME_MAX + 24];
	int id = (int)(k - vlcfg_keys);
	int other = id == VLI_BW ? VLI_PERKIB : VLI_BW;

	if ((id == VLI_BW || id == VLI_PERKIB) && (st->seen & (1u << other)))
		return vlcfg_fail(st, k->name, "%s is also given in this section "
				"(give trans_per_kib or bandwidth, not both)", vlcfg_keys[other].name);
	if (id == VLI_COUNT &&
	    snprintf(name, sizeof(name), "%s%ld", st->prefix, (long)v->i) >= VLCFG_NAME_MAX)
		return vlcfg_fail(st, k->name, "host names such as \"%s\" would be longer than %d "
				"characters (use a shorter prefix)", name, VLCFG_NAME_MAX - 1);
	return 0;
}

static int vlcfg_unknown_key(vlcfg_ld *st, const char *name)
{
	char valid[512] = "";
	size_t n = 0;
	int i;

	for (i = 0; i < VLI_NKEYS; i++)
		if ((vlcfg_keys[i].in & VLI_IN(st->kind)) && n < sizeof(valid))
			n += (size_t)snprintf(valid + n, sizeof(valid) - n, "%s%s", n ? ", " : "",
					      vlcfg_keys[i].name);
	return vlcfg_fail(st, name, "unknown key (valid: %s)", valid);
}

/* The key called name in the current section, or NULL after an error. */
static const vlcfg_key *vlcfg_find_key(vlcfg_ld *st, const char *name)
{
	int i;

	if (st->kind == VLI_K_NONE) {
		vlcfg_fail(st, name, "key outside any section (put it under [simulation], "
			 "[network], [host NAME] ...)");
		return NULL;
	}
	if (!*name) {
		vlcfg_fail(st, NULL, "missing key name before = (use key = value)");
		return NULL;
	}
	for (i = 0; i < VLI_NKEYS; i++)
		if ((vlcfg_keys[i].in & VLI_IN(st->kind)) && !strcmp(name, vlcfg_keys[i].name))
			return &vlcfg_keys[i];
	vlcfg_unknown_key(st, name);
	return NULL;
}

/* [collectives]: the kind called name, or -1 after an error. */
static int vl_coll_kind(vlcfg_ld *st, const char *name)
{
	char valid[256] = "";
	size_t n = 0;
	int i;

	if (!*name)
		return vlcfg_fail(st, NULL, "missing key name before = (use key = value)");
	for (i = 0; i < VL_KIND_N; i++)
		if (!strcmp(name, vl_coll_kind_name(i)))
			return i;
	for (i = 0; i < VL_KIND_N && n < sizeof(valid); i++)
		n += (size_t)snprintf(valid + n, sizeof(valid) - n, "%s%s", i ? ", " : "",
				      vl_coll_kind_name(i));
	return vlcfg_fail(st, name, "unknown key (valid: %s)", valid);
}

/* [collectives] name = text: the algorithm of kind, or -1 after an error. */
static int vlcoll_alg(vlcfg_ld *st, int kind, const char *name, const char *text)
{
	char valid[256] = "";
	int alg = vlcoll_alg_parse(kind, text, valid, sizeof(valid));

	if (!*text)
		return vlcfg_fail(st, name, "empty value (valid: %s)", valid);
	if (alg < 0)
		return vlcfg_fail(st, name, "\"%s\" is not an algorithm for %s (valid: %s)", text,
				name, valid);
	return alg;
}

/* One "kind = algorithm" line of [collectives]; 0 or -1. */
static int vlcfg_coll_line(vlcfg_ld *st, const char *name, const char *text)
{
	int kind = vl_coll_kind(st, name), alg;

	if (kind < 0)
		return -1;
	alg = vlcoll_alg(st, kind, name, text);
	if (alg < 0)
		return -1;
	st->cfg->mpi.coll_alg[kind] = alg;
	return 0;
}

/* ---- storing values ---- */

static void vlcfg_store_sim(vlcfg_config *c, int id, const vlcfg_val *v)
{
	if (id == VLI_COMPUTE)
		c->compute_ignore = (int)v->i;
	else if (id == VLI_PLACEMENT)
		c->placement = (int)v->i;
	else
		snprintf(c->trace_dir, sizeof(c->trace_dir), "%s", v->s);
}

static void vlcfg_store_link(vlcfg_link *l, int id, const vlcfg_val *v)
{
	switch (id) {
	case VLI_SEND:
		l->send_delay = v->i;
		break;
	case VLI_RECV:
		l->recv_delay = v->i;
		break;
	case VLI_TRANS:
		l->trans_delay = v->i;
		break;
	case VLI_SEND_MODEL:
		l->send_model = v->pwl;
		break;
	case VLI_TRANS_MODEL:
		l->trans_model = v->pwl;
		break;
	case VLI_CONT:
		l->ncont = v->ncont;
		memcpy(l->cont_k, v->k, sizeof(l->cont_k));
		memcpy(l->cont_f, v->f, sizeof(l->cont_f));
		break;
	default: /* trans_per_kib, bandwidth */
		l->trans_per_kib_ps = v->i;
		break;
	}
}

static void vlcfg_store_host(vlcfg_host *h, int id, const vlcfg_val *v)
{
	switch (id) {
	case VLI_PROCS:
		h->procs = (int)v->i;
		break;
	case VLI_FACTOR:
		h->factor = v->d;
		break;
	case VLI_REAL:
		snprintf(h->real, sizeof(h->real), "%s", v->s);
		break;
	case VLI_INIT:
		h->init_delay = v->i;
		break;
	case VLI_FLOPS:
		h->flops = v->d;
		break;
	case VLI_SEND:
		h->send_delay = v->i;
		break;
	case VLI_RECV:
		h->recv_delay = v->i;
		break;
	case VLI_TRANS:
		h->trans_delay = v->i;
		break;
	default: /* trans_per_kib, bandwidth */
		h->trans_per_kib_ps = v->i;
		break;
	}
}

static void vlcfg_store_mpi(vlcfg_ld *st, int id, const vlcfg_val *v)
{
	vlcfg_mpi *m = &st->cfg->mpi;

	switch (id) {
	case VLI_EAGER:
		m->eager_limit = v->i;
		break;
	case VLI_MPI_PLACEMENT:
		m->placement = (int)v->i;
		break;
	case VLI_RANKS_PER_NODE:
		m->ranks_per_node = (int)v->i;
		break;
	default: /* rank_hosts: resolved by vlcfg_rank_hosts at the end of the file */
		snprintf(st->rank_hosts, sizeof(st->rank_hosts), "%s", v->s);
		st->rank_hosts_line = st->lineno;
		break;
	}
}

static void vlcfg_store(vlcfg_ld *st, const vlcfg_key *k, const vlcfg_val *v)
{
	vlcfg_config *c = st->cfg;
	int id = (int)(k - vlcfg_keys);

	switch (st->kind) {
	case VLI_K_SIM:
		vlcfg_store_sim(c, id, v);
		break;
	case VLI_K_NET:
		vlcfg_store_link(&c->intra, id, v);
		vlcfg_store_link(&c->inter, id, v);
		break;
	case VLI_K_INTRA:
		vlcfg_store_link(&c->intra, id, v);
		break;
	case VLI_K_INTER:
		vlcfg_store_link(&c->inter, id, v);
		break;
	case VLI_K_HOST:
		vlcfg_store_host(&c->hosts[c->nhosts - 1], id, v);
		break;
	case VLI_K_MPI:
		vlcfg_store_mpi(st, id, v);
		break;
	default:
		if (id == VLI_COUNT)
			st->count = (long)v->i;
		else
			vlcfg_store_host(&st->tmpl, id, v);
		break;
	}
}

/* inih's handler: one "name = value" line of the current section. */
static int vlcfg_handler(void *user, const char *section, const char *name, const char *value)
{
	vlcfg_ld *st = user;
	const vlcfg_key *k;
	vlcfg_val v;

	(void)section; /* we track sections in vlcfg_reader */
	if (st->failed)
		return 0;
	if (st->kind == VLI_K_COLL)
		return vlcfg_coll_line(st, name, value) == 0;
	memset(&v, 0, sizeof(v));
	k = vlcfg_find_key(st, name);
	if (!k || vlcfg_value(st, k, value, &v) || vlcfg_check(st, k, &v))
		return 0;
	vlcfg_store(st, k, &v);
	st->seen |= 1u << (k - vlcfg_keys);
	return 1;
}

/* ---- hosts ---- */

static void vlcfg_host_init(vlcfg_host *h)
{
	memset(h, 0, sizeof(*h));
	h->procs = 1;
	h->send_delay = VLCFG_UNSET;
	h->recv_delay = VLCFG_UNSET;
	h->trans_delay = VLCFG_UNSET;
	h->trans_per_kib_ps = VLCFG_UNSET;
}

static size_t vlcfg_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Index of the host called name, or -1. */
static int vlcfg_name_find(const vlcfg_ld *st, const char *name)
{
	size_t i, mask = st->nslots - 1;

	if (st->nslots == 0)
		return -1;
	for (i = vlcfg_hash(name) & mask; st->slot[i]; i = (i + 1) & mask)
		if (!strcmp(st->cfg->hosts[st->slot[i] - 1].name, name))
			return st->slot[i] - 1;
	return -1;
}

static void vlcfg_name_put(vlcfg_ld *st, int idx)
{
	size_t i, mask = st->nslots - 1;

	for (i = vlcfg_hash(st->cfg->hosts[idx].name) & mask; st->slot[i]; i = (i + 1) & mask)
		;
	st->slot[i] = idx + 1;
}

/* At least n slots, rehashing the hosts so far. */
static int vlcfg_name_grow(vlcfg_ld *st, size_t n)
{
	size_t cap = st->nslots ? st->nslots : 64;
	int i;

	while (cap < n)
		cap *= 2;
	if (cap == st->nslots)
		return 0;
	free(st->slot);
	st->slot = calloc(cap, sizeof(*st->slot));
	st->nslots = st->slot ? cap : 0;
	if (!st->slot)
		return vlcfg_nomem(st);
	for (i = 0; i < st->cfg->nhosts; i++)
		vlcfg_name_put(st, i);
	return 0;
}

/* Room for n hosts. */
static int vlcfg_reserve(vlcfg_ld *st, int n)
{
	vlcfg_config *c = st->cfg;
	int cap = st->hostcap ? st->hostcap * 2 : 16;
	void *p;

	if (n <= st->hostcap)
		return 0;
	if (cap < n)
		cap = n;
	p = realloc(c->hosts, (size_t)cap * sizeof(*c->hosts));
	if (!p)
		return vlcfg_nomem(st);
	c->hosts = p;
	p = realloc(st->hostline, (size_t)cap * sizeof(*st->hostline));
	if (!p)
		return vlcfg_nomem(st);
	st->hostline = p;
	st->hostcap = cap;
	return vlcfg_name_grow(st, (size_t)cap * 2);
}

static int vlcfg_host_add(vlcfg_ld *st, const vlcfg_host *h)
{
	vlcfg_config *c = st->cfg;
	int i = vlcfg_name_find(st, h->name);

	if (i >= 0)
		return vlcfg_fail_at(st, st->sect_line, NULL, "host \"%s\" is already defined at "
				   "line %d (host names must be unique)", h->name, st->hostline[i]);
	if (c->nhosts >= VLI_MAX_HOSTS)
		return vlcfg_fail_at(st, st->sect_line, NULL, "too many hosts (at most %d in one file)",
				   VLI_MAX_HOSTS);
	if (vlcfg_reserve(st, c->nhosts + 1))
		return -1;
	st->hostline[c->nhosts] = st->sect_line;
	c->hosts[c->nhosts] = *h;
	vlcfg_name_put(st, c->nhosts++);
	return 0;
}

/* The end of a section: expand a [hosts] template. */
static int vlcfg_section_end(vlcfg_ld *st)
{
	vlcfg_host h = st->tmpl;
	long i, n = st->cfg->nhosts + st->count;

	if (st->kind != VLI_K_HOSTS)
		return 0;
	st->kind = VLI_K_NONE;
	if (st->count == 0)
		return vlcfg_fail_at(st, st->sect_line, NULL, "count is missing "
				   "(add count = N, N an integer 1..%d)", VLI_MAX_HOSTS);
	if (vlcfg_reserve(st, (int)(n < VLI_MAX_HOSTS ? n : VLI_MAX_HOSTS)))
		return -1;
	for (i = 1; i <= st->count; i++) {
		if (snprintf(h.name, sizeof(h.name), "%s%ld", st->prefix, i) >= VLCFG_NAME_MAX)
			return vlcfg_fail_at(st, st->sect_line, NULL, "host name too long");
		if (vlcfg_host_add(st, &h))
			return -1;
	}
	return 0;
}

/* ---- sections ---- */

static int vlcfg_host_section(vlcfg_ld *st, const char *name)
{
	vlcfg_host h;

	if (!name)
		return vlcfg_fail(st, NULL, "missing host name (use [host NAME], NAME of "
				"letters, digits, _ . and -)");
	if (!vlcfg_name_ok(name, VLCFG_NAME_MAX, 0))
		return vlcfg_fail(st, NULL, "bad host name \"%s\" (use letters, digits, _ . and -, "
				"at most %d characters)", name, VLCFG_NAME_MAX - 1);
	vlcfg_host_init(&h);
	snprintf(h.name, sizeof(h.name), "%s", name);
	st->kind = VLI_K_HOST;
	return vlcfg_host_add(st, &h);
}

static int vlcfg_hosts_section(vlcfg_ld *st, const char *prefix)
{
	if (!prefix)
		return vlcfg_fail(st, NULL, "missing prefix (use [hosts PREFIX] with count = N)");
	if (!vlcfg_name_ok(prefix, VLCFG_NAME_MAX - 1, 0))
		return vlcfg_fail(st, NULL, "bad host name prefix \"%s\" (use letters, digits, "
				"_ . and -, at most %d characters)", prefix, VLCFG_NAME_MAX - 2);
	vlcfg_host_init(&st->tmpl);
	snprintf(st->prefix, sizeof(st->prefix), "%s", prefix);
	st->count = 0;
	st->kind = VLI_K_HOSTS;
	return 0;
}

/* Split s in place into at most max blank-separated words; max + 1 if more. */
static int vlcfg_words(char *s, char **w, int max)
{
	int n = 0;

	for (;;) {
		s += vlcfg_blanks(s);
		if (!*s)
			return n;
		if (n == max)
			return n + 1;
		w[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static int vlcfg_section_begin(vlcfg_ld *st, char **w, int nw)
{
	const char *a = nw > 0 ? w[0] : "", *b = nw == 2 ? w[1] : NULL;

	if (nw <= 2)
		snprintf(st->sect, sizeof(st->sect), "%s%s%s", a, b ? " " : "", b ? b : "");
	if (nw == 1 && !strcmp(a, "simulation"))
		st->kind = VLI_K_SIM;
	else if (nw == 1 && !strcmp(a, "network"))
		st->kind = VLI_K_NET;
	else if (nw == 2 && !strcmp(a, "network") && !strcmp(b, "intra"))
		st->kind = VLI_K_INTRA;
	else if (nw == 2 && !strcmp(a, "network") && !strcmp(b, "inter"))
		st->kind = VLI_K_INTER;
	else if (nw == 1 && !strcmp(a, "mpi"))
		st->kind = VLI_K_MPI;
	else if (nw == 1 && !strcmp(a, "collectives"))
		st->kind = VLI_K_COLL;
	else if (nw <= 2 && !strcmp(a, "host"))
		return vlcfg_host_section(st, b);
	else if (nw <= 2 && !strcmp(a, "hosts"))
		return vlcfg_hosts_section(st, b);
	else
		return vlcfg_fail(st, NULL, "unknown section (valid: " VLI_SECTIONS
				", host NAME, hosts PREFIX)");
	return 0;
}

/* A "[name]" line. */
static int vlcfg_section(vlcfg_ld *st, const char *line)
{
	char buf[VLI_LINE], *end, *w[2];

	if (vlcfg_section_end(st))
		return -1;
	st->kind = VLI_K_NONE;
	st->sect_line = st->lineno;
	st->seen = 0;
	st->sect[0] = '\0';
	snprintf(buf, sizeof(buf), "%s", line + 1);
	end = strchr(buf, ']');
	if (!end)
		return vlcfg_fail(st, NULL, "\"%s\" has no closing ] (use [name])", line);
	*end++ = '\0';
	snprintf(st->sect, sizeof(st->sect), "%s", vlcfg_trim(buf));
	end += vlcfg_blanks(end);
	if (*end && *end != ';')
		return vlcfg_fail(st, NULL, "text after ] (only a ; comment may follow)");
	return vlcfg_section_begin(st, w, vlcfg_words(buf, w, 2));
}

/* Would inih see "name = value" (or "name: value") in this line? */
static int vlcfg_is_pair(const char *s)
{
	int was_space = 0;

	for (; *s; s++) {
		if (*s == '=' || *s == ':')
			return 1;
		if (was_space && *s == ';')
			return 0;
		was_space = isspace((unsigned char)*s);
	}
	return 0;
}

/* Check one line before inih sees it. */
static int vlcfg_line(vlcfg_ld *st, const char *line)
{
	if (!*line || *line == ';' || *line == '#')
		return 0;
	if (*line == '[')
		return vlcfg_section(st, line);
	if (!vlcfg_is_pair(line))
		return vlcfg_fail(st, NULL, "\"%s\" is not a key = value line "
				"(use key = value, [section] or a ; comment)", line);
	return 0;
}

static int vlcfg_eol_next(FILE *f)
{
	int c = getc(f);

	return c == '\n' || c == EOF;
}

/* One line, without its end, into buf: 1, 0 at the end of the file, -1 on error. */
static int vlcfg_getline(vlcfg_ld *st, char *buf, int size)
{
	int c, len = 0;

	st->lineno++;
	for (;;) {
		c = getc(st->f);
		if (c == EOF || c == '\n')
			break;
		if (c == '\0')
			return vlcfg_fail(st, NULL, "the line contains a NUL byte (not a text file?)");
		if (len == size - 1) {
			if (c == '\r' && vlcfg_eol_next(st->f))
				break;
			return vlcfg_fail(st, NULL, "line too long (at most %d characters)", size - 1);
		}
		buf[len++] = (char)c;
	}
	if (c == EOF && ferror(st->f))
		st->read_errno = errno ? errno : EIO;
	buf[len] = '\0';
	return c == EOF && len == 0 ? 0 : 1;
}

/* inih's reader: the next line, checked, without its leading blanks (so inih
 * never takes a line for a continuation), or NULL to stop. */
static char *vlcfg_reader(char *str, int num, void *user)
{
	vlcfg_ld *st = user;
	const char *s = str;

	if (num > VLI_LINE)
		num = VLI_LINE;
	if (st->failed || num < 2 || vlcfg_getline(st, str, num) <= 0)
		return NULL;
	if (st->lineno == 1 && !strncmp(s, "\xEF\xBB\xBF", 3))
		s += 3;
	s += vlcfg_blanks(s);
	memmove(str, s, strlen(s) + 1);
	return vlcfg_line(st, str) ? NULL : str;
}

/* ---- [mpi] rank_hosts ---- */

/* "a, b, c" or "a, b, ..." : the first host names of the file, for a message. */
static void vlcfg_host_names(const vlcfg_config *c, char *buf, size_t size)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < c->nhosts; i++) {
		size_t need = strlen(c->hosts[i].name) + 2;

		if (n + need + 5 >= size || i == 8) {
			snprintf(buf + n, size - n, "%s...", n ? ", " : "");
			return;
		}
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", c->hosts[i].name);
	}
}

/* After the whole file: the host indices of rank_hosts, whose names may be of
 * hosts declared after [mpi]; an error names the line of the key. */
static int vlcfg_rank_hosts(vlcfg_ld *st)
{
	char buf[VLI_LINE], names[256], *cur = buf, *name;
	vlcfg_mpi *m = &st->cfg->mpi;
	int n = 1;
	const char *p;

	if (!st->rank_hosts_line)
		return 0;
	snprintf(buf, sizeof(buf), "%s", st->rank_hosts);
	for (p = buf; *p; p++)
		n += *p == ',';
	m->rank_hosts = malloc((size_t)n * sizeof(*m->rank_hosts));
	if (!m->rank_hosts)
		return vlcfg_nomem(st);
	snprintf(st->sect, sizeof(st->sect), "mpi");
	for (n = 0; (name = vlcfg_item(&cur)) != NULL; n++) {
		m->rank_hosts[n] = vlcfg_name_find(st, name);
		if (m->rank_hosts[n] >= 0)
			continue;
		vlcfg_host_names(st->cfg, names, sizeof(names));
		return vlcfg_fail_at(st, st->rank_hosts_line, "rank_hosts", "unknown host \"%s\" "
				   "(valid: the hosts of this file: %s)", name, names);
	}
	m->nrank_hosts = n;
	return 0;
}

static void vlcfg_mpi_init(vlcfg_mpi *m)
{
	memset(m, 0, sizeof(*m));
	m->eager_limit = VLI_EAGER_LIMIT;
	m->placement = VLCFG_PLACE_FILL;
}

/* ---- the public functions ---- */

static void vlcfg_parse(vlcfg_ld *st)
{
	int rc = ini_parse_stream(vlcfg_reader, st, vlcfg_handler, st);

	if (!st->failed && st->read_errno)
		vlcfg_fail_at(st, 0, NULL, "read error: %s", strerror(st->read_errno));
	if (!st->failed && rc != 0)
		vlcfg_fail_at(st, rc > 0 ? rc : 0, NULL, "%s",
			    rc == -2 ? "out of memory" : "syntax error");
	if (!st->failed)
		vlcfg_section_end(st);
	if (!st->failed && st->cfg->nhosts == 0)
		vlcfg_fail_at(st, 0, NULL, "no host defined "
			    "(add a [host NAME] or [hosts PREFIX] section)");
	if (!st->failed)
		vlcfg_rank_hosts(st);
}

int vlcfg_load(const char *path, vlcfg_config *cfg, char *err, size_t errlen)
{
	vlcfg_ld st;

	if (err && errlen > 0)
		err[0] = '\0';
	if (!cfg)
		return -1;
	memset(cfg, 0, sizeof(*cfg));
	vlcfg_mpi_init(&cfg->mpi);
	memset(&st, 0, sizeof(st));
	st.cfg = cfg;
	st.path = path ? path : "(null)";
	st.err = err;
	st.errlen = errlen;
	snprintf(cfg->path, sizeof(cfg->path), "%s", st.path);
	st.f = path ? fopen(path, "r") : NULL;
	if (!st.f) {
		vlcfg_fail_at(&st, 0, NULL, "cannot open: %s", strerror(path ? errno : EINVAL));
		vlcfg_free(cfg);
		return -1;
	}
	vlcfg_parse(&st);
	fclose(st.f);
	free(st.hostline);
	free(st.slot);
	if (!st.failed)
		return 0;
	vlcfg_free(cfg);
	return -1;
}

void vlcfg_default(vlcfg_config *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof(*cfg));
	vlcfg_mpi_init(&cfg->mpi);
	snprintf(cfg->path, sizeof(cfg->path), "(built-in)");
	cfg->hosts = malloc(sizeof(*cfg->hosts));
	if (!cfg->hosts)
		return;
	vlcfg_host_init(&cfg->hosts[0]);
	snprintf(cfg->hosts[0].name, sizeof(cfg->hosts[0].name), "localhost");
	cfg->nhosts = 1;
}

void vlcfg_free(vlcfg_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->hosts);
	free(cfg->mpi.rank_hosts);
	memset(cfg, 0, sizeof(*cfg));
}

/* Which section kind a run-time change names; -1 if none. */
static int vlcfg_set_kind(const vlcfg_config *cfg, const char *section, int *host)
{
	*host = -1;
	if (!strcmp(section, "simulation"))
		return VLI_K_SIM;
	if (!strcmp(section, "network"))
		return VLI_K_NET;
	if (!strcmp(section, "network intra"))
		return VLI_K_INTRA;
	if (!strcmp(section, "network inter"))
		return VLI_K_INTER;
	if (!strcmp(section, "mpi"))
		return VLI_K_MPI;
	if (!strcmp(section, "collectives"))
		return VLI_K_COLL;
	if (!strncmp(section, "host ", 5)) {
		*host = vlcfg_host_index(cfg, section + 5);
		return VLI_K_HOST;
	}
	return -1;
}

int vlcfg_set(vlcfg_config *cfg, const char *section, const char *key, const char *value,
		  char *err, size_t errlen)
{
	vlcfg_ld st;
	const vlcfg_key *k;
	vlcfg_val v;
	int host, id;

	memset(&st, 0, sizeof(st));
	memset(&v, 0, sizeof(v));
	st.cfg = cfg;
	st.err = err;
	st.errlen = errlen;
	st.path = "vl_set_param";
	if (!section || !key || !value)
		return vlcfg_fail_at(&st, 0, NULL, "section, key and value are required");
	snprintf(st.sect, sizeof(st.sect), "%s", section);
	st.kind = vlcfg_set_kind(cfg, section, &host);
	if (st.kind < 0)
		return vlcfg_fail_at(&st, 0, NULL, "[%s]: unknown section (valid: " VLI_SECTIONS
				   ", host NAME)", section);
	if (st.kind == VLI_K_HOST && host < 0)
		return vlcfg_fail_at(&st, 0, NULL, "[%s]: no such virtual host", section);
	if (st.kind == VLI_K_COLL)
		return vlcfg_coll_line(&st, key, value);
	k = vlcfg_find_key(&st, key);
	if (!k || vlcfg_value(&st, k, value, &v))
		return -1;
	id = (int)(k - vlcfg_keys);
	if (st.kind == VLI_K_SIM && id != VLI_COMPUTE)
		return vlcfg_fail_at(&st, 0, NULL, "[%s] %s: cannot be changed while the program runs "
				   "(valid: compute)", section, key);
	if (st.kind == VLI_K_MPI && id != VLI_EAGER)
		return vlcfg_fail_at(&st, 0, NULL, "[%s] %s: cannot be changed while the program "
				   "runs (valid: eager_limit)", section, key);
	if (st.kind == VLI_K_HOST && (id == VLI_PROCS || id == VLI_REAL))
		return vlcfg_fail_at(&st, 0, NULL, "[%s] %s: cannot be changed while the program runs",
				   section, key);
	if (st.kind == VLI_K_HOST)
		vlcfg_store_host(&cfg->hosts[host], id, &v);
	else
		vlcfg_store(&st, k, &v);
	return 0;
}

/* Slots of host h under placement = fill. */
static int64_t vlcfg_fill_slots(const vlcfg_config *cfg, int h)
{
	if (cfg->mpi.ranks_per_node > 0)
		return cfg->mpi.ranks_per_node;
	return cfg->hosts[h].procs > 0 ? cfg->hosts[h].procs : 1;
}

/* fill: the hosts in file order, wrapping around when all are full.  The
 * total is summed only when rank is beyond it. */
static int vlcfg_fill_host(const vlcfg_config *cfg, int rank)
{
	int64_t r = rank, total = 0;
	int h, pass;

	for (pass = 0; pass < 2; pass++) {
		for (h = 0; h < cfg->nhosts; h++) {
			int64_t s = vlcfg_fill_slots(cfg, h);

			if (r < s)
				return h;
			r -= s;
			total += s;
		}
		if (total <= 0)
			break;
		r = rank % total;
	}
	return 0;
}

int vlcfg_rank_host(const vlcfg_config *cfg, int rank)
{
	const vlcfg_mpi *m;

	if (!cfg || !cfg->hosts || cfg->nhosts <= 0 || rank < 0)
		return 0;
	m = &cfg->mpi;
	if (m->nrank_hosts > 0 && m->rank_hosts) {
		int h = m->rank_hosts[rank % m->nrank_hosts];

		return h >= 0 && h < cfg->nhosts ? h : 0;
	}
	if (m->placement == VLCFG_PLACE_ROUNDROBIN)
		return rank % cfg->nhosts;
	return vlcfg_fill_host(cfg, rank);
}

int vlcfg_host_index(const vlcfg_config *cfg, const char *name)
{
	int i;

	if (!cfg || !name)
		return -1;
	for (i = 0; i < cfg->nhosts; i++)
		if (!strcmp(cfg->hosts[i].name, name))
			return i;
	return -1;
}

/* ---- dump ---- */

/* The shortest %g that reads back as v. */
static const char *vlcfg_g(char *buf, size_t size, double v)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, size, "%.17g", v);
	return buf;
}

static void vlcfg_dump_unset(FILE *out, const char *key)
{
	fprintf(out, "; %s = (not set)\n", key);
}

static void vlcfg_dump_opt(FILE *out, const char *key, int64_t v, const char *unit)
{
	if (v == VLCFG_UNSET)
		vlcfg_dump_unset(out, key);
	else
		fprintf(out, "%s = %" PRId64 "%s\n", key, v, unit);
}

static void vlcfg_dump_pwl(FILE *out, const char *key, const vlcfg_pwl *p)
{
	int i, n = p->n;

	if (n > VLCFG_MAX_BP)
		n = VLCFG_MAX_BP;
	if (n <= 0) {
		vlcfg_dump_unset(out, key);
		return;
	}
	fprintf(out, "%s = ", key);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%" PRId64 "B:%" PRId64 "ns", i ? ", " : "", p->bytes[i], p->ns[i]);
	fputc('\n', out);
}

static void vlcfg_dump_cont(FILE *out, const vlcfg_link *l)
{
	char g[32];
	int i, n = l->ncont;

	if (n > VLCFG_MAX_CONT)
		n = VLCFG_MAX_CONT;
	if (n <= 0) {
		vlcfg_dump_unset(out, "contention");
		return;
	}
	fprintf(out, "contention = ");
	for (i = 0; i < n; i++)
		fprintf(out, "%s%d:%s", i ? ", " : "", l->cont_k[i], vlcfg_g(g, sizeof(g), l->cont_f[i]));
	fputc('\n', out);
}

static void vlcfg_dump_link(FILE *out, const char *name, const vlcfg_link *l)
{
	fprintf(out, "\n[network %s]\n", name);
	fprintf(out, "send_delay = %" PRId64 "ns\n", l->send_delay);
	fprintf(out, "recv_delay = %" PRId64 "ns\n", l->recv_delay);
	fprintf(out, "trans_delay = %" PRId64 "ns\n", l->trans_delay);
	fprintf(out, "trans_per_kib = %" PRId64 "ps\n", l->trans_per_kib_ps);
	vlcfg_dump_pwl(out, "send_model", &l->send_model);
	vlcfg_dump_pwl(out, "trans_model", &l->trans_model);
	vlcfg_dump_cont(out, l);
}

static void vlcfg_dump_host(FILE *out, const vlcfg_host *h)
{
	char g[32];

	fprintf(out, "\n[host %s]\n", h->name);
	fprintf(out, "processors = %d\n", h->procs);
	fprintf(out, "factor = %s\n", vlcfg_g(g, sizeof(g), h->factor));
	if (h->real[0])
		fprintf(out, "real = %s\n", h->real);
	else
		vlcfg_dump_unset(out, "real");
	fprintf(out, "init_delay = %" PRId64 "ns\n", h->init_delay);
	fprintf(out, "flops = %s\n", vlcfg_g(g, sizeof(g), h->flops));
	vlcfg_dump_opt(out, "send_delay", h->send_delay, "ns");
	vlcfg_dump_opt(out, "recv_delay", h->recv_delay, "ns");
	vlcfg_dump_opt(out, "trans_delay", h->trans_delay, "ns");
	vlcfg_dump_opt(out, "trans_per_kib", h->trans_per_kib_ps, "ps");
}

static void vlcfg_dump_mpi(FILE *out, const vlcfg_config *cfg)
{
	const vlcfg_mpi *m = &cfg->mpi;
	int i, n = 0;

	fprintf(out, "\n[mpi]\n");
	fprintf(out, "eager_limit = %" PRId64 "B\n", m->eager_limit);
	fprintf(out, "placement = %s\n",
		m->placement == VLCFG_PLACE_ROUNDROBIN ? "roundrobin" : "fill");
	if (m->ranks_per_node > 0)
		fprintf(out, "ranks_per_node = %d\n", m->ranks_per_node);
	else
		vlcfg_dump_unset(out, "ranks_per_node");
	for (i = 0; m->rank_hosts && i < m->nrank_hosts; i++) {
		int h = m->rank_hosts[i];

		if (h >= 0 && h < cfg->nhosts)
			fprintf(out, "%s%s", n++ ? ", " : "rank_hosts = ", cfg->hosts[h].name);
	}
	if (n)
		fputc('\n', out);
	else
		vlcfg_dump_unset(out, "rank_hosts");
}

/* Every kind with the algorithm that will be used ("default" resolved). */
static void vlcfg_dump_coll(FILE *out, const vlcfg_mpi *m)
{
	int k;

	fprintf(out, "\n[collectives]\n");
	for (k = 0; k < VL_KIND_N; k++) {
		int alg = m->coll_alg[k] ? m->coll_alg[k] : vlcoll_alg_default(k);

		fprintf(out, "%s = %s\n", vl_coll_kind_name(k), vlcoll_alg_name(alg));
	}
}

void vlcfg_dump(const vlcfg_config *cfg, FILE *out)
{
	int i;

	if (!cfg || !out)
		return;
	fprintf(out, "; VMConfig, canonical form: base units, every key, templates expanded\n");
	fprintf(out, "\n[simulation]\n");
	fprintf(out, "compute = %s\n", cfg->compute_ignore ? "ignore" : "measured");
	fprintf(out, "placement = %s\n",
		cfg->placement == VLCFG_PLACE_ROUNDROBIN ? "roundrobin" : "fill");
	if (cfg->trace_dir[0])
		fprintf(out, "trace_dir = %s\n", cfg->trace_dir);
	else
		vlcfg_dump_unset(out, "trace_dir");
	vlcfg_dump_link(out, "intra", &cfg->intra);
	vlcfg_dump_link(out, "inter", &cfg->inter);
	vlcfg_dump_mpi(out, cfg);
	vlcfg_dump_coll(out, &cfg->mpi);
	for (i = 0; i < cfg->nhosts; i++)
		vlcfg_dump_host(out, &cfg->hosts[i]);
}
