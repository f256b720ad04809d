/* vmconfig_keys.c - the keys of the VMConfig: which keys each section takes,
 * their types, ranges and "use ..." hints (one table, in the order of the
 * "valid:" lists), turning a value's text into a checked value with the
 * message for each way it can be wrong, the [collectives] lines, and storing
 * a value into the config.  inih's line handler (vlcfg_handler) and the
 * run-time change of vlcfg_set (vlcfg_set_key) both go through here.
 */
#include "vmconfig.h"
#include "vmconfig_int.h"
#include "vlayer/coll/coll.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- keys ---- */

#define VLCFG_MAX_PROCS 1000000
#define VLCFG_MAX_K 1000000    /* largest contention k */



#define VLCFG_USE_TIME "use a number with ns, us, ms or s, e.g. 50us"
#define VLCFG_USE_PERKIB "use a time per KiB with ps, ns, us, ms or s, e.g. 80us"
#define VLCFG_USE_SIZE "use bytes or a number with B, KiB, MiB, GiB, KB, MB or GB"
#define VLCFG_USE_RATE "use a number with B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, " \
	"GiB/s, bit/s, kbit/s, Mbit/s or Gbit/s, e.g. 100Mbit/s"

/* The message for a unit parser's error code rc. */
static int vlcfg_bad(vlcfg_ld *st, const char *key, const char *text, int rc,
		   const char *noun, const char *use)
{
	switch (rc) {
	case VLCFG_ENOUNIT:
		return vlcfg_fail(st, key, "\"%s\" has no %s unit (%s)", text, noun, use);
	case VLCFG_EUNIT:
		return vlcfg_fail(st, key, "\"%s\" has an unknown %s unit (%s)", text, noun, use);
	case VLCFG_ERANGE:
		return vlcfg_fail(st, key, "\"%s\" is out of range (%s)", text, use);
	case VLCFG_EWHOLE:
		return vlcfg_fail(st, key, "\"%s\" is not a whole number of bytes (%s)", text, use);
	case VLCFG_ENEG:
		return vlcfg_fail(st, key, "\"%s\" is negative (must be >= 0)", text);
	case VLCFG_EZERO:
		return vlcfg_fail(st, key, "\"%s\" is not > 0 (%s)", text, use);
	default:
		return vlcfg_fail(st, key, "\"%s\" is not a %s (%s)", text, noun, use);
	}
}

enum { VLCFG_T_WORD, VLCFG_T_TEXT, VLCFG_T_INT, VLCFG_T_NUM, VLCFG_T_TIME, VLCFG_T_PERKIB,
       VLCFG_T_RATE, VLCFG_T_PWL, VLCFG_T_CONT, VLCFG_T_SIZE, VLCFG_T_HOSTLIST, VLCFG_T_CPUS };

enum { VLCFG_COMPUTE, VLCFG_PLACEMENT, VLCFG_ORDERING, VLCFG_TRACE_DIR, VLCFG_DEADLOCK, VLCFG_CPUS, VLCFG_COUNT, VLCFG_PROCS, VLCFG_FACTOR,
       VLCFG_REAL, VLCFG_INIT, VLCFG_FLOPS, VLCFG_SEND, VLCFG_RECV, VLCFG_TRANS, VLCFG_PERKIB,
       VLCFG_BW, VLCFG_SEND_MODEL, VLCFG_TRANS_MODEL, VLCFG_CONT, VLCFG_EAGER, VLCFG_MPI_PLACEMENT,
       VLCFG_RANKS_PER_NODE, VLCFG_RANK_HOSTS, VLCFG_NKEYS };

#define VLCFG_IN(kind) (1u << (kind))
#define VLCFG_SIM VLCFG_IN(VLCFG_K_SIM)
#define VLCFG_LINK (VLCFG_IN(VLCFG_K_NET) | VLCFG_IN(VLCFG_K_INTRA) | VLCFG_IN(VLCFG_K_INTER))
#define VLCFG_HOST (VLCFG_IN(VLCFG_K_HOST) | VLCFG_IN(VLCFG_K_HOSTS))
#define VLCFG_MPI VLCFG_IN(VLCFG_K_MPI)

