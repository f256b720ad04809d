/* order.c - virtual order in the MPI front end (the engine's order.c keeps
 * the board; this file says what an MPI task publishes on it and how its
 * receives choose).
 *
 * Joining: at MPI_Init rank 0 makes the board in the trace directory and
 * reserves a slot for every rank (slot = world rank), then every rank joins.
 * Ranks on other real hosts than rank 0 join through the run's board server
 * (the engine's order_net.c), which rank 0 starts.
 *
 * Announcing: every timing header is announced on the receiver's slot when it
 * is made (header.c); the receiver counts the announced headers it takes in
 * and trusts no choice while one is still on its way.
 *
 * Choosing: a receive or probe with MPI_ANY_SOURCE looks at the first
 * matching header of every source (MPI keeps each sender's order) and takes
 * the least (virtual arrival, world rank of the sender, its sequence number),
 * once no task can still send one that arrives earlier; then it receives
 * exactly that message from MPI (a receive from that rank with that tag).
 * A receive from a named rank takes the first matching header of that rank.
 * A poll (MPI_Iprobe, MPI_Improbe) finds a message exactly when one arrives
 * by the caller's clock.
 *
 * Waiting: wherever the layer blocks for real it says so on the board, with
 * the earliest time it can wake (the arrival of the message it waits for; its
 * clock in a collective or a rendezvous) and on whom it waits: a rendezvous
 * sender on its receiver, a collective's member on the members that have not
 * entered it yet (they need not wait for it: it cannot go on before them).
 * An eager send never waits for real: the layer sends a copy.
 */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

/* How a receive waits for its message's final arrival on shared links:
 * letting MPI progress and taking headers in. */
static void flow_sleep(vli_order_wait *w)
{
	vlmpi_order_sleep(w, VLI_SLEEP_ROOT);
}


/* What else runs on in every wait (vlmpi_set_idle). */
static void (*idle)(void);

void vlmpi_set_idle(void (*fn)(void))
{
	idle = fn;
}

/* What a task waiting for real does meanwhile (vlmpi_wait_poll). */
static void wait_hook(void)
{
	vlmpi_deferred_advance();
	if (idle)
		idle();
}

static unsigned long host_hash(void)
{
	char h[256] = "";
	unsigned long x = 5381;
	const char *p;

	gethostname(h, sizeof h - 1);
	for (p = h; *p; p++)
		x = x * 33 + (unsigned char)*p;
	return x;
}

void vlmpi_order_init(void)
{
	char path[VLCFG_PATH_MAX + 32], addr[1024] = "";
	unsigned long hh = host_hash(), lo = 0, hi = 0, h0 = hh;
	/* VLAYER_BOARD_REMOTE=1 (for tests): every rank but 0 goes through the
	 * board server, as if on another real host */
	const char *force = getenv("VLAYER_BOARD_REMOTE");
	int i, remote = force && *force == '1';

	if (vli_t.cfg.ordering_real)
		return;
	/* one reduction for the least and greatest real host and rank 0's
	 * (max h = ~min ~h; rank 0's is the least of h there, ~0 elsewhere): a
	 * collective of 8 ranks on 2 CPUs costs ms of real time at start-up */
	{
		unsigned long v[3] = { hh, ~hh, vlmpi_world_rank == 0 ? hh : ~0UL }, r[3];

		PMPI_Allreduce(v, r, 3, MPI_UNSIGNED_LONG, MPI_MIN, MPI_COMM_WORLD);
		lo = r[0];
		hi = ~r[1];
		h0 = r[2];
	}
	snprintf(path, sizeof path, "%s/.vlayer-board", vli_trace_dir());
	if (vlmpi_world_rank == 0) {
		vli_order_start(path, 1, -1, "rank %d", NULL); /* slot 0 */
		for (i = 1; i < vlmpi_world_size; i++) {
			int s = vli_order_reserve(0, vlcfg_rank_host(&vli_t.cfg, i));
			if (s != i)
				vli_error(2, "ordering = virtual: the board gave slot %d to rank %d", s, i);
			vli_order_bind(s, i);
		}
		/* ranks on other real hosts join through the board server */
		if ((lo != hi || remote) && vli_order_serve(addr, sizeof addr) < 0)
			addr[0] = 0;
	}
	if (lo != hi || remote)
		PMPI_Bcast(addr, sizeof addr, MPI_CHAR, 0, MPI_COMM_WORLD);
	PMPI_Barrier(MPI_COMM_WORLD);
	if (vlmpi_world_rank != 0 && (hh != h0 || remote)) {
		if (vli_order_connect(addr, vlmpi_world_rank, "rank %d") < 0)
			vli_order_start(path, 0, vlmpi_world_rank, "rank %d", NULL);
	} else if (vlmpi_world_rank != 0) {
		vli_order_start(path, 0, vlmpi_world_rank, "rank %d", NULL);
	}
	vlmpi_vorder = vli_order_on();
	if (vlmpi_vorder)
		vlmpi_comm_private();
	/* MPI moves this rank's outgoing messages only while it calls MPI: a
	 * rank that sleeps on the board wakes every millisecond to let it */
	vli_order_set_sleep_ms(1);
	vli_flow_set_sleeper(flow_sleep);
	/* a task waiting for real lets its wildcard receives choose */
	vlmpi_set_wait_hook(wait_hook);
}

