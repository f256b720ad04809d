/* order.c - virtual order in the MPI front end (the engine's order.c keeps
 * the board; this file says what an MPI task publishes on it and how its
 * receives choose).
 *
 * Joining: at MPI_Init rank 0 makes the board in the trace directory and
 * reserves a slot for every rank (slot = world rank), then every rank joins.
 * Ranks on several real hosts keep real order, with a warning.
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

int vlmpi_vorder;

static vli_order_wait wait_state;
static int wait_depth;

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
	char path[VLCFG_PATH_MAX + 32];
	unsigned long hh = host_hash(), lo = 0, hi = 0;
	int i;

	if (vli_t.cfg.ordering_real)
		return;
	PMPI_Allreduce(&hh, &lo, 1, MPI_UNSIGNED_LONG, MPI_MIN, MPI_COMM_WORLD);
	PMPI_Allreduce(&hh, &hi, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
	if (lo != hi) {
		if (vlmpi_world_rank == 0)
			vli_warn("ordering = virtual: the ranks run on several real hosts; virtual "
				 "order across real hosts is not supported yet, so wildcard receives "
				 "follow real arrival");
		return;
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
	}
	PMPI_Barrier(MPI_COMM_WORLD);
	if (vlmpi_world_rank != 0)
		vli_order_start(path, 0, vlmpi_world_rank, "rank %d", NULL);
	vlmpi_vorder = vli_order_on();
}

void vlmpi_order_end(void)
{
	vli_order_exit();
	vlmpi_vorder = 0;
}

/* ---- waiting ---- */

void vlmpi_wait_begin(int64_t lb, uint64_t on, uint64_t n, const char *fmt, ...)
{
	if (!vlmpi_vorder)
		return;
	if (wait_depth++ == 0) {
		va_list ap;
		char what[112];

		va_start(ap, fmt);
		vsnprintf(what, sizeof what, fmt, ap);
		va_end(ap);
		vli_order_wait_begin(&wait_state, "%s", what);
	}
	vli_order_block_on(lb, VLI_WAIT_MSG, on, n);
}

void vlmpi_wait_end(void)
{
	if (!vlmpi_vorder || wait_depth == 0)
		return;
	if (--wait_depth == 0)
		vli_order_wait_end(&wait_state);
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

/* The candidate of source rank s of v: its first matching header; arrival of
 * the message (mode RECV, posted at t_post) or of its envelope. */
static int candidate(vlmpi_comm *v, int s, int tag, int mode, int64_t t_post, vlmpi_hdr *h,
		     int64_t *arr)
{
	if (!vlmpi_header_first(v->world[s], v->id, tag, h))
		return 0;
	*arr = vlmpi_arrival_of(h, mode == VLMPI_PICK_RECV ? t_post : 0);
	return 1;
}

/* The least (arrival, world rank, sequence) among the candidates; -1 if none. */
static int best(vlmpi_comm *v, int source, int tag, int mode, int64_t t_post, int64_t *tau,
		int *htag)
{
	int s, lo = source == MPI_ANY_SOURCE ? 0 : source, hi = source == MPI_ANY_SOURCE ? v->size : source + 1;
	int b = -1;
	uint32_t bseq = 0;
	vlmpi_hdr h;
	int64_t a;

	for (s = lo; s < hi; s++) {
		if (!candidate(v, s, tag, mode, t_post, &h, &a))
			continue;
		if (b < 0 || a < *tau || (a == *tau && (v->world[s] < v->world[b] ||
						       (v->world[s] == v->world[b] && h.seq < bseq)))) {
			b = s;
			*tau = a;
			*htag = h.tag;
			bseq = h.seq;
		}
	}
	return b;
}

int64_t vlmpi_pending_arrival(vlmpi_comm *v, int source, int tag, int64_t t_post)
{
	int64_t tau = VLI_ORDER_NONE;
	int htag;

	if (!vlmpi_vorder || source == MPI_PROC_NULL)
		return VLI_ORDER_NONE;
	vlmpi_header_drain();
	return best(v, source, tag, VLMPI_PICK_RECV, t_post, &tau, &htag) >= 0 ? tau
									       : VLI_ORDER_NONE;
}

/* Whether nothing a receive from source (MPI_ANY_SOURCE: anyone) has not
 * seen can arrive by tau. */
static int safe(vlmpi_comm *v, int source, int64_t tau)
{
	return source == MPI_ANY_SOURCE ? vli_order_safe(tau)
					: vli_order_safe_from(v->world[source], tau);
}

int vlmpi_pick(vlmpi_comm *v, int source, int tag, int mode, int64_t t_post, int *src, int *htag,
	       const char *call)
{
	vli_order_wait w;
	int waiting = 0, b, choice = source == MPI_ANY_SOURCE;
	int64_t tau = 0, lb, limit = mode == VLMPI_PICK_POLL ? vli_t.now : VLI_ORDER_NONE;

	for (;;) {
		if (waiting)
			vli_order_snap(&w);
		vlmpi_progress();
		vlmpi_catch_up();
		b = best(v, source, tag, mode, t_post, &tau, htag);
		/* one sender, one order: a receive from a named rank has no choice */
		if (b >= 0 && !choice && tau <= limit)
			break;
		if (b >= 0 && tau > limit)
			b = -1;
		if (safe(v, source, b >= 0 ? tau : limit))
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
			vli_order_sleep(&w, VLI_SLEEP_KICK);
		} else {
			if (safe(v, source, lb))
				continue;
			vli_order_sleep(&w, VLI_SLEEP_ROOT);
		}
	}
	if (waiting)
		vli_order_wait_end(&w);
	*src = b;
	return b >= 0;
}