typedef struct vlcfg_key {
	const char *name;
	unsigned in;         /* VLCFG_IN() of the sections that take it */
	int type;
	long max;            /* VLCFG_T_INT: 1..max */
	const char *use;     /* what is valid */
	const char *word[2]; /* VLCFG_T_WORD: the values, stored as 0 and 1 */
} vlcfg_key;

/* In the order of the "valid:" lists and of the dump. */
_Static_assert(VLCFG_NKEYS <= 32 && VL_KIND_N <= 32,
	       "the keys and kinds given in a section are bits of an unsigned");

static const vlcfg_key vlcfg_keys[VLCFG_NKEYS] = {
	{"compute", VLCFG_SIM, VLCFG_T_WORD, 0, "use measured or ignore", {"measured", "ignore"}},
	{"placement", VLCFG_SIM, VLCFG_T_WORD, 0, "use fill or roundrobin", {"fill", "roundrobin"}},
	{"ordering", VLCFG_SIM, VLCFG_T_WORD, 0, "use virtual or real", {"virtual", "real"}},
	{"trace_dir", VLCFG_SIM, VLCFG_T_TEXT, 0, "use a directory", {NULL, NULL}},
	{"deadlock_after", VLCFG_SIM, VLCFG_T_TIME, 0, VLCFG_USE_TIME, {NULL, NULL}},
	{"cpus", VLCFG_SIM, VLCFG_T_CPUS, VLCFG_MAX_CPUS,
	 "use off, auto or a number of processors 1..64", {NULL, NULL}},
	{"count", VLCFG_IN(VLCFG_K_HOSTS), VLCFG_T_INT, VLCFG_MAX_HOSTS, "use an integer 1..100000",
	 {NULL, NULL}},
	{"processors", VLCFG_HOST, VLCFG_T_INT, VLCFG_MAX_PROCS, "use an integer 1..1000000",
	 {NULL, NULL}},
	{"factor", VLCFG_HOST, VLCFG_T_NUM, 0, "use a number >= 0, e.g. 1.0", {NULL, NULL}},
	{"real", VLCFG_HOST, VLCFG_T_TEXT, 0, "use letters, digits, _ . : and -", {NULL, NULL}},
	{"init_delay", VLCFG_HOST, VLCFG_T_TIME, 0, VLCFG_USE_TIME, {NULL, NULL}},
	{"flops", VLCFG_HOST, VLCFG_T_NUM, 0, "use a number >= 0, e.g. 3.5e8", {NULL, NULL}},
	{"send_delay", VLCFG_LINK | VLCFG_HOST, VLCFG_T_TIME, 0, VLCFG_USE_TIME, {NULL, NULL}},
	{"recv_delay", VLCFG_LINK | VLCFG_HOST, VLCFG_T_TIME, 0, VLCFG_USE_TIME, {NULL, NULL}},
	{"trans_delay", VLCFG_LINK | VLCFG_HOST, VLCFG_T_TIME, 0, VLCFG_USE_TIME, {NULL, NULL}},
	{"trans_per_kib", VLCFG_LINK | VLCFG_HOST, VLCFG_T_PERKIB, 0, VLCFG_USE_PERKIB,
	 {NULL, NULL}},
	{"bandwidth", VLCFG_LINK | VLCFG_HOST, VLCFG_T_RATE, 0, VLCFG_USE_RATE, {NULL, NULL}},
	{"send_model", VLCFG_LINK, VLCFG_T_PWL, 0, "use SIZE:TIME points, e.g. 0B:10us, 1KiB:20us",
	 {NULL, NULL}},
	{"trans_model", VLCFG_LINK, VLCFG_T_PWL, 0, "use SIZE:TIME points, e.g. 0B:10us, 1KiB:20us",
	 {NULL, NULL}},
	{"contention", VLCFG_LINK, VLCFG_T_CONT, 0, "use k:factor pairs, e.g. 1:1.0, 2:1.3, 4:2.0",
	 {NULL, NULL}},
	{"eager_limit", VLCFG_MPI, VLCFG_T_SIZE, 0, VLCFG_USE_SIZE, {NULL, NULL}},
	{"placement", VLCFG_MPI, VLCFG_T_WORD, 0, "use fill or roundrobin", {"fill", "roundrobin"}},
	{"ranks_per_node", VLCFG_MPI, VLCFG_T_INT, VLCFG_MAX_PROCS, "use an integer 1..1000000",
	 {NULL, NULL}},
	{"rank_hosts", VLCFG_MPI, VLCFG_T_HOSTLIST, 0, "use host names separated by commas, "
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
int vlcfg_name_ok(const char *s, size_t size, int colon)
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
	if (k == &vlcfg_keys[VLCFG_REAL] && !vlcfg_name_ok(text, sizeof(st->tmpl.real), 1))
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

	if (rc != VLCFG_OK)
		return vlcfg_bad(st, k->name, text, rc, "whole number", k->use);
	v->i = x;
	return 0;
}

/* cpus: off (0), auto (-1) or 1..max. */
static int vlcfg_get_cpus(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	long x;
	int rc;

	if (!strcmp(text, "off") || !strcmp(text, "auto")) {
		v->i = text[0] == 'o' ? 0 : -1;
		return 0;
	}
	rc = vlcfg_integer(text, 1, k->max, &x);
	if (rc != VLCFG_OK)
		return vlcfg_bad(st, k->name, text, rc, "number of processors", k->use);
	v->i = x;
	return 0;
}

static int vlcfg_get_num(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	int rc = vlcfg_number(text, &v->d);

	return rc == VLCFG_OK ? 0 : vlcfg_bad(st, k->name, text, rc, "number", k->use);
}

static int vlcfg_get_time(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	int rc = vlcfg_time(text, k->type == VLCFG_T_PERKIB, &v->i);

	if (rc == VLCFG_OK && v->i < 0)
		rc = VLCFG_ENEG;
	return rc == VLCFG_OK ? 0 : vlcfg_bad(st, k->name, text, rc, "time", k->use);
}

/* bandwidth, stored as trans_per_kib_ps */
static int vlcfg_get_rate(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	double bps = 0;
	int rc = vlcfg_rate(text, &bps);

	if (rc == VLCFG_OK) {
		double ps = 1024.0 * 1e12 / bps;

		if (ps >= 9.2e18)
			rc = VLCFG_ERANGE;
		else
			v->i = llround(ps);
	}
	return rc == VLCFG_OK ? 0 : vlcfg_bad(st, k->name, text, rc, "rate", k->use);
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
	if (rc != VLCFG_OK)
		return vlcfg_bad(st, k->name, size, rc, "size", VLCFG_USE_SIZE);
	rc = vlcfg_time(time, 0, &ns);
	if (rc == VLCFG_OK && ns < 0)
		rc = VLCFG_ENEG;
	if (rc != VLCFG_OK)
		return vlcfg_bad(st, k->name, time, rc, "time", VLCFG_USE_TIME);
	if (p->n > 0 && b <= p->bytes[p->n - 1])
		return vlcfg_fail(st, k->name, "sizes must increase strictly (%s after %s)", size, prev);
	p->bytes[p->n] = b;
	p->ns[p->n] = ns;
	p->n++;
	return 0;
}

static int vlcfg_get_pwl(vlcfg_ld *st, const vlcfg_key *k, const char *text, vlcfg_val *v)
{
	char buf[VLCFG_LINE], *cur = buf, *size, *time;
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
	rc = vlcfg_integer(ks, 1, VLCFG_MAX_K, &kv);
	if (rc != VLCFG_OK)
		return vlcfg_bad(st, k->name, ks, rc, "whole number", "use an integer k 1..1000000");
	rc = vlcfg_number(fs, &f);
	if (rc != VLCFG_OK)
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
	char buf[VLCFG_LINE], *cur = buf, *ks, *fs;
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

	return rc == VLCFG_OK ? 0 : vlcfg_bad(st, k->name, text, rc, "size", k->use);
}

/* Next entry of the comma-separated list at *cur, cut in place and trimmed;
 * NULL at the end. */
char *vlcfg_item(char **cur)
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
	char buf[VLCFG_LINE], *cur = buf, *name;

	if (strlen(text) >= sizeof(buf))
		return vlcfg_fail(st, k->name, "too long (at most %d characters)", VLCFG_LINE - 1);
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
	case VLCFG_T_WORD:
		return vlcfg_get_word(st, k, text, v);
	case VLCFG_T_TEXT:
		return vlcfg_get_text(st, k, text, v);
	case VLCFG_T_INT:
		return vlcfg_get_int(st, k, text, v);
	case VLCFG_T_NUM:
		return vlcfg_get_num(st, k, text, v);
	case VLCFG_T_RATE:
		return vlcfg_get_rate(st, k, text, v);
	case VLCFG_T_PWL:
		return vlcfg_get_pwl(st, k, text, v);
	case VLCFG_T_CONT:
		return vlcfg_get_cont(st, k, text, v);
	case VLCFG_T_SIZE:
		return vlcfg_get_size(st, k, text, v);
	case VLCFG_T_HOSTLIST:
		return vlcfg_get_hostlist(st, k, text, v);
	case VLCFG_T_CPUS:
		return vlcfg_get_cpus(st, k, text, v);
	default:
		return vlcfg_get_time(st, k, text, v);
	}
}

