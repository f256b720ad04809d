/* replay_engine.c - the replay engine (replay_engine.h): the tasks, the
 * messages and collectives in flight, the scheduler.  The rules per record
 * kind follow the online layer: vlayer/core/message.c (send, receive, probe,
 * nonblocking completion), vlayer/pvm/{send,recv,tasks}.c (multicast
 * contention, polls, spawns), vlayer/mpi/{send,header,coll}.c (rendezvous,
 * collectives).  Costs come only from vlayer/core/model.c and vlcoll_sim.
 *
 * Messages between hosts on a [topology] (ordering = virtual) share the links
 * as online (vlayer/core/order_flows.c): each eager message is a flow in a
 * table of the same kind (flowtab.c), added when it leaves; a receive waits
 * until its flow is final.  The scheduler decides that as the tasks online
 * do, conservatively: when no task can go on, every task that will still
 * add a flow must first be woken, at the earliest by the open flow that
 * ends first - so every flow that ends before that end plus the lookahead
 * is final.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_engine.h"
#include "vlayer/coll/coll.h"
#include "vlayer/core/engine.h"

#define BATCH 64        /* records a task runs before the next one gets its turn */
#define PVM_TID_MIN 0x40000 /* PVM tids carry a host field from bit 18 on; MPI ranks do not */

enum { RUN = 0, BLOCKED, DONE };


/* A message in flight, keyed by (sender tid, seq). */
typedef struct rmsg {
	int32_t src;
	uint32_t seq;
	int64_t go, trans;      /* new: end of the send (departure of an eager one), T(n) */
	int64_t post;           /* new: when its receive was posted */
	int64_t bytes;
	int src_ri, dst_ri;     /* sender's and receiver's task index */
	uint8_t have_send, have_post, rdv, recv_done, send_done;
	uint8_t wild;           /* its receive's source was a wildcard (a rendezvous: no flow) */
	int flow;               /* its flow on shared links: index + 1 in rpl.ft, 0 none */
	int wait_recv, wait_send; /* task blocked on it, -1 */
	int next;               /* hash chain / free list */
} rmsg;

/* An outstanding nonblocking request of a task. */
typedef struct rreq {
	uint32_t num, seq;
	int64_t post;
	int kind; /* 0 free, 1 receive posted, 2 send */
	int rdv;
	int wild; /* a receive from any source */
} rreq;

/* A collective on every task (MPI_COMM_WORLD and its duplicates). */
typedef struct rcoll {
	uint64_t k;
	int kind, root, arrived, left, done;
	int nb;               /* a nonblocking one (any member's record says so): 1
				 found at its completion (a trace without its
				 VL_EV_ICOLL), 2 started by its VL_EV_ICOLL */
	int unshared;         /* (2) a member's start says its messages kept to
				 themselves */
	vlcoll_job *job;      /* sharing the links with the other messages: running */
	vlcoll_net net;
	struct rpl *r;
	unsigned flags;       /* the call made: VL_TF_V, VL_TF_BLOCK (any member's) */
	int64_t *entry, *bytes;
	int norow;            /* an alltoallv a member's trace gave no row of (its
				 VL_EV_BLOCKS: before the third session of 2026-11-29) */
	int64_t *vblk;        /* a scatterv's or gatherv's blocks, from its root's
				 VL_EV_BLOCKS (NULL: the root not in yet, or a
				 trace without them) */
	int64_t *eexit;       /* the exit of a member let go early (coll_early), else -1 */
	vlcoll_out *out;
	struct rcoll *next;
} rcoll;

typedef struct rtask {
	vlpost_rpl_src *src;
	vl_thdr hdr;          /* with the new start time */
	int32_t tid;
	int host, parent;     /* new host index; parent's task index or -1 */
	int unplaced;         /* its recorded host is not on the new machine (yet) */
	int state, queued;
	int64_t start_new;
	int start_known;
	int flops_differ;     /* the hosts' flops differ (vl_compute_flops) */
	double ratio;         /* gap scale: new factor / old factor */
	int ratio_one;
	/* the record in progress */
	vl_trec cur;
	int phase;            /* 0: not begun */
	int64_t t0n, clk0;    /* its new begin, the clock when its own cost begins */
	int64_t oclk0;        /* the same in the old run */
	uint32_t tseq;        /* probe: the seq of the message it found */
	int sflow;            /* send: its message is a flow on shared links */
	rcoll *coll;
	int early;            /* let go of coll before every member was in (coll_early): eo */
	vlcoll_out eo;
	int64_t nbstart;      /* a nonblocking collective's new start */
	struct rnb { uint32_t key; rcoll *g; } *nbo; /* its nonblocking collectives started */
	int nnb, cnb;
	int64_t waited;
	/* clocks */
	int64_t now, oprev_t1;    /* new clock; old end of the previous record */
	int64_t call_old, call_new; /* begin of the current call, old and new */
	int64_t comm, wait, ocomm, owait;
	/* multicast, spawn, collectives */
	int mc_left;
	double mc_f;
	/* a multicast on a [topology]: its messages' arrivals (vli_net_mcast),
	 * the current one's at mc_arr[mc_n - 1 - mc_left] while mc_on */
	int64_t *mc_arr;
	int mc_n, mc_cap, mc_on;
	int64_t sp_call_old, sp_call_new, sp_end_old;
	uint64_t ncoll;
	/* last receive: the order check */
	int32_t lr_src;
	int32_t lr_tag;
	int64_t lr_arr_new, lr_arr_old;
	int lr_valid;
	/* requests */
	rreq *req;
	int nreq, creq;
	/* rendezvous lookups: request numbers whose receive is awaited (msg index) */
	struct { uint32_t num; int msg; } *look;
	int nlook, clook;
} rtask;

typedef struct rpl {
	const vlcfg_config *old, *nw;
	int n, mpi, world;
	rtask *t;
	int *tid_hash;
	uint32_t tid_mask;
	rmsg *m;
	int nm, cm, freem;
	int *mh;
	uint32_t mh_mask;
	rcoll *colls;
	int *q;
	int qh, qn;
	vli_ftab *ft;           /* the flows in flight, when flows (see above) */
	int flows;
	vlpost_rpl_emit emit;
	void *ectx;
	vlpost_rpl_result *res;
	char *err;
	size_t errlen;
	int failed;
	int idle;             /* settle_flows calls in a row that changed nothing */
} rpl;

static const char *const approx_text[VLPOST_RPL_NMSGS] = {
	"unsuccessful polls (pvm_nrecv, pvm_probe, pvm_trecv timeouts, MPI tests and "
	"probes): on another machine a poll may find a message at another try, and the "
	"program may take another path",
	"nonblocking receives from any source: on another machine another message may match",
	"a receive takes a message that arrives, on this machine, later than one taken "
	"after it from another sender: a receive from any source would have taken the "
	"other one first (the recorded matching is kept)",
	"sleeps: a loop that sleeps until something happens may sleep another number of "
	"times on another machine",
	"vl_set_param changes are not applied: the replay uses the given VMConfig throughout",
	"nonblocking collectives of a trace written before 2026-11-27 (without their start "
	"record): their start is placed at its recorded distance from the completing call "
	"(and with [topology] collectives = shared their messages do not share the links "
	"with the others', as they did online)",
	"collectives on communicators smaller than MPI_COMM_WORLD and pvm_barrier: their "
	"recorded duration is kept",
	"messages from or to tasks without a trace (or untimed ones): their recorded "
	"waiting is kept",
	"vl_compute records are kept as recorded, but hosts' flops differ "
	"(vl_compute_flops cannot be told apart)",
	"a record begins inside an earlier call: placed at its recorded distance",
	"multicasts on a VMConfig with a [topology] whose records do not follow one "
	"another: each message is timed alone on its route, without the sharing among the "
	"multicast's messages an online run has",
	"more messages in flight on a [topology]'s links at once than the table of flows "
	"holds (4096): the others take their contention-free time, as online",
	"messages on a [topology]'s links timed before every message sharing the links "
	"with them was known (a member of a collective on shared links went on before "
	"members it shares links with entered): their times depend on when the links' "
	"simulation looked, here and online",
};

const char *vlpost_rpl_approx_text(unsigned bit)
{
	int i;

	for (i = 0; i < VLPOST_RPL_NMSGS; i++)
		if (bit == 1u << i)
			return approx_text[i];
	return "?";
}

static int fail(rpl *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(rpl *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->failed) {
		va_start(ap, fmt);
		vsnprintf(r->err, r->errlen, fmt, ap);
		va_end(ap);
	}
	r->failed = 1;
	return -1;
}

/* ---- tasks by tid ---- */

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

static int task_of(const rpl *r, int32_t tid)
{
	uint32_t i = hash32((uint32_t)tid) & r->tid_mask;

	for (; r->tid_hash[i]; i = (i + 1) & r->tid_mask)
		if (r->t[r->tid_hash[i] - 1].tid == tid)
			return r->tid_hash[i] - 1;
	return -1;
}

/* ---- messages in flight ---- */

static uint32_t mkey(int32_t src, uint32_t seq)
{
	return hash32((uint32_t)src * 0x9e3779b1U ^ hash32(seq));
}

static int msg_grow_hash(rpl *r)
{
	uint32_t nmask = r->mh_mask ? r->mh_mask * 2 + 1 : 1023, i;
	int *nh = malloc(sizeof(int) * (nmask + 1)), j;

	if (!nh)
		return -1;
	for (i = 0; i <= nmask; i++)
		nh[i] = -1;
	for (i = 0; r->mh && i <= r->mh_mask; i++)
		for (j = r->mh[i]; j >= 0;) {
			int nx = r->m[j].next;
			uint32_t b = mkey(r->m[j].src, r->m[j].seq) & nmask;

			r->m[j].next = nh[b];
			nh[b] = j;
			j = nx;
		}
	free(r->mh);
	r->mh = nh;
	r->mh_mask = nmask;
	return 0;
}

