/* request.c - the requests the layer follows (nonblocking and persistent
 * sends and receives, nonblocking collectives), found by their MPI handle in
 * an open-addressing table; the watch over active receives whose header is
 * not taken yet, and waiting in MPI while keeping that watch (so that
 * rendezvous answers go out); the virtual cost of a poll that finds nothing;
 * the copies of eager sends going out, and waiting as virtual order sees it
 * (what a waiting task publishes on the board).
 */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

static vlmpi_req **rq;     /* open addressing on the request handle */
static size_t rq_cap, rq_n;
int vlmpi_n_watch;         /* active receives whose header is not taken yet */
static void asks_progress(void);

static size_t rq_slot(MPI_Request r)
{
	uint64_t k = (uint64_t)(uintptr_t)r;

	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k & (rq_cap - 1);
}

vlmpi_req *vlmpi_req_find(MPI_Request r)
{
	size_t i;

	if (!rq_n || r == MPI_REQUEST_NULL)
		return NULL;
	for (i = rq_slot(r); rq[i]; i = (i + 1) & (rq_cap - 1))
		if (rq[i]->req == r)
			return rq[i];
	return NULL;
}

static void rq_put(vlmpi_req *v);

static void rq_grow(void)
{
	vlmpi_req **old = rq;
	size_t i, n = rq_cap;

	rq_cap = rq_cap ? 2 * rq_cap : 256;
	rq = calloc(rq_cap, sizeof(*rq));
	if (!rq)
		vli_error(1, "out of memory");
	rq_n = 0;
	for (i = 0; i < n; i++)
		if (old[i])
			rq_put(old[i]);
	free(old);
}

static void rq_put(vlmpi_req *v)
{
	size_t i;

	if ((rq_n + 1) * 2 > rq_cap)
		rq_grow();
	for (i = rq_slot(v->req); rq[i]; i = (i + 1) & (rq_cap - 1))
		;
	rq[i] = v;
	rq_n++;
}

static void rq_del(vlmpi_req *v)
{
	size_t i, j, k;

	for (i = rq_slot(v->req); rq[i] && rq[i] != v; i = (i + 1) & (rq_cap - 1))
		;
	if (!rq[i])
		return;
	rq[i] = NULL;
	rq_n--;
	/* backward shift */
	for (j = (i + 1) & (rq_cap - 1); rq[j]; j = (j + 1) & (rq_cap - 1)) {
		k = rq_slot(rq[j]->req);
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			rq[i] = rq[j];
			rq[j] = NULL;
			i = j;
		}
	}
}

vlmpi_req *vlmpi_req_new(MPI_Request r, int kind, vlmpi_comm *vc, int peer, int tag)
{
	vlmpi_req *v = calloc(1, sizeof(*v));

	if (!v)
		vli_error(1, "out of memory");
	v->req = r;
	v->kind = kind;
	v->vc = vc;
	v->peer = peer;
	v->tag = tag;
	v->t_post = vli_t.now;
	v->active = 1;
	v->ack = MPI_REQUEST_NULL;
	rq_put(v);
	if (kind == VLMPI_REQ_RECV) {
		vlmpi_n_watch++;
		vlmpi_rdv_post_update();
	}
	return v;
}

/* Trace the post of nonblocking receive q (pattern source -1 = any). */
void vlmpi_irecv_posted(vlmpi_req *q)
{
	q->num = vli_req_next();
	/* (virtual order: a rendezvous a wildcard one takes shares the links) */
	vli_msg_posted(q->peer >= 0 && q->peer < q->vc->size ? q->vc->world[q->peer] : -1,
		       q->tag == MPI_ANY_TAG ? -1 : q->tag, q->num, vli_t.now,
		       vlmpi_vorder && q->peer == MPI_ANY_SOURCE ? VL_TF_ANYRDV : 0);
}

void vlmpi_req_free(vlmpi_req *q)
{
	int recv = q->kind == VLMPI_REQ_RECV;

	rq_del(q);
	free(q);
	if (recv)
		vlmpi_rdv_post_update();
}