void vlmpi_order_end(void)
{
	vli_order_exit();
	vlmpi_vorder = 0;
}

int vlmpi_decide(int (*try)(void *arg, int *result), void *arg,
		 void (*what)(void *arg, char *buf, size_t n))
{
	vli_order_wait w;
	char buf[96];
	int waiting = 0, r = 0;

	for (;;) {
		if (waiting)
			vli_order_snap(&w);
		if (try(arg, &r))
			break;
		if (!waiting) {
			what(arg, buf, sizeof buf);
			vli_order_wait_begin(&w, "%s", buf);
			vli_order_snap(&w);
			waiting = 1;
		}
		vli_order_block(vli_t.now, VLI_WAIT_POLL);
		vlmpi_order_sleep(&w, VLI_SLEEP_ROOT);
	}
	if (waiting)
		vli_order_wait_end(&w);
	return r;
}

/* Whether the completion of message h is by t - its arrival (dst < 0,
 * posted at t_post) or a rendezvous send's end (to dst, answered at ack) -
 * waiting until that is decided if it is an estimate on shared links. */
struct done_by {
	const vlmpi_hdr *h;
	int dst;
	int64_t tp, t;
};

static int done_by_try(void *arg, int *r)
{
	struct done_by *d = arg;
	int64_t a;

	if ((d->dst < 0 ? vlmpi_arrival_final(d->h, d->tp, &a, 0)
			: vlmpi_rdv_end(d->h, d->dst, d->tp, &a, 0)) ||
	    (a > d->t && vli_flow_settled(d->t, 0))) {
		*r = a <= d->t;
		return 1;
	}
	return 0;
}

static void done_by_what(void *arg, char *buf, size_t n)
{
	struct done_by *d = arg;

	snprintf(buf, n, "whether message %u from rank %d is in", d->h->seq, d->h->src);
}

static int done_by(const vlmpi_hdr *h, int dst, int64_t tp, int64_t t)
{
	struct done_by d = { h, dst, tp, t };

	return vlmpi_decide(done_by_try, &d, done_by_what);
}

int vlmpi_arrived_by(const vlmpi_hdr *h, int64_t t_post, int64_t t)
{
	return done_by(h, -1, t_post, t);
}

int vlmpi_rdv_ended_by(const vlmpi_hdr *h, int dst, int64_t ack, int64_t t)
{
	return done_by(h, dst, ack, t);
}

/* ---- choosing ---- */

/* Take in every header that has arrived, and wait for real for the ones that
 * were announced to this task but are still on their way. */
void vlmpi_catch_up(void)
{
	int64_t since = 0;

	vlmpi_header_drain();
	while (vli_order_behind()) {
		vlmpi_progress();
		sched_yield();
		vlmpi_header_drain();
		if (!since) {
			since = vli_mono_ns();
		} else if (vli_mono_ns() - since > 10000000000LL) {
			vli_warn("rank %d: messages announced to it have not arrived for 10 s",
				 vlmpi_world_rank);
			since = vli_mono_ns();
		}
	}
}