/* Checks that involve other keys of the section. */
/* The largest values a run can add up without its virtual clock (int64 ns,
 * VLI_TIME_MAX about 73 years) overflowing: per time value 10^6 s (11.6 days),
 * per KiB 2048 s (a bandwidth of at least 0.5 B/s: a 1 GiB message then takes
 * 68 years), factors 10^6.  Beyond, a run stops with a named error
 * (vli_check_advance). */
#define VLCFG_TIME_LIMIT 1000000000000000LL
#define VLCFG_PERKIB_LIMIT 2048000000000000LL /* ps */
#define VLCFG_FACTOR_LIMIT 1e6

/* A value that parsed but could overflow a run: 0, or -1 after an error. */
static int vlcfg_limit(vlcfg_ld *st, const vlcfg_key *k, const vlcfg_val *v)
{
	int id = (int)(k - vlcfg_keys), i, n = v->pwl.n;

	switch (k->type) {
	case VLCFG_T_TIME:
		if (v->i > VLCFG_TIME_LIMIT)
			return vlcfg_fail(st, k->name, "%.9f s is too large for a run's virtual clock "
					"(at most 1000000s, 11.6 days)", (double)v->i / 1e9);
		break;
	case VLCFG_T_RATE:
		if (v->i > VLCFG_PERKIB_LIMIT)
			return vlcfg_fail(st, k->name, "%.6g B/s is too slow for a run's virtual clock "
					"(at least 0.5B/s)", 1024e12 / (double)v->i);
		break;
	case VLCFG_T_PERKIB:
		if (v->i > VLCFG_PERKIB_LIMIT)
			return vlcfg_fail(st, k->name, "%.3f s per KiB is too slow for a run's virtual "
					"clock (at most 2048 s per KiB)",
					(double)v->i / 1e12);
		break;
	case VLCFG_T_NUM:
		if (id == VLCFG_FACTOR && v->d > VLCFG_FACTOR_LIMIT)
			return vlcfg_fail(st, k->name, "%g is too large for a run's virtual clock "
					"(at most 1e6)", v->d);
		if (id == VLCFG_FLOPS && v->d > 0 && v->d < 1)
			return vlcfg_fail(st, k->name, "%g flop/s is too slow for a run's virtual clock "
					"(use 0 for unknown, or at least 1)", v->d);
		break;
	case VLCFG_T_PWL:
		for (i = 0; i < n; i++)
			if (v->pwl.ns[i] > VLCFG_TIME_LIMIT)
				return vlcfg_fail(st, k->name, "%.9f s is too large for a run's virtual "
						"clock (at most 1000000s, 11.6 days)",
						(double)v->pwl.ns[i] / 1e9);
		/* beyond the last point the last segment goes on */
		if (n >= 2 && (double)(v->pwl.ns[n - 1] - v->pwl.ns[n - 2]) * 1024e3 >
				      (double)VLCFG_PERKIB_LIMIT *
					      (double)(v->pwl.bytes[n - 1] - v->pwl.bytes[n - 2]))
			return vlcfg_fail(st, k->name, "the last segment rises faster than a run's "
					"virtual clock allows (at most 2048 s per KiB)");
		break;
	case VLCFG_T_CONT:
		for (i = 0; i < v->ncont; i++)
			if (v->f[i] > VLCFG_FACTOR_LIMIT)
				return vlcfg_fail(st, k->name, "factor %g is too large for a run's virtual "
						"clock (at most 1e6)", v->f[i]);
		break;
	}
	return 0;
}