/* The entry of message (src, seq), created if missing; -1 out of memory. */
static int msg_get(rpl *r, int32_t src, uint32_t seq)
{
	uint32_t b = mkey(src, seq) & r->mh_mask;
	int j;
	rmsg *e;

	for (j = r->mh[b]; j >= 0; j = r->m[j].next)
		if (r->m[j].src == src && r->m[j].seq == seq)
			return j;
	if (r->freem < 0) {
		if (r->cm == r->nm) {
			int nc = r->cm ? r->cm * 2 : 1024;
			rmsg *nm = realloc(r->m, sizeof *nm * (size_t)nc);

			if (!nm)
				return -1;
			r->m = nm;
			r->cm = nc;
		}
		j = r->nm++;
	} else {
		j = r->freem;
		r->freem = r->m[j].next;
	}
	if ((uint32_t)r->nm > r->mh_mask && msg_grow_hash(r) < 0)
		return -1;
	b = mkey(src, seq) & r->mh_mask;
	e = &r->m[j];
	memset(e, 0, sizeof *e);
	e->src = src;
	e->seq = seq;
	e->wait_recv = e->wait_send = -1;
	e->next = r->mh[b];
	r->mh[b] = j;
	return j;
}

/* Drop message j once neither side needs it. */
static void msg_done(rpl *r, int j)
{
	rmsg *e = &r->m[j];
	uint32_t b;
	int *p;

	if (!e->recv_done || !e->send_done)
		return;
	b = mkey(e->src, e->seq) & r->mh_mask;
	for (p = &r->mh[b]; *p != j; p = &r->m[*p].next)
		;
	*p = e->next;
	e->next = r->freem;
	r->freem = j;
}

/* ---- scheduling ---- */

static void wake(rpl *r, int i)
{
	rtask *t;

	if (i < 0)
		return;
	t = &r->t[i];
	if (t->state != BLOCKED)
		return;
	t->state = RUN;
	if (!t->queued) {
		r->q[(r->qh + r->qn++) % r->n] = i;
		t->queued = 1;
	}
}

/* ---- the model ---- */

static int host_of_tid(const rpl *r, int32_t tid)
{
	int i = task_of(r, tid);

	return i >= 0 ? r->t[i].host : -1;
}

/* A destination host for a task without trace: the one whose cost matches the
 * recorded one (intra if own, else any other). */
static int other_host(const rtask *t)
{
	return t->host == 0 ? 1 : 0;
}

static int64_t scale_gap(const rtask *t, int64_t gap)
{
	double v;

	if (gap <= 0 || t->ratio_one)
		return gap;
	v = (double)gap * t->ratio;
	return v >= (double)VLI_TIME_MAX ? VLI_TIME_MAX : (int64_t)llround(v);
}

/* Receive cost R of a call that names src_host (-1: the receiver's own). */
static int64_t rcost(const vlcfg_config *c, int src_host, int me)
{
	return vli_recv_time(c, src_host >= 0 ? src_host : me, me);
}

/* The source host whose R on c equals d (a poll's recorded duration); -1 own. */
static int infer_src(const vlcfg_config *c, const rtask *t, int64_t d)
{
	if (rcost(c, -1, t->host) == d)
		return -1;
	if (c->nhosts > 1 && rcost(c, other_host(t), t->host) == d)
		return other_host(t);
	return -1;
}

/* ---- one record ---- */

static void approx(rpl *r, unsigned bit)
{
	r->res->approx |= bit;
}

/* Emit the replayed record nr of task i and advance its old clock. */
static int put(rpl *r, int i, vl_trec *nr, int64_t comm, int64_t wait, int64_t ocomm,
	       int64_t owait)
{
	rtask *t = &r->t[i];
	const vl_trec *o = &t->cur;

	t->comm += comm;
	t->wait += wait;
	t->ocomm += ocomm;
	t->owait += owait;
	if (nr->u.v.t1 > t->now)
		t->now = nr->u.v.t1;
	if (o->u.v.t1 > t->oprev_t1)
		t->oprev_t1 = o->u.v.t1;
	r->res->events++;
	if (memcmp(nr, o, sizeof *nr) != 0)
		r->res->differ++;
	t->phase = 0;
	if (r->emit && r->emit(r->ectx, i, &t->hdr, nr) < 0)
		return fail(r, "cannot write the replayed trace of task t%x", (unsigned)t->tid);
	return 0;
}

/* Begin record cur: the gap before it is scaled computation. */
static void begin(rpl *r, rtask *t)
{
	const vl_trec *c = &t->cur;
	int64_t gap = c->u.v.t0 - t->oprev_t1;

	t->oclk0 = c->u.v.t0 > t->oprev_t1 ? c->u.v.t0 : t->oprev_t1;
	if (gap >= 0) {
		t->now += scale_gap(t, gap);
		r->res->gap_ns += gap;
		t->t0n = t->now;
		t->call_old = c->u.v.t0;
		t->call_new = t->now;
	} else if (c->u.v.t0 == t->call_old) {
		t->t0n = t->call_new; /* one more record of the same call (Waitall ...) */
	} else {
		t->t0n = t->now + gap; /* inside an earlier call: keep the distance */
		if (t->t0n < t->start_new)
			t->t0n = t->start_new;
		if (c->type != VL_EV_COLL)
			approx(r, VLPOST_RPL_OVERLAP);
	}
	t->clk0 = t->now;
	t->phase = 1;
}

static void wait_until(rtask *t, int64_t tt)
{
	if (tt > t->now) {
		t->waited += tt - t->now;
		t->now = tt;
	}
}

static int block(rtask *t)
{
	t->state = BLOCKED;
	return 1;
}

static rreq *req_find(rtask *t, uint32_t num, int kind)
{
	int i;

	for (i = 0; i < t->nreq; i++)
		if (t->req[i].kind == kind && t->req[i].num == num)
			return &t->req[i];
	return NULL;
}

static rreq *req_new(rtask *t)
{
	int i;

	for (i = 0; i < t->nreq; i++)
		if (!t->req[i].kind)
			return &t->req[i];
	if (t->nreq == t->creq) {
		int nc = t->creq ? t->creq * 2 : 8;
		rreq *nq = realloc(t->req, sizeof *nq * (size_t)nc);

		if (!nq)
			return NULL;
		t->req = nq;
		t->creq = nc;
	}
	return &t->req[t->nreq++];
}

/* Publish that the receive of message j was posted at post. */
/* A rendezvous between hosts on a [topology] whose send and (named)
 * receive are both known: its flow, leaving when both are there, as online
 * (vlayer/core/order_flows.c: pending until the receive is posted). */
static void rdv_flow(rpl *r, int j)
{
	rmsg *e = &r->m[j];
	int sh, dh, x;

	if (!r->flows || !e->rdv || !e->have_send || !e->have_post || e->wild || e->flow ||
	    e->dst_ri < 0)
		return;
	sh = r->t[e->src_ri].host;
	dh = r->t[e->dst_ri].host;
	if (sh == dh)
		return;
	x = vli_ftab_add(r->ft, e->src, e->seq, r->t[e->dst_ri].tid, e->dst_ri, sh, dh, e->bytes,
			 e->post > e->go ? e->post : e->go);
	if (x < 0) {
		approx(r, VLPOST_RPL_FLOWS);
		return;
	}
	r->ft->e[x].need = 2; /* its sender's call ends at its arrival too */
	e->flow = x + 1;
}

static void posted(rpl *r, int j, int64_t post, int wild)
{
	rmsg *e = &r->m[j];

	if (e->have_post)
		return;
	e->have_post = 1;
	e->post = post;
	e->wild = (uint8_t)(wild != 0);
	rdv_flow(r, j);
	wake(r, e->wait_send);
	e->wait_send = -1;
}

/* A rendezvous sender waits for the post of message j to task ri: find, in
 * ri's records still to come, the receive that takes it; if a nonblocking one
 * already posted takes it, publish that post. */
static int look_ahead(rpl *r, int j, int ri)
{
	rtask *t = &r->t[ri];
	vl_trec x;
	uint64_t k;
	rreq *q;

	if (t->state == DONE)
		return 0;
	for (k = 0; t->src->peek(t->src->ctx, k, &x) == 1; k++) {
		if (x.type != VL_EV_RECV || x.peer != r->m[j].src || x.seq != r->m[j].seq)
			continue;
		if (!(x.flags & VL_TF_NB))
			return 0; /* a blocking receive: it posts when it gets there */
		q = req_find(t, (uint32_t)x.u.v.t4, 1);
		if (q) {
			posted(r, j, q->post, q->wild);
			return 0;
		}
		if (t->nlook == t->clook) {
			int nc = t->clook ? t->clook * 2 : 4;
			void *nl = realloc(t->look, sizeof *t->look * (size_t)nc);

			if (!nl)
				return fail(r, "out of memory");
			t->look = nl;
			t->clook = nc;
		}
		t->look[t->nlook].num = (uint32_t)x.u.v.t4;
		t->look[t->nlook++].msg = j;
		return 0;
	}
	return 0;
}

/* The first message of a multicast (its k records follow one another): on a
 * [topology] its messages share the sender's links, as online (PVM send.c):
 * find the others' hosts ahead, and time all k from their departures (each
 * one's send time after the previous one's; the first leaves at t0n + its
 * own).  Records that do not follow as expected: each message alone, warned. */
static int mcast_net(rpl *r, rtask *t, int dh)
{
	const vl_trec *c = &t->cur;
	int k = (int)c->u.v.t3, i, *hosts;
	int64_t *dep, d;
	vl_trec x;

	t->mc_on = 0;
	if (k <= 1 || !vli_net_on(r->nw))
		return 0;
	if (k > t->mc_cap) {
		int64_t *na = realloc(t->mc_arr, sizeof *na * (size_t)k * 3);

		if (!na)
			return fail(r, "out of memory");
		t->mc_arr = na;
		t->mc_cap = k;
	}
	dep = t->mc_arr + k;
	hosts = (int *)(t->mc_arr + 2 * k);
	hosts[0] = dh;
	for (i = 1; i < k; i++) {
		int ri;

		if (t->src->peek(t->src->ctx, (uint64_t)(i - 1), &x) != 1 || x.type != VL_EV_SEND ||
		    !(x.flags & VL_TF_MCAST) || x.u.v.t3 != k || x.u.v.bytes != c->u.v.bytes) {
			approx(r, VLPOST_RPL_MCASTNET);
			return 0;
		}
		ri = task_of(r, x.peer);
		hosts[i] = ri >= 0 ? r->t[ri].host : other_host(t);
	}
	d = t->t0n;
	for (i = 0; i < k; i++) {
		d += vli_send_time(r->nw, t->host, hosts[i], c->u.v.bytes);
		dep[i] = d;
	}
	vli_net_mcast(r->nw, t->host, hosts, k, c->u.v.bytes, dep, t->mc_arr);
	t->mc_n = k;
	t->mc_on = 1;
	return 0;
}