/* Take the header of a receive that completed for real (status st). */
void vlmpi_recv_header(vlmpi_req *v, const MPI_Status *st)
{
	if (v->hdr_ready)
		return;
	v->hdr_ready = 1;
	vlmpi_n_watch--;
	if (st->MPI_SOURCE == MPI_PROC_NULL || st->MPI_SOURCE < 0) {
		v->src_world = -1;
		return;
	}
	int cancelled = 0;
	PMPI_Test_cancelled(st, &cancelled);
	if (cancelled) {
		v->src_world = -1;
		return;
	}
	v->src_world = v->vc->world[st->MPI_SOURCE];
	vlmpi_header_get(v->src_world, v->vc->id, st->MPI_TAG, &v->rh, 0);
	vlmpi_ack_send(v->src_world, &v->rh, v->t_post);
	vlmpi_rdv_post_update();
}

int64_t vlmpi_blocking_post = VLI_ORDER_NONE;
int vlmpi_blocking_src = -1;
int vlmpi_blocking_tag = -1;
uint64_t vlmpi_blocking_comm;

/* (src, t): source src's least post time so far is t (n sources in s[]/ts[];
 * one more than VLI_RDV_SRCS: too many to tell apart) */
static void post_min(int *s, int64_t *ts, int *n, int src, int64_t t)
{
	int i;

	for (i = 0; i < *n && i < VLI_RDV_SRCS; i++)
		if (s[i] == src) {
			if (t < ts[i])
				ts[i] = t;
			return;
		}
	if (*n < VLI_RDV_SRCS) {
		s[*n] = src;
		ts[(*n)++] = t;
	} else {
		*n = VLI_RDV_SRCS + 1;
		if (t < ts[0])
			ts[0] = t; /* (only the least counts then) */
	}
}

/* (a receive posted at t from src (-1 any) with tag (-1 any) on comm: one
 * entry more in p[] (np of them; one more than VLI_POSTS: too many to tell
 * apart, the least time counts for all) */
static void post_add(vli_post *p, int *np, int src, int tag, uint64_t comm, int64_t t)
{
	if (*np < VLI_POSTS) {
		p[*np].src = src;
		p[*np].tag = tag;
		p[*np].comm = comm;
		p[(*np)++].t = t;
	} else {
		*np = VLI_POSTS + 1;
		if (t < p[0].t)
			p[0].t = t; /* (set_rdv_posts takes the least of them) */
	}
}

void vlmpi_rdv_post_update(void)
{
	int s[VLI_RDV_SRCS], n = 0, np = 0, pass;
	int64_t ts[VLI_RDV_SRCS];
	vli_post p[VLI_POSTS];
	size_t i;

	if (!vlmpi_vorder)
		return;
	/* the wildcard receives first: the board finds them among the first
	 * VLI_POSTS entries */
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1 && vlmpi_blocking_post != VLI_ORDER_NONE && vlmpi_blocking_src >= 0) {
			post_min(s, ts, &n, vlmpi_blocking_src, vlmpi_blocking_post);
			post_add(p, &np, vlmpi_blocking_src, vlmpi_blocking_tag, vlmpi_blocking_comm,
				 vlmpi_blocking_post);
		}
		for (i = 0; i < rq_cap; i++) {
			vlmpi_req *v = rq[i];
			int src;

			if (!v || v->kind != VLMPI_REQ_RECV || !v->active || v->hdr_ready ||
			    (v->peer != MPI_ANY_SOURCE && (v->peer < 0 || v->peer >= v->vc->size)) ||
			    (v->peer == MPI_ANY_SOURCE) != (pass == 0))
				continue;
			src = v->peer == MPI_ANY_SOURCE ? -1 : v->vc->world[v->peer];
			if (src >= 0)
				post_min(s, ts, &n, src, v->t_post);
			post_add(p, &np, src, v->tag == MPI_ANY_TAG ? -1 : v->tag, v->vc->id,
				 v->t_post);
		}
	}
	vli_order_set_rdv_posts(n, s, ts, np, p);
}

