/* mktrace.c - build a vlayer trace directory from a text description, so that
 * golden test inputs are committed as text.
 *
 * usage: mktrace INPUT.txt OUTDIR       (INPUT "-" = stdin; OUTDIR is created)
 *
 * One line per header or record; '#' starts a comment.
 *   task TID [ptid N] [host N] [hostname S] [prog S] [start TIME]
 *            [file NAME] [magic S] [version N] [hdrsize N] [recsize N]
 *       starts the file of a task (default name vl-<tid as 8 hex>.trc); the
 *       following record lines go into it.
 *   TYPE key=value ...
 *       one record; TYPE is start end send recv compute mark spawn probe coll
 *       param irecv wait sleep, or a number (to write unknown types).  Keys: type flags
 *       tag peer seq bytes t0 t1 t2 t3 t4 text, t (= t0 and t1), and per type:
 *         end:   comp=bytes comm=t2 wait=t3
 *         send:  arrival=t2 ndest=t3 req=t4 (flag nb) sendwait=t4 (blocking)
 *         recv:  wait=t2 arrival=t3 req=t4 (flag nb)
 *         irecv: req=t4
 *         wait:  wait=t2 req=t4
 *         probe: wait=t2 (flag found)
 *         mark:  id=peer label=text
 *         spawn: child=peer chost=tag childstart=t2
 *         coll:  op=tag (barrier bcast reduce gather scatter join leave)
 *                wait=t2 root=peer group=text
 *         param: text
 *       flags: mcast, synth, nb, found or a number, joined with '|'.
 *   stray N
 *       append N garbage bytes to the current file (a truncated record).
 * Numbers: decimal or 0x hex, may be negative; times take a unit suffix
 * ns (default), us, ms or s.  Text: a word, or "quoted words".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "vltrace.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "mktrace writes host byte order; trace files are little-endian"
#endif

typedef struct mk {
	const char *in, *dir;
	unsigned line;
	FILE *out;
	char outname[4096];
} mk;

__attribute__((format(printf, 2, 3), noreturn))
static void die(const mk *m, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "mktrace: %s:%u: ", m->in, m->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* ---- tokens ---- */
static char *next_tok(char **s)
{
	char *p = *s, *t;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return NULL;
	t = p;
	while (*p && *p != ' ' && *p != '\t') {
		if (*p == '"') {
			char *q = strchr(p + 1, '"');
			p = q ? q + 1 : p + strlen(p);
			continue;
		}
		p++;
	}
	if (*p)
		*p++ = '\0';
	*s = p;
	return t;
}

static int64_t num(const mk *m, const char *s, int is_time)
{
	char *end;
	int64_t v;
	int hex = strncmp(s, "0x", 2) == 0 || strncmp(s, "-0x", 3) == 0;
	errno = 0;
	v = strtoll(s, &end, hex ? 16 : 10);
	if (end == s || errno)
		die(m, "bad number '%s'", s);
	if (!*end)
		return v;
	if (is_time && strcmp(end, "ns") == 0)
		return v;
	if (is_time && strcmp(end, "us") == 0)
		return v * 1000;
	if (is_time && strcmp(end, "ms") == 0)
		return v * 1000000;
	if (is_time && strcmp(end, "s") == 0)
		return v * 1000000000;
	die(m, "bad number '%s'", s);
}

static void text(const mk *m, char *dst, size_t n, const char *s)
{
	size_t l = strlen(s);
	if (l >= 2 && s[0] == '"' && s[l - 1] == '"') {
		s++;
		l -= 2;
	}
	if (l >= n)
		die(m, "text '%s' longer than %zu characters", s, n - 1);
	memset(dst, 0, n);
	memcpy(dst, s, l);
}

/* ---- task header ---- */
static void close_out(mk *m)
{
	if (m->out && fclose(m->out) != 0) {
		fprintf(stderr, "mktrace: %s: %s\n", m->outname, strerror(errno));
		exit(2);
	}
	m->out = NULL;
}