void vlmpi_order_sleep(vli_order_wait *w, int how)
{
	/* copies still going out need MPI to progress: do not sleep in the board;
	 * otherwise sleep at most 1 ms, and let MPI progress between sleeps */
	vlmpi_header_drain();
	/* receives that completed for real answer their rendezvous: a pending
	 * one on shared links leaves then, which others may wait for */
	vlmpi_progress();
	/* and its wildcard receives posted earlier choose what they can, its
	 * nonblocking collectives on shared links simulate what they can */
	vlmpi_deferred_advance();
	if (idle)
		idle();
	if (vlmpi_copies_progress(0)) {
		sched_yield();
		vli_order_sleep(w, VLI_SLEEP_CHECK);
	} else {
		vli_order_sleep(w, how);
	}
}

int vlmpi_safe_any(vlmpi_comm *v, int64_t tau, int committed)
{
	/* on a communicator smaller than the world, only its members can send */
	if (v->size < vlmpi_world_size)
		return vli_order_safe_among(v->world, v->size, tau) && vli_flow_settled(tau, committed);
	return vli_order_safe(tau);
}

/* Whether nothing a receive from source (MPI_ANY_SOURCE: anyone) has not
 * seen can arrive by tau; cand >= 0: its earliest candidate comes from rank
 * cand of v, and what cand sends later cannot be taken before it (MPI
 * matches one sender's messages in the order sent), so cand's bound does
 * not count (BLACS's broadcasts receive from any source on communicators of
 * two ranks: the other is the candidate's sender, and the choice need not
 * wait for it to compute). */
static int safe(vlmpi_comm *v, int source, int64_t tau, int committed, int cand)
{
	/* (a flow's course up to tau: vli_order_safe covers it, a named
	 * source's bound does not) */
	if (source != MPI_ANY_SOURCE)
		return vli_order_safe_from(v->world[source], tau) && vli_flow_settled(tau, committed);
	if (vlmpi_safe_any(v, tau, committed))
		return 1;
	return cand >= 0 && vli_order_safe_among_but(v->world, v->size, tau, v->world[cand]) &&
	       vli_flow_settled(tau, committed);
}

int vlmpi_pick(vlmpi_comm *v, int source, int tag, int mode, int64_t t_post, int *src, int *htag,
	       const char *call)
{
	vli_order_wait w;
	int waiting = 0, b, choice = source == MPI_ANY_SOURCE;
	int64_t tau = 0, lb, limit = mode == VLMPI_PICK_POLL ? vli_t.now : VLI_ORDER_NONE;
	uint32_t epoch;

	for (;;) {
		if (waiting)
			vli_order_snap(&w);
		vlmpi_progress();
		vlmpi_catch_up();
		epoch = vli_flow_epoch();
		b = vlmpi_header_best(v, source, tag, mode == VLMPI_PICK_RECV ? t_post : 0, &tau, htag);
		/* one sender, one order: a receive from a named rank has no choice
		 * (a poll's answer waits for an estimated arrival to be final) */
		if (b >= 0 && !choice && tau <= limit && (limit == VLI_ORDER_NONE || vlmpi_best_final))
			break;
		if (b >= 0 && tau > limit)
			b = -1;
		/* estimates compared: only while none changed */
		/* (a blocking receive or probe posts nothing before it returns) */
		if (safe(v, source, b >= 0 ? tau : limit, mode != VLMPI_PICK_POLL, b) &&
		    vli_flow_epoch() == epoch)
			break;
		if (!waiting) {
			vli_order_wait_begin(&w, "%s(source=%d, tag=%d)", call, source, tag);
			vli_order_snap(&w);
			waiting = 1;
		}
		lb = b >= 0 ? tau : limit;
		vli_order_block(lb, mode == VLMPI_PICK_POLL ? VLI_WAIT_POLL : VLI_WAIT_MSG);
		if (b < 0 && limit == VLI_ORDER_NONE) {
			/* only a new message can help: it is announced first */
			vlmpi_order_sleep(&w, VLI_SLEEP_KICK);
		} else {
			if (safe(v, source, lb, mode != VLMPI_PICK_POLL, b))
				continue;
			vlmpi_order_sleep(&w, VLI_SLEEP_ROOT);
		}
	}
	if (waiting)
		vli_order_wait_end(&w);
	*src = b;
	return b >= 0;
}

