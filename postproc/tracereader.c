/* tracereader.c - streaming reader of vlayer task traces. */
#include "tracereader.h"
#include "util/diag.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define REC ((size_t)sizeof(vl_trec))
#define HDR ((size_t)sizeof(vl_thdr))

_Static_assert(sizeof(vl_thdr) == 256, "vl_thdr must be 256 bytes");
_Static_assert(sizeof(vl_trec) == 64, "vl_trec must be 64 bytes");

__attribute__((format(printf, 3, 4)))
static int tf_fail(vlpost_tfile *f, enum vlpost_tr_err kind, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(f->errmsg, sizeof f->errmsg, "%s: ", f->path ? f->path : "?");
	if (n < 0 || (size_t)n >= sizeof f->errmsg)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(f->errmsg + n, sizeof f->errmsg - (size_t)n, fmt, ap);
	va_end(ap);
	f->err = kind;
	return -1;
}

/* ---- byte order: the files are little-endian ---- */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static void swap_hdr(vl_thdr *h)
{
	h->version = __builtin_bswap32(h->version);
	h->hdr_size = __builtin_bswap32(h->hdr_size);
	h->rec_size = __builtin_bswap32(h->rec_size);
	h->tid = (int32_t)__builtin_bswap32((uint32_t)h->tid);
	h->ptid = (int32_t)__builtin_bswap32((uint32_t)h->ptid);
	h->host = (int32_t)__builtin_bswap32((uint32_t)h->host);
	h->start_ns = (int64_t)__builtin_bswap64((uint64_t)h->start_ns);
}

static void swap_rec(vl_trec *r)
{
	int text = 0;
	r->type = __builtin_bswap16(r->type);
	r->flags = __builtin_bswap16(r->flags);
	r->tag = (int32_t)__builtin_bswap32((uint32_t)r->tag);
	r->peer = (int32_t)__builtin_bswap32((uint32_t)r->peer);
	r->seq = __builtin_bswap32(r->seq);
	text = r->type == VL_EV_MARK || r->type == VL_EV_PARAM; /* (COLL: no text) */
	r->u.v.bytes = (int64_t)__builtin_bswap64((uint64_t)r->u.v.bytes);
	r->u.v.t0 = (int64_t)__builtin_bswap64((uint64_t)r->u.v.t0);
	r->u.v.t1 = (int64_t)__builtin_bswap64((uint64_t)r->u.v.t1);
	if (!text) {
		r->u.v.t2 = (int64_t)__builtin_bswap64((uint64_t)r->u.v.t2);
		r->u.v.t3 = (int64_t)__builtin_bswap64((uint64_t)r->u.v.t3);
		r->u.v.t4 = (int64_t)__builtin_bswap64((uint64_t)r->u.v.t4);
	}
}
#else
static void swap_hdr(vl_thdr *h)
{
	(void)h;
}

static void swap_rec(vl_trec *r)
{
	(void)r;
}
#endif

/* ---- low-level reading ---- */
static int tf_openfd(vlpost_tfile *f)
{
	if (f->fd >= 0)
		return 0;
	f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return tf_fail(f, VL_TR_EIO, "cannot open: %s", strerror(errno));
	return 0;
}