static void hdr_key(const mk *m, vl_thdr *h, const char *k, const char *v, char *file,
		    size_t fn)
{
	if (strcmp(k, "ptid") == 0)
		h->ptid = (int32_t)num(m, v, 0);
	else if (strcmp(k, "host") == 0)
		h->host = (int32_t)num(m, v, 0);
	else if (strcmp(k, "hostname") == 0)
		text(m, h->host_name, sizeof h->host_name, v);
	else if (strcmp(k, "prog") == 0)
		text(m, h->program, sizeof h->program, v);
	else if (strcmp(k, "start") == 0)
		h->start_ns = num(m, v, 1);
	else if (strcmp(k, "file") == 0)
		text(m, file, fn, v);
	else if (strcmp(k, "magic") == 0)
		memcpy(h->magic, v, strlen(v) < 8 ? strlen(v) + 1 : 8);
	else if (strcmp(k, "version") == 0)
		h->version = (uint32_t)num(m, v, 0);
	else if (strcmp(k, "hdrsize") == 0)
		h->hdr_size = (uint32_t)num(m, v, 0);
	else if (strcmp(k, "recsize") == 0)
		h->rec_size = (uint32_t)num(m, v, 0);
	else
		die(m, "unknown task key '%s'", k);
}

static void do_task(mk *m, char *rest)
{
	vl_thdr h;
	char file[256] = "", *tid = next_tok(&rest), *k;
	close_out(m);
	if (!tid)
		die(m, "task needs a tid");
	memset(&h, 0, sizeof h);
	memcpy(h.magic, VL_TRACE_MAGIC, sizeof h.magic);
	h.version = VL_TRACE_VERSION;
	h.hdr_size = sizeof(vl_thdr);
	h.rec_size = sizeof(vl_trec);
	h.tid = (int32_t)num(m, tid, 0);
	h.ptid = -1;
	while ((k = next_tok(&rest)) != NULL) {
		const char *v = next_tok(&rest);
		if (!v)
			die(m, "task key '%s' needs a value", k);
		hdr_key(m, &h, k, v, file, sizeof file);
	}
	if (!file[0])
		snprintf(file, sizeof file, "vl-%08x.trc", (unsigned)h.tid);
	snprintf(m->outname, sizeof m->outname, "%s/%s", m->dir, file);
	m->out = fopen(m->outname, "wb");
	if (!m->out || fwrite(&h, sizeof h, 1, m->out) != 1)
		die(m, "%s: %s", m->outname, strerror(errno));
}

/* ---- records ---- */
static const char *const type_names[] = {
	NULL, "start", "end", "send", "recv", "compute", "mark", "spawn", "probe", "coll", "param",
	"irecv", "wait", "sleep",
};
static const char *const coll_names[] = {
	NULL, "barrier", "bcast", "reduce", "gather", "scatter", "join", "leave",
};