/* Look at every watched receive: those that completed for real give their
 * header now and answer a rendezvous; the copies that have gone are freed. */
void vlmpi_progress(void)
{
	size_t i;
	int flag;
	MPI_Status st;

	int was;

	vlmpi_copies_progress(0);
	asks_progress();
	if (!vlmpi_n_watch)
		return;
	was = vlmpi_quiet_begin();
	for (i = 0; i < rq_cap && vlmpi_n_watch; i++) {
		vlmpi_req *v = rq[i];
		if (!v || v->kind != VLMPI_REQ_RECV || !v->active || v->hdr_ready ||
		    (v->deferred && v->persistent))
			continue; /* (the real request of that one is never started) */
		flag = 0;
		PMPI_Request_get_status(v->req, &flag, &st);
		if (flag) { /* (which may wait for its header: Open MPI's setting) */
			vlmpi_quiet_end(was);
			vlmpi_recv_header(v, &st);
			was = vlmpi_quiet_begin();
		}
	}
	vlmpi_quiet_end(was);
}

static void stall_check(int coll_only);

/* Wait for the real completion of *r, watching the other receives meanwhile. */
int vlmpi_real_wait(MPI_Request *r, MPI_Status *st)
{
	int flag = 0, rc, spins = 0;

	if (!vlmpi_n_watch && !vlmpi_waiting())
		return PMPI_Wait(r, st);
	for (;;) {
		rc = PMPI_Test(r, &flag, st);
		if (rc != MPI_SUCCESS || flag)
			return rc;
		vlmpi_spin(&spins);
	}
}

void vlmpi_spin(int *spins)
{
	vlmpi_progress();
	vlmpi_wait_poll();
	stall_check(1);
	if (++*spins > 64)
		sched_yield();
}

static void wait_answered(int from);

int vlmpi_ack_test(MPI_Request *r, int *done, int from)
{
	int rc;

	if (*r == MPI_REQUEST_NULL) { /* taken already (asks_progress) */
		*done = 1;
		return MPI_SUCCESS;
	}
	rc = PMPI_Test(r, done, MPI_STATUS_IGNORE);

	if (rc == MPI_SUCCESS && *done) {
		/* (clears the slot's wait on the receiver, if it is from) */
		vli_order_release_seen(from);
		wait_answered(from);
	}
	return rc;
}

int vlmpi_n_asks;

/* Rendezvous sends freed (MPI_Request_free) before their answer was in:
 * kept out of the table, answer still watched, until it is in.  Cancelled
 * at once, whether the board counted that answer as seen depended on when
 * it came in real time (asks_progress takes answers as they come). */
static struct detached { vlmpi_req *q; int from; } *dt;
static int ndt, cdt;

void vlmpi_req_detach(vlmpi_req *q, int from)
{
	if (ndt == cdt) {
		int n = cdt ? 2 * cdt : 16;
		struct detached *d = realloc(dt, sizeof *d * (size_t)n);

		if (!d)
			vli_error(1, "out of memory");
		dt = d;
		cdt = n;
	}
	rq_del(q);
	dt[ndt].q = q;
	dt[ndt++].from = from;
	vlmpi_n_asks++;
}

void vlmpi_detached_end(void)
{
	int i;

	for (i = 0; i < ndt; i++) {
		PMPI_Cancel(&dt[i].q->ack);
		PMPI_Request_free(&dt[i].q->ack);
		free(dt[i].q);
	}
	free(dt);
	dt = NULL;
	ndt = cdt = 0;
}

/* The answers to this rank's nonblocking rendezvous sends that are in are
 * taken, whichever the program waits for: until it has seen an answer that
 * was sent to it, the board takes it for a task that can go on, so a wait
 * on one receiver, with another's answer in, would hold back every choice
 * that needs its bound (rmix, 5 ranks on a bus, hung so). */
