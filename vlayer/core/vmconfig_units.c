/* vmconfig_units.c - numbers and units of the VMConfig: times (ns us ms s,
 * and ps for trans_per_kib), sizes (B KiB MiB GiB KB MB GB) and rates (B/s ...
 * Gbit/s), read exactly in decimal and independent of the locale, plus the
 * plain numbers and integers of other keys and the blank-trimming helpers of
 * the loader.  The public vlcfg_parse_time/size/rate are thin wrappers; the
 * other parsers return a VLCFG_OK/VLCFG_E* code that vmconfig_keys.c turns
 * into a message.
 */
#include "vmconfig.h"
#include "vmconfig_int.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

size_t vlcfg_blanks(const char *s)
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

char *vlcfg_trim(char *s)
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
		return VLCFG_ENUM;
	p += vlcfg_blanks(p);
	n = vlcfg_trimlen(p);
	if (n == 0)
		return VLCFG_ENOUNIT;
	for (; units->name; units++) {
		if (strlen(units->name) == n && !memcmp(units->name, p, n)) {
			*u = units;
			return VLCFG_OK;
		}
	}
	return VLCFG_EUNIT;
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
		return VLCFG_OK;
	}
	for (e += d->e; e < 0; e++) { /* divide by 10: by 5, and by 2 */
		if (m % 5 != 0)
			return VLCFG_EWHOLE;
		m /= 5;
		if (twos > 0)
			twos--;
		else if (m % 2 != 0)
			return VLCFG_EWHOLE;
		else
			m /= 2;
	}
	for (; e > 0; e--)
		if (vlcfg_mul(&m, 10))
			return VLCFG_ERANGE;
	for (; twos > 0; twos--)
		if (vlcfg_mul(&m, 2))
			return VLCFG_ERANGE;
	*out = m;
	return d->inexact ? VLCFG_EWHOLE : VLCFG_OK;
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

int vlcfg_time(const char *text, int ps, int64_t *out)
{
	const vlcfg_unit *u;
	vlcfg_dec d;
	uint64_t v;
	int rc = vlcfg_split(text, vlcfg_time_units + (ps ? 0 : 1), &d, &u);

	if (rc != VLCFG_OK)
		return rc;
	if (vlcfg_round(d.m, d.e + u->exp10 + (ps ? 3 : 0), &v) || v > INT64_MAX)
		return VLCFG_ERANGE;
	*out = d.neg ? -(int64_t)v : (int64_t)v;
	return VLCFG_OK;
}

int vlcfg_size(const char *text, int64_t *out)
{
	const vlcfg_unit *u;
	vlcfg_dec d;
	uint64_t v;
	int rc = vlcfg_split(text, vlcfg_size_units, &d, &u);

	if (rc == VLCFG_ENOUNIT) {
		rc = VLCFG_OK;
		u = &vlcfg_size_units[0];
	}
	if (rc != VLCFG_OK)
		return rc;
	if (d.neg && d.m != 0)
		return VLCFG_ENEG;
	rc = vlcfg_exact(&d, u->exp10, u->exp2, &v);
	if (rc == VLCFG_OK && v > INT64_MAX)
		rc = VLCFG_ERANGE;
	if (rc == VLCFG_OK)
		*out = (int64_t)v;
	return rc;
}

int vlcfg_rate(const char *text, double *out)
{
	const vlcfg_unit *u;
	vlcfg_dec d;
	double v;
	int rc = vlcfg_split(text, vlcfg_rate_units, &d, &u);

	if (rc != VLCFG_OK)
		return rc;
	v = ldexp(vlcfg_double(&d, u->exp10), u->exp2);
	if (!isfinite(v))
		return VLCFG_ERANGE;
	if (v <= 0)
		return VLCFG_EZERO;
	*out = v;
	return VLCFG_OK;
}

/* A plain number >= 0 (factor, flops). */
int vlcfg_number(const char *text, double *out)
{
	vlcfg_dec d;
	const char *p = vlcfg_scan(text + vlcfg_blanks(text), &d);

	if (!p || p[vlcfg_blanks(p)])
		return VLCFG_ENUM;
	if (d.neg && d.m != 0)
		return VLCFG_ENEG;
	*out = vlcfg_double(&d, 0);
	return isfinite(*out) ? VLCFG_OK : VLCFG_ERANGE;
}

/* Digits only, in lo..hi. */
int vlcfg_integer(const char *text, long lo, long hi, long *out)
{
	const char *p = text + vlcfg_blanks(text);
	long v = 0;

	if (!isdigit((unsigned char)*p))
		return VLCFG_ENUM;
	for (; isdigit((unsigned char)*p); p++)
		if (v <= hi)
			v = v * 10 + (*p - '0');
	if (p[vlcfg_blanks(p)])
		return VLCFG_ENUM;
	if (v < lo || v > hi)
		return VLCFG_ERANGE;
	*out = v;
	return VLCFG_OK;
}

int vlcfg_parse_time(const char *text, int64_t *ns)
{
	if (!text || !ns)
		return -1;
	return vlcfg_time(text, 0, ns) == VLCFG_OK ? 0 : -1;
}

int vlcfg_parse_size(const char *text, int64_t *bytes)
{
	if (!text || !bytes)
		return -1;
	return vlcfg_size(text, bytes) == VLCFG_OK ? 0 : -1;
}

int vlcfg_parse_rate(const char *text, double *bytes_per_s)
{
	if (!text || !bytes_per_s)
		return -1;
	return vlcfg_rate(text, bytes_per_s) == VLCFG_OK ? 0 : -1;
}