/* ---- requests complete from the start ---- */

static int done_query(void *extra, MPI_Status *st)
{
	(void)extra;
	PMPI_Status_set_elements(st, MPI_BYTE, 0);
	PMPI_Status_set_cancelled(st, 0);
	st->MPI_SOURCE = MPI_UNDEFINED;
	st->MPI_TAG = MPI_UNDEFINED;
	return MPI_SUCCESS;
}

static int done_free(void *extra)
{
	(void)extra;
	return MPI_SUCCESS;
}

static int done_cancel(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS; /* too late: the message has gone */
}

int vlmpi_done_request(MPI_Request *req)
{
	int rc = PMPI_Grequest_start(done_query, done_free, done_cancel, NULL, req);

	return rc == MPI_SUCCESS ? PMPI_Grequest_complete(*req) : rc;
}

/* ---- wildcard receives posted later ----
 * MPI_Irecv(MPI_ANY_SOURCE) is not posted for real: the program gets a
 * generalized request, and the layer chooses the message in virtual order.
 * It chooses as MPI matches, when the choice is final rather than when the
 * program waits: whenever this task waits for anything (vlmpi_deferred_advance,
 * from the waiting loops), each such receive, in the order posted, takes the
 * candidate with the earliest envelope once no other can arrive earlier;
 * then it is posted for real from that source, and a rendezvous it takes is
 * answered at once and leaves at its post time on the shared links.  Until
 * then its post holds back every rendezvous it matches (the board's
 * vli_order_rdv_post_locked), so no flow is taken as final that the one it
 * takes could slow down; a receive not chosen yet when the program waits for
 * it is chosen then (vlmpi_deferred_finish), to the same message. */

struct vlmpi_deferred {
	MPI_Request greq;  /* the program's handle */
	MPI_Status st;     /* the real receive's status */
	MPI_Request real;  /* chosen early: the real receive from that source */
	int cancelled, chosen;
};

/* The deferred receives not chosen yet, in the order posted. */
static vlmpi_req **dq;
static int ndq, capdq;
/* the one vlmpi_deferred_finish chooses now (advance leaves it alone) */
static const vlmpi_req *finishing;

static void dq_add(vlmpi_req *q)
{
	if (ndq == capdq) {
		capdq = capdq ? 2 * capdq : 8;
		dq = realloc(dq, sizeof(*dq) * (size_t)capdq);
		if (!dq)
			vli_error(1, "out of memory");
	}
	dq[ndq++] = q;
}

static void dq_del(const vlmpi_req *q)
{
	int i;

	for (i = 0; i < ndq; i++)
		if (dq[i] == q) {
			for (; i + 1 < ndq; i++)
				dq[i] = dq[i + 1];
			ndq--;
			return;
		}
}

static int deferred_query(void *extra, MPI_Status *st)
{
	struct vlmpi_deferred *d = extra;

	*st = d->st;
	PMPI_Status_set_cancelled(st, d->cancelled);
	return MPI_SUCCESS;
}

static int deferred_free(void *extra)
{
	free(extra);
	return MPI_SUCCESS;
}

static int deferred_cancel(void *extra, int complete)
{
	struct vlmpi_deferred *d = extra;

	if (!complete && !d->chosen) { /* (once chosen it is matched: too late) */
		d->cancelled = 1;
		PMPI_Status_set_elements(&d->st, MPI_BYTE, 0);
		d->st.MPI_SOURCE = MPI_ANY_SOURCE;
		d->st.MPI_TAG = MPI_ANY_TAG;
		PMPI_Grequest_complete(d->greq);
	}
	return MPI_SUCCESS;
}