/* A send's transmission time leaving at depart: a multicast's on a
 * [topology] from mcast_net, else the model's. */
static int64_t mcast_trans(const rpl *r, const rtask *t, int dh, int64_t bytes, int64_t depart)
{
	if (t->mc_on && (t->cur.flags & VL_TF_MCAST))
		return t->mc_arr[t->mc_n - 1 - t->mc_left] - depart;
	return vli_trans_time(r->nw, t->host, dh, bytes);
}

static int do_send(rpl *r, int i)
{
	rtask *t = &r->t[i];
	vl_trec *c = &t->cur, nr = *c;
	int nb = (c->flags & VL_TF_NB) != 0, ri = task_of(r, c->peer), dh, odh, j;
	int64_t bytes = c->u.v.bytes, s, tr, otr, os;
	int rdv_old, rdv_new;
	rmsg *e;

	dh = ri >= 0 ? r->t[ri].host : other_host(t);
	odh = ri >= 0 ? (int)r->t[ri].src->hdr.host : other_host(t);
	if (t->phase == 1) {
		if (ri < 0)
			approx(r, VLPOST_RPL_NOTRACE);
		if (c->flags & VL_TF_MCAST) {
			if (t->mc_left <= 0) {
				t->mc_left = (int)c->u.v.t3;
				t->mc_f = vli_contention(vli_link(r->nw, t->host, dh), t->mc_left);
				t->mc_on = 0;
				/* flows: each message shares the links with all others */
				if (r->flows)
					t->mc_f = 1;
				else if (mcast_net(r, t, dh) < 0)
					return -1;
			}
			t->mc_left--;
		} else {
			t->mc_left = 0;
			t->mc_on = 0;
		}
		s = vli_send_time(r->nw, t->host, dh, bytes);
		if ((c->flags & VL_TF_MCAST) && c->u.v.t3 > 1 && !t->mc_on)
			s = (int64_t)llround((double)s * t->mc_f);
		tr = mcast_trans(r, t, dh, bytes, t->t0n + s);
		/* which sends wait for their receive (MPI): timing shows the old mode */
		otr = vli_trans_time(r->old, (int)t->src->hdr.host, odh, bytes);
		if (!r->mpi)
			rdv_old = rdv_new = 0;
		else {
			int64_t el_old = r->old->mpi.eager_limit, el_new = r->nw->mpi.eager_limit;

			if (nb)
				rdv_old = bytes >= el_old;
			else if (otr > 0)
				rdv_old = c->u.v.t2 <= c->u.v.t1;
			else
				rdv_old = bytes >= el_old;
			if (rdv_old && bytes < el_old)
				rdv_new = 1; /* synchronous */
			else if (!rdv_old && bytes >= el_old)
				rdv_new = 0; /* buffered */
			else
				rdv_new = bytes >= el_new;
		}
		t->now = t->t0n + s;
		t->waited = 0;
		t->sflow = 0;
		t->tseq = (uint32_t)rdv_new;
		t->coll = NULL;
		if (ri >= 0) {
			if ((j = msg_get(r, t->tid, c->seq)) < 0)
				return fail(r, "out of memory");
			e = &r->m[j];
			e->have_send = 1;
			e->go = t->now;
			e->trans = tr;
			e->rdv = (uint8_t)rdv_new;
			e->send_done = !rdv_new;
			e->flow = 0;
			e->bytes = bytes;
			e->src_ri = i;
			e->dst_ri = ri;
			rdv_flow(r, j);
			if (r->flows && !rdv_new && dh != t->host) {
				int x = vli_ftab_add(r->ft, t->tid, c->seq, c->peer, ri, t->host, dh,
						     bytes, t->now);

				if (x < 0)
					approx(r, VLPOST_RPL_FLOWS); /* more in flight than online holds */
				e->flow = x + 1;
				t->sflow = x >= 0;
			}
			wake(r, e->wait_recv);
			e->wait_recv = -1;
			if (nb) {
				rreq *q = req_new(t);

				if (!q)
					return fail(r, "out of memory");
				q->kind = 2;
				q->num = (uint32_t)c->u.v.t4;
				q->seq = c->seq;
				q->rdv = rdv_new;
				/* on shared links its flow leaves when its receive is
				 * posted, which may be before this task waits for it (it
				 * may wait for something else first, or a collective in
				 * between takes the links with it): online the flow is in
				 * the table from then on, whatever the sender does */
				if (r->flows && rdv_new &&
				    dh != t->host && !r->m[j].have_post && look_ahead(r, j, ri) < 0)
					return -1;
			}
			msg_done(r, j);
		}
		t->phase = 2;
	}
	s = t->now - t->t0n;
	os = c->u.v.t1 - t->oclk0 - (nb ? 0 : c->u.v.t4);
	nr.flags &= (uint16_t)~VL_TF_SHARED;
	if (t->sflow)
		nr.flags |= VL_TF_SHARED;
	if (nb) {
		nr.u.v.t0 = t->t0n;
		nr.u.v.t1 = t->now;
		nr.u.v.t2 = t->now + vli_trans_time(r->nw, t->host, dh, bytes);
		return put(r, i, &nr, s, 0, os, 0);
	}
	tr = mcast_trans(r, t, dh, bytes, t->t0n + s);
	if (t->tseq && ri >= 0) { /* rendezvous: the data leave when the receive is there */
		j = msg_get(r, t->tid, c->seq);
		if (j < 0)
			return fail(r, "out of memory");
		e = &r->m[j];
		if (!e->have_post) {
			if (t->phase == 2) {
				t->phase = 3;
				if (look_ahead(r, j, ri) < 0)
					return -1;
				if (e->have_post)
					goto ready;
			}
			e->wait_send = i;
			return block(t);
		}
	ready:
		if (e->flow && !r->ft->e[e->flow - 1].final) {
			e->wait_send = i; /* (settle_flows wakes it) */
			return block(t);
		}
		{
			int64_t go = t->t0n + s;

			t->now = go;
			wait_until(t, e->post);
			nr.u.v.t2 = t->now + tr;
			if (e->flow) { /* on shared links */
				nr.u.v.t2 = r->ft->e[e->flow - 1].est;
				vli_ftab_consume(r->ft, e->flow - 1);
			}
			wait_until(t, nr.u.v.t2);
			e->send_done = 1;
			msg_done(r, j);
		}
	} else {
		nr.u.v.t2 = t->now + tr;
	}
	nr.u.v.t0 = t->t0n;
	nr.u.v.t1 = t->now;
	nr.u.v.t4 = t->waited;
	return put(r, i, &nr, s, t->waited, os, c->u.v.t4);
}

/* The order check: did an earlier receive take a message that now arrives
 * later than this one from another sender, when it was taken in the right
 * order before? */
static void order_check(rpl *r, rtask *t, const vl_trec *c, int64_t arr_new, int64_t t1_prev_new)
{
	(void)t1_prev_new;
	if (t->lr_valid && t->lr_src != c->peer && t->lr_tag == c->tag && arr_new < t->lr_arr_new &&
	    !(c->u.v.t3 < t->lr_arr_old))
		approx(r, VLPOST_RPL_ORDER);
	t->lr_valid = 1;
	t->lr_src = c->peer;
	t->lr_tag = c->tag;
	t->lr_arr_new = arr_new;
	t->lr_arr_old = c->u.v.t3;
}

static int do_recv(rpl *r, int i)
{
	rtask *t = &r->t[i];
	vl_trec *c = &t->cur, nr = *c;
	int si = task_of(r, c->peer), j = -1, wild;
	int64_t arrival, post, ocomm, owait;
	rmsg *e = NULL;

	ocomm = c->u.v.t1 - t->oclk0 - c->u.v.t2;
	owait = c->u.v.t2;
	if ((c->flags & VL_TF_SYNTH) || si < 0) {
		/* untimed, or a sender without trace: keep the recorded waiting */
		int sh = infer_src(r->old, t, ocomm);

		approx(r, VLPOST_RPL_NOTRACE);
		t->waited = 0;
		wait_until(t, t->now + c->u.v.t2);
		arrival = (c->flags & VL_TF_SYNTH) ? t->clk0 : t->now;
		nr.u.v.t0 = t->t0n;
		nr.u.v.t3 = arrival;
		nr.u.v.t2 = t->waited;
		t->now += rcost(r->nw, sh, t->host);
		nr.u.v.t1 = t->now;
		return put(r, i, &nr, t->now - t->clk0 - nr.u.v.t2, nr.u.v.t2, ocomm, owait);
	}
	if ((j = msg_get(r, c->peer, c->seq)) < 0)
		return fail(r, "out of memory");
	e = &r->m[j];
	if (c->flags & VL_TF_NB) {
		rreq *q = req_find(t, (uint32_t)c->u.v.t4, 1);

		if (!q)
			return fail(r, "task t%x: a nonblocking receive completes request %lld, "
				    "which no IRECV record posted", (unsigned)t->tid,
				    (long long)c->u.v.t4);
		post = q->post;
		wild = q->wild;
	} else {
		post = t->t0n;
		/* (a blocking wildcard's rendezvous shares since VL_TF_ANYRDV) */
		wild = (c->flags & (VL_TF_ANY | VL_TF_ANYRDV)) == VL_TF_ANY;
	}
	posted(r, j, post, wild);
	if (!e->have_send) {
		e->wait_recv = i;
		return block(t);
	}
	if (e->flow && !r->ft->e[e->flow - 1].final) {
		e->wait_recv = i; /* (settle_flows wakes it) */
		return block(t);
	}
	if (c->flags & VL_TF_NB) {
		rreq *q = req_find(t, (uint32_t)c->u.v.t4, 1);

		q->kind = 0;
	}
	arrival = (e->rdv && post > e->go ? post : e->go) + e->trans;
	if (e->flow) {
		arrival = r->ft->e[e->flow - 1].est;
		vli_ftab_consume(r->ft, e->flow - 1);
		if (!e->rdv || e->send_done)
			e->flow = 0; /* (a rendezvous' sender reads it too) */
	}
	t->waited = 0;
	wait_until(t, arrival);
	nr.u.v.t2 = t->waited;
	t->now += rcost(r->nw, r->t[si].host, t->host);
	nr.u.v.t0 = t->t0n;
	nr.u.v.t1 = t->now;
	nr.u.v.t3 = arrival;
	order_check(r, t, c, arrival, t->clk0);
	e->recv_done = 1;
	msg_done(r, j);
	return put(r, i, &nr, t->now - t->clk0 - nr.u.v.t2, nr.u.v.t2, ocomm, owait);
}