static int vlcfg_check(vlcfg_ld *st, const vlcfg_key *k, const vlcfg_val *v)
{
	char name[VLCFG_NAME_MAX + 24];
	int id = (int)(k - vlcfg_keys);
	int other = id == VLCFG_BW ? VLCFG_PERKIB : VLCFG_BW;

	if ((id == VLCFG_BW || id == VLCFG_PERKIB) && (st->seen & (1u << other)))
		return vlcfg_fail(st, k->name, "%s is also given in this section "
				"(give trans_per_kib or bandwidth, not both)", vlcfg_keys[other].name);
	if (vlcfg_limit(st, k, v))
		return -1;
	if (id == VLCFG_COUNT &&
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

	for (i = 0; i < VLCFG_NKEYS; i++)
		if ((vlcfg_keys[i].in & VLCFG_IN(st->kind)) && n < sizeof(valid))
			n += (size_t)snprintf(valid + n, sizeof(valid) - n, "%s%s", n ? ", " : "",
					      vlcfg_keys[i].name);
	return vlcfg_fail(st, name, "unknown key (valid: %s)", valid);
}

/* The key called name in the current section, or NULL after an error. */
static const vlcfg_key *vlcfg_find_key(vlcfg_ld *st, const char *name)
{
	int i;

	if (st->kind == VLCFG_K_NONE) {
		vlcfg_fail(st, name, "key outside any section (put it under [simulation], "
			 "[network], [host NAME] ...)");
		return NULL;
	}
	if (!*name) {
		vlcfg_fail(st, NULL, "missing key name before = (use key = value)");
		return NULL;
	}
	for (i = 0; i < VLCFG_NKEYS; i++)
		if ((vlcfg_keys[i].in & VLCFG_IN(st->kind)) && !strcmp(name, vlcfg_keys[i].name))
			return &vlcfg_keys[i];
	vlcfg_unknown_key(st, name);
	return NULL;
}

/* [collectives]: the kind called name, or -1 after an error. */
static int vlcfg_coll_kind(vlcfg_ld *st, const char *name)
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
	return vlcfg_fail(st, name, "unknown key (valid: %s, selection)", valid);
}

