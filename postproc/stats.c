/* stats.c - per-task summary of a trace set, and the report's size histogram
 * and sender x receiver matrix (stats.h); the critical path is in critpath.c,
 * the printers in stats_text.c, stats_csv.c and stats_json.c. */
#include "stats.h"
#include "critpath.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void vlpost_stats_init(vlpost_tstats *s, int proc, const vl_thdr *h)
{
	memset(s, 0, sizeof *s);
	s->proc = proc;
	s->tid = h->tid;
	s->ptid = h->ptid;
	s->host = h->host;
	memcpy(s->host_name, h->host_name, sizeof s->host_name);
	s->host_name[sizeof s->host_name - 1] = '\0';
	memcpy(s->program, h->program, sizeof s->program);
	s->program[sizeof s->program - 1] = '\0';
	s->start = s->end = s->last = h->start_ns;
}

static void st_send(vlpost_tstats *s, const vl_trec *r)
{
	int shared = (r->flags & VL_TF_MCAST) && s->mc_on && r->u.v.t0 == s->mc_t0 &&
		     r->u.v.t1 == s->mc_t1;
	s->nsent++;
	s->bsent += (uint64_t)r->u.v.bytes;
	if (!shared) {
		/* a blocking rendezvous send waits t4 ns at the end of its call */
		int64_t w = r->flags & VL_TF_NB ? 0 : r->u.v.t4;
		s->rcomm += r->u.v.t1 - r->u.v.t0 - w;
		s->rwait += w;
	}
	s->mc_on = (r->flags & VL_TF_MCAST) != 0;
	s->mc_t0 = r->u.v.t0;
	s->mc_t1 = r->u.v.t1;
}

void vlpost_stats_add(vlpost_tstats *s, const vl_trec *r)
{
	int64_t d = r->u.v.t1 - r->u.v.t0;
	if (r->u.v.t1 > s->last)
		s->last = r->u.v.t1;
	if (r->type != VL_EV_SEND)
		s->mc_on = 0;
	switch (r->type) {
	case VL_EV_SEND:
		st_send(s, r);
		break;
	case VL_EV_RECV:
		s->nrecv++;
		s->brecv += (uint64_t)r->u.v.bytes;
		s->rcomm += d - r->u.v.t2;
		s->rwait += r->u.v.t2;
		break;
	case VL_EV_COLL:
	case VL_EV_WAIT:
		s->rcomm += d - r->u.v.t2;
		s->rwait += r->u.v.t2;
		break;
	case VL_EV_PROBE:
		if (r->flags & VL_TF_FOUND) {
			s->rcomm += d - r->u.v.t2;
			s->rwait += r->u.v.t2;
		} else {
			s->rcomm += d;
		}
		break;
	case VL_EV_SPAWN:
	case VL_EV_IRECV:
		s->rcomm += d;
		break;
	case VL_EV_SLEEP:
		s->rwait += d;
		break;
	case VL_EV_END:
		s->has_end = 1;
		s->end = r->u.v.t0;
		s->comp = r->u.v.bytes;
		s->comm = r->u.v.t2;
		s->wait = r->u.v.t3;
		s->real_ns = r->u.v.t4;
		s->steal_ms = r->tag;
		s->preempted = r->seq;
		break;
	default:
		break;
	}
}

void vlpost_stats_done(vlpost_tstats *s)
{
	if (s->has_end)
		return;
	s->end = s->last;
	s->comm = s->rcomm;
	s->wait = s->rwait;
	s->comp = s->end - s->start - s->comm - s->wait;
	if (s->comp < 0)
		s->comp = 0;
}

int64_t vlpost_stats_elapsed(const vlpost_tstats *st, int n)
{
	int64_t lo = 0, hi = 0;
	for (int i = 0; i < n; i++) {
		if (i == 0 || st[i].start < lo)
			lo = st[i].start;
		if (i == 0 || st[i].end > hi)
			hi = st[i].end;
	}
	return hi - lo;
}

int vlpost_fmt_sec(char *buf, int64_t ns)
{
	int neg = ns < 0;
	uint64_t a = neg ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t us = (a + 500) / 1000;
	return snprintf(buf, 32, "%s%" PRIu64 ".%06" PRIu64, neg ? "-" : "", us / 1000000,
			us % 1000000);
}