static int do_irecv(rpl *r, int i)
{
	rtask *t = &r->t[i];
	vl_trec *c = &t->cur, nr = *c;
	rreq *q = req_new(t);
	int k;

	if (!q)
		return fail(r, "out of memory");
	if (c->peer == -1)
		approx(r, VLPOST_RPL_WILDCARD);
	t->now += c->u.v.t1 - t->oclk0;
	q->kind = 1;
	q->num = (uint32_t)c->u.v.t4;
	q->post = t->now;
	/* (a nonblocking wildcard's rendezvous shares since VL_TF_ANYRDV) */
	q->wild = c->peer == -1 && !(c->flags & VL_TF_ANYRDV);
	for (k = 0; k < t->nlook; k++)
		if (t->look[k].num == q->num) {
			posted(r, t->look[k].msg, q->post, q->wild);
			t->look[k--] = t->look[--t->nlook];
		}
	nr.u.v.t0 = t->t0n;
	nr.u.v.t1 = t->now;
	return put(r, i, &nr, t->now - t->clk0, 0, c->u.v.t1 - t->oclk0, 0);
}

static int do_wait(rpl *r, int i)
{
	rtask *t = &r->t[i];
	vl_trec *c = &t->cur, nr = *c;
	rreq *q = req_find(t, (uint32_t)c->u.v.t4, 2);
	int j, ri = task_of(r, c->peer);
	rmsg *e;

	if (!q)
		return fail(r, "task t%x: a WAIT record completes send request %lld, which no "
			    "nonblocking SEND record started", (unsigned)t->tid, (long long)c->u.v.t4);
	t->waited = 0;
	if (q->rdv && ri >= 0) {
		if ((j = msg_get(r, t->tid, q->seq)) < 0)
			return fail(r, "out of memory");
		e = &r->m[j];
		if (!e->have_post) {
			if (t->phase == 1) {
				t->phase = 2;
				if (look_ahead(r, j, ri) < 0)
					return -1;
			}
			if (!e->have_post) {
				e->wait_send = i;
				return block(t);
			}
		}
		if (e->flow && !r->ft->e[e->flow - 1].final) {
			e->wait_send = i; /* (settle_flows wakes it) */
			return block(t);
		}
		if (e->flow) { /* on shared links */
			wait_until(t, r->ft->e[e->flow - 1].est);
			vli_ftab_consume(r->ft, e->flow - 1);
		} else {
			wait_until(t, (e->post > e->go ? e->post : e->go) + e->trans);
		}
		e->send_done = 1;
		msg_done(r, j);
	}
	q->kind = 0;
	nr.u.v.t0 = t->t0n;
	nr.u.v.t1 = t->now;
	nr.u.v.t2 = t->waited;
	return put(r, i, &nr, t->now - t->clk0 - t->waited, t->waited,
		   c->u.v.t1 - t->oclk0 - c->u.v.t2, c->u.v.t2);
}

static int do_probe(rpl *r, int i)
{
	rtask *t = &r->t[i];
	vl_trec *c = &t->cur, nr = *c;
	int64_t d = c->u.v.t1 - t->oclk0, oR, extra;
	int sh;

	if (c->flags & VL_TF_FOUND) { /* a blocking probe: waits for the message */
		int si = task_of(r, c->peer), j;
		vl_trec x;
		uint64_t k;
		rmsg *e;

		if (si < 0) {
			approx(r, VLPOST_RPL_NOTRACE);
			t->waited = 0;
			wait_until(t, t->now + c->u.v.t2);
			t->now += d - c->u.v.t2;
			goto probe_put;
		}
		if (t->phase == 1) {
			/* the message it found: the next one this task receives from there */
			t->tseq = 0;
			for (k = 0; t->src->peek(t->src->ctx, k, &x) == 1; k++)
				if (x.type == VL_EV_RECV && x.peer == c->peer && x.tag == c->tag) {
					t->tseq = x.seq;
					break;
				}
			if (!t->tseq)
				return fail(r, "task t%x: a probe found a message from t%x (tag %d) "
					    "that the task never receives", (unsigned)t->tid,
					    (unsigned)c->peer, c->tag);
			t->phase = 2;
		}
		if ((j = msg_get(r, c->peer, t->tseq)) < 0)
			return fail(r, "out of memory");
		e = &r->m[j];
		if (!e->have_send || (e->flow && !r->ft->e[e->flow - 1].final)) {
			e->wait_recv = i;
			return block(t);
		}
		t->waited = 0;
		wait_until(t, e->flow ? r->ft->e[e->flow - 1].est : e->go + e->trans);
		t->now += rcost(r->nw, r->t[si].host, t->host);
	probe_put:
		nr.u.v.t0 = t->t0n;
		nr.u.v.t1 = t->now;
		nr.u.v.t2 = t->waited;
		return put(r, i, &nr, t->now - t->clk0 - t->waited, t->waited, d - c->u.v.t2,
			   c->u.v.t2);
	}
	/* nothing found: the receive cost, after a timeout's waiting */
	approx(r, VLPOST_RPL_POLL);
	if (c->peer >= 0) {
		sh = host_of_tid(r, c->peer);
		oR = rcost(r->old, sh >= 0 ? (int)r->t[task_of(r, c->peer)].src->hdr.host : -1,
			   (int)t->src->hdr.host);
	} else {
		sh = infer_src(r->old, t, d);
		oR = rcost(r->old, sh, (int)t->src->hdr.host);
	}
	extra = d - oR > 0 ? d - oR : 0;
	t->now += extra;
	t->now += rcost(r->nw, sh, t->host);
	nr.u.v.t0 = t->t0n;
	nr.u.v.t1 = t->now;
	return put(r, i, &nr, t->now - t->clk0 - extra, extra, d - extra, extra);
}

/* The spawn records of one call: the first has the call's interval, the
 * others are instants at its end; the parent pays the largest init_delay. */
static int do_spawn(rpl *r, int i)
{
	rtask *t = &r->t[i];
	vl_trec *c = &t->cur, nr = *c, x;
	int64_t d, ci;
	uint64_t k;
	int cont = c->u.v.t0 == c->u.v.t1 && c->u.v.t0 == t->sp_end_old &&
		   c->u.v.t2 - vli_init_delay(r->old, c->tag) == t->sp_call_old;

	if (!cont) {
		d = vli_init_delay(r->nw, c->tag);
		for (k = 0; t->src->peek(t->src->ctx, k, &x) == 1; k++) {
			if (x.type != VL_EV_SPAWN || x.u.v.t0 != x.u.v.t1 || x.u.v.t0 != c->u.v.t1 ||
			    x.u.v.t2 - vli_init_delay(r->old, x.tag) != c->u.v.t0)
				break;
			if (vli_init_delay(r->nw, x.tag) > d)
				d = vli_init_delay(r->nw, x.tag);
		}
		t->sp_call_old = c->u.v.t0;
		t->sp_call_new = t->t0n;
		t->sp_end_old = c->u.v.t1;
		t->now = t->t0n + d;
		nr.u.v.t0 = t->t0n;
	} else {
		nr.u.v.t0 = t->now;
	}
	nr.u.v.t1 = t->now;
	nr.u.v.t2 = t->sp_call_new + vli_init_delay(r->nw, c->tag);
	ci = task_of(r, c->peer);
	if (ci >= 0 && !r->t[ci].start_known) {
		r->t[ci].start_new = nr.u.v.t2;
		r->t[ci].start_known = 1;
		wake(r, (int)ci);
	}
	return put(r, i, &nr, t->now - t->clk0, 0, c->u.v.t1 - t->oclk0, 0);
}

static rcoll *coll_get(rpl *r, uint64_t k, int kind, int root)
{
	rcoll *g;
	int p = r->n;

	for (g = r->colls; g; g = g->next)
		if (g->k == k)
			return g;
	g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->k = k;
	g->kind = kind;
	g->root = root;
	g->left = p;
	g->entry = malloc(sizeof(int64_t) * (size_t)p);
	g->bytes = malloc(sizeof(int64_t) * (size_t)p * (size_t)(kind == VL_KIND_ALLTOALL ? p : 1));
	g->out = malloc(sizeof(vlcoll_out) * (size_t)p);
	g->eexit = malloc(sizeof(int64_t) * (size_t)p);
	if (!g->entry || !g->bytes || !g->out || !g->eexit) {
		free(g->entry);
		free(g->bytes);
		free(g->out);
		free(g->eexit);
		free(g);
		return NULL;
	}
	memset(g->eexit, 0xff, sizeof(int64_t) * (size_t)p); /* (-1: none) */
	g->next = r->colls;
	r->colls = g;
	return g;
}

static void coll_free(rpl *r, rcoll *g)
{
	rcoll **p;

	for (p = &r->colls; *p != g; p = &(*p)->next)
		;
	*p = g->next;
	vlcoll_job_free(g->job);
	free(g->entry);
	free(g->bytes);
	free(g->vblk);
	free(g->eexit);
	free(g->out);
	free(g);
}

/* The call made: the record's flags say it (VL_TF_V, VL_TF_BLOCK); traces
 * written before they did say nothing, and there a gather or scatter whose
 * blocks differ can only be a gatherv or scatterv, and any other call is
 * taken for the plain form. */
static int coll_variant(const rcoll *g, int p)
{
	int i;

	if (g->flags & VL_TF_V)
		return VLCOLL_V;
	if (g->flags & VL_TF_BLOCK)
		return VLCOLL_BLOCK;
	if (g->kind != VL_KIND_GATHER && g->kind != VL_KIND_SCATTER)
		return VLCOLL_PLAIN;
	for (i = 1; i < p; i++)
		if (g->bytes[i] != g->bytes[0])
			return VLCOLL_V;
	return VLCOLL_PLAIN;
}