int vlmpi_deferred_start(vlmpi_comm *v, void *buf, int count, MPI_Datatype dt, int tag,
			 MPI_Request *req)
{
	struct vlmpi_deferred *d = calloc(1, sizeof(*d));
	vlmpi_req *q;
	int rc;

	if (!d)
		vli_error(1, "out of memory");
	rc = PMPI_Grequest_start(deferred_query, deferred_free, deferred_cancel, d, req);
	if (rc != MPI_SUCCESS) {
		free(d);
		return rc;
	}
	d->greq = *req;
	d->real = MPI_REQUEST_NULL;
	q = vlmpi_req_new(*req, VLMPI_REQ_RECV, v, MPI_ANY_SOURCE, tag);
	q->deferred = 1;
	q->dst = d;
	q->rbuf = buf;
	q->count = count;
	q->dt = dt;
	vlmpi_irecv_posted(q);
	dq_add(q);
	return MPI_SUCCESS;
}

int vlmpi_deferred_cancelled(const vlmpi_req *q)
{
	return q->deferred && q->dst && q->dst->cancelled;
}

int vlmpi_deferred_restart(vlmpi_req *q)
{
	struct vlmpi_deferred *d = q->dst;

	if (!d && !(d = q->dst = calloc(1, sizeof(*d))))
		vli_error(1, "out of memory");
	d->greq = MPI_REQUEST_NULL;
	d->real = MPI_REQUEST_NULL;
	d->cancelled = d->chosen = 0;
	q->deferred = 1;
	q->rbuf = (void *)q->buf;
	dq_add(q);
	return MPI_SUCCESS;
}

void vlmpi_deferred_cancel(vlmpi_req *q)
{
	struct vlmpi_deferred *d = q->dst;

	if (q->hdr_ready || d->cancelled)
		return;
	d->cancelled = 1;
	dq_del(q);
	PMPI_Status_set_elements(&d->st, MPI_BYTE, 0);
	PMPI_Status_set_cancelled(&d->st, 1);
	d->st.MPI_SOURCE = MPI_ANY_SOURCE;
	d->st.MPI_TAG = MPI_ANY_TAG;
}

void vlmpi_deferred_forget(vlmpi_req *q)
{
	if (!q->deferred)
		return;
	dq_del(q);
	if (q->persistent) {
		free(q->dst);
		q->dst = NULL;
	}
}

int vlmpi_deferred_wait(vlmpi_req *q, MPI_Request *req, MPI_Status *st)
{
	vlmpi_deferred_finish(q);
	if (!q->deferred || !q->persistent)
		return vlmpi_real_wait(req, st);
	/* the real persistent request was never started: it stays inactive */
	*st = q->dst->st;
	return MPI_SUCCESS;
}

/* Deferred receive q takes the message of rank s of its communicator with
 * tag htag: posted for real from there, its header taken (a rendezvous
 * answered: it leaves at q's post). */
static void choose(vlmpi_req *q, int s, int htag)
{
	struct vlmpi_deferred *d = q->dst;
	MPI_Status st;

	dq_del(q);
	d->chosen = 1;
	if (PMPI_Irecv(q->rbuf, q->count, q->dt, s, htag, q->vc->comm, &d->real) != MPI_SUCCESS)
		d->real = MPI_REQUEST_NULL;
	st.MPI_SOURCE = s;
	st.MPI_TAG = htag;
	PMPI_Status_set_cancelled(&st, 0);
	vlmpi_recv_header(q, &st);
}

/* Whether deferred receive q can take the message of rank s with tag htag
 * before the ones posted earlier in blk[] (nb of them) that are not chosen
 * yet: not if one of them matches it (MPI matches in the order posted). */
static int first_match(const vlmpi_req *q, vlmpi_req *const *blk, int nb, int htag)
{
	int i;

	for (i = 0; i < nb; i++)
		if (blk[i]->vc->id == q->vc->id && (blk[i]->tag == MPI_ANY_TAG || blk[i]->tag == htag))
			return 0;
	return 1;
}

/* The limit of a choice of candidate tau from rank b of v while this task's
 * own bound is own: what the task does next comes no earlier than own.  But
 * if it waits in a blocking collective that b has not entered while b waits
 * on this task in a rendezvous send (its candidate a rendezvous too), b
 * cannot enter before it is answered and this task cannot leave before b
 * enters (its real collective, or the exchange of entry times, needs b):
 * the receive is chosen now or never (the run hung so before 2026-11-27).
 * Where the collective's end needs every member's entry (barrier, the
 * all- kinds, reduce_scatter) this is exact: this task acts next after b's
 * send ends, no earlier than the envelope of b's message, itself no earlier
 * than the candidate's (b's first here: each send call pays its send time).
 * In a rooted one it overrules a message this task would send itself after
 * the collective that arrives before tau (README, Known limits). */