static int lookup(const char *const *names, int n, const char *s)
{
	for (int i = 1; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* per-type aliases -> field names */
static const char *alias(int type, const char *k)
{
	static const struct { int type; const char *from, *to; } al[] = {
		{ VL_EV_END, "comp", "bytes" },    { VL_EV_END, "comm", "t2" },
		{ VL_EV_END, "wait", "t3" },       { VL_EV_SEND, "arrival", "t2" },
		{ VL_EV_SEND, "ndest", "t3" },     { VL_EV_RECV, "wait", "t2" },
		{ VL_EV_RECV, "arrival", "t3" },   { VL_EV_MARK, "id", "peer" },
		{ VL_EV_MARK, "label", "text" },   { VL_EV_SPAWN, "child", "peer" },
		{ VL_EV_SPAWN, "chost", "tag" },   { VL_EV_SPAWN, "childstart", "t2" },
		{ VL_EV_COLL, "op", "tag" },       { VL_EV_COLL, "wait", "t2" },
		{ VL_EV_COLL, "root", "peer" },    { VL_EV_COLL, "group", "text" },
		{ VL_EV_SEND, "req", "t4" },       { VL_EV_SEND, "sendwait", "t4" },
		{ VL_EV_RECV, "req", "t4" },       { VL_EV_IRECV, "req", "t4" },
		{ VL_EV_WAIT, "req", "t4" },       { VL_EV_WAIT, "wait", "t2" },
		{ VL_EV_PROBE, "wait", "t2" },
	};
	for (size_t i = 0; i < sizeof al / sizeof al[0]; i++)
		if (al[i].type == type && strcmp(al[i].from, k) == 0)
			return al[i].to;
	return k;
}

static unsigned flags(const mk *m, char *v)
{
	unsigned f = 0;
	for (char *p = strtok(v, "|"); p; p = strtok(NULL, "|")) {
		if (strcmp(p, "mcast") == 0)
			f |= VL_TF_MCAST;
		else if (strcmp(p, "synth") == 0)
			f |= VL_TF_SYNTH;
		else if (strcmp(p, "nb") == 0)
			f |= VL_TF_NB;
		else if (strcmp(p, "found") == 0)
			f |= VL_TF_FOUND;
		else
			f |= (unsigned)num(m, p, 0);
	}
	return f;
}

static void rec_key(const mk *m, vl_trec *r, const char *k, char *v)
{
	int req = strcmp(k, "req") == 0; /* t4: a request number, else a time */
	k = alias(r->type, k);
	if (strcmp(k, "type") == 0)
		r->type = (uint16_t)num(m, v, 0);
	else if (strcmp(k, "flags") == 0)
		r->flags = (uint16_t)flags(m, v);
	else if (strcmp(k, "tag") == 0 && r->type == VL_EV_COLL && lookup(coll_names, 8, v) > 0)
		r->tag = lookup(coll_names, 8, v);
	else if (strcmp(k, "tag") == 0)
		r->tag = (int32_t)num(m, v, 0);
	else if (strcmp(k, "peer") == 0)
		r->peer = (int32_t)num(m, v, 0);
	else if (strcmp(k, "seq") == 0)
		r->seq = (uint32_t)num(m, v, 0);
	else if (strcmp(k, "bytes") == 0)
		r->u.v.bytes = num(m, v, r->type == VL_EV_END);
	else if (strcmp(k, "t0") == 0)
		r->u.v.t0 = num(m, v, 1);
	else if (strcmp(k, "t1") == 0)
		r->u.v.t1 = num(m, v, 1);
	else if (strcmp(k, "t") == 0)
		r->u.v.t0 = r->u.v.t1 = num(m, v, 1);
	else if (strcmp(k, "t2") == 0)
		r->u.v.t2 = num(m, v, 1);
	else if (strcmp(k, "t3") == 0)
		r->u.v.t3 = num(m, v, strcmp(alias(r->type, "ndest"), "t3") != 0);
	else if (strcmp(k, "t4") == 0)
		r->u.v.t4 = num(m, v, !req);
	else if (strcmp(k, "text") == 0)
		text(m, r->u.m.text, sizeof r->u.m.text, v);
	else
		die(m, "unknown record key '%s'", k);
}

static void do_record(mk *m, const char *type, char *rest)
{
	vl_trec r;
	char *kv;
	int t = lookup(type_names, 14, type);
	memset(&r, 0, sizeof r);
	r.type = (uint16_t)(t > 0 ? t : num(m, type, 0));
	if (!m->out)
		die(m, "record before the first task line");
	while ((kv = next_tok(&rest)) != NULL) {
		char *eq = strchr(kv, '=');
		if (!eq)
			die(m, "expected key=value, got '%s'", kv);
		*eq = '\0';
		rec_key(m, &r, kv, eq + 1);
	}
	if (fwrite(&r, sizeof r, 1, m->out) != 1)
		die(m, "%s: %s", m->outname, strerror(errno));
}

static void do_stray(mk *m, char *rest)
{
	char *n = next_tok(&rest);
	int64_t k;
	if (!m->out || !n)
		die(m, "stray needs a task and a byte count");
	k = num(m, n, 0);
	for (int64_t i = 0; i < k; i++)
		fputc(0xab, m->out);
}

static void do_line(mk *m, char *s)
{
	char *hash = strchr(s, '#'), *w;
	if (hash && !memchr(s, '"', (size_t)(hash - s)))
		*hash = '\0';
	s[strcspn(s, "\r\n")] = '\0';
	w = next_tok(&s);
	if (!w)
		return;
	if (strcmp(w, "task") == 0)
		do_task(m, s);
	else if (strcmp(w, "stray") == 0)
		do_stray(m, s);
	else
		do_record(m, w, s);
}

int main(int argc, char **argv)
{
	mk m = { NULL, NULL, 0, NULL, "" };
	char buf[4096];
	FILE *in;
	if (argc != 3) {
		fprintf(stderr, "usage: mktrace INPUT.txt OUTDIR\n");
		return 2;
	}
	m.in = argv[1];
	m.dir = argv[2];
	in = strcmp(m.in, "-") == 0 ? stdin : fopen(m.in, "r");
	if (!in) {
		fprintf(stderr, "mktrace: %s: %s\n", m.in, strerror(errno));
		return 2;
	}
	if (mkdir(m.dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "mktrace: %s: %s\n", m.dir, strerror(errno));
		return 2;
	}
	while (fgets(buf, sizeof buf, in)) {
		m.line++;
		do_line(&m, buf);
	}
	close_out(&m);
	if (in != stdin)
		fclose(in);
	return 0;
}