/* Its members can go on. */
static void coll_done(rpl *r, rcoll *g)
{
	int i;

	g->done = 1;
	for (i = 0; i < r->n; i++)
		if (r->t[i].coll == g)
			wake(r, i);
}

/* A blocking collective's messages between hosts share the links with the
 * other messages, as online (vlayer/mpi/coll.c): flows of the table (keyed
 * by the collective's number + 1 and the message's index), taken once
 * final; settle_flows resumes the collective. */
static int cnet_add(void *ctx, uint32_t k, int src, int dst, int src_host, int dst_host,
		    int64_t bytes, int64_t start)
{
	rcoll *g = ctx;
	int x = vli_ftab_add_coll(g->r->ft, 1, g->k + 1, k, 1, src, dst, src_host, dst_host, bytes,
				  start);

	if (x < 0)
		approx(g->r, VLPOST_RPL_FLOWS);
	return x;
}

static int cnet_end(void *ctx, int h, uint32_t k, int64_t *arr)
{
	rcoll *g = ctx;
	vli_fent *e = &g->r->ft->e[h];

	(void)k;
	*arr = e->est;
	if (!e->final)
		return 0;
	vli_ftab_consume(g->r->ft, h);
	return 1;
}

/* Run g's simulation on as far as the final arrivals allow. */
static int coll_resume(rpl *r, rcoll *g)
{
	int64_t lb;
	int i, rc = vlcoll_job_run(g->job, &lb);

	if (rc < 0)
		return fail(r, "collective %s number %llu could not complete on the shared links",
			    vl_coll_kind_name(g->kind), (unsigned long long)g->k);
	if (rc > 0) {
		vlcoll_job_free(g->job);
		g->job = NULL;
		coll_done(r, g);
		return 0;
	}
	/* a member whose rank is done goes on, as online (vlayer/mpi/coll.c) */
	for (i = 0; i < r->n; i++)
		if (r->t[i].coll == g && vlcoll_job_rank_done(g->job, r->t[i].tid))
			wake(r, i);
	return 0;
}

/* Every member's new host, by rank (the caller frees it); NULL: out of
 * memory. */
static int *coll_hosts(const rpl *r)
{
	int *host = malloc(sizeof(int) * (size_t)r->n), i;

	for (i = 0; host && i < r->n; i++)
		host[r->t[i].tid] = r->t[i].host;
	return host;
}

/* The input of a plain collective of kind (root) whose members all enter
 * at entry with the bytes of record c, in arrays the caller frees (*host,
 * *v: the entries, then the bytes); -1: out of memory (failed). */
static int plain_in(rpl *r, int kind, int root, const vl_trec *c, int64_t entry, vlcoll_in *in,
		    int **hostp, int64_t **vp)
{
	int p = r->n, *host = *hostp = coll_hosts(r);
	size_t k, nb = kind == VL_KIND_ALLTOALL ? (size_t)p * (size_t)p : (size_t)p;
	int64_t *v = *vp = malloc(sizeof(int64_t) * ((size_t)p + nb));

	if (!host || !v) {
		free(host);
		free(v);
		return fail(r, "out of memory");
	}
	for (k = 0; k < (size_t)p; k++)
		v[k] = entry;
	for (k = 0; k < nb; k++) /* (an alltoall's: its matrix) */
		v[(size_t)p + k] = c->u.v.bytes;
	*in = (vlcoll_in){ kind, r->nw->mpi.coll_alg[kind], p, root, host, v, v + p, VLCOLL_PLAIN };
	return 0;
}

/* g's messages go into the run's table (cnet_add, cnet_end). */
static void coll_net(rpl *r, rcoll *g)
{
	g->r = r;
	g->net.ctx = g;
	g->net.add = cnet_add;
	g->net.end = cnet_end;
}

/* Simulate collective g once every member is in (the algorithm of nw). */
static int coll_run(rpl *r, rcoll *g)
{
	int p = r->n, *host = coll_hosts(r), i, rc;
	vlcoll_in in;

	if (!host)
		return fail(r, "out of memory");
	in.kind = g->kind;
	in.alg = r->nw->mpi.coll_alg[g->kind];
	in.p = p;
	in.root = g->root;
	in.host = host;
	in.entry = g->entry;
	in.bytes = g->bytes;
	in.variant = coll_variant(g, p);
	if (r->flows && r->nw->topo.coll_shared && g->nb != 1 && !g->unshared) {
		coll_net(r, g);
		g->job = vlcoll_job_start(r->nw, &in, &g->net, g->out);
		rc = g->job ? 0 : -1;
	} else {
		rc = vlcoll_sim(r->nw, &in, g->out);
	}
	free(host);
	if (rc != 0)
		return fail(r, "collective %s number %llu could not be simulated with algorithm %s",
			    vl_coll_kind_name(g->kind), (unsigned long long)g->k,
			    vlcoll_alg_name(in.alg));
	if (g->job)
		return coll_resume(r, g);
	for (i = 0; i < p; i++)
		if (g->eexit[i] >= 0 && g->eexit[i] != g->out[i].exit)
			return fail(r, "collective %s number %llu: rank %d was let go at %lld ns, "
				    "but its exit is %lld ns",
				    vl_coll_kind_name(g->kind), (unsigned long long)g->k, i,
				    (long long)g->eexit[i], (long long)g->out[i].exit);
	coll_done(r, g);
	return 0;
}

/* Whether collective g (a member's record c) is an allgatherv or a
 * reduce_scatter, whose every member knows every block: opened where the
 * run timed it so, its blocks in every member's trace (VL_EV_BLOCKS, since
 * the third session of 2026-11-29). */
static int all_known(const rcoll *g, const vl_trec *c)
{
	return (g->kind == VL_KIND_ALLGATHER && (c->flags & VL_TF_V)) ||
	       (g->kind == VL_KIND_REDUCE_SCATTER && !(c->flags & VL_TF_BLOCK));
}

/* Whether blocking collective g (a member's record c) is opened before
 * every member is in: on shared links, a kind where a member's exit may
 * come before the last entry (vlcoll_opens_early), as online. */
static int coll_opens(const rpl *r, const rcoll *g, const vl_trec *c)
{
	/* (a gatherv: where the run timed it so - its root's trace then has
	 * every block, VL_EV_BLOCKS) */
	return r->flows && r->nw->topo.coll_shared && !g->nb && !g->unshared &&
	       vlcoll_opens_early_alg(r->nw, g->kind, c->flags & VL_TF_V ? VLCOLL_V
					   : c->flags & VL_TF_BLOCK ? VLCOLL_BLOCK : VLCOLL_PLAIN) &&
	       (g->kind != VL_KIND_GATHER || !(c->flags & VL_TF_V) || (c->flags & VL_TF_SHARED)) &&
	       (!all_known(g, c) || ((c->flags & VL_TF_SHARED) && g->vblk)) &&
	       (g->kind != VL_KIND_ALLTOALL || !(c->flags & VL_TF_V) ||
		((c->flags & VL_TF_SHARED) && !g->norow));
}

/* The same for nonblocking g (its member's VL_EV_ICOLL c): where the run
 * timed it so (VL_TF_OPENED, since the third session of 2026-11-29). */
static int icoll_opens(const rpl *r, const rcoll *g, const vl_trec *c)
{
	return r->flows && r->nw->topo.coll_shared && (c->flags & VL_TF_OPENED) && !g->unshared &&
	       vlcoll_opens_early_alg(r->nw, g->kind, c->flags & VL_TF_V ? VLCOLL_V
					   : c->flags & VL_TF_BLOCK ? VLCOLL_BLOCK : VLCOLL_PLAIN) &&
	       (!all_known(g, c) || g->vblk) &&
	       (g->kind != VL_KIND_ALLTOALL || !(c->flags & VL_TF_V) || !g->norow);
}

/* Give opened gatherv g the blocks member t (record c) brings: its own, and
 * the root's every one (its VL_EV_BLOCKS). */
static void gv_blocks(rpl *r, rcoll *g, const rtask *t)
{
	int i;

	if (g->job && g->kind == VL_KIND_ALLTOALL && (g->flags & VL_TF_V))
		vlcoll_job_row(g->job, t->tid, &g->bytes[(size_t)t->tid * (size_t)r->n]);
	if (!g->job || g->kind != VL_KIND_GATHER || !(g->flags & VL_TF_V))
		return;
	for (i = 0; i < r->n; i++)
		if (i == t->tid || (t->tid == g->root && g->vblk))
			vlcoll_job_block(g->job, i, i == t->tid && !(t->tid == g->root && g->vblk)
							    ? g->bytes[i] : g->vblk[i]);
}

/* Member t of opened collective g is in (record c): the first opens its
 * simulation (the others not in yet), the others enter it; then it runs
 * on as far as the final arrivals allow. */