/* [collectives] name = text: the algorithm of kind, or -1 after an error. */
static int vlcfg_coll_alg(vlcfg_ld *st, int kind, const char *name, const char *text)
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

/* [collectives] selection = text: how "default" is chosen; 0 or -1. */
static int vlcfg_coll_select(vlcfg_ld *st, const char *name, const char *text)
{
	int sel = vlcoll_selection_parse(text);

	if (!*text)
		return vlcfg_fail(st, name, "empty value (valid: fixed, openmpi)");
	if (sel < 0)
		return vlcfg_fail(st, name, "\"%s\" is not a selection (valid: fixed, openmpi)",
				  text);
	st->cfg->mpi.coll_select = sel;
	return 0;
}

/* One "kind = algorithm" or "selection = ..." line of [collectives]; 0 or -1. */
static int vlcfg_coll_line(vlcfg_ld *st, const char *name, const char *text)
{
	int kind, alg;

	if (!strcmp(name, VLCFG_COLL_SELECTION))
		return vlcfg_coll_select(st, name, text);
	kind = vlcfg_coll_kind(st, name);

	if (kind < 0)
		return -1;
	alg = vlcfg_coll_alg(st, kind, name, text);
	if (alg < 0)
		return -1;
	st->cfg->mpi.coll_alg[kind] = alg;
	return 0;
}

