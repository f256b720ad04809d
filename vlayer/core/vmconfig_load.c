/* vmconfig_load.c - loading a VMConfig file, and the public functions on a
 * loaded config.  inih splits "key = value" lines and calls vlcfg_handler
 * (vmconfig_keys.c).  Our line reader in front of it counts lines, rejects
 * overlong lines and NUL bytes, and reads section headers itself, because the
 * handler is told neither line numbers nor section starts.  Hosts are kept in
 * file order with a hash of their names; [hosts PREFIX] templates are expanded
 * at the end of their section.  [mpi] rank_hosts may name hosts declared
 * further down, so its names are looked up after the whole file.  Syntax and
 * messages: docs/vmconfig.md.
 */
#include "vmconfig.h"
#include "vmconfig_int.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VLCFG_EAGER_LIMIT 65536 /* [mpi] eager_limit default, bytes */

#define VLCFG_SET_SECTIONS "simulation, network, network intra, network inter, mpi, collectives"
#define VLCFG_SECTIONS VLCFG_SET_SECTIONS ", topology"

static int vlcfg_nomem(vlcfg_ld *st)
{
	return vlcfg_fail_at(st, 0, NULL, "out of memory");
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
	if (c->nhosts >= VLCFG_MAX_HOSTS)
		return vlcfg_fail_at(st, st->sect_line, NULL, "too many hosts (at most %d in one file)",
				   VLCFG_MAX_HOSTS);
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

	if (st->kind != VLCFG_K_HOSTS)
		return 0;
	st->kind = VLCFG_K_NONE;
	if (st->count == 0)
		return vlcfg_fail_at(st, st->sect_line, NULL, "count is missing "
				   "(add count = N, N an integer 1..%d)", VLCFG_MAX_HOSTS);
	if (vlcfg_reserve(st, (int)(n < VLCFG_MAX_HOSTS ? n : VLCFG_MAX_HOSTS)))
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
	st->kind = VLCFG_K_HOST;
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
	st->kind = VLCFG_K_HOSTS;
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
		st->kind = VLCFG_K_SIM;
	else if (nw == 1 && !strcmp(a, "network"))
		st->kind = VLCFG_K_NET;
	else if (nw == 2 && !strcmp(a, "network") && !strcmp(b, "intra"))
		st->kind = VLCFG_K_INTRA;
	else if (nw == 2 && !strcmp(a, "network") && !strcmp(b, "inter"))
		st->kind = VLCFG_K_INTER;
	else if (nw == 1 && !strcmp(a, "mpi"))
		st->kind = VLCFG_K_MPI;
	else if (nw == 1 && !strcmp(a, "collectives"))
		st->kind = VLCFG_K_COLL;
	else if (nw == 1 && !strcmp(a, "topology"))
		st->kind = VLCFG_K_TOPO;
	else if (nw <= 2 && !strcmp(a, "host"))
		return vlcfg_host_section(st, b);
	else if (nw <= 2 && !strcmp(a, "hosts"))
		return vlcfg_hosts_section(st, b);
	else
		return vlcfg_fail(st, NULL, "unknown section (valid: " VLCFG_SECTIONS
				", host NAME, hosts PREFIX)");
	return 0;
}

/* A "[name]" line. */
static int vlcfg_section(vlcfg_ld *st, const char *line)
{
	char buf[VLCFG_LINE], *end, *w[2];

	if (vlcfg_section_end(st))
		return -1;
	st->kind = VLCFG_K_NONE;
	st->sect_line = st->lineno;
	st->seen = 0;
	st->coll_seen = 0;
	st->coll_select_line = 0;
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

	if (num > VLCFG_LINE)
		num = VLCFG_LINE;
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
	char buf[VLCFG_LINE], names[256], *cur = buf, *name;
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
	m->eager_limit = VLCFG_EAGER_LIMIT;
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
	if (!st->failed)
		vlcfg_topo_check(st);
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
	vlcfg_topo_default(&cfg->topo);
	cfg->deadlock_after = VLCFG_DEADLOCK_DEFAULT;
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
	vlcfg_topo_default(&cfg->topo);
	cfg->deadlock_after = VLCFG_DEADLOCK_DEFAULT;
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
		return VLCFG_K_SIM;
	if (!strcmp(section, "network"))
		return VLCFG_K_NET;
	if (!strcmp(section, "network intra"))
		return VLCFG_K_INTRA;
	if (!strcmp(section, "network inter"))
		return VLCFG_K_INTER;
	if (!strcmp(section, "mpi"))
		return VLCFG_K_MPI;
	if (!strcmp(section, "collectives"))
		return VLCFG_K_COLL;
	if (!strncmp(section, "host ", 5)) {
		*host = vlcfg_host_index(cfg, section + 5);
		return VLCFG_K_HOST;
	}
	return -1;
}

int vlcfg_set(vlcfg_config *cfg, const char *section, const char *key, const char *value,
		  char *err, size_t errlen)
{
	vlcfg_ld st;
	int host;

	memset(&st, 0, sizeof(st));
	st.cfg = cfg;
	st.err = err;
	st.errlen = errlen;
	st.path = "vl_set_param";
	if (!section || !key || !value)
		return vlcfg_fail_at(&st, 0, NULL, "section, key and value are required");
	snprintf(st.sect, sizeof(st.sect), "%s", section);
	st.kind = vlcfg_set_kind(cfg, section, &host);
	if (st.kind < 0)
		return vlcfg_fail_at(&st, 0, NULL, "[%s]: unknown section (valid: " VLCFG_SET_SECTIONS
				   ", host NAME)", section);
	if (st.kind == VLCFG_K_HOST && host < 0)
		return vlcfg_fail_at(&st, 0, NULL, "[%s]: no such virtual host", section);
	return vlcfg_set_key(&st, section, host, key, value);
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