static int coll_open(rpl *r, rcoll *g, rtask *t, const vl_trec *c)
{
	vlcoll_in in;
	int *host;
	int64_t *v;

	int i;

	if (g->job) {
		gv_blocks(r, g, t);
		vlcoll_job_enter(g->job, t->tid, g->entry[t->tid]);
		return coll_resume(r, g);
	}
	if ((c->flags & VL_TF_V) && g->kind == VL_KIND_SCATTER) {
		/* a scatterv: opened once its root is in, with every block from
		 * its VL_EV_BLOCKS (a trace without them: once every member is
		 * in, as before) */
		for (i = 0; i < r->n && r->t[i].tid != g->root; i++)
			;
		if (i == r->n || r->t[i].ncoll <= g->k)
			return 0;
		if (!g->vblk)
			return g->arrived == r->n ? coll_run(r, g) : 0;
	}
	/* (a plain form: every member's bytes alike; a scatterv's: its
	 * root's blocks) */
	if (plain_in(r, g->kind, g->root, c, VLCOLL_PENDING, &in, &host, &v) < 0)
		return -1;
	for (i = 0; i < r->n; i++) /* (the members in: their count of collectives passed it) */
		if (r->t[i].ncoll > g->k)
			v[r->t[i].tid] = g->entry[r->t[i].tid];
	if (c->flags & VL_TF_BLOCK) {
		in.variant = VLCOLL_BLOCK; /* (a reduce_scatter_block: every block alike) */
	} else if (g->kind == VL_KIND_ALLTOALL && (c->flags & VL_TF_V)) {
		/* (an alltoallv: the rows of the members in) */
		for (i = 0; i < r->n; i++) {
			int tid = r->t[i].tid;
			size_t k;

			for (k = 0; k < (size_t)r->n; k++)
				v[(size_t)r->n + (size_t)tid * (size_t)r->n + k] =
					r->t[i].ncoll > g->k ? g->bytes[(size_t)tid * (size_t)r->n + k]
							     : VLCOLL_PENDING;
		}
		in.variant = VLCOLL_V;
	} else if (all_known(g, c)) {
		/* (an allgatherv, a reduce_scatter: every block, from a trace) */
		memcpy(v + r->n, g->vblk, sizeof(int64_t) * (size_t)r->n);
		in.variant = c->flags & VL_TF_V ? VLCOLL_V : VLCOLL_PLAIN;
	} else if ((c->flags & VL_TF_V) && g->kind == VL_KIND_SCATTER) {
		memcpy(v + r->n, g->vblk, sizeof(int64_t) * (size_t)r->n);
		in.variant = VLCOLL_V;
	} else if (c->flags & VL_TF_V) {
		/* a gatherv: the blocks of the members in (the root's: all) */
		for (i = 0; i < r->n; i++)
			v[r->n + i] = VLCOLL_PENDING;
		for (i = 0; i < r->n; i++)
			if (r->t[i].ncoll > g->k)
				v[r->n + r->t[i].tid] = g->bytes[r->t[i].tid];
		for (i = 0; i < r->n && g->vblk; i++)
			if (r->t[i].tid == g->root && r->t[i].ncoll > g->k)
				memcpy(v + r->n, g->vblk, sizeof(int64_t) * (size_t)r->n);
		in.variant = VLCOLL_V;
	}
	coll_net(r, g);
	g->job = vlcoll_job_open(r->nw, &in, &g->net, g->out);
	free(host);
	free(v);
	if (!g->job)
		return fail(r, "collective %s number %llu could not be simulated with algorithm %s",
			    vl_coll_kind_name(g->kind), (unsigned long long)g->k,
			    vlcoll_alg_name(in.alg));
	return coll_resume(r, g);
}

/* The blocks in the VL_EV_BLOCKS records right after member t's record c,
 * into dst[] (p values): how many there were. */
static int blocks_after(rtask *t, const vl_trec *c, int p, int64_t *dst)
{
	vl_trec x;
	uint64_t k;
	int j, got = 0;

	for (k = 0; t->src->peek(t->src->ctx, k, &x) == 1 && x.type == VL_EV_BLOCKS &&
		    x.seq == (c->type == VL_EV_ICOLL ? c->seq : 0);
	     k++) {
		int64_t b[VL_BLOCKS_PER_REC] = { x.u.v.bytes, x.u.v.t2, x.u.v.t3, x.u.v.t4 };

		for (j = 0; j < x.tag && x.peer + j < p; j++, got++)
			dst[x.peer + j] = b[j];
	}
	return got;
}

/* Member t's row of alltoallv g (record c) into g's matrix, from its
 * VL_EV_BLOCKS; if they are not all there, its record's bytes for each
 * (g->norow). */
static void coll_row(rtask *t, rcoll *g, const vl_trec *c, int p)
{
	int64_t *row = &g->bytes[(size_t)t->tid * (size_t)p];
	int j;

	if (blocks_after(t, c, p, row) != p) {
		for (j = 0; j < p; j++)
			row[j] = c->u.v.bytes;
		g->norow = 1;
	}
}

/* The blocks of scatterv g whose root t arrives (record c): from the
 * VL_EV_BLOCKS records right after c, if every member's is there.  0, or -1
 * out of memory. */
static int coll_vblocks(rtask *t, rcoll *g, const vl_trec *c, int p)
{
	if (!g->vblk && !(g->vblk = malloc(sizeof(int64_t) * (size_t)p)))
		return -1;
	if (blocks_after(t, c, p, g->vblk) != p) { /* (not every member's: as a trace without them) */
		free(g->vblk);
		g->vblk = NULL;
	}
	return 0;
}

/* Member t of a world collective arrives (record c, kind): its entry and
 * bytes; NULL: out of memory.  (The caller counts it in g->arrived.) */
static rcoll *coll_arrive(rpl *r, rtask *t, const vl_trec *c, int kind, int64_t entry, int nb)
{
	int rank = t->tid, p = r->n, k;
	rcoll *g = coll_get(r, t->ncoll++, kind, c->peer);

	if (!g)
		return NULL;
	g->nb |= nb;
	g->entry[rank] = entry;
	g->flags |= c->flags & (VL_TF_V | VL_TF_BLOCK);
	if ((((kind == VL_KIND_SCATTER || kind == VL_KIND_GATHER) && (c->flags & VL_TF_V) &&
	      rank == g->root) || all_known(g, c)) &&
	    !g->vblk && coll_vblocks(t, g, c, p) < 0)
		return NULL;
	if (kind == VL_KIND_ALLTOALL && (c->flags & VL_TF_V))
		coll_row(t, g, c, p);
	else if (kind == VL_KIND_ALLTOALL)
		for (k = 0; k < p; k++)
			g->bytes[(size_t)rank * (size_t)p + (size_t)k] = c->u.v.bytes;
	else
		g->bytes[rank] = c->u.v.bytes;
	return g;
}

/* The nonblocking collective task t started with key (its VL_EV_ICOLL),
 * taken off its list; NULL if none. */
static rcoll *nb_take(rtask *t, uint32_t key)
{
	int j;

	for (j = 0; key && j < t->nnb; j++)
		if (t->nbo[j].key == key) {
			rcoll *g = t->nbo[j].g;

			t->nbo[j] = t->nbo[--t->nnb];
			return g;
		}
	return NULL;
}

/* A nonblocking collective starts: a world collective arrives here (its
 * messages then share the links with the others from its start, as
 * online); the call costs nothing. */
static int do_icoll(rpl *r, int i)
{
	rtask *t = &r->t[i];
	vl_trec *c = &t->cur, nr = *c;
	int kind = c->tag >= VL_COLL_MPI ? c->tag - VL_COLL_MPI : -1; /* (read from a trace) */
	rcoll *g;

	nr.u.v.t0 = nr.u.v.t1 = t->t0n;
	if (r->world && c->tag >= VL_COLL_MPI && kind < VL_KIND_N && c->u.v.t3 == r->n) {
		if (t->nnb == t->cnb) {
			int n = t->cnb ? 2 * t->cnb : 8;
			struct rnb *q = realloc(t->nbo, sizeof *q * (size_t)n);

			if (!q)
				return fail(r, "out of memory");
			t->nbo = q;
			t->cnb = n;
		}
		if (!(g = coll_arrive(r, t, c, kind, t->t0n, 2)))
			return fail(r, "out of memory");
		if (!(c->flags & VL_TF_SHARED))
			g->unshared = 1;
		t->nbo[t->nnb].key = c->seq;
		t->nbo[t->nnb++].g = g;
		if (icoll_opens(r, g, c)) {
			g->arrived++;
			if (coll_open(r, g, t, c) < 0)
				return -1;
		} else if (++g->arrived == r->n && coll_run(r, g) < 0) {
			return -1;
		}
	}
	return put(r, i, &nr, 0, 0, 0, 0);
}

/* Whether member t leaves blocking world collective (record c, kind) at
 * once, as online (vlayer/mpi/coll.c, vlmpi_alone_*): its exit depends on
 * its own entry alone (vlcoll_sim_alone on nw: the root of a bcast, a leaf
 * of a reduce or gather, every message eager); then *o is its result. */
static int leaves_alone(rpl *r, rtask *t, const vl_trec *c, int kind, vlcoll_out *o)
{
	int p = r->n, rc, *host;
	int64_t *v;
	vlcoll_in in;

	if ((r->flows && r->nw->topo.coll_shared) || (c->flags & (VL_TF_NB | VL_TF_V | VL_TF_BLOCK)) ||
	    !(kind == VL_KIND_BCAST || kind == VL_KIND_REDUCE || kind == VL_KIND_GATHER) ||
	    c->peer < 0 || c->peer >= p || (kind == VL_KIND_BCAST) != (c->peer == t->tid))
		return 0;
	if (plain_in(r, kind, c->peer, c, t->t0n, &in, &host, &v) < 0)
		return -1;
	rc = vlcoll_sim_alone(r->nw, &in, t->tid, o);
	free(host);
	free(v);
	return rc == 1;
}

