/* merge.c - the streaming k-way merge of the trace converters (merge.h).
 * Memory: one reader buffer and one small state per task, plus the receives
 * that wait for a send begin with the very same timestamp. */
#include "merge.h"
#include "cli.h"
#include "util/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the progress bar on stderr ----
 * Only on a terminal, and only once the merge has run for more than a second;
 * VLPOST_PROGRESS=0 disables it, =1 forces it (also off a terminal, no delay).
 * The hot path is one countdown per record: the clock is read every PG_STEP
 * records, and the bar redrawn at most every PG_REDRAW ns. */
#define PG_STEP 4096u
#define PG_REDRAW 100000000
#define PG_WIDTH 30

static int64_t pg_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void pg_draw(vlm *m, uint64_t done, int64_t now)
{
	char bar[PG_WIDTH + 1], rate[32];
	uint64_t tot = m->pg_total > done ? m->pg_total : done;
	int pct = tot ? (int)(done * 100 / tot) : 100, fill = pct * PG_WIDTH / 100;
	double dt = (double)(now - m->pg_t0) / 1e9;
	double r = dt > 0 ? (double)done / dt : 0;
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, ' ', (size_t)(PG_WIDTH - fill));
	bar[PG_WIDTH] = 0;
	if (r >= 1e6)
		snprintf(rate, sizeof rate, "%.1f M", r / 1e6);
	else if (r >= 1e3)
		snprintf(rate, sizeof rate, "%.1f k", r / 1e3);
	else
		snprintf(rate, sizeof rate, "%.0f", r);
	fprintf(stderr, "\r[%s] %3d%%  %s records/s   ", bar, pct, rate);
	fflush(stderr);
	m->pg_line = 1;
	m->pg_last = now;
}

static void pg_tick(vlm *m)
{
	int64_t now;
	m->pg_cd = PG_STEP;
	m->pg_done += PG_STEP;
	if (!m->pg_on)
		return;
	now = pg_now();
	if (now - m->pg_t0 < m->pg_delay || now - m->pg_last < PG_REDRAW)
		return;
	pg_draw(m, m->pg_done, now);
}

/* The end of the line the bar is on, before a warning or at the end. */
static void pg_break(vlm *m)
{
	if (m->pg_line) {
		fputc('\n', stderr);
		m->pg_line = 0;
	}
}

/* The merge ended (ok: every record consumed): the last bar, 100 %. */
static void pg_end(vlm *m, int ok)
{
	int64_t now;
	if (!m->pg_on)
		return;
	now = pg_now();
	if (ok && (m->pg_line || now - m->pg_t0 >= m->pg_delay))
		pg_draw(m, m->pg_done + (PG_STEP - m->pg_cd), now);
	pg_break(m);
	m->pg_on = 0;
}

static void pg_init(vlm *m)
{
	const char *e = getenv("VLPOST_PROGRESS");
	m->pg_cd = PG_STEP;
	m->pg_done = m->pg_total = 0;
	m->pg_line = 0;
	m->pg_delay = 1000000000;
	if (e && strcmp(e, "1") == 0)
		m->pg_on = 1, m->pg_delay = 0;
	else
		m->pg_on = !(e && strcmp(e, "0") == 0) && isatty(2);
	if (!m->pg_on)
		return;
	for (int i = 0; i < m->set->n; i++) {
		const vlpost_tfile *f = &m->set->f[i];
		struct stat sb;
		if (f->hdr.rec_size && stat(f->path, &sb) == 0 && sb.st_size > (off_t)f->hdr.hdr_size)
			m->pg_total += (uint64_t)(sb.st_size - f->hdr.hdr_size) / f->hdr.rec_size;
	}
	m->pg_t0 = m->pg_last = pg_now();
	m->pg_last -= PG_REDRAW;
}