static int64_t choice_limit(vlmpi_comm *v, int b, int64_t tau, int64_t own)
{
	if (tau > own && vlmpi_best_rdv && vli_order_coll_blocked_by(v->world[b]))
		return tau;
	return own;
}

void vlmpi_deferred_advance(void)
{
	static int busy;
	vlmpi_req **blk;
	int i, nb = 0;
	int64_t own;

	/* (also without shared links: the choice is the same as when the
	 * program waits, but a rendezvous sender waits for it for real) */
	if (!vlmpi_vorder || !ndq || busy)
		return;
	busy = 1;
	/* what this task does next (a send to itself, a flow of its own that
	 * could slow a candidate) comes no earlier than its bound: a choice is
	 * final only up to it */
	own = vli_order_own_bound();
	vlmpi_header_drain();
	blk = malloc(sizeof(*blk) * (size_t)ndq);
	if (!blk)
		vli_error(1, "out of memory");
	for (i = 0; i < ndq && !vli_order_behind();) {
		vlmpi_req *q = dq[i];
		uint32_t epoch = vli_flow_epoch();
		int64_t tau = 0;
		int htag = 0, b = q == finishing ? -1 : vlmpi_header_best(q->vc, MPI_ANY_SOURCE, q->tag,
									      q->t_post, &tau, &htag);

		/* final: nothing can arrive earlier, whatever this task does
		 * next (committed 0: it may post receives from its bound on) */
		if (b >= 0 && tau <= choice_limit(q->vc, b, tau, own) && first_match(q, blk, nb, htag) &&
		    safe(q->vc, MPI_ANY_SOURCE, tau, 0, b) && vli_flow_epoch() == epoch) {
			choose(q, b, htag); /* (it leaves dq: i stays) */
			continue;
		}
		blk[nb++] = q;
		i++;
	}
	free(blk);
	/* one not chosen: the others publish their waits while this one
	 * waits (they do so only for a watcher) */
	if (ndq)
		vlmpi_wait_watch();
	busy = 0;
}

void vlmpi_deferred_finish(vlmpi_req *q)
{
	struct vlmpi_deferred *d = q->dst;
	int s, htag;

	if (!q->deferred || d->cancelled)
		return;
	if (d->chosen) {
		if (d->real != MPI_REQUEST_NULL) {
			vlmpi_real_wait(&d->real, &d->st);
			if (d->greq != MPI_REQUEST_NULL)
				PMPI_Grequest_complete(d->greq);
		}
		return;
	}
	/* those posted before it first, as far as they can be chosen now */
	finishing = q;
	vlmpi_deferred_advance();
	vlmpi_pick(q->vc, MPI_ANY_SOURCE, q->tag, VLMPI_PICK_RECV, q->t_post, &s, &htag,
		   q->persistent ? "MPI_Start(MPI_ANY_SOURCE)" : "MPI_Irecv(MPI_ANY_SOURCE)");
	finishing = NULL;
	choose(q, s, htag);
	vlmpi_deferred_finish(q);
}

void vlmpi_deferred_drop(vlmpi_req *q)
{
	MPI_Request r;

	if (!q->deferred || q->dst->cancelled)
		return;
	dq_del(q);
	if (q->dst->chosen) {
		/* posted for real already: MPI receives it */
		if (q->dst->real != MPI_REQUEST_NULL)
			PMPI_Request_free(&q->dst->real);
	} else if (PMPI_Irecv(q->rbuf, q->count, q->dt, MPI_ANY_SOURCE, q->tag, q->vc->comm,
			      &r) == MPI_SUCCESS) {
		/* the program will not wait for it: MPI receives it, in real order */
		PMPI_Request_free(&r);
	}
	if (q->dst->greq != MPI_REQUEST_NULL)
		PMPI_Grequest_complete(q->dst->greq);
}