/* ---- eager sends by copy ---- */

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

void vlmpi_copies_progress(int wait)
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

/* ---- wildcard receives posted later ---- */

struct vlmpi_deferred {
	MPI_Request greq;  /* the program's handle */
	MPI_Status st;     /* the real receive's status */
	int cancelled;
};

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

	if (!complete) {
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
	q = vlmpi_req_new(*req, VLMPI_REQ_RECV, v, MPI_ANY_SOURCE, tag);
	q->deferred = 1;
	q->dst = d;
	q->rbuf = buf;
	q->count = count;
	q->dt = dt;
	vlmpi_irecv_posted(q);
	return MPI_SUCCESS;
}

int vlmpi_deferred_cancelled(const vlmpi_req *q)
{
	return q->deferred && q->dst && q->dst->cancelled;
}

void vlmpi_deferred_finish(vlmpi_req *q)
{
	struct vlmpi_deferred *d = q->dst;
	int s, htag;

	if (!q->deferred || q->hdr_ready || d->cancelled)
		return;
	vlmpi_pick(q->vc, MPI_ANY_SOURCE, q->tag, VLMPI_PICK_RECV, q->t_post, &s, &htag,
		   "MPI_Irecv(MPI_ANY_SOURCE)");
	if (vlmpi_n_watch > 1) {
		MPI_Request r;
		if (PMPI_Irecv(q->rbuf, q->count, q->dt, s, htag, q->vc->comm, &r) == MPI_SUCCESS)
			vlmpi_real_wait(&r, &d->st);
	} else {
		PMPI_Recv(q->rbuf, q->count, q->dt, s, htag, q->vc->comm, &d->st);
	}
	vlmpi_recv_header(q, &d->st);
	PMPI_Grequest_complete(d->greq);
}

void vlmpi_deferred_drop(vlmpi_req *q)
{
	MPI_Request r;

	if (!q->deferred || q->hdr_ready || q->dst->cancelled)
		return;
	/* the program will not wait for it: MPI receives it, in real order */
	if (PMPI_Irecv(q->rbuf, q->count, q->dt, MPI_ANY_SOURCE, q->tag, q->vc->comm, &r) ==
	    MPI_SUCCESS)
		PMPI_Request_free(&r);
	PMPI_Grequest_complete(q->dst->greq);
}