int vlpost_mg_fail(vlm *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->err, m->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

void vlpost_mg_warn(vlm *m, const char *fmt, ...)
{
	va_list ap;
	if (!m->warn)
		return;
	if (m->warn == stderr)
		pg_break(m);
	fputs("vlpost: warning: ", m->warn);
	va_start(ap, fmt);
	vfprintf(m->warn, fmt, ap);
	va_end(ap);
	fputc('\n', m->warn);
}

int vlpost_mg_bad(vlm *m, const char *fmt, ...)
{
	va_list ap;
	char msg[768];
	va_start(ap, fmt);
	vsnprintf(msg, m->msgmax < sizeof msg ? m->msgmax : sizeof msg, fmt, ap);
	va_end(ap);
	if (!m->partial)
		return vlpost_mg_fail(m, "%s", msg);
	vlpost_mg_warn(m, "%s", msg);
	return 0;
}

/* ---- multicasts and receives ---- */

/* The part of a shared multicast interval [t0,t1] that destination i of n gets. */
static int64_t mc_at(int64_t t0, int64_t t1, uint32_t i, uint32_t n)
{
	if (i >= n)
		return t1;
	return t0 + (int64_t)((unsigned __int128)(uint64_t)(t1 - t0) * i / n);
}

int vlpost_mg_send_span(vlpost_mg_task *k, const vl_trec *r, int64_t *a, int64_t *b)
{
	vl_trec nx;
	uint32_t i;
	int cont = 0;
	*a = r->u.v.t0;
	*b = r->u.v.t1;
	if (!(r->flags & VL_TF_MCAST)) {
		k->mc_split = 0;
		return 0;
	}
	if (k->mc_split && k->mc_i > 0 && r->u.v.t0 == k->mc_t0 && r->u.v.t1 == k->mc_t1) {
		i = k->mc_i++;
		cont = 1;
	} else {
		k->mc_split = vlpost_tfile_peek(k->f, &nx) == 1 && nx.type == VL_EV_SEND &&
			      (nx.flags & VL_TF_MCAST) && nx.u.v.t0 == r->u.v.t0 &&
			      nx.u.v.t1 == r->u.v.t1;
		k->mc_t0 = r->u.v.t0;
		k->mc_t1 = r->u.v.t1;
		k->mc_n = r->u.v.t3 >= 1 && r->u.v.t3 <= UINT32_MAX ? (uint32_t)r->u.v.t3 : 1;
		k->mc_i = 1;
		i = 0;
	}
	if (k->mc_split) {
		*a = mc_at(k->mc_t0, k->mc_t1, i, k->mc_n);
		*b = mc_at(k->mc_t0, k->mc_t1, i + 1, k->mc_n);
	}
	return cont;
}

int vlpost_mg_recv_src(vlm *m, vlpost_mg_task *k, const vl_trec *r, int *src)
{
	*src = -1;
	if (r->flags & VL_TF_SYNTH)
		return 0;
	*src = vlpost_mg_find(m, k, r->peer);
	if (*src < 0)
		return vlpost_mg_bad(m, "%s: record %llu: message from task 0x%x, which has no trace file",
			       k->f->path, (unsigned long long)k->f->nrec - 1, (unsigned)r->peer);
	if ((m->partial || m->incomplete) && r->seq > vlpost_mg_tk(m, *src)->maxseq) {
		vlpost_mg_warn(m, "%s: record %llu: message %u of task 0x%x is not in its trace",
			 k->f->path, (unsigned long long)k->f->nrec - 1, r->seq, (unsigned)r->peer);
		*src = -1;
	}
	return 0;
}

/* ---- messages in flight: an open-addressing table keyed by (sender, seq) ---- */
#define FLY_DEL (~(uint64_t)0)

static uint64_t fly_key(int sender, uint32_t seq)
{
	return (uint64_t)(sender + 1) << 32 | seq;
}

/* MurmurHash3's finalizer: every bit of the key (sender and seq) moves the
 * low bits (the messages in flight at one time often share their seq). */
static size_t fly_slot(const vlm *m, uint64_t key)
{
	uint64_t h = key ^ (key >> 33);
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (size_t)h & (m->cfly - 1);
}

static vlpost_mg_fly *fly_find(vlm *m, uint64_t key)
{
	if (!m->nfly)
		return NULL;
	for (size_t i = fly_slot(m, key);; i = (i + 1) & (m->cfly - 1)) {
		if (m->fly[i].key == key)
			return &m->fly[i];
		if (m->fly[i].key == 0)
			return NULL;
	}
}

static void fly_put(vlm *m, vlpost_mg_fly e)
{
	size_t i;
	for (i = fly_slot(m, e.key); m->fly[i].key && m->fly[i].key != FLY_DEL; i = (i + 1) & (m->cfly - 1))
		;
	if (m->fly[i].key == 0)
		m->nused++;
	m->fly[i] = e;
	m->nfly++;
}

/* Rebuilt without the deleted entries, at least half empty. */
static int fly_grow(vlm *m)
{
	vlpost_mg_fly *old = m->fly;
	size_t n = m->cfly, cap = m->nfly * 4 > 64 ? m->nfly * 4 : 64;
	while (cap & (cap - 1))
		cap &= cap - 1;
	m->fly = calloc(cap * 2, sizeof *m->fly);
	if (!m->fly) {
		m->fly = old;
		return vlpost_mg_fail(m, "out of memory");
	}
	m->cfly = cap * 2;
	m->nfly = m->nused = 0;
	for (size_t i = 0; i < n; i++)
		if (old[i].key && old[i].key != FLY_DEL)
			fly_put(m, old[i]);
	free(old);
	return 0;
}

static int fly_add(vlm *m, int sender, uint32_t seq, int receiver, int32_t tag)
{
	if ((m->nused + 1) * 2 > m->cfly && fly_grow(m) < 0)
		return -1;
	fly_put(m, (vlpost_mg_fly){ fly_key(sender, seq), receiver, tag });
	vlpost_mg_tk(m, receiver)->inflight++;
	return 0;
}

static void fly_del(vlm *m, vlpost_mg_fly *e)
{
	vlpost_mg_tk(m, e->receiver)->inflight--;
	e->key = FLY_DEL;
	m->nfly--;
}

int vlpost_mg_unreceived(vlm *m, int receiver, int (*fn)(vlm *m, void *ctx, int sender, uint32_t seq),
			 void *ctx)
{
	vlpost_mg_task *k = vlpost_mg_tk(m, receiver);
	for (size_t i = 0; i < m->cfly && k->inflight; i++) {
		vlpost_mg_fly *e = &m->fly[i];
		uint64_t key = e->key;
		if (!key || key == FLY_DEL || e->receiver != receiver)
			continue;
		fly_del(m, e);
		if (fn && fn(m, ctx, (int)(key >> 32) - 1, (uint32_t)key) < 0)
			return -1;
	}
	return 0;
}

/* ---- message checks: every receive names a send to it with its tag, received
 * once, and ends at or after that send begins ---- */
static int pend_add(vlm *m, const vlpost_mg_ev *e, int receiver)
{
	if (m->npd == m->cpd) {
		size_t n = m->cpd ? 2 * m->cpd : 16;
		vlpost_mg_pend *p = realloc(m->pd, n * sizeof *p);
		if (!p)
			return vlpost_mg_fail(m, "out of memory");
		m->pd = p;
		m->cpd = n;
	}
	m->pd[m->npd++] = (vlpost_mg_pend){ e->t, e->rec, e->seq, e->tag, e->peer, receiver };
	return 0;
}

static int no_send(vlm *m, int receiver, uint64_t rec, uint32_t seq, int sender)
{
	return vlpost_mg_bad(m, "%s: record %llu: receives message %u of task 0x%x, which %s never sends",
		       vlpost_mg_tk(m, receiver)->f->path, (unsigned long long)rec, seq,
		       (unsigned)vlpost_mg_tk(m, sender)->f->hdr.tid, vlpost_mg_tk(m, sender)->f->path);
}

/* A receive of a message sent before, not to it, or received already. */
static int not_to_it(vlm *m, int receiver, uint64_t rec, uint32_t seq, int sender)
{
	return vlpost_mg_bad(m, "%s: record %llu: message %u of task 0x%x was not sent to it, or "
		       "was received before", vlpost_mg_tk(m, receiver)->f->path,
		       (unsigned long long)rec, seq, (unsigned)vlpost_mg_tk(m, sender)->f->hdr.tid);
}

/* A receive whose message went to another task, or with another tag. */
static int not_its(vlm *m, int receiver, uint64_t rec, uint32_t seq, int32_t tag, int sender, int to,
		   int32_t sent_tag)
{
	const vlpost_mg_task *s = vlpost_mg_tk(m, sender);
	if (to != receiver) {
		char dest[64];
		if (to >= 0)
			snprintf(dest, sizeof dest, "task 0x%x", (unsigned)vlpost_mg_tk(m, to)->f->hdr.tid);
		else
			snprintf(dest, sizeof dest, "a task without trace");
		return vlpost_mg_bad(m, "%s: record %llu: receives message %u of task 0x%x, which %s "
			       "sends to %s", vlpost_mg_tk(m, receiver)->f->path, (unsigned long long)rec,
			       seq, (unsigned)s->f->hdr.tid, s->f->path, dest);
	}
	return vlpost_mg_bad(m, "%s: record %llu: receives message %u of task 0x%x with tag %d, "
		       "which %s sends with tag %d", vlpost_mg_tk(m, receiver)->f->path,
		       (unsigned long long)rec, seq, (unsigned)s->f->hdr.tid, (int)tag, s->f->path,
		       (int)sent_tag);
}

int vlpost_mg_recv_end(vlm *m, const vlpost_mg_ev *e, int receiver)
{
	vlpost_mg_task *s = vlpost_mg_tk(m, e->peer);
	vlpost_mg_fly *f = fly_find(m, fly_key(e->peer, e->seq));
	if (f && f->receiver == receiver && f->tag == e->tag) {
		fly_del(m, f);
		return 1;
	}
	if (f)
		return not_its(m, receiver, e->rec, e->seq, e->tag, e->peer, f->receiver, f->tag);
	if (s->sent >= e->seq)
		return not_to_it(m, receiver, e->rec, e->seq, e->peer);
	if (s->state >= VLPOST_MG_FINAL)
		return no_send(m, receiver, e->rec, e->seq, e->peer);
	return pend_add(m, e, receiver);
}

static int tachyon(vlm *m, const vlpost_mg_pend *p, const vlpost_mg_ev *send, int sender)
{
	char tr[32], ts[32];
	vlpost_fmt_sec(tr, p->t);
	vlpost_fmt_sec(ts, send->t);
	return vlpost_mg_bad(m, "tachyon: %s record %llu ends a receive at %s s, before %s record %llu "
		       "begins its send at %s s", vlpost_mg_tk(m, p->receiver)->f->path,
		       (unsigned long long)p->rec, tr, vlpost_mg_tk(m, sender)->f->path,
		       (unsigned long long)send->rec, ts);
}

/* Settle the pending receives of sender's messages up to send->seq (send != NULL)
 * or all of them (the sender has ended). */
static int settle(vlm *m, int sender, const vlpost_mg_ev *send, int *matched)
{
	size_t i = 0;
	while (i < m->npd) {
		vlpost_mg_pend p = m->pd[i];
		int rc = 0;
		if (p.sender != sender || (send && p.seq > send->seq)) {
			i++;
			continue;
		}
		m->pd[i] = m->pd[--m->npd];
		if (!send || p.seq < send->seq) {
			rc = no_send(m, p.receiver, p.rec, p.seq, sender);
		} else if (*matched) {
			rc = not_to_it(m, p.receiver, p.rec, p.seq, sender); /* received twice */
		} else if (send->peer != p.receiver || send->tag != p.tag) {
			rc = not_its(m, p.receiver, p.rec, p.seq, p.tag, sender, send->peer, send->tag);
			if (send->peer == p.receiver)
				*matched = -1; /* --partial: received, but no message */
		} else if (send->t > p.t) {
			rc = tachyon(m, &p, send, sender);
			*matched = -1;
		} else {
			*matched = p.receiver + 1;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

int vlpost_mg_send_begin(vlm *m, vlpost_mg_task *k, const vlpost_mg_ev *e, int *matched)
{
	*matched = 0;
	k->sent = e->seq;
	if (m->npd && settle(m, k->proc, e, matched) < 0)
		return -1;
	if (*matched)
		return 0;
	if (e->peer < 0 || vlpost_mg_tk(m, e->peer)->state >= VLPOST_MG_FINAL) {
		*matched = -2;
		return 0;
	}
	return fly_add(m, k->proc, e->seq, e->peer, e->tag);
}

/* ---- the tasks' events ---- */
/* Whether the error of f leaves a usable trace for m. */
static int tolerated(const vlm *m, const vlpost_tfile *f)
{
	if (m->partial)
		return vlpost_tfile_err_is_partial(f);
	return m->incomplete && (f->err == VL_TR_ETRUNC || f->err == VL_TR_ENOEND);
}

static int records(vlm *m, vlpost_mg_task *k)
{
	vl_trec r;
	int rc;
	while ((rc = vlpost_tfile_next(k->f, &r)) == 1) {
		if (--m->pg_cd == 0)
			pg_tick(m);
		vlpost_stats_add(k->st, &r);
		if (r.type != VL_EV_SEND)
			k->mc_split = 0;
		if (m->ops->map(m, k, &r) < 0)
			return -1;
		if (k->qn)
			return 1;
	}
	if (rc < 0 && !tolerated(m, k->f))
		return vlpost_mg_fail(m, "%s", k->f->errmsg);
	if (rc < 0 && k->f->err == VL_TR_ENOEND)
		vlpost_mg_warn(m, "%s", k->f->errmsg);
	else if (rc < 0)
		vlpost_mg_warn(m, "%s; the records before it are used", k->f->errmsg);
	vlpost_stats_done(k->st);
	m->ops->end(m, k);
	k->state = VLPOST_MG_FINAL;
	return 1;
}

/* Queue the next events of task k: 1, 0 when it has no more, -1 on error. */
static int refill(vlm *m, vlpost_mg_task *k)
{
	k->qn = k->qi = 0;
	switch (k->state) {
	case VLPOST_MG_BEGIN:
		m->ops->begin(m, k);
		k->state = VLPOST_MG_RECS;
		return 1;
	case VLPOST_MG_RECS:
		return records(m, k);
	default:
		k->state = VLPOST_MG_DONE;
		return 0;
	}
}

static int64_t next_t(const vlm *m, const vlpost_mg_task *k)
{
	return ((const vlpost_mg_ev *)(k->q + (size_t)k->qi * m->esz))->t;
}

/* ---- the merge: a tournament (loser) tree over the tasks ----
 * Leaf lk + i is task i (lk a power of two; leaves of no task hold VLPOST_MG_KDONE);
 * inner node j holds the loser of the match between its two subtrees, lt[0]
 * the overall winner.  When the winner's key changes, one pass from its leaf
 * to the root, one branch-free comparison per level, finds the new winner. */
static vlpost_mg_key mk_key(int64_t t, int task)
{
	return (vlpost_mg_key)((uint64_t)t ^ ((uint64_t)1 << 63)) << 64 | (uint32_t)task;
}

static int key_task(vlpost_mg_key k)
{
	return (int)(uint32_t)k;
}

static int64_t key_time(vlpost_mg_key k)
{
	return (int64_t)((uint64_t)(k >> 64) ^ ((uint64_t)1 << 63));
}

static void lt_replay(vlm *m, int task, vlpost_mg_key cur)
{
	vlpost_mg_key *lt = m->lt;
	for (unsigned j = ((unsigned)m->lk + (unsigned)task) >> 1; j > 0; j >>= 1) {
		vlpost_mg_key x = lt[j];
		int sw = x < cur;
		lt[j] = sw ? cur : x;
		cur = sw ? x : cur;
	}
	lt[0] = cur;
}

/* Play every match once, the leaves holding the tasks' first keys. */
static int lt_build(vlm *m)
{
	int n = m->set->n, lk = 1;
	vlpost_mg_key *w;
	while (lk < n)
		lk *= 2;
	m->lk = lk;
	m->lt = malloc((size_t)lk * sizeof *m->lt);
	w = malloc(2 * (size_t)lk * sizeof *w);
	if (!m->lt || !w) {
		free(w);
		return vlpost_mg_fail(m, "out of memory");
	}
	for (int i = 0; i < lk; i++)
		w[lk + i] = i < n ? mk_key(next_t(m, vlpost_mg_tk(m, i)), i) : VLPOST_MG_KDONE;
	for (int j = lk - 1; j > 0; j--) {
		vlpost_mg_key a = w[2 * j], b = w[2 * j + 1];
		w[j] = a < b ? a : b;
		m->lt[j] = a < b ? b : a;
	}
	m->lt[0] = w[1];
	free(w);
	return 0;
}

/* The event of the winner was used: move on. */
static int advance(vlm *m)
{
	int top = m->last, unused = 0;
	vlpost_mg_task *k = vlpost_mg_tk(m, top);
	int64_t t;
	if (++k->qi == k->qn) {
		int rc = refill(m, k);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			lt_replay(m, top, VLPOST_MG_KDONE);
			if (settle(m, top, NULL, &unused) < 0)
				return -1;
			return vlpost_mg_unreceived(m, top, NULL, NULL);
		}
	}
	t = next_t(m, k);
	/* the same key: still the winner (events of one time of one task in a row) */
	if (t != m->last_t)
		lt_replay(m, top, mk_key(t, top));
	return 0;
}

vlpost_mg_ev *vlpost_mg_next(vlm *m, vlpost_mg_task **kp, int *rc)
{
	vlpost_mg_task *k;
	*rc = 0;
	if (m->last >= 0 && advance(m) < 0) {
		m->last = -1;
		*rc = -1;
		pg_end(m, 0);
		return NULL;
	}
	if (m->lt[0] == VLPOST_MG_KDONE) {
		m->last = -1;
		pg_end(m, 1);
		return NULL;
	}
	m->last = key_task(m->lt[0]);
	m->last_t = key_time(m->lt[0]);
	k = vlpost_mg_tk(m, m->last);
	*kp = k;
	return (vlpost_mg_ev *)(k->q + (size_t)k->qi * m->esz);
}

/* --partial: the last seq each task really sent (records before its first error);
 * m->incomplete: that of a task whose trace is incomplete, the others all. */
static int scan_maxseq(vlm *m)
{
	vl_trec r;
	for (int i = 0; i < m->set->n; i++) {
		vlpost_mg_task *k = vlpost_mg_tk(m, i);
		while (vlpost_tfile_next(k->f, &r) == 1)
			if (r.type == VL_EV_SEND)
				k->maxseq = r.seq;
		if (k->f->err == VL_TR_EIO)
			return vlpost_mg_fail(m, "%s", k->f->errmsg);
		if (!m->partial && !tolerated(m, k->f))
			k->maxseq = UINT32_MAX;
	}
	return vlpost_tset_rewind(m->set, m->err, m->errlen);
}

int vlpost_mg_init(vlm *m)
{
	int n = m->set->n;
	m->last = -1;
	pg_init(m);
	/* whole cache lines per task */
	m->tsz = (m->ops->task_size + 63) / 64 * 64;
	m->esz = m->ops->ev_size;
	m->tk = aligned_alloc(64, (size_t)n * m->tsz);
	if (!m->tk)
		return vlpost_mg_fail(m, "out of memory");
	memset(m->tk, 0, (size_t)n * m->tsz);
	for (int i = 0; i < n; i++) {
		vlpost_mg_task *k = vlpost_mg_tk(m, i);
		k->f = &m->set->f[i];
		k->st = &m->st_base[i];
		k->q = (char *)k + m->ops->queue_off;
		k->proc = i;
		k->ptid[0] = k->ptid[1] = m->set->f[i].hdr.tid;
		k->pproc[0] = k->pproc[1] = i;
		k->state = VLPOST_MG_BEGIN;
		m->ops->init(m, k);
		vlpost_stats_init(k->st, i, &m->set->f[i].hdr);
	}
	if ((m->partial || m->incomplete) && scan_maxseq(m) < 0)
		return -1;
	for (int i = 0; i < n; i++)
		refill(m, vlpost_mg_tk(m, i));
	return lt_build(m);
}

void vlpost_mg_free(vlm *m)
{
	pg_end(m, 0);
	free(m->tk);
	free(m->lt);
	free(m->pd);
	free(m->fly);
}

/* ---- the command of a converter ---- */
int vlpost_mg_main(const vlpost_mg_cmd *c, int argc, char **argv)
{
	const char *dir = NULL, *o = NULL;
	int partial = 0, rc;
	vlpost_tset set;
	vlpost_tstats *st;
	char err[1024], *out;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return fputs(c->usage, stdout), 0;
		if (strcmp(argv[i], "--partial") == 0)
			partial = 1;
		else if (strcmp(argv[i], "-o") == 0 && i + 1 == argc)
			return vlpost_cli_usage(c->usage, "-o: missing %s", c->out_is);
		else if (strcmp(argv[i], "-o") == 0)
			o = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1])
			return vlpost_cli_usage(c->usage, "%s: unknown option %s", c->name, argv[i]);
		else if (dir)
			return vlpost_cli_usage(c->usage, "%s: extra argument %s", c->name, argv[i]);
		else
			dir = argv[i];
	}
	if (!dir)
		return vlpost_cli_usage(c->usage, "%s: missing TRACEDIR", c->name);
	if (vlpost_tset_open(&set, dir, partial ? VLPOST_TSET_SKIPBAD : 0, stderr, err, sizeof err) < 0) {
		vlu_err(VLPOST_EXIT_BAD, "%s", err);
		vlpost_tset_close(&set);
		return VLPOST_EXIT_BAD;
	}
	out = o ? strdup(o) : vlpost_cli_name(dir, "", c->suffix);
	st = calloc((size_t)set.n, sizeof *st);
	if (!out || !st)
		rc = vlu_err(VLPOST_EXIT_BAD, "out of memory");
	else
		rc = c->to(&set, out, partial, st);
	free(st);
	free(out);
	vlpost_tset_close(&set);
	return rc;
}