static int do_coll(rpl *r, int i)
{
	rtask *t = &r->t[i];
	vl_trec *c = &t->cur, nr = *c;
	int kind = c->tag >= VL_COLL_MPI ? c->tag - VL_COLL_MPI : -1, rank = t->tid, p = r->n, nb, k;
	int64_t od = c->u.v.t1 - t->oclk0;
	vlcoll_out o;
	rcoll *g;

	if (!(r->world && c->tag >= VL_COLL_MPI && kind < VL_KIND_N && c->u.v.t3 == p)) {
		/* a group the traces do not describe: keep its recorded shape */
		approx(r, VLPOST_RPL_SUBCOMM);
		t->waited = 0;
		wait_until(t, t->now + (c->u.v.t2 < od ? c->u.v.t2 : od));
		t->now = t->clk0 + od;
		nr.u.v.t0 = t->t0n;
		nr.u.v.t1 = t->now;
		return put(r, i, &nr, od - t->waited, t->waited, od - c->u.v.t2, c->u.v.t2);
	}
	nb = (c->flags & VL_TF_NB) != 0; /* (the reader makes older ones so) */
	if (t->phase == 1 && nb && (g = nb_take(t, c->seq)) != NULL) {
		/* started by its VL_EV_ICOLL */
		t->nbstart = g->entry[rank];
		t->coll = g;
		t->phase = 2;
	} else if (t->phase == 1 && !nb && (k = leaves_alone(r, t, c, kind, &o)) != 0) {
		/* it goes on at once; the others still need its entry */
		if (k < 0 || !(g = coll_arrive(r, t, c, kind, t->t0n, 0)))
			return k < 0 ? -1 : fail(r, "out of memory");
		if (++g->arrived == p && coll_run(r, g) < 0)
			return -1;
		if (--g->left == 0)
			coll_free(r, g);
		t->waited = 0;
		wait_until(t, t->now + o.wait);
		t->now += o.comm;
		nr.u.v.t0 = t->t0n;
		nr.u.v.t1 = t->now;
		nr.u.v.t2 = o.wait;
		return put(r, i, &nr, t->now - t->clk0 - t->waited, t->waited, od - c->u.v.t2,
			   c->u.v.t2);
	} else if (t->phase == 1) {
		if (nb) {
			approx(r, VLPOST_RPL_NBCOLL);
			/* without its start: it starts at its recorded distance
			 * before the call that completes it */
			t->nbstart = t->t0n - (c->u.v.t0 - c->u.v.t4);
			if (t->nbstart < t->start_new)
				t->nbstart = t->start_new;
		}
		g = coll_arrive(r, t, c, kind, nb ? t->nbstart : t->t0n, nb);
		if (!g)
			return fail(r, "out of memory");
		t->coll = g;
		t->phase = 2;
		if (!nb && coll_opens(r, g, c)) {
			g->arrived++;
			if (coll_open(r, g, t, c) < 0)
				return -1;
		} else if (++g->arrived == p && coll_run(r, g) < 0) {
			return -1;
		}
	}
	g = t->coll;
	if (!t->early && !g->done && !(g->job && vlcoll_job_rank_done(g->job, rank)))
		return block(t);
	o = t->early ? t->eo : g->out[rank];
	t->early = 0;
	t->waited = 0;
	if (nb) {
		wait_until(t, o.exit);
	} else {
		wait_until(t, t->now + o.wait);
		t->now += o.comm;
	}
	nr.u.v.t0 = t->t0n;
	nr.u.v.t1 = t->now;
	nr.u.v.t2 = nb ? t->waited : o.wait;
	if (nb)
		nr.u.v.t4 = t->nbstart;
	if (--g->left == 0)
		coll_free(r, g);
	t->coll = NULL;
	if (nb)
		return put(r, i, &nr, 0, t->waited, 0, c->u.v.t2);
	return put(r, i, &nr, t->now - t->clk0 - t->waited, t->waited, od - c->u.v.t2, c->u.v.t2);
}

static int do_end(rpl *r, int i)
{
	rtask *t = &r->t[i];
	vl_trec *c = &t->cur, nr = *c;
	/* what the records do not show (unrecorded calls) keeps its old split */
	int64_t comm = t->comm + (c->u.v.t2 - t->ocomm), wait = t->wait + (c->u.v.t3 - t->owait);

	nr.u.v.t0 = nr.u.v.t1 = t->now;
	if (comm < 0)
		comm = 0;
	if (wait < 0)
		wait = 0;
	nr.u.v.t2 = comm;
	nr.u.v.t3 = wait;
	nr.u.v.bytes = t->now - t->start_new - comm - wait;
	if (nr.u.v.bytes < 0)
		nr.u.v.bytes = 0;
	t->state = DONE;
	return put(r, i, &nr, 0, 0, 0, 0);
}

/* Run record cur of task i: 0 done, 1 blocked, -1 error. */
static int step(rpl *r, int i)
{
	rtask *t = &r->t[i];
	vl_trec *c = &t->cur, nr = *c;
	int64_t d;

	if (t->phase == 0) {
		if (c->type == VL_EV_START) {
			if (!t->start_known)
				return block(t);
			t->now = t->start_new;
			t->oprev_t1 = c->u.v.t1;
			t->call_old = c->u.v.t0;
			t->call_new = t->now;
			t->hdr.start_ns = t->start_new;
			nr.u.v.t0 = nr.u.v.t1 = t->now;
			return put(r, i, &nr, 0, 0, 0, 0);
		}
		begin(r, t);
	}
	switch (c->type) {
	case VL_EV_END:
		return do_end(r, i);
	case VL_EV_SEND:
		return do_send(r, i);
	case VL_EV_RECV:
		return do_recv(r, i);
	case VL_EV_IRECV:
		return do_irecv(r, i);
	case VL_EV_WAIT:
		return do_wait(r, i);
	case VL_EV_PROBE:
		return do_probe(r, i);
	case VL_EV_SPAWN:
		return do_spawn(r, i);
	case VL_EV_COLL:
		return do_coll(r, i);
	case VL_EV_ICOLL:
		return do_icoll(r, i);
	case VL_EV_COMPUTE:
	case VL_EV_SLEEP:
		/* vl_compute and sleeps last as long on any machine */
		d = c->u.v.t1 - t->oclk0;
		t->now += d;
		nr.u.v.t0 = t->t0n;
		nr.u.v.t1 = t->now;
		if (c->type == VL_EV_COMPUTE && t->flops_differ)
			approx(r, VLPOST_RPL_FLOPS);
		if (c->type == VL_EV_SLEEP) {
			approx(r, VLPOST_RPL_SLEEP);
			return put(r, i, &nr, 0, d, 0, d);
		}
		return put(r, i, &nr, 0, 0, 0, 0);
	case VL_EV_PARAM:
		approx(r, VLPOST_RPL_PARAM);
		/* fall through */
	default: /* MARK */
		d = c->u.v.t1 - t->oclk0;
		t->now += d > 0 ? d : 0;
		nr.u.v.t0 = t->t0n;
		nr.u.v.t1 = t->now;
		return put(r, i, &nr, 0, 0, 0, 0);
	}
}

/* Run task i for up to BATCH records: 0 (blocked, done or batch over), -1. */
/* No task can go on, and nothing wakes a task before least (the first end
 * of an open flow; INT64_MAX: none): a member of a collective on the
 * [topology]'s links (its messages among themselves), blocking or
 * nonblocking (started by its VL_EV_ICOLL, waited for), whose exit depends
 * on members not yet in only through the links they share - a bcast's
 * leaf whose path from the root is in - leaves as online before they enter
 * (vlayer/mpi/coll.c): its exit with the missing members entering at least
 * is its exit, if it comes before least (their messages start no earlier).
 * The members with the first such exit are let go (what they do next comes
 * after it); 1 if any was. */
static int coll_early(rpl *r, int64_t least)
{
	int p = r->n, i, *host = NULL, any = 0;
	int64_t *entry = NULL, *bytes = NULL, first = INT64_MAX;
	vlcoll_out *out = NULL;
	rcoll *g;

	if (!r->flows || r->nw->topo.coll_shared)
		return 0;
	for (g = r->colls; g; g = g->next) {
		vlcoll_in in;
		int k, waiting = 0, one = -1;
		size_t q, nb = g->kind == VL_KIND_ALLTOALL ? (size_t)p * (size_t)p : (size_t)p;

		/* (the plain calls: there the missing members' sizes are those
		 * of the members in; a gatherv: a missing member's block leaves
		 * after its entry, no earlier than least, and changes no exit
		 * before - a scatterv's root sends the missing members' blocks,
		 * whose sizes online took from the root's entry: here from its
		 * VL_EV_BLOCKS, sv) */
		int vf = (g->flags & VL_TF_V) && !(g->flags & VL_TF_BLOCK) && g->kind == VL_KIND_GATHER;
		int sv = (g->flags & VL_TF_V) && !(g->flags & VL_TF_BLOCK) &&
			 g->kind == VL_KIND_SCATTER && g->vblk;

		if (g->done || g->job || g->nb == 1 || g->arrived == p ||
		    ((g->flags & (VL_TF_V | VL_TF_BLOCK)) && !vf && !sv))
			continue;
		for (i = 0; i < p; i++)
			waiting += r->t[i].coll == g && r->t[i].state == BLOCKED && !r->t[i].early;
		if (!waiting)
			continue;
		if (!host && (!(host = coll_hosts(r)) ||
			      !(entry = malloc(sizeof(int64_t) * (size_t)p)) ||
			      !(bytes = malloc(sizeof(int64_t) * (size_t)p * (size_t)p)) ||
			      !(out = malloc(sizeof *out * (size_t)p)))) {
			free(host);
			free(entry);
			free(bytes);
			return fail(r, "out of memory");
		}
		for (i = 0; i < p; i++)
			entry[i] = least < INT64_MAX / 4 ? least : INT64_MAX / 4; /* (no overflow) */
		for (i = 0; i < p; i++) /* (the members in: their count of collectives passed it) */
			if (r->t[i].ncoll > g->k) {
				k = r->t[i].tid;
				entry[k] = g->entry[k];
				if (!vf && !sv && one >= 0 && g->kind != VL_KIND_ALLTOALL &&
				    g->bytes[k] != g->bytes[one])
					break; /* (a v form after all) */
				one = k;
			}
		if (i < p || one < 0)
			continue;
		for (q = 0; q < nb; q++)
			bytes[q] = g->bytes[g->kind == VL_KIND_ALLTOALL ? (size_t)one * (size_t)p : (size_t)one];
		for (i = 0; vf && i < p; i++)
			if (r->t[i].ncoll > g->k)
				bytes[r->t[i].tid] = g->bytes[r->t[i].tid];
		for (i = 0; sv && i < p; i++)
			bytes[i] = g->vblk[i];
		in = (vlcoll_in){ g->kind, r->nw->mpi.coll_alg[g->kind], p, g->root, host, entry,
				  bytes, vf || sv ? VLCOLL_V : VLCOLL_PLAIN };
		if (vlcoll_sim(r->nw, &in, out) != 0)
			continue; /* (coll_run reports it) */
		for (i = 0; i < p; i++) {
			rtask *t = &r->t[i];

			k = t->tid;
			if (t->coll != g || t->state != BLOCKED || t->early || out[k].exit >= least)
				continue;
			if (out[k].exit < first) {
				first = out[k].exit;
				any = 0;
			}
			if (out[k].exit == first) {
				t->eo = out[k];
				t->early = 2; /* (a candidate) */
				any = 1;
			}
		}
	}
	/* the candidates with the first exit go; the others wait again */
	for (i = 0; i < p; i++) {
		rtask *t = &r->t[i];

		if (t->early != 2)
			continue;
		if (t->eo.exit == first) {
			t->early = 1;
			t->coll->eexit[t->tid] = first;
			wake(r, i);
		} else {
			t->early = 0;
		}
	}
	free(host);
	free(entry);
	free(bytes);
	free(out);
	return any;
}