static void tf_closefd(vlpost_tfile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* Move the unread bytes to the front and read until the buffer is full or EOF. */
static int tf_fill(vlpost_tfile *f)
{
	size_t rem = f->len - f->pos;
	if (rem && f->pos)
		memmove(f->buf, f->buf + f->pos, rem);
	f->len = rem;
	f->pos = 0;
	if (f->eof || f->len == f->cap)
		return 0;
	if (tf_openfd(f) < 0)
		return -1;
	while (f->len < f->cap) {
		ssize_t k = pread(f->fd, f->buf + f->len, f->cap - f->len, f->off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return tf_fail(f, VL_TR_EIO, "read error: %s", strerror(errno));
		if (k == 0) {
			f->eof = 1;
			break;
		}
		f->len += (uint32_t)k;
		f->off += k;
	}
	if (!f->keep_open || f->eof)
		tf_closefd(f);
	return 0;
}

/* ---- header ---- */
static void printable(char *s, size_t n)
{
	s[n - 1] = '\0';
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
			*s = '?';
}

static int tf_check_hdr(vlpost_tfile *f)
{
	vl_thdr *h = &f->hdr;
	if (memcmp(h->magic, VL_TRACE_MAGIC, sizeof h->magic) != 0)
		return tf_fail(f, VL_TR_EHDR, "not a vlayer trace (bad magic)");
	if (h->version != VL_TRACE_VERSION)
		return tf_fail(f, VL_TR_EHDR, "unsupported trace version %u (expected %d)",
			       h->version, VL_TRACE_VERSION);
	if (h->hdr_size != HDR)
		return tf_fail(f, VL_TR_EHDR, "header size %u (expected %zu)", h->hdr_size, HDR);
	if (h->rec_size != REC)
		return tf_fail(f, VL_TR_EHDR, "record size %u (expected %zu)", h->rec_size, REC);
	if (h->start_ns < 0 || h->start_ns > VLPOST_TR_TMAX)
		return tf_fail(f, VL_TR_EHDR, "bad start time %lld", (long long)h->start_ns);
	printable(h->host_name, sizeof h->host_name);
	printable(h->program, sizeof h->program);
	return 0;
}

static int tf_read_hdr(vlpost_tfile *f)
{
	size_t got = 0;
	if (tf_openfd(f) < 0)
		return -1;
	while (got < HDR) {
		ssize_t k = pread(f->fd, (char *)&f->hdr + got, HDR - got, (off_t)got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return tf_fail(f, VL_TR_EIO, "read error: %s", strerror(errno));
		if (k == 0)
			break;
		got += (size_t)k;
	}
	if (got < HDR)
		return tf_fail(f, VL_TR_EHDR, "truncated header (%zu of %zu bytes)", got, HDR);
	swap_hdr(&f->hdr);
	f->start_ns = f->hdr.start_ns;
	if (!f->keep_open)
		tf_closefd(f);
	return tf_check_hdr(f);
}

static void tf_reset(vlpost_tfile *f)
{
	f->len = f->pos = 0;
	f->off = (int64_t)HDR;
	f->eof = 0;
	f->nrec = 0;
	f->last_t0 = f->last_t1 = 0;
	f->last_type = f->last_flags = 0;
	f->last_seq = 0;
	f->ended = 0;
	f->err = VL_TR_ENONE;
	f->errmsg[0] = '\0';
}

int vlpost_tfile_open(vlpost_tfile *f, const char *path, size_t bufsize, int keep_open)
{
	memset(f, 0, sizeof *f);
	f->fd = -1;
	f->keep_open = keep_open;
	tf_reset(f);
	f->path = strdup(path);
	if (!f->path)
		return tf_fail(f, VL_TR_EIO, "out of memory");
	if (bufsize == 0)
		bufsize = VLPOST_TR_BUFSIZE;
	if (bufsize > VLPOST_TR_MAXBUF)
		bufsize = VLPOST_TR_MAXBUF;
	f->cap = (uint32_t)((bufsize + REC - 1) / REC * REC);
	f->buf = malloc(f->cap);
	if (!f->buf)
		return tf_fail(f, VL_TR_EIO, "out of memory");
	return tf_read_hdr(f);
}

int vlpost_tfile_rewind(vlpost_tfile *f)
{
	if (f->err == VL_TR_EHDR || f->err == VL_TR_EIO || !f->buf)
		return -1;
	tf_reset(f);
	return 0;
}

void vlpost_tfile_close(vlpost_tfile *f)
{
	tf_closefd(f);
	free(f->buf);
	free(f->path);
	f->buf = NULL;
	f->path = NULL;
}

int vlpost_tfile_err_is_partial(const vlpost_tfile *f)
{
	return f->err == VL_TR_ECORRUPT || f->err == VL_TR_ETRUNC || f->err == VL_TR_ENOEND;
}

/* ---- records ---- */
static int in_range(int64_t v)
{
	return v >= 0 && v <= VLPOST_TR_TMAX;
}

/* Records of one multicast may share one interval: all SEND+MCAST, same t0 and t1. */
static int tf_mcast_shared(const vlpost_tfile *f, const vl_trec *r)
{
	return f->nrec > 0 && r->type == VL_EV_SEND && (r->flags & VL_TF_MCAST) &&
	       f->last_type == VL_EV_SEND && (f->last_flags & VL_TF_MCAST) &&
	       r->u.v.t0 == f->last_t0 && r->u.v.t1 == f->last_t1;
}

/* A nonblocking collective's record (VL_TF_NB, since 2026-11-27) spans its
 * completing call, t4 its start; older traces wrote it from its start on, so
 * that it began inside the records after the start: read it as a new one. */
static void tf_old_nbcoll(const vlpost_tfile *f, vl_trec *r)
{
	if (r->type != VL_EV_COLL || (r->flags & VL_TF_NB) || f->nrec == 0 ||
	    r->u.v.t0 >= f->last_t1 || r->u.v.t1 < f->last_t1)
		return;
	r->flags |= VL_TF_NB;
	r->u.v.t4 = r->u.v.t0;
	r->u.v.t0 = f->last_t1;
	if (r->u.v.t2 > r->u.v.t1 - r->u.v.t0)
		r->u.v.t2 = r->u.v.t1 - r->u.v.t0;
}

static int tf_check_times(vlpost_tfile *f, vl_trec *r)
{
	unsigned long long i = (unsigned long long)f->nrec;
	int64_t t0, t1;

	tf_old_nbcoll(f, r);
	t0 = r->u.v.t0;
	t1 = r->u.v.t1;
	if (!in_range(t0) || !in_range(t1) || t1 < t0)
		return tf_fail(f, VL_TR_ECORRUPT, "record %llu: bad times (t0 %lld, t1 %lld)", i,
			       (long long)t0, (long long)t1);
	if (t0 < f->start_ns)
		return tf_fail(f, VL_TR_ECORRUPT,
			       "record %llu: time %lld is before the task's start %lld", i,
			       (long long)t0, (long long)f->hdr.start_ns);
	if (f->nrec > 0 && t0 < f->last_t1 && !tf_mcast_shared(f, r))
		return tf_fail(f, VL_TR_ECORRUPT,
			       "record %llu: begins at %lld, before the end of record %llu at %lld",
			       i, (long long)t0, i - 1, (long long)f->last_t1);
	return 0;
}

static int tf_check_wait(vlpost_tfile *f, const vl_trec *r)
{
	int64_t w = r->u.v.t2;
	if (w < 0 || w > r->u.v.t1 - r->u.v.t0)
		return tf_fail(f, VL_TR_ECORRUPT, "record %llu: waiting %lld outside the call",
			       (unsigned long long)f->nrec, (long long)w);
	return 0;
}

static int tf_check_bytes(vlpost_tfile *f, int64_t b)
{
	if (!in_range(b))
		return tf_fail(f, VL_TR_ECORRUPT, "record %llu: bad byte count %lld",
			       (unsigned long long)f->nrec, (long long)b);
	return 0;
}

/* t4 of a record of a nonblocking request: its number */
static int tf_check_req(vlpost_tfile *f, const vl_trec *r)
{
	if (r->u.v.t4 <= 0 || r->u.v.t4 > UINT32_MAX)
		return tf_fail(f, VL_TR_ECORRUPT, "record %llu: bad request number %lld",
			       (unsigned long long)f->nrec, (long long)r->u.v.t4);
	return 0;
}

/* t4 of a blocking send: the waiting at the end of the call */
static int tf_check_send_wait(vlpost_tfile *f, const vl_trec *r)
{
	if (r->flags & VL_TF_NB)
		return tf_check_req(f, r);
	if (r->u.v.t4 < 0 || r->u.v.t4 > r->u.v.t1 - r->u.v.t0)
		return tf_fail(f, VL_TR_ECORRUPT, "record %llu: waiting %lld outside the call",
			       (unsigned long long)f->nrec, (long long)r->u.v.t4);
	return 0;
}

static int tf_check_type(vlpost_tfile *f, vl_trec *r)
{
	unsigned long long i = (unsigned long long)f->nrec;
	switch (r->type) {
	case VL_EV_START:
		if (i != 0)
			return tf_fail(f, VL_TR_ECORRUPT, "record %llu: START is not the first record", i);
		return 0;
	case VL_EV_END:
		if (!in_range(r->u.v.bytes) || !in_range(r->u.v.t2) || !in_range(r->u.v.t3) ||
		    r->u.v.t4 < 0 || r->tag < 0)
			return tf_fail(f, VL_TR_ECORRUPT, "record %llu: bad END components", i);
		return 0;
	case VL_EV_SEND:
		if (r->seq <= f->last_seq)
			return tf_fail(f, VL_TR_ECORRUPT, "record %llu: send seq %u is not after %u", i,
				       r->seq, f->last_seq);
		return tf_check_bytes(f, r->u.v.bytes) < 0 ? -1 : tf_check_send_wait(f, r);
	case VL_EV_RECV:
		if ((r->flags & VL_TF_NB) && tf_check_req(f, r) < 0)
			return -1;
		if (!in_range(r->u.v.t3))
			return tf_fail(f, VL_TR_ECORRUPT, "record %llu: bad arrival time %lld", i,
				       (long long)r->u.v.t3);
		return tf_check_bytes(f, r->u.v.bytes) < 0 ? -1 : tf_check_wait(f, r);
	case VL_EV_WAIT:
		if (tf_check_req(f, r) < 0 || tf_check_bytes(f, r->u.v.bytes) < 0)
			return -1;
		return tf_check_wait(f, r);
	case VL_EV_IRECV:
		return tf_check_req(f, r);
	case VL_EV_SLEEP:
		return 0;
	case VL_EV_PROBE:
		return r->flags & VL_TF_FOUND ? tf_check_wait(f, r) : 0;
	case VL_EV_COLL:
		if ((r->flags & VL_TF_NB) &&
		    (r->u.v.t4 < f->start_ns || r->u.v.t4 > r->u.v.t0))
			return tf_fail(f, VL_TR_ECORRUPT,
				       "record %llu: nonblocking collective started at %lld, "
				       "outside the task's start %lld .. its completing call %lld",
				       i, (long long)r->u.v.t4, (long long)f->start_ns,
				       (long long)r->u.v.t0);
		if (!(r->flags & VL_TF_NB))
			r->u.m.text[sizeof r->u.m.text - 1] = '\0';
		return tf_check_bytes(f, r->u.v.bytes) < 0 ? -1 : tf_check_wait(f, r);
	case VL_EV_ICOLL:
		if (r->u.v.t1 != r->u.v.t0 || r->seq == 0)
			return tf_fail(f, VL_TR_ECORRUPT,
				       "record %llu: a nonblocking collective's start with a "
				       "duration or no key", i);
		return tf_check_bytes(f, r->u.v.bytes);
	case VL_EV_MARK:
	case VL_EV_PARAM:
		r->u.m.text[sizeof r->u.m.text - 1] = '\0';
		return 0;
	case VL_EV_BLOCKS:
		if (r->u.v.t1 != r->u.v.t0 || r->peer < 0 || r->peer % VL_BLOCKS_PER_REC ||
		    r->tag < 1 || r->tag > VL_BLOCKS_PER_REC)
			return tf_fail(f, VL_TR_ECORRUPT,
				       "record %llu: a scatterv's blocks with a duration, or "
				       "members %d + %d", i, r->peer, r->tag);
		return tf_check_bytes(f, r->u.v.bytes) < 0 || tf_check_bytes(f, r->u.v.t2) < 0 ||
				       tf_check_bytes(f, r->u.v.t3) < 0 || tf_check_bytes(f, r->u.v.t4) < 0
			       ? -1
			       : 0;
	case VL_EV_COMPUTE:
	case VL_EV_SPAWN:
		return 0;
	default:
		return tf_fail(f, VL_TR_ECORRUPT, "record %llu: unknown type %u", i, r->type);
	}
}

static int tf_check(vlpost_tfile *f, vl_trec *r)
{
	if (f->ended)
		return tf_fail(f, VL_TR_ECORRUPT, "record %llu: record after END",
			       (unsigned long long)f->nrec);
	if (r->type < VL_EV_START || r->type > VL_EV_LAST)
		return tf_fail(f, VL_TR_ECORRUPT, "record %llu: unknown type %u",
			       (unsigned long long)f->nrec, r->type);
	if (r->type == VL_EV_PARAM)
		r->u.m.t1 = r->u.m.t0;
	if (tf_check_times(f, r) < 0 || tf_check_type(f, r) < 0)
		return -1;
	if (r->type == VL_EV_SEND)
		f->last_seq = r->seq;
	if (r->type == VL_EV_END)
		f->ended = 1;
	f->last_t0 = r->u.v.t0;
	f->last_t1 = r->u.v.t1;
	f->last_type = r->type;
	f->last_flags = r->flags;
	return 0;
}

static int tf_at_eof(vlpost_tfile *f)
{
	size_t stray = f->len - f->pos;
	if (stray && f->nrec == 0)
		return tf_fail(f, VL_TR_ETRUNC, "truncated after the header (%zu stray bytes)", stray);
	if (stray)
		return tf_fail(f, VL_TR_ETRUNC, "truncated after record %llu (%zu stray bytes)",
			       (unsigned long long)f->nrec - 1, stray);
	if (!f->ended)
		return tf_fail(f, VL_TR_ENOEND, "no END record (the task did not finish)");
	return 0;
}

/* Make sure a whole record is buffered; 1 if so, 0 at EOF, -1 on error. */
static int tf_need(vlpost_tfile *f)
{
	if (f->len - f->pos >= REC)
		return 1;
	if (!f->eof && tf_fill(f) < 0)
		return -1;
	return f->len - f->pos >= REC;
}

int vlpost_tfile_next(vlpost_tfile *f, vl_trec *r)
{
	int k;
	if (f->err)
		return -1;
	k = tf_need(f);
	if (k < 0)
		return -1;
	if (k == 0)
		return tf_at_eof(f) < 0 ? -1 : 0;
	memcpy(r, f->buf + f->pos, REC);
	f->pos += REC;
	/* with many tasks, the next visit to this one comes much later: fetch its
	 * next record now, while the caller works on the others */
	__builtin_prefetch(f->buf + f->pos);
	swap_rec(r);
	if (tf_check(f, r) < 0)
		return -1;
	f->nrec++;
	return 1;
}

int vlpost_tfile_peek(vlpost_tfile *f, vl_trec *r)
{
	int k;
	if (f->err)
		return 0;
	k = tf_need(f);
	if (k <= 0)
		return k;
	memcpy(r, f->buf + f->pos, REC);
	swap_rec(r);
	return 1;
}

/* ---- a directory of traces ---- */
static int is_trace_name(const char *s)
{
	size_t n = strlen(s), i;
	if (n != 15 || strncmp(s, "vl-", 3) != 0 || strcmp(s + 11, ".trc") != 0)
		return 0;
	for (i = 3; i < 11; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Names of the trace files of dir, sorted; -1 on error. */
static int ts_list(const char *dir, char ***out, int *nout, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, **nn;
	int n = 0, cap = 0;
	if (!d)
		return vlu_seterr(err, errlen, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (!is_trace_name(e->d_name))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			nn = realloc(names, (size_t)cap * sizeof *names);
			if (!nn)
				goto oom;
			names = nn;
		}
		names[n] = strdup(e->d_name);
		if (!names[n])
			goto oom;
		n++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, (size_t)n, sizeof *names, cmp_str);
	*out = names;
	*nout = n;
	return 0;
oom:
	closedir(d);
	free_names(names, n);
	return vlu_seterr(err, errlen, "out of memory");
}

static int cmp_task(const void *a, const void *b)
{
	const vlpost_tfile *x = a, *y = b;
	if (x->hdr.start_ns != y->hdr.start_ns)
		return x->hdr.start_ns < y->hdr.start_ns ? -1 : 1;
	return (x->hdr.tid > y->hdr.tid) - (x->hdr.tid < y->hdr.tid);
}

static uint32_t tid_hash(int32_t tid)
{
	uint32_t h = (uint32_t)tid;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

/* How many files may stay open: the descriptor limit (raised to the hard limit)
 * minus a reserve for the output and the C library. */
static int ts_fd_budget(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 256;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1u << 20)
		return 1 << 20;
	return rl.rlim_cur > 64 ? (int)rl.rlim_cur - 64 : 0;
}

static size_t ts_bufsize(int n)
{
	size_t b = VLPOST_TR_MEMBUDGET / (size_t)(n > 0 ? n : 1);
	if (b > VLPOST_TR_BUFSIZE)
		b = VLPOST_TR_BUFSIZE;
	if (b < VLPOST_TR_MINBUF)
		b = VLPOST_TR_MINBUF;
	return b;
}

static int ts_open_files(vlpost_tset *s, char **names, int n, unsigned flags, FILE *warn,
			 char *err, size_t errlen)
{
	size_t dl = strlen(s->dir), bs = ts_bufsize(n);
	int budget = ts_fd_budget();
	char *path = malloc(dl + 20);
	if (!path)
		return vlu_seterr(err, errlen, "out of memory");
	for (int i = 0; i < n; i++) {
		vlpost_tfile *f = &s->f[s->n];
		snprintf(path, dl + 20, "%s/%s", s->dir, names[i]);
		if (vlpost_tfile_open(f, path, bs, s->n < budget) == 0) {
			s->n++;
			continue;
		}
		if (!(flags & VLPOST_TSET_SKIPBAD) || f->err != VL_TR_EHDR) {
			vlu_seterr(err, errlen, "%s", f->errmsg);
			vlpost_tfile_close(f);
			free(path);
			return -1;
		}
		if (warn)
			fprintf(warn, "vlpost: warning: %s (file skipped)\n", f->errmsg);
		vlpost_tfile_close(f);
	}
	free(path);
	return 0;
}

static int ts_index(vlpost_tset *s, char *err, size_t errlen)
{
	uint32_t size = 16;
	qsort(s->f, (size_t)s->n, sizeof *s->f, cmp_task);
	while (size < 2u * (uint32_t)s->n)
		size *= 2;
	s->hash = calloc(size, sizeof *s->hash);
	if (!s->hash)
		return vlu_seterr(err, errlen, "out of memory");
	s->hmask = size - 1;
	for (int i = 0; i < s->n; i++) {
		int32_t tid = s->f[i].hdr.tid;
		uint32_t j = tid_hash(tid) & s->hmask;
		for (; s->hash[j]; j = (j + 1) & s->hmask)
			if (s->f[s->hash[j] - 1].hdr.tid == tid)
				return vlu_seterr(err, errlen, "%s and %s: same task id 0x%x",
					       s->f[s->hash[j] - 1].path, s->f[i].path, (unsigned)tid);
		s->hash[j] = i + 1;
	}
	return 0;
}

int vlpost_tset_open(vlpost_tset *s, const char *dir, unsigned flags, FILE *warn, char *err,
		 size_t errlen)
{
	char **names = NULL;
	int n = 0, rc;
	memset(s, 0, sizeof *s);
	s->dir = strdup(dir);
	if (!s->dir)
		return vlu_seterr(err, errlen, "out of memory");
	if (ts_list(dir, &names, &n, err, errlen) < 0)
		return -1;
	if (n == 0) {
		free(names);
		return vlu_seterr(err, errlen, "%s: no trace files (vl-XXXXXXXX.trc)", dir);
	}
	/* aligned: the hot part of each vlpost_tfile is one cache line */
	s->f = aligned_alloc(64, (size_t)n * sizeof *s->f);
	if (s->f)
		memset(s->f, 0, (size_t)n * sizeof *s->f);
	if (!s->f) {
		free_names(names, n);
		return vlu_seterr(err, errlen, "out of memory");
	}
	rc = ts_open_files(s, names, n, flags, warn, err, errlen);
	free_names(names, n);
	if (rc < 0)
		return -1;
	if (s->n == 0)
		return vlu_seterr(err, errlen, "%s: no usable trace file", dir);
	return ts_index(s, err, errlen);
}

int vlpost_tset_find(const vlpost_tset *s, int32_t tid)
{
	uint32_t j = tid_hash(tid) & s->hmask;
	for (; s->hash[j]; j = (j + 1) & s->hmask)
		if (s->f[s->hash[j] - 1].hdr.tid == tid)
			return s->hash[j] - 1;
	return -1;
}

int vlpost_tset_rewind(vlpost_tset *s, char *err, size_t errlen)
{
	for (int i = 0; i < s->n; i++)
		if (vlpost_tfile_rewind(&s->f[i]) < 0)
			return vlu_seterr(err, errlen, "%s: cannot rewind", s->f[i].path);
	return 0;
}

void vlpost_tset_close(vlpost_tset *s)
{
	for (int i = 0; i < s->n; i++)
		vlpost_tfile_close(&s->f[i]);
	free(s->f);
	free(s->hash);
	free(s->dir);
	memset(s, 0, sizeof *s);
}