static void asks_progress(void)
{
	size_t i;
	int left = 0, was;

	if (!vlmpi_n_asks)
		return;
	was = vlmpi_quiet_begin();
	for (i = 0; i < rq_cap; i++) {
		vlmpi_req *v = rq[i];

		if (!v || v->kind != VLMPI_REQ_SEND || !v->active || !v->rdv || v->ack_done ||
		    v->ack == MPI_REQUEST_NULL)
			continue;
		vlmpi_ack_test(&v->ack, &v->ack_done, v->vc->world[v->peer]);
		left += !v->ack_done;
	}
	for (i = 0; i < (size_t)ndt;) {
		vlmpi_ack_test(&dt[i].q->ack, &dt[i].q->ack_done, dt[i].from);
		if (dt[i].q->ack_done) {
			free(dt[i].q);
			dt[i] = dt[--ndt];
		} else {
			left++;
			i++;
		}
	}
	vlmpi_quiet_end(was);
	vlmpi_n_asks = left;
}

/* Wait for the receiver's answer to a rendezvous.  A program that relies on
 * MPI buffering a message at or above eager_limit (unsafe in MPI's terms)
 * waits here for ever, as it would on a machine with that limit: say so once. */
void vlmpi_ack_wait(MPI_Request *r, int dest_world, int tag, int64_t bytes)
{
	int flag = 0, spins = 0;
	int64_t t0 = vli_mono_ns();
	static int warned;

	for (;;) {
		/* the mark first: an answer sent after it wakes the nap */
		uint32_t mark = vli_order_nap_mark();

		if (vlmpi_ack_test(r, &flag, dest_world) != MPI_SUCCESS || flag)
			return;
		vlmpi_progress();
		vlmpi_wait_poll();
		stall_check(0);
		/* spinning on an oversubscribed machine takes the processor from
		 * ranks that compute: after a few tries, sleep until the receiver
		 * has answered (it pokes this rank), at most 1 ms (MPI progresses
		 * only inside MPI calls) */
		if (++spins < 16 || vlmpi_copies_progress(0))
			sched_yield();
		else
			vli_order_nap(mark, 1);
		if (!warned && vli_mono_ns() - t0 > 10000000000LL) {
			warned = 1;
			vli_warn("rank %d has waited 10 s for rank %d to post the receive of its "
				"%lld-byte message (tag %d): at or above [mpi] eager_limit a send "
				"completes only when its receive is posted; a program that relies on "
				"buffering deadlocks on such a machine",
				vlmpi_world_rank, dest_world, (long long)bytes, tag);
		}
	}
}

/* A test that found nothing: costs the receive delay (a polling loop advances
 * time, as in CLUE). */
void vlmpi_poll_cost(int64_t t0, int src_host)
{
	vli_comm(vli_recv_time(&vli_t.cfg, src_host >= 0 ? src_host : vli_t.host, vli_t.host));
	vli_trace_msg(VL_EV_PROBE, -1, -1, 0, 0, t0, vli_t.now, 0, 0, 0);
}

/* ---- eager sends by copy (order.c: virtual order) ---- */

typedef struct copy {
	MPI_Request r;
	void *buf;
} copy;
static copy *copies;
static int ncopies, capcopies;

int vlmpi_send_copy(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
	int size = 0, pos = 0, rc;
	void *tmp;

	vlmpi_copies_progress(0);
	rc = PMPI_Pack_size(count, dt, comm, &size);
	if (rc != MPI_SUCCESS)
		return rc;
	tmp = malloc(size > 0 ? (size_t)size : 1);
	if (!tmp)
		vli_error(1, "out of memory");
	rc = PMPI_Pack(buf, count, dt, tmp, size, &pos, comm);
	if (rc != MPI_SUCCESS) {
		free(tmp);
		return rc;
	}
	if (ncopies == capcopies) {
		capcopies = capcopies ? 2 * capcopies : 16;
		copies = realloc(copies, sizeof(*copies) * (size_t)capcopies);
		if (!copies)
			vli_error(1, "out of memory");
	}
	/* the packed copy has the user's type signature: any matching receive
	 * takes it */
	rc = PMPI_Isend(tmp, pos, MPI_PACKED, dest, tag, comm, &copies[ncopies].r);
	if (rc != MPI_SUCCESS) {
		free(tmp);
		return rc;
	}
	copies[ncopies++].buf = tmp;
	return MPI_SUCCESS;
}