/* No task can go on: the open flow that ends first ends there - nothing can
 * wake a task earlier - and every other task that adds a flow does so only
 * once woken: the flows ending before that end plus the lookahead are final.
 * Wakes their receivers; 0 if no flow is open (the replay stalls). */
static int settle_flows(rpl *r)
{
	rcoll *g, *next;
	vli_ftab *ft = r->ft;
	int64_t least = INT64_MAX;
	int i, j;

	if (ft->nopen) {
		vli_ftab_update(ft, r->nw, (int64_t)ft->t_ck); /* the estimates */
		for (i = 0; i < ft->hwm; i++)
			if (ft->e[i].used && ft->e[i].in_sim && ft->e[i].est < least)
				least = ft->e[i].est;
	}
	if ((i = coll_early(r, least)) != 0)
		return i > 0;
	if (!ft->nopen)
		return 0;
	double ck = ft->t_ck;
	int open = ft->nopen;

	vli_ftab_update(ft, r->nw, least + vli_flow_lookahead(r->nw));
	if (ft->nlate)
		approx(r, VLPOST_RPL_LATE);
	for (i = 0; i < ft->hwm; i++) {
		vli_fent *e = &ft->e[i];

		e->changed = 0;
		if (!e->used || !e->final || e->consumed || e->coll_on)
			continue;
		if ((j = msg_get(r, e->src_id, e->seq)) < 0)
			return fail(r, "out of memory");
		wake(r, r->m[j].wait_recv);
		r->m[j].wait_recv = -1;
		wake(r, r->m[j].wait_send);
		r->m[j].wait_send = -1;
	}
	for (g = r->colls; g; g = next) {
		next = g->next; /* (coll_resume may not free g: its members still read it) */
		if (g->job && coll_resume(r, g) < 0)
			return 0;
	}
	/* (the first open flow at least is off now; should nothing have moved
	 * - no task woken, the checkpoint and the open flows as they were - a
	 * second time, the next call would do the same again: the replay
	 * stalls, and says so, rather than turn for ever) */
	r->idle = r->qn == 0 && ft->t_ck == ck && ft->nopen == open ? r->idle + 1 : 0;
	return r->idle < 2;
}

static int run_task(rpl *r, int i)
{
	rtask *t = &r->t[i];
	int k, rc;

	for (k = 0; k < BATCH && t->state == RUN; k++) {
		if (t->phase == 0) {
			rc = t->src->next(t->src->ctx, &t->cur);
			if (rc < 0)
				return fail(r, "%s", t->src->errmsg(t->src->ctx));
			if (rc == 0) { /* no END record: the task ends here */
				t->state = DONE;
				return 0;
			}
		}
		rc = step(r, i);
		if (rc < 0 || r->failed)
			return -1;
	}
	return 0;
}

/* ---- set-up ---- */

static void place(rpl *r, rtask *t, int host);

static int setup_task(rpl *r, int i, vlpost_rpl_src *s)
{
	rtask *t = &r->t[i];
	const vl_thdr *h = &s->hdr;

	t->src = s;
	t->hdr = s->hdr;
	t->tid = h->tid;
	t->parent = -1;
	t->state = RUN;
	t->lr_valid = 0;
	if (h->host < 0 || h->host >= r->old->nhosts)
		return fail(r, "task t%x ran on virtual host %d (%s), which the VMConfig of the run "
			    "(%s) does not have: wrong --from?", (unsigned)h->tid, h->host, h->host_name,
			    r->old->path);
	t->host = h->host;
	if (t->host >= r->nw->nhosts) {
		int k = vlcfg_host_index(r->nw, h->host_name);

		/* (an MPI rank is placed by the new machine's rule later) */
		t->unplaced = k < 0;
		t->host = k < 0 ? 0 : k;
	}
	place(r, t, t->host);
	return 0;
}

/* Task t runs on host (of the new machine): its header, and the ratio of its
 * computation (new factor over old). */
static void place(rpl *r, rtask *t, int host)
{
	const vl_thdr *h = &t->src->hdr;
	double fo, fn;

	t->host = host;
	snprintf(t->hdr.host_name, sizeof t->hdr.host_name, "%s", r->nw->hosts[t->host].name);
	t->hdr.host = t->host;
	fo = r->old->hosts[h->host].factor;
	fn = r->nw->hosts[t->host].factor;
	fo = fo == 0.0 ? 1.0 : fo;
	fn = fn == 0.0 ? 1.0 : fn;
	if (r->old->compute_ignore)
		t->ratio = 1.0; /* nothing was measured: what is there is not computation */
	else if (r->nw->compute_ignore)
		t->ratio = 0.0;
	else
		t->ratio = fn / fo;
	t->ratio_one = t->ratio == 1.0;
	t->flops_differ = r->old->hosts[h->host].flops != r->nw->hosts[t->host].flops;
}

int vlpost_rpl_run(const vlcfg_config *old, const vlcfg_config *nw, int n, vlpost_rpl_src *src,
		   vlpost_rpl_emit emit, void *ctx, vlpost_rpl_result *res, char *err,
		   size_t errlen)
{
	rpl r;
	int i, done, rc = 0;

	memset(&r, 0, sizeof r);
	memset(res, 0, sizeof *res);
	r.old = old;
	r.nw = nw;
	r.n = n;
	r.emit = emit;
	r.ectx = ctx;
	r.res = res;
	r.err = err;
	r.errlen = errlen;
	r.freem = -1;
	err[0] = 0;
	for (r.tid_mask = 15; r.tid_mask < (uint32_t)n * 2; r.tid_mask = r.tid_mask * 2 + 1)
		;
	r.t = calloc((size_t)n + 1, sizeof *r.t);
	r.q = calloc((size_t)n + 1, sizeof *r.q);
	r.tid_hash = calloc(r.tid_mask + 1, sizeof *r.tid_hash);
	if (!r.t || !r.q || !r.tid_hash || msg_grow_hash(&r) < 0) {
		rc = fail(&r, "out of memory");
		goto out;
	}
	r.mpi = n > 0;
	for (i = 0; i < n; i++) {
		uint32_t b = hash32((uint32_t)src[i].hdr.tid) & r.tid_mask;

		if (src[i].hdr.tid >= PVM_TID_MIN || src[i].hdr.tid < 0)
			r.mpi = 0;
		for (; r.tid_hash[b]; b = (b + 1) & r.tid_mask)
			if (r.t[r.tid_hash[b] - 1].tid == src[i].hdr.tid) {
				rc = fail(&r, "two traces of task t%x", (unsigned)src[i].hdr.tid);
				goto out;
			}
		if ((rc = setup_task(&r, i, &src[i])) < 0)
			goto out;
		r.tid_hash[b] = i + 1;
	}
	/* the world of MPI: ranks 0 .. n-1 */
	r.world = r.mpi;
	for (i = 0; i < n && r.world; i++)
		if (r.t[i].tid >= n || task_of(&r, i) < 0)
			r.world = 0;
	/* MPI ranks go where the new machine's [mpi] rule puts them, as an online
	 * run there would (on the run's own VMConfig: where they were) */
	for (i = 0; i < n && r.world; i++) {
		place(&r, &r.t[i], vlcfg_rank_host(nw, r.t[i].tid));
		r.t[i].unplaced = 0;
	}
	for (i = 0; i < n; i++)
		if (r.t[i].unplaced) {
			const vl_thdr *h = &r.t[i].src->hdr;

			rc = fail(&r, "task t%x ran on virtual host %d (%s); %s has %d host%s and "
				  "none of that name", (unsigned)h->tid, h->host, h->host_name,
				  nw->path, nw->nhosts, nw->nhosts == 1 ? "" : "s");
			goto out;
		}
	for (i = 0; i < n; i++) {
		rtask *t = &r.t[i];
		int p = t->hdr.ptid >= 0 ? task_of(&r, t->hdr.ptid) : -1;

		t->parent = p;
		t->start_known = p < 0;
		t->start_new = t->hdr.start_ns;
		r.q[r.qn++] = i;
		t->queued = 1;
	}
	done = 0;
	r.flows = vli_net_on(nw) && !nw->ordering_real;
	if (r.flows && !(r.ft = malloc(sizeof *r.ft))) {
		rc = fail(&r, "out of memory");
		goto out;
	}
	if (r.ft)
		vli_ftab_init(r.ft);
	do {
		while (r.qn > 0) {
			int k = r.q[r.qh];

			r.qh = (r.qh + 1) % n;
			r.qn--;
			r.t[k].queued = 0;
			if (run_task(&r, k) < 0) {
				rc = -1;
				goto out;
			}
			if (r.t[k].state == RUN && !r.t[k].queued) {
				r.q[(r.qh + r.qn++) % n] = k;
				r.t[k].queued = 1;
			}
		}
	} while (r.flows && settle_flows(&r));
	if (r.flows && r.ft->nlate)
		approx(&r, VLPOST_RPL_LATE);
	for (i = 0; i < n; i++)
		if (r.t[i].state == DONE)
			done++;
	if (done < n) {
		for (i = 0; i < n && r.t[i].state != BLOCKED; i++)
			;
		if (i < n) {
			rtask *t = &r.t[i];
			const vl_trec *c = &t->cur;

			if (t->phase == 0 && c->type == VL_EV_START)
				rc = fail(&r, "the replay stalls: task t%x waits for its start, but no "
					  "SPAWN record of its parent t%x names it", (unsigned)t->tid,
					  (unsigned)t->hdr.ptid);
			else
				rc = fail(&r, "the replay stalls: task t%x, record %d (type %d, peer t%x, "
					  "seq %u, tag %d) waits for a message, a receive or a "
					  "collective that no trace provides", (unsigned)t->tid,
					  (int)res->events, c->type, (unsigned)c->peer, c->seq, c->tag);
		}
	}
out:
	if (r.t)
		for (i = 0; i < n; i++) {
			free(r.t[i].req);
			free(r.t[i].look);
			free(r.t[i].mc_arr);
			free(r.t[i].nbo);
		}
	while (r.colls)
		coll_free(&r, r.colls);
	free(r.ft);
	free(r.t);
	free(r.q);
	free(r.tid_hash);
	free(r.m);
	free(r.mh);
	return rc < 0 || r.failed ? -1 : 0;
}