/* ---- storing values ---- */

static void vlcfg_store_sim(vlcfg_config *c, int id, const vlcfg_val *v)
{
	if (id == VLCFG_COMPUTE)
		c->compute_ignore = (int)v->i;
	else if (id == VLCFG_PLACEMENT)
		c->placement = (int)v->i;
	else if (id == VLCFG_ORDERING)
		c->ordering_real = (int)v->i;
	else if (id == VLCFG_DEADLOCK)
		c->deadlock_after = v->i;
	else if (id == VLCFG_CPUS)
		c->cpus = (int)v->i;
	else
		snprintf(c->trace_dir, sizeof(c->trace_dir), "%s", v->s);
}

static void vlcfg_store_link(vlcfg_link *l, int id, const vlcfg_val *v)
{
	switch (id) {
	case VLCFG_SEND:
		l->send_delay = v->i;
		break;
	case VLCFG_RECV:
		l->recv_delay = v->i;
		break;
	case VLCFG_TRANS:
		l->trans_delay = v->i;
		break;
	case VLCFG_SEND_MODEL:
		l->send_model = v->pwl;
		break;
	case VLCFG_TRANS_MODEL:
		l->trans_model = v->pwl;
		break;
	case VLCFG_CONT:
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
	case VLCFG_PROCS:
		h->procs = (int)v->i;
		break;
	case VLCFG_FACTOR:
		h->factor = v->d;
		break;
	case VLCFG_REAL:
		snprintf(h->real, sizeof(h->real), "%s", v->s);
		break;
	case VLCFG_INIT:
		h->init_delay = v->i;
		break;
	case VLCFG_FLOPS:
		h->flops = v->d;
		break;
	case VLCFG_SEND:
		h->send_delay = v->i;
		break;
	case VLCFG_RECV:
		h->recv_delay = v->i;
		break;
	case VLCFG_TRANS:
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
	case VLCFG_EAGER:
		m->eager_limit = v->i;
		break;
	case VLCFG_MPI_PLACEMENT:
		m->placement = (int)v->i;
		break;
	case VLCFG_RANKS_PER_NODE:
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
	case VLCFG_K_SIM:
		vlcfg_store_sim(c, id, v);
		break;
	case VLCFG_K_NET:
		vlcfg_store_link(&c->intra, id, v);
		vlcfg_store_link(&c->inter, id, v);
		break;
	case VLCFG_K_INTRA:
		vlcfg_store_link(&c->intra, id, v);
		break;
	case VLCFG_K_INTER:
		vlcfg_store_link(&c->inter, id, v);
		break;
	case VLCFG_K_HOST:
		vlcfg_store_host(&c->hosts[c->nhosts - 1], id, v);
		break;
	case VLCFG_K_MPI:
		vlcfg_store_mpi(st, id, v);
		break;
	default:
		if (id == VLCFG_COUNT)
			st->count = (long)v->i;
		else
			vlcfg_store_host(&st->tmpl, id, v);
		break;
	}
}