/* ---- the report: histogram, matrix ---- */
int vlpost_hist_bucket(uint64_t bytes)
{
	int k = 0;
	while (bytes) {
		k++;
		bytes >>= 1;
	}
	return k < VLPOST_HIST_N ? k : VLPOST_HIST_N - 1;
}

uint64_t vlpost_hist_lo(int k)
{
	return k <= 0 ? 0 : (uint64_t)1 << (k - 1);
}

uint64_t vlpost_hist_hi(int k)
{
	if (k <= 0)
		return 0;
	return k >= VLPOST_HIST_N - 1 ? UINT64_MAX : ((uint64_t)1 << k) - 1;
}

int vlpost_report_init(vlpost_report *rep, const vlpost_tstats *st, int n)
{
	memset(rep, 0, sizeof *rep);
	rep->n = n;
	rep->cp.end_proc = -1;
	if (n <= 0)
		return 0;
	return vlpost_cp_init(rep, st);
}

static uint64_t pair_hash(int from, int32_t tid)
{
	uint64_t k = ((uint64_t)(uint32_t)from << 32) | (uint32_t)tid;
	k *= 0x9E3779B97F4A7C15ull;
	return k ^ (k >> 29);
}

static int pair_grow(vlpost_report *rep)
{
	size_t cap = rep->pcap ? rep->pcap * 2 : 64;
	vlpost_pair *p = calloc(cap, sizeof *p);
	if (!p)
		return -1;
	for (size_t i = 0; i < rep->pcap; i++) {
		const vlpost_pair *o = &rep->pairs[i];
		size_t h;
		if (!o->n)
			continue;
		h = pair_hash(o->from, o->to_tid) & (cap - 1);
		while (p[h].n)
			h = (h + 1) & (cap - 1);
		p[h] = *o;
	}
	free(rep->pairs);
	rep->pairs = p;
	rep->pcap = cap;
	return 0;
}

/* The table has no empty-slot marker other than n == 0: every used slot has n >= 1. */
static int pair_add(vlpost_report *rep, int from, int32_t tid, uint64_t bytes)
{
	size_t h;
	vlpost_pair *e;
	if (2 * (rep->npairs + 1) > rep->pcap && pair_grow(rep) < 0)
		return -1;
	h = pair_hash(from, tid) & (rep->pcap - 1);
	while (rep->pairs[h].n && (rep->pairs[h].from != from || rep->pairs[h].to_tid != tid))
		h = (h + 1) & (rep->pcap - 1);
	e = &rep->pairs[h];
	if (!e->n) {
		e->from = from;
		e->to_tid = tid;
		e->to = vlpost_cp_proc(rep, tid);
		rep->npairs++;
	}
	e->n++;
	e->bytes += bytes;
	return 0;
}

int vlpost_report_add(vlpost_report *rep, int proc, const vl_trec *r)
{
	if (proc < 0 || proc >= rep->n)
		return 0;
	if (r->type == VL_EV_SEND) {
		uint64_t b = (uint64_t)r->u.v.bytes;
		int k = vlpost_hist_bucket(b);
		rep->hist_n[k]++;
		rep->hist_bytes[k] += b;
		if (pair_add(rep, proc, r->peer, b) < 0)
			return -1;
	}
	return vlpost_cp_keep(rep, proc, r);
}

static int pair_cmp(const void *a, const void *b)
{
	const vlpost_pair *x = a, *y = b;
	int64_t kx = x->to >= 0 ? x->to : INT32_MAX, ky = y->to >= 0 ? y->to : INT32_MAX;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x->to_tid < y->to_tid ? -1 : x->to_tid > y->to_tid;
}

int vlpost_report_finish(vlpost_report *rep, const vlpost_tstats *st)
{
	size_t m = 0;
	for (size_t i = 0; i < rep->pcap; i++)
		if (rep->pairs[i].n)
			rep->pairs[m++] = rep->pairs[i];
	if (m)
		qsort(rep->pairs, m, sizeof *rep->pairs, pair_cmp);
	rep->npairs = m;
	rep->pcap = 0; /* no longer a hash table */
	return vlpost_cp_compute(rep, st);
}

void vlpost_report_free(vlpost_report *rep)
{
	vlpost_cp_free(rep);
	free(rep->pairs);
	memset(rep, 0, sizeof *rep);
}