int vlmpi_copies_progress(int wait)
{
	int i, flag;

	for (i = 0; i < ncopies;) {
		flag = 0;
		if (wait)
			PMPI_Wait(&copies[i].r, MPI_STATUS_IGNORE), flag = 1;
		else
			PMPI_Test(&copies[i].r, &flag, MPI_STATUS_IGNORE);
		if (flag) {
			free(copies[i].buf);
			copies[i] = copies[--ncopies];
		} else {
			i++;
		}
	}
	if (wait) {
		free(copies);
		copies = NULL;
		capcopies = 0;
	}
	return ncopies;
}

/* ---- waiting (virtual order) ----
 * A wait is published on the board lazily: only when some task waits for the
 * bounds (vli_order_watched), at the start or while this task waits for real
 * (vlmpi_wait_poll, from the waiting loops).  Until then the slot shows this
 * task running at its clock, which is lower than its real bound: safe, and a
 * ping-pong pays no lock and no wake-up. */

static vli_order_wait wait_state;
static int wait_depth, wait_published;
static int wait_watching; /* vlmpi_wait_watch: until the wait ends */
static int64_t wait_t0;    /* stall_check: when it first looked at this wait */
static uint64_t headers_at_publish, headers_at_advance;
static int64_t bound_at_publish; /* the board's bound for this rank after it */
static struct {
	int64_t lb;
	uint64_t on, n;
	vlmpi_comm *v;          /* a receive: its bound is found when published */
	const vlmpi_req *q;     /* ... of request q, if any: once its header is in,
				   the bound is its message's arrival */
	int src, tag;
	int64_t t_post;
	char what[112];
} lazy;

static void publish(void)
{
	int64_t lb = lazy.lb;

	if (lazy.q && lazy.q->hdr_ready)
		lb = lazy.q->src_world >= 0 ? vlmpi_arrival_of(&lazy.q->rh, lazy.q->t_post)
					    : vli_t.now;
	else if (lazy.v)
		lb = vlmpi_pending_arrival(lazy.v, lazy.src, lazy.tag, lazy.t_post);
	headers_at_publish = vlmpi_headers_in;
	if (!wait_published) {
		vli_order_wait_begin(&wait_state, "%s", lazy.what);
		wait_published = 1;
	}
	/* the bound as set: one lowered after it (a flow's estimate) is seen
	 * by vlmpi_wait_poll, even if lowered before this call returns */
	bound_at_publish = vli_order_block_on(lb, VLI_WAIT_MSG, lazy.on, lazy.n);
}

static void wait_set(int64_t lb, uint64_t on, uint64_t n, vlmpi_comm *v, const vlmpi_req *q,
		     int src, int tag, int64_t t_post, const char *fmt, va_list ap)
{
	if (!vlmpi_vorder)
		return;
	lazy.lb = lb;
	lazy.on = on;
	lazy.n = n;
	lazy.v = v;
	lazy.q = q;
	lazy.src = src;
	lazy.tag = tag;
	lazy.t_post = t_post;
	if (wait_depth++ == 0) {
		vsnprintf(lazy.what, sizeof lazy.what, fmt, ap);
		wait_published = 0;
		wait_t0 = 0;
	}
	if (wait_published || vli_order_watched())
		publish();
}

void vlmpi_wait_raise(int64_t lb)
{
	if (!vlmpi_vorder || wait_depth == 0 || lb <= lazy.lb)
		return;
	lazy.lb = lb;
	if (wait_published)
		publish();
}

void vlmpi_wait_begin(int64_t lb, uint64_t on, uint64_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wait_set(lb, on, n, NULL, NULL, 0, 0, 0, fmt, ap);
	va_end(ap);
}