/* A key given a second time in one section: an error naming both lines
 * (which one was meant cannot be known).  Returns 0 for inih. */
static int vlcfg_twice(vlcfg_ld *st, const char *name, int first)
{
	vlcfg_fail(st, name, "given twice in this section (first at line %d); give it once", first);
	return 0;
}

/* inih's handler: one "name = value" line of the current section. */
int vlcfg_handler(void *user, const char *section, const char *name, const char *value)
{
	vlcfg_ld *st = user;
	const vlcfg_key *k;
	vlcfg_val v;
	int id;

	(void)section; /* we track sections in vlcfg_reader */
	if (st->failed)
		return 0;
	if (st->kind == VLCFG_K_TOPO)
		return vlcfg_topo_line(st, name, value) == 0;
	if (st->kind == VLCFG_K_COLL && !strcmp(name, VLCFG_COLL_SELECTION)) {
		if (st->coll_select_line)
			return vlcfg_twice(st, name, st->coll_select_line);
		st->coll_select_line = st->lineno;
		return vlcfg_coll_line(st, name, value) == 0;
	}
	if (st->kind == VLCFG_K_COLL) {
		int kind = vlcfg_coll_kind(st, name);

		if (kind < 0)
			return 0;
		if (st->coll_seen & (1u << kind))
			return vlcfg_twice(st, name, st->coll_keyline[kind]);
		st->coll_seen |= 1u << kind;
		st->coll_keyline[kind] = st->lineno;
		return vlcfg_coll_line(st, name, value) == 0;
	}
	memset(&v, 0, sizeof(v));
	k = vlcfg_find_key(st, name);
	if (!k)
		return 0;
	id = (int)(k - vlcfg_keys);
	if (st->seen & (1u << id))
		return vlcfg_twice(st, name, st->keyline[id]);
	if (vlcfg_value(st, k, value, &v) || vlcfg_check(st, k, &v))
		return 0;
	vlcfg_store(st, k, &v);
	st->seen |= 1u << id;
	st->keyline[id] = st->lineno;
	return 1;
}

/* ---- run-time changes ---- */

int vlcfg_set_key(vlcfg_ld *st, const char *section, int host, const char *key,
		  const char *value)
{
	const vlcfg_key *k;
	vlcfg_val v;
	int id;

	memset(&v, 0, sizeof(v));
	if (st->kind == VLCFG_K_COLL)
		return vlcfg_coll_line(st, key, value);
	k = vlcfg_find_key(st, key);
	if (!k || vlcfg_value(st, k, value, &v) || vlcfg_limit(st, k, &v))
		return -1;
	id = (int)(k - vlcfg_keys);
	if (st->kind == VLCFG_K_SIM && id != VLCFG_COMPUTE)
		return vlcfg_fail_at(st, 0, NULL, "[%s] %s: cannot be changed while the program runs "
				   "(valid: compute)", section, key);
	if (st->kind == VLCFG_K_MPI && id != VLCFG_EAGER)
		return vlcfg_fail_at(st, 0, NULL, "[%s] %s: cannot be changed while the program "
				   "runs (valid: eager_limit)", section, key);
	if (st->kind == VLCFG_K_HOST && (id == VLCFG_PROCS || id == VLCFG_REAL))
		return vlcfg_fail_at(st, 0, NULL, "[%s] %s: cannot be changed while the program runs",
				   section, key);
	if (st->kind == VLCFG_K_HOST)
		vlcfg_store_host(&st->cfg->hosts[host], id, &v);
	else
		vlcfg_store(st, k, &v);
	return 0;
}