void vlmpi_wait_recv(vlmpi_comm *v, int source, int tag, int64_t t_post, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wait_set(VLI_ORDER_NONE, 0, 0, v, NULL, source, tag, t_post, fmt, ap);
	va_end(ap);
}

void vlmpi_wait_req(const vlmpi_req *q, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wait_set(VLI_ORDER_NONE, 0, 0, q->vc, q, q->peer, q->tag, q->t_post, fmt, ap);
	va_end(ap);
}

/* A rendezvous' answer is in: the wait no longer waits on its receiver (a
 * later publish must not say it does: the others would raise this rank's
 * bound to the receiver's, and take flows as final that it may still
 * share). */
static void wait_answered(int from)
{
	if (wait_depth > 0 && lazy.on == VLI_ON_TASK(from)) {
		lazy.on = 0;
		lazy.n = 0;
	}
}

int vlmpi_waiting(void)
{
	return vlmpi_vorder && wait_depth > 0;
}

/* (order.c sets it: vlmpi_deferred_advance) */
static void (*wait_hook)(void);

void vlmpi_set_wait_hook(void (*fn)(void))
{
	wait_hook = fn;
}

void vlmpi_wait_poll(void)
{
	static int64_t last;

	if (!vlmpi_vorder)
		return;
	/* a wildcard receive posted earlier chooses as soon as it can, while
	 * this task waits for anything (at most every 50 us of a spin) */
	if (wait_hook && (vlmpi_headers_in != headers_at_advance || vli_mono_ns() - last > 50000)) {
		headers_at_advance = vlmpi_headers_in;
		last = vli_mono_ns();
		wait_hook();
	}
	if (wait_depth == 0)
		return;
	if (!wait_published ? vli_order_watched()
			    : lazy.v && (vli_order_behind() || vlmpi_headers_in != headers_at_publish ||
					 vli_order_own_bound() < bound_at_publish))
		/* not published yet and needed; or a receive to which a message
		 * was announced meanwhile (its bound was lowered to that arrival):
		 * is it the one it waits for?  Once that message is in, the bound
		 * is raised again (else it stays at the lowered arrival, below
		 * what this rank can send, and may hold back another's choice for
		 * ever); and so is a bound lowered to the estimate of a flow to
		 * this rank that it does not wait for now */
		publish();
}

/* A wait that spins in the layer without the board's sleep - a rendezvous
 * sender waiting for its answer; coll_only: only a blocking collective that
 * misses members (a real transfer in progress may take long and is not
 * looked at) - looks for a stuck run too: after 1 s, at most every 100 ms,
 * its wait published, the board's stall check (every task waits and nothing moves:
 * the deadlock or stuck report, status 4).  Such a cycle hung before
 * 2026-11-27 with no report. */
static void stall_check(int coll_only)
{
	static int64_t last;
	int64_t t;

	if (!vlmpi_vorder || wait_depth == 0 ||
	    (coll_only && (!lazy.on || (lazy.on & VLI_ON_TASK(0)))))
		return;
	t = vli_mono_ns();
	if (!wait_t0)
		wait_t0 = t;
	/* (after 1 s: a wait that ends sooner never takes the lock for it) */
	if (t - wait_t0 < 1000000000 || t - last < 100000000)
		return;
	last = t;
	vlmpi_header_drain(); /* (what is on its way to this rank is in) */
	publish();
	vli_order_sleep(&wait_state, VLI_SLEEP_CHECK);
}

void vlmpi_wait_watch(void)
{
	if (vlmpi_vorder && wait_depth > 0 && !wait_watching) {
		vli_order_watch(1);
		wait_watching = 1;
	}
}

void vlmpi_wait_now(void)
{
	if (vlmpi_vorder && wait_depth > 0)
		publish();
}

void vlmpi_wait_end(void)
{
	if (!vlmpi_vorder || wait_depth == 0)
		return;
	if (--wait_depth == 0) {
		if (wait_watching) {
			vli_order_watch(0);
			wait_watching = 0;
		}
		if (wait_published) {
			vli_order_wait_end(&wait_state);
			wait_published = 0;
		}
	}
}
