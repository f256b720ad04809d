/* mpi_wrap.c - the MPI front end: translates MPI calls into engine operations
 * (clock.c, message.c, coll.c) through the PMPI profiling interface.
 *
 * Virtual time travels beside the user's messages: every timed message is
 * preceded by a small header on a private duplicate of MPI_COMM_WORLD (the
 * header communicator) carrying the communicator id, tag, sequence number,
 * size, virtual send time and the costs of the send.  The user's message
 * itself is sent untouched, with the user's datatype, so matching, wildcards,
 * message order, status fields and MPI_Get_count are exactly MPI's.  After a
 * receive completes, the receiver takes the first header from that source with
 * the same communicator id and tag: MPI's non-overtaking rule keeps the two
 * streams in the same order.
 *
 * Rendezvous (size >= [mpi] eager_limit, and every synchronous send): the
 * receiver answers the header with the virtual time its receive was posted, on
 * a second private communicator; the send starts at the later of the two.
 * While a task waits in the layer, receives it has posted are watched so that
 * their answers go out (otherwise two tasks that pre-post receives and then
 * send to each other would wait for each other's answer).
 *
 * Collectives run for real; their virtual time is simulated by coll.c from the
 * entry times of all members, exchanged with one extra allgather.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"
#include "mpi_wrap.h"
#include "mpi_wrap_gen.h"

extern char *program_invocation_name;

/* referred to by programs built with mpiV.h */
int vl_mpi_layer_present = 1;

/* ---- communicators ---- */

typedef struct vcomm {
	MPI_Comm comm;
	uint64_t id;       /* the same on every member: from the parent's id and history */
	uint32_t ncreated; /* communicators created from this one so far */
	int size, rank;
	int *world;        /* world rank of each member */
	int *host;         /* virtual host of each member */
} vcomm;

static vcomm **comms;
static int ncomms, acomms;
static MPI_Comm hdr_comm = MPI_COMM_NULL, ack_comm = MPI_COMM_NULL;
static int world_rank, world_size;

static vcomm *comm_find(MPI_Comm c)
{
	int i;

	for (i = 0; i < ncomms; i++)
		if (comms[i]->comm == c)
			return comms[i];
	return NULL;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0x100000001b3ull;
}

/* Register c, created collectively from parent (NULL: MPI_COMM_WORLD). */
static void comm_add(MPI_Comm c, vcomm *parent)
{
	vcomm *v;
	MPI_Group g, wg;
	int i, inter = 0, minw;
	int *idx;

	if (c == MPI_COMM_NULL)
		return;
	PMPI_Comm_test_inter(c, &inter);
	if (inter)
		return; /* not timed: see README */
	v = calloc(1, sizeof(*v));
	if (!v)
		vli_error(1, "out of memory");
	v->comm = c;
	PMPI_Comm_size(c, &v->size);
	PMPI_Comm_rank(c, &v->rank);
	v->world = malloc(sizeof(int) * (size_t)v->size);
	v->host = malloc(sizeof(int) * (size_t)v->size);
	idx = malloc(sizeof(int) * (size_t)v->size);
	if (!v->world || !v->host || !idx)
		vli_error(1, "out of memory");
	for (i = 0; i < v->size; i++)
		idx[i] = i;
	PMPI_Comm_group(c, &g);
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	PMPI_Group_translate_ranks(g, v->size, idx, wg, v->world);
	PMPI_Group_free(&g);
	PMPI_Group_free(&wg);
	free(idx);
	minw = world_size;
	for (i = 0; i < v->size; i++) {
		v->host[i] = vlcfg_rank_host(&vli_t.cfg, v->world[i]);
		if (v->world[i] < minw)
			minw = v->world[i];
	}
	if (!parent)
		v->id = 1;
	else
		v->id = mix(mix(mix(parent->id, parent->ncreated), (uint64_t)minw), (uint64_t)v->size);
	if (ncomms == acomms) {
		acomms = acomms ? 2 * acomms : 8;
		comms = realloc(comms, sizeof(*comms) * (size_t)acomms);
		if (!comms)
			vli_error(1, "out of memory");
	}
	comms[ncomms++] = v;
}

static void comm_del(MPI_Comm c)
{
	int i;

	for (i = 0; i < ncomms; i++)
		if (comms[i]->comm == c) {
			free(comms[i]->world);
			free(comms[i]->host);
			free(comms[i]);
			comms[i] = comms[--ncomms];
			return;
		}
}

/* A communicator the layer does not know (an intercommunicator, or one made
 * by a call it does not wrap): its messages pass untimed. */
static vcomm *comm_timed(MPI_Comm c)
{
	static int warned;
	vcomm *v = comm_find(c);

	if (!v && !warned) {
		warned = 1;
		vli_warn("rank %d: a communicator the layer does not know (an intercommunicator?): "
			"its messages are not timed", world_rank);
	}
	return v;
}

static int64_t type_bytes(MPI_Datatype t, int count)
{
	int sz = 0;

	if (t == MPI_DATATYPE_NULL || count <= 0)
		return 0;
	PMPI_Type_size(t, &sz);
	return (int64_t)sz * count;
}

/* ---- headers ---- */

#define VH_RDV 1
#define VH_CANCEL 2
#define ACK_TAG(seq) ((int)((seq) & 0x3fffffff))

typedef struct vhdr {
	uint64_t cid;
	int32_t tag;
	uint32_t seq;
	int64_t bytes;
	int64_t t_call;   /* sender's virtual time at the call */
	int64_t send_ns;  /* time the sender spends sending */
	int64_t trans_ns; /* time on the wire */
	int32_t flags;
	int32_t src_host;
} vhdr;

/* headers that arrived before their message was received, per source */
typedef struct stash {
	vhdr *h;
	int n, cap;
} stash;
static stash *stashes;

static void stash_push(int src, const vhdr *h)
{
	stash *s = &stashes[src];

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->h = realloc(s->h, sizeof(vhdr) * (size_t)s->cap);
		if (!s->h)
			vli_error(1, "out of memory");
	}
	s->h[s->n++] = *h;
}

static void stash_drop(int src, int i)
{
	stash *s = &stashes[src];

	memmove(&s->h[i], &s->h[i + 1], sizeof(vhdr) * (size_t)(s->n - i - 1));
	s->n--;
}

/* The header of the next message from world rank src on communicator cid
 * with tag; removed from the stream unless peek. */
static void header_get(int src, uint64_t cid, int tag, vhdr *out, int peek)
{
	stash *s = &stashes[src];
	vhdr h;
	int i;

	for (i = 0; i < s->n; i++)
		if (s->h[i].cid == cid && s->h[i].tag == tag) {
			*out = s->h[i];
			if (!peek)
				stash_drop(src, i);
			return;
		}
	for (;;) {
		PMPI_Recv(&h, sizeof h, MPI_BYTE, src, 0, hdr_comm, MPI_STATUS_IGNORE);
		if (h.flags & VH_CANCEL) {
			for (i = 0; i < s->n; i++)
				if (s->h[i].seq == h.seq) {
					stash_drop(src, i);
					break;
				}
			continue;
		}
		if (h.cid == cid && h.tag == tag) {
			*out = h;
			if (peek)
				stash_push(src, &h);
			return;
		}
		stash_push(src, &h);
	}
}

/* Header of a message this task sends now; the clock is not touched. */
static void header_make(vhdr *h, vcomm *v, int dest, int tag, int64_t bytes, int rdv)
{
	int dh = v->host[dest];

	h->cid = v->id;
	h->tag = tag;
	h->seq = vli_t.seq + 1; /* the number vli_msg_sent will give it */
	h->bytes = bytes;
	h->t_call = vli_t.now;
	h->send_ns = vli_send_time(&vli_t.cfg, vli_t.host, dh, bytes);
	h->trans_ns = vli_trans_time(&vli_t.cfg, vli_t.host, dh, bytes);
	h->flags = rdv ? VH_RDV : 0;
	h->src_host = vli_t.host;
	PMPI_Send(h, sizeof *h, MPI_BYTE, v->world[dest], 0, hdr_comm);
}

/* Departure = end of the send call; a rendezvous leaves no earlier than the
 * receive was posted. */
static int64_t arrival_of(const vhdr *h, int64_t t_post)
{
	int64_t go = h->t_call + h->send_ns;

	if ((h->flags & VH_RDV) && t_post > go)
		go = t_post;
	return go + h->trans_ns;
}

static int64_t rdv_departure(const vhdr *h, int64_t ack)
{
	return h->t_call + h->send_ns > ack ? h->t_call + h->send_ns : ack;
}

static void ack_send(int src, const vhdr *h, int64_t t_post)
{
	if (h->flags & VH_RDV)
		PMPI_Send(&t_post, 1, MPI_INT64_T, src, ACK_TAG(h->seq), ack_comm);
}

/* ---- requests the layer follows ---- */

enum { VR_SEND = 1, VR_RECV, VR_COLL };
struct vcoll;
enum { MODE_STD, MODE_B, MODE_S, MODE_R };

typedef struct vreq {
	MPI_Request req;
	int kind, persistent, active;
	vcomm *vc;
	int peer, tag;         /* as given (communicator ranks) */
	int64_t t_post;        /* virtual time of the post / start */
	/* sends */
	int rdv, mode;
	vhdr h;                /* header sent */
	MPI_Request ack;       /* rendezvous: the receiver's answer */
	int64_t ack_t;
	int ack_done;
	/* receives */
	int hdr_ready, src_world;
	vhdr rh;
	/* persistent: the arguments */
	const void *buf;
	int count;
	MPI_Datatype dt;
	/* nonblocking collectives */
	struct vcoll *coll;
	uint32_t num;          /* request number in the trace (per activation) */
} vreq;

static vreq **rq;          /* open addressing on the request handle */
static size_t rq_cap, rq_n;
static int n_watch;        /* active receives whose header is not taken yet */

static size_t rq_slot(MPI_Request r)
{
	uint64_t k = (uint64_t)(uintptr_t)r;

	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k & (rq_cap - 1);
}

static vreq *rq_find(MPI_Request r)
{
	size_t i;

	if (!rq_n || r == MPI_REQUEST_NULL)
		return NULL;
	for (i = rq_slot(r); rq[i]; i = (i + 1) & (rq_cap - 1))
		if (rq[i]->req == r)
			return rq[i];
	return NULL;
}

static void rq_put(vreq *v);

static void rq_grow(void)
{
	vreq **old = rq;
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

static void rq_put(vreq *v)
{
	size_t i;

	if ((rq_n + 1) * 2 > rq_cap)
		rq_grow();
	for (i = rq_slot(v->req); rq[i]; i = (i + 1) & (rq_cap - 1))
		;
	rq[i] = v;
	rq_n++;
}

static void rq_del(vreq *v)
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

static vreq *vreq_new(MPI_Request r, int kind, vcomm *vc, int peer, int tag)
{
	vreq *v = calloc(1, sizeof(*v));

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
	if (kind == VR_RECV)
		n_watch++;
	return v;
}

/* Take the header of a receive that completed for real (status st). */
static void recv_header(vreq *v, const MPI_Status *st)
{
	if (v->hdr_ready)
		return;
	v->hdr_ready = 1;
	n_watch--;
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
	header_get(v->src_world, v->vc->id, st->MPI_TAG, &v->rh, 0);
	ack_send(v->src_world, &v->rh, v->t_post);
}

/* Look at every watched receive: those that completed for real give their
 * header now and answer a rendezvous. */
static void progress(void)
{
	size_t i;
	int flag;
	MPI_Status st;

	if (!n_watch)
		return;
	for (i = 0; i < rq_cap && n_watch; i++) {
		vreq *v = rq[i];
		if (!v || v->kind != VR_RECV || !v->active || v->hdr_ready)
			continue;
		flag = 0;
		PMPI_Request_get_status(v->req, &flag, &st);
		if (flag)
			recv_header(v, &st);
	}
}

/* Wait for the real completion of *r, watching the other receives meanwhile. */
static int real_wait(MPI_Request *r, MPI_Status *st)
{
	int flag = 0, rc, spins = 0;

	if (!n_watch)
		return PMPI_Wait(r, st);
	for (;;) {
		rc = PMPI_Test(r, &flag, st);
		if (rc != MPI_SUCCESS || flag)
			return rc;
		progress();
		if (++spins > 64)
			sched_yield();
	}
}

/* Wait for the receiver's answer to a rendezvous.  A program that relies on
 * MPI buffering a message at or above eager_limit (unsafe in MPI's terms)
 * waits here for ever, as it would on a machine with that limit: say so once. */
static void ack_wait(MPI_Request *r, int dest_world, int tag, int64_t bytes)
{
	int flag = 0;
	int64_t t0 = vli_mono_ns();
	static int warned;

	for (;;) {
		if (PMPI_Test(r, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || flag)
			return;
		progress();
		sched_yield();
		if (!warned && vli_mono_ns() - t0 > 10000000000LL) {
			warned = 1;
			vli_warn("rank %d has waited 10 s for rank %d to post the receive of its "
				"%lld-byte message (tag %d): at or above [mpi] eager_limit a send "
				"completes only when its receive is posted; a program that relies on "
				"buffering deadlocks on such a machine",
				world_rank, dest_world, (long long)bytes, tag);
		}
	}
}

/* ---- sending ---- */

/* A buffered send never waits for the receiver; a synchronous one always does. */
static int eager(int64_t bytes, int mode)
{
	return mode == MODE_B || (mode != MODE_S && bytes < vli_t.cfg.mpi.eager_limit);
}

static int do_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		   int mode)
{
	vcomm *v;
	vhdr h;
	int64_t bytes, t0 = vli_t.now;
	int rc;
	vli_sent s;

	if (dest == MPI_PROC_NULL || !(v = comm_timed(comm)) || dest < 0 || dest >= v->size)
		goto passthrough;
	bytes = type_bytes(dt, count);
	header_make(&h, v, dest, tag, bytes, !eager(bytes, mode));
	if (!(h.flags & VH_RDV)) {
		if (n_watch) {
			MPI_Request r;
			rc = PMPI_Isend(buf, count, dt, dest, tag, comm, &r);
			if (rc == MPI_SUCCESS)
				rc = real_wait(&r, MPI_STATUS_IGNORE);
		} else {
			rc = mode == MODE_B ? PMPI_Bsend(buf, count, dt, dest, tag, comm)
			     : mode == MODE_R ? PMPI_Rsend(buf, count, dt, dest, tag, comm)
					      : PMPI_Send(buf, count, dt, dest, tag, comm);
		}
		vli_msg_sent(v->world[dest], v->host[dest], tag, bytes, h.send_ns, t0, 0, 1, 0, &s);
		return rc;
	} else {
		MPI_Request r[2];
		int64_t ack = 0;

		rc = mode == MODE_S ? PMPI_Issend(buf, count, dt, dest, tag, comm, &r[0])
				    : PMPI_Isend(buf, count, dt, dest, tag, comm, &r[0]);
		if (rc != MPI_SUCCESS)
			return rc;
		PMPI_Irecv(&ack, 1, MPI_INT64_T, v->world[dest], ACK_TAG(h.seq), ack_comm, &r[1]);
		ack_wait(&r[1], v->world[dest], tag, bytes);
		rc = real_wait(&r[0], MPI_STATUS_IGNORE);
		/* the data leave when both the send and the receive are there */
		vli_msg_sent(v->world[dest], v->host[dest], tag, bytes, h.send_ns, t0, ack, 1, 0, &s);
		return rc;
	}
passthrough:
	switch (mode) {
	case MODE_B:
		return PMPI_Bsend(buf, count, dt, dest, tag, comm);
	case MODE_S:
		return PMPI_Ssend(buf, count, dt, dest, tag, comm);
	case MODE_R:
		return PMPI_Rsend(buf, count, dt, dest, tag, comm);
	default:
		return PMPI_Send(buf, count, dt, dest, tag, comm);
	}
}

int vlmpi_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
	return do_send(buf, count, dt, dest, tag, comm, MODE_STD);
}

int vlmpi_Bsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
	return do_send(buf, count, dt, dest, tag, comm, MODE_B);
}

int vlmpi_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
	return do_send(buf, count, dt, dest, tag, comm, MODE_S);
}

int vlmpi_Rsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
	return do_send(buf, count, dt, dest, tag, comm, MODE_R);
}

/* Start a nonblocking send whose real request is *r (already posted by the
 * caller after this returns the header: see isend/start). */
static void isend_timing(vreq *q, int64_t bytes)
{
	vli_sent s;
	vcomm *v = q->vc;

	/* the call pays the send; a rendezvous completes in Wait/Test when the
	 * receive was posted (the trace shows the earliest possible arrival) */
	q->num = vli_req_next();
	vli_msg_sent(v->world[q->peer], v->host[q->peer], q->tag, bytes, q->h.send_ns, vli_t.now, 0,
		     1, q->num, &s);
	if (!q->rdv)
		return;
	q->ack_done = 0;
	q->ack_t = 0;
	PMPI_Irecv(&q->ack_t, 1, MPI_INT64_T, v->world[q->peer], ACK_TAG(q->h.seq), ack_comm,
		   &q->ack);
}

static int do_isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		    int mode, MPI_Request *req)
{
	vcomm *v;
	vreq *q;
	vhdr h;
	int64_t bytes;
	int rc;

	if (dest == MPI_PROC_NULL || !(v = comm_timed(comm)) || dest < 0 || dest >= v->size) {
		switch (mode) {
		case MODE_B:
			return PMPI_Ibsend(buf, count, dt, dest, tag, comm, req);
		case MODE_S:
			return PMPI_Issend(buf, count, dt, dest, tag, comm, req);
		case MODE_R:
			return PMPI_Irsend(buf, count, dt, dest, tag, comm, req);
		default:
			return PMPI_Isend(buf, count, dt, dest, tag, comm, req);
		}
	}
	bytes = type_bytes(dt, count);
	header_make(&h, v, dest, tag, bytes, !eager(bytes, mode));
	switch (mode) {
	case MODE_B:
		rc = PMPI_Ibsend(buf, count, dt, dest, tag, comm, req);
		break;
	case MODE_S:
		rc = PMPI_Issend(buf, count, dt, dest, tag, comm, req);
		break;
	case MODE_R:
		rc = PMPI_Irsend(buf, count, dt, dest, tag, comm, req);
		break;
	default:
		rc = PMPI_Isend(buf, count, dt, dest, tag, comm, req);
	}
	if (rc != MPI_SUCCESS)
		return rc;
	q = vreq_new(*req, VR_SEND, v, dest, tag);
	q->h = h;
	q->rdv = (h.flags & VH_RDV) != 0;
	q->mode = mode;
	isend_timing(q, bytes);
	return rc;
}

int vlmpi_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		MPI_Request *req)
{
	return do_isend(buf, count, dt, dest, tag, comm, MODE_STD, req);
}

int vlmpi_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		 MPI_Request *req)
{
	return do_isend(buf, count, dt, dest, tag, comm, MODE_B, req);
}

int vlmpi_Issend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		 MPI_Request *req)
{
	return do_isend(buf, count, dt, dest, tag, comm, MODE_S, req);
}

int vlmpi_Irsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		 MPI_Request *req)
{
	return do_isend(buf, count, dt, dest, tag, comm, MODE_R, req);
}

/* ---- receiving ---- */

/* Receiver's side of a message that completed for real with status st,
 * posted at t_post, the call having begun at t0. */
static void recv_timing(vcomm *v, const MPI_Status *st, int64_t t_post, int64_t t0)
{
	vhdr h;
	int src, cancelled = 0;

	if (st->MPI_SOURCE == MPI_PROC_NULL || st->MPI_SOURCE < 0)
		return;
	PMPI_Test_cancelled(st, &cancelled);
	if (cancelled)
		return;
	src = v->world[st->MPI_SOURCE];
	header_get(src, v->id, st->MPI_TAG, &h, 0);
	ack_send(src, &h, t_post);
	vli_msg_received(src, h.src_host, st->MPI_TAG, h.seq, h.bytes, t0, arrival_of(&h, t_post), 0,
			 0);
}

int vlmpi_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
	       MPI_Status *status)
{
	vcomm *v;
	MPI_Status st;
	int rc;
	int64_t t0 = vli_t.now;

	if (source == MPI_PROC_NULL || !(v = comm_timed(comm)))
		return PMPI_Recv(buf, count, dt, source, tag, comm, status);
	if (n_watch) {
		MPI_Request r;
		rc = PMPI_Irecv(buf, count, dt, source, tag, comm, &r);
		if (rc == MPI_SUCCESS)
			rc = real_wait(&r, &st);
	} else {
		rc = PMPI_Recv(buf, count, dt, source, tag, comm, &st);
	}
	if (rc == MPI_SUCCESS)
		recv_timing(v, &st, t0, t0);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

/* Trace the post of nonblocking receive q (pattern source -1 = any). */
static void irecv_posted(vreq *q)
{
	q->num = vli_req_next();
	vli_msg_posted(q->peer >= 0 && q->peer < q->vc->size ? q->vc->world[q->peer] : -1,
		       q->tag == MPI_ANY_TAG ? -1 : q->tag, q->num, vli_t.now);
}

int vlmpi_Irecv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
		MPI_Request *req)
{
	vcomm *v;
	int rc;

	rc = PMPI_Irecv(buf, count, dt, source, tag, comm, req);
	if (rc != MPI_SUCCESS || source == MPI_PROC_NULL || !(v = comm_timed(comm)))
		return rc;
	irecv_posted(vreq_new(*req, VR_RECV, v, source, tag));
	return rc;
}

/* ---- persistent requests ---- */

static int do_init(const void *buf, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
		   int kind, int mode, MPI_Request *req)
{
	vcomm *v;
	vreq *q;
	int rc;

	if (kind == VR_RECV)
		rc = PMPI_Recv_init((void *)buf, count, dt, peer, tag, comm, req);
	else if (mode == MODE_B)
		rc = PMPI_Bsend_init(buf, count, dt, peer, tag, comm, req);
	else if (mode == MODE_S)
		rc = PMPI_Ssend_init(buf, count, dt, peer, tag, comm, req);
	else if (mode == MODE_R)
		rc = PMPI_Rsend_init(buf, count, dt, peer, tag, comm, req);
	else
		rc = PMPI_Send_init(buf, count, dt, peer, tag, comm, req);
	if (rc != MPI_SUCCESS || peer == MPI_PROC_NULL || !(v = comm_timed(comm)))
		return rc;
	q = vreq_new(*req, kind, v, peer, tag);
	if (kind == VR_RECV)
		n_watch--;
	q->persistent = 1;
	q->active = 0;
	q->mode = mode;
	q->buf = buf;
	q->count = count;
	q->dt = dt;
	return rc;
}

int vlmpi_Send_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		    MPI_Request *req)
{
	return do_init(buf, count, dt, dest, tag, comm, VR_SEND, MODE_STD, req);
}

int vlmpi_Bsend_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		     MPI_Request *req)
{
	return do_init(buf, count, dt, dest, tag, comm, VR_SEND, MODE_B, req);
}

int vlmpi_Ssend_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		     MPI_Request *req)
{
	return do_init(buf, count, dt, dest, tag, comm, VR_SEND, MODE_S, req);
}

int vlmpi_Rsend_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		     MPI_Request *req)
{
	return do_init(buf, count, dt, dest, tag, comm, VR_SEND, MODE_R, req);
}

int vlmpi_Recv_init(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
		    MPI_Request *req)
{
	return do_init(buf, count, dt, source, tag, comm, VR_RECV, MODE_STD, req);
}

int vlmpi_Start(MPI_Request *req)
{
	vreq *q = rq_find(*req);

	if (!q)
		return PMPI_Start(req);
	q->active = 1;
	q->t_post = vli_t.now;
	q->hdr_ready = 0;
	if (q->kind == VR_RECV) {
		n_watch++;
		irecv_posted(q);
		return PMPI_Start(req);
	}
	int64_t bytes = type_bytes(q->dt, q->count);
	header_make(&q->h, q->vc, q->peer, q->tag, bytes, !eager(bytes, q->mode));
	q->rdv = (q->h.flags & VH_RDV) != 0;
	int rc = PMPI_Start(req);
	isend_timing(q, bytes);
	return rc;
}

int vlmpi_Startall(int count, MPI_Request reqs[])
{
	int i, rc;

	for (i = 0; i < count; i++)
		if ((rc = vlmpi_Start(&reqs[i])) != MPI_SUCCESS)
			return rc;
	return MPI_SUCCESS;
}

static void coll_drop(vreq *q);

static void vreq_forget(vreq *q)
{
	if (q->kind == VR_RECV && q->active && !q->hdr_ready)
		n_watch--;
	if (q->coll)
		coll_drop(q);
	if (q->ack != MPI_REQUEST_NULL) {
		PMPI_Cancel(&q->ack);
		PMPI_Request_free(&q->ack);
	}
	rq_del(q);
	free(q);
}

int vlmpi_Request_free(MPI_Request *req)
{
	vreq *q = rq_find(*req);

	if (q)
		vreq_forget(q);
	return PMPI_Request_free(req);
}

int vlmpi_Cancel(MPI_Request *req)
{
	vreq *q = rq_find(*req);

	if (q && q->kind == VR_SEND && q->active) {
		/* if the cancel succeeds the receiver must forget the header: say so */
		int rc = PMPI_Cancel(req);
		MPI_Status st;
		int flag = 0, c = 0;
		PMPI_Request_get_status(*req, &flag, &st);
		if (flag)
			PMPI_Test_cancelled(&st, &c);
		if (c) {
			vhdr h = q->h;
			h.flags |= VH_CANCEL;
			PMPI_Send(&h, sizeof h, MPI_BYTE, q->vc->world[q->peer], 0, hdr_comm);
		}
		return rc;
	}
	return PMPI_Cancel(req);
}

/* ---- completion ---- */

struct vcoll;
static int coll_ready(vreq *q, int wait);
static void coll_leave(vcomm *v, struct vcoll *c, int blocking);
static void coll_free(struct vcoll *c);
static int64_t coll_exit(const struct vcoll *c);

/* A request of the layer that completed for real with status st: time it.
 * t0 = begin of the completing call. */
static void complete(vreq *q, const MPI_Status *st, int64_t t0)
{
	if (q->kind == VR_COLL) {
		coll_ready(q, 1);
		coll_leave(q->vc, q->coll, 0);
		coll_free(q->coll);
		q->coll = NULL;
	} else if (q->kind == VR_RECV) {
		if (!q->hdr_ready)
			recv_header(q, st);
		if (q->src_world >= 0)
			vli_msg_received(q->src_world, q->rh.src_host, q->rh.tag, q->rh.seq, q->rh.bytes,
					 t0, arrival_of(&q->rh, q->t_post), 0, q->num);
	} else {
		/* a send: its call was paid when it was made; a rendezvous completes
		 * when the data left, i.e. when both the send and the receive were there */
		int64_t depart = 0;

		if (q->rdv) {
			if (!q->ack_done) {
				ack_wait(&q->ack, q->vc->world[q->peer], q->tag, q->h.bytes);
				q->ack_done = 1;
			}
			depart = rdv_departure(&q->h, q->ack_t);
		}
		vli_msg_completed(q->vc->world[q->peer], q->tag, q->h.seq, q->h.bytes, q->num, t0,
				  depart);
	}
	if (q->persistent) {
		q->active = 0;
		q->ack = MPI_REQUEST_NULL;
	} else {
		q->ack = MPI_REQUEST_NULL;
		vreq_forget(q);
	}
}

int vlmpi_Wait(MPI_Request *req, MPI_Status *status)
{
	vreq *q = rq_find(*req);
	MPI_Status st;
	int64_t t0 = vli_t.now;
	int rc;

	if (!q || !q->active) {
		rc = real_wait(req, status);
		return rc;
	}
	rc = real_wait(req, &st);
	if (rc == MPI_SUCCESS)
		complete(q, &st, t0);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

int vlmpi_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
	int i, rc, err = MPI_SUCCESS;

	for (i = 0; i < count; i++) {
		rc = vlmpi_Wait(&reqs[i], statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
									  : &statuses[i]);
		if (rc != MPI_SUCCESS)
			err = rc;
	}
	return err;
}

/* Whether request q (active) is complete in virtual time now; completes it
 * for real and in time if so (1).  0: not complete, the test costs R;
 * TEST_FREE: not complete for real only, the test costs nothing. */
#define TEST_FREE (-1)
static int test_one(MPI_Request *req, vreq *q, MPI_Status *st)
{
	int flag = 0;
	MPI_Status s;

	PMPI_Request_get_status(*req, &flag, &s);
	if (!flag)
		/* an eager send is complete in virtual time at the end of its call; only
		 * the real library has not finished it: not complete, but no cost, so
		 * that virtual time does not depend on real scheduling */
		return q->kind == VR_SEND && !q->rdv ? TEST_FREE : 0;
	if (q->kind == VR_COLL) {
		if (!coll_ready(q, 0) || coll_exit(q->coll) > vli_t.now)
			return 0;
	} else if (q->kind == VR_RECV) {
		recv_header(q, &s);
		if (q->src_world >= 0 && arrival_of(&q->rh, q->t_post) > vli_t.now)
			return 0; /* not arrived yet in virtual time */
	} else if (q->rdv) {
		if (!q->ack_done) {
			PMPI_Test(&q->ack, &q->ack_done, MPI_STATUS_IGNORE);
			if (!q->ack_done)
				return 0;
		}
		if (rdv_departure(&q->h, q->ack_t) > vli_t.now)
			return 0;
	}
	PMPI_Wait(req, &s);
	complete(q, &s, vli_t.now);
	if (st != MPI_STATUS_IGNORE)
		*st = s;
	return 1;
}

/* A test that found nothing: costs the receive delay (a polling loop advances
 * time, as in CLUE). */
static void poll_cost(int64_t t0, int src_host)
{
	vli_comm(vli_recv_time(&vli_t.cfg, src_host >= 0 ? src_host : vli_t.host, vli_t.host));
	vli_trace_msg(VL_EV_PROBE, -1, -1, 0, 0, t0, vli_t.now, 0, 0, 0);
}

/* Host of the peer a request names, -1 for a wildcard. */
static int req_host(const vreq *q)
{
	return q && q->peer >= 0 && q->peer < q->vc->size ? q->vc->host[q->peer] : -1;
}

int vlmpi_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	vreq *q = rq_find(*req);
	int64_t t0 = vli_t.now;

	progress();
	if (!q || !q->active)
		return PMPI_Test(req, flag, status);
	int r = test_one(req, q, status);
	*flag = r == 1;
	if (r == 0)
		poll_cost(t0, req_host(q));
	return MPI_SUCCESS;
}

int vlmpi_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	int i, f, all = 1, costly = 0;
	int64_t t0 = vli_t.now;

	progress();
	/* all or nothing: first see whether every one is complete in virtual time;
	 * the call costs R unless the only ones missing are eager sends (see
	 * test_one) */
	for (i = 0; i < count; i++) {
		vreq *q = rq_find(reqs[i]);
		MPI_Status s;
		f = 0;
		if (reqs[i] == MPI_REQUEST_NULL)
			continue;
		PMPI_Request_get_status(reqs[i], &f, &s);
		if (!f) {
			all = 0;
			if (!(q && q->active && q->kind == VR_SEND && !q->rdv))
				costly = 1;
		} else if (q && q->active && q->kind == VR_RECV) {
			recv_header(q, &s);
			if (q->src_world >= 0 && arrival_of(&q->rh, q->t_post) > vli_t.now)
				all = 0, costly = 1;
		} else if (q && q->active && q->kind == VR_COLL) {
			if (!coll_ready(q, 0) || coll_exit(q->coll) > vli_t.now)
				all = 0, costly = 1;
		} else if (q && q->active && q->rdv) {
			if (!q->ack_done)
				PMPI_Test(&q->ack, &q->ack_done, MPI_STATUS_IGNORE);
			if (!q->ack_done || rdv_departure(&q->h, q->ack_t) > vli_t.now)
				all = 0, costly = 1;
		}
	}
	*flag = all;
	if (!all) {
		if (costly)
			poll_cost(t0, -1);
		return MPI_SUCCESS;
	}
	return vlmpi_Waitall(count, reqs, statuses);
}

int vlmpi_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
	int i, active = 0, costly = 0, r;
	int64_t t0 = vli_t.now;

	progress();
	*index = MPI_UNDEFINED;
	for (i = 0; i < count; i++) {
		vreq *q;
		if (reqs[i] == MPI_REQUEST_NULL)
			continue;
		active = 1;
		q = rq_find(reqs[i]);
		if (!q || !q->active) {
			int f = 0;
			PMPI_Test(&reqs[i], &f, status);
			r = f;
		} else {
			r = test_one(&reqs[i], q, status);
		}
		if (r == 1) {
			*index = i;
			*flag = 1;
			return MPI_SUCCESS;
		}
		if (r == 0)
			costly = 1;
	}
	if (!active) /* flag true, index undefined, empty status */
		return PMPI_Testany(count, reqs, index, flag, status);
	*flag = 0;
	if (costly)
		poll_cost(t0, -1);
	return MPI_SUCCESS;
}

int vlmpi_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
	int i, flag = 0, active = 0, spins = 0;
	int64_t t0 = vli_t.now;

	for (i = 0; i < count; i++)
		if (reqs[i] != MPI_REQUEST_NULL)
			active = 1;
	if (!active)
		return PMPI_Waitany(count, reqs, index, status);
	/* the first that completes for real; virtual time then waits for it */
	for (;;) {
		for (i = 0; i < count; i++) {
			MPI_Status s;
			if (reqs[i] == MPI_REQUEST_NULL)
				continue;
			flag = 0;
			PMPI_Request_get_status(reqs[i], &flag, &s);
			if (flag) {
				*index = i;
				vreq *q = rq_find(reqs[i]);
				if (!q || !q->active)
					return PMPI_Wait(&reqs[i], status);
				PMPI_Wait(&reqs[i], &s);
				complete(q, &s, t0);
				if (status != MPI_STATUS_IGNORE)
					*status = s;
				return MPI_SUCCESS;
			}
		}
		progress();
		if (++spins > 64)
			sched_yield();
	}
}

static int some(int incount, MPI_Request reqs[], int *outcount, int indices[],
		MPI_Status statuses[], int wait)
{
	int i, n = 0, active = 0, spins = 0, costly = 0;
	int64_t t0 = vli_t.now;

	for (i = 0; i < incount; i++)
		if (reqs[i] != MPI_REQUEST_NULL)
			active = 1;
	if (!active) {
		*outcount = MPI_UNDEFINED;
		return MPI_SUCCESS;
	}
	for (;;) {
		progress();
		for (i = 0; i < incount; i++) {
			MPI_Status s;
			int flag = 0;
			vreq *q;
			if (reqs[i] == MPI_REQUEST_NULL)
				continue;
			q = rq_find(reqs[i]);
			if (q && q->active) {
				if (wait) {
					PMPI_Request_get_status(reqs[i], &flag, &s);
					if (flag) {
						PMPI_Wait(&reqs[i], &s);
						complete(q, &s, t0);
					}
				} else {
					flag = test_one(&reqs[i], q, &s);
					if (flag == 0)
						costly = 1;
					flag = flag == 1;
				}
			} else {
				PMPI_Test(&reqs[i], &flag, &s);
				if (!flag)
					costly = 1;
			}
			if (flag) {
				indices[n] = i;
				if (statuses != MPI_STATUSES_IGNORE)
					statuses[n] = s;
				n++;
			}
		}
		if (n || !wait)
			break;
		if (++spins > 64)
			sched_yield();
	}
	if (!n && !wait && costly)
		poll_cost(t0, -1);
	*outcount = n;
	return MPI_SUCCESS;
}

int vlmpi_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
		   MPI_Status statuses[])
{
	return some(incount, reqs, outcount, indices, statuses, 1);
}

int vlmpi_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
		   MPI_Status statuses[])
{
	return some(incount, reqs, outcount, indices, statuses, 0);
}

int vlmpi_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
		   void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
		   MPI_Status *status)
{
	MPI_Request r[2];
	MPI_Status st[2];
	int rc;

	rc = vlmpi_Irecv(rbuf, rcount, rtype, source, rtag, comm, &r[0]);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = vlmpi_Isend(sbuf, scount, stype, dest, stag, comm, &r[1]);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = vlmpi_Waitall(2, r, st);
	if (status != MPI_STATUS_IGNORE)
		*status = st[0];
	return rc;
}

int vlmpi_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int stag, int source,
			   int rtag, MPI_Comm comm, MPI_Status *status)
{
	int size = 0, pos = 0, rc;
	void *tmp;
	MPI_Status st;

	/* send a packed copy, receive into the buffer */
	PMPI_Pack_size(count, dt, comm, &size);
	tmp = malloc(size > 0 ? (size_t)size : 1);
	if (!tmp)
		vli_error(1, "out of memory");
	PMPI_Pack(buf, count, dt, tmp, size, &pos, comm);
	/* the receive must see the user's datatype: so receive into buf and send the
	 * packed copy as MPI_PACKED (its type signature is the user's) */
	{
		MPI_Request r[2];
		MPI_Status s2[2];
		rc = vlmpi_Irecv(buf, count, dt, source, rtag, comm, &r[0]);
		if (rc == MPI_SUCCESS)
			rc = vlmpi_Isend(tmp, pos, MPI_PACKED, dest, stag, comm, &r[1]);
		if (rc == MPI_SUCCESS)
			rc = vlmpi_Waitall(2, r, s2);
		st = s2[0];
	}
	free(tmp);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

/* ---- probes ---- */

int vlmpi_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	vcomm *v = comm_timed(comm);
	MPI_Status st;
	vhdr h;
	int64_t t0 = vli_t.now;
	int rc;

	progress();
	rc = PMPI_Iprobe(source, tag, comm, flag, &st);
	if (rc != MPI_SUCCESS || !v || source == MPI_PROC_NULL) {
		if (status != MPI_STATUS_IGNORE)
			*status = st;
		return rc;
	}
	if (*flag) {
		header_get(v->world[st.MPI_SOURCE], v->id, st.MPI_TAG, &h, 1);
		/* a probe sees the envelope: it arrives as an eager message would */
		if (arrival_of(&h, 0) > vli_t.now)
			*flag = 0; /* not there yet in virtual time */
	}
	poll_cost(t0, source >= 0 && source < v->size ? v->host[source] : -1);
	if (*flag && status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

int vlmpi_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	vcomm *v = comm_timed(comm);
	MPI_Status st;
	vhdr h;
	int flag = 0, rc, spins = 0;
	int64_t t0 = vli_t.now;

	if (!v || source == MPI_PROC_NULL)
		return PMPI_Probe(source, tag, comm, status);
	if (!n_watch) {
		rc = PMPI_Probe(source, tag, comm, &st);
	} else {
		for (;;) {
			rc = PMPI_Iprobe(source, tag, comm, &flag, &st);
			if (rc != MPI_SUCCESS || flag)
				break;
			progress();
			if (++spins > 64)
				sched_yield();
		}
	}
	if (rc != MPI_SUCCESS)
		return rc;
	header_get(v->world[st.MPI_SOURCE], v->id, st.MPI_TAG, &h, 1);
	/* a probe sees the envelope: it arrives as an eager message would */
	vli_msg_probed(v->world[st.MPI_SOURCE], h.src_host, st.MPI_TAG, t0, arrival_of(&h, 0));
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

/* ---- collectives ---- */

/* Block in a real collective: the blocking call when no receive needs
 * watching, else the nonblocking one and real_wait. */
#define REAL_COLL(blocking, nonblocking)                                    \
	do {                                                                \
		if (!n_watch) {                                             \
			rc = (blocking);                                    \
		} else {                                                    \
			MPI_Request cr_;                                    \
			rc = (nonblocking);                                 \
			if (rc == MPI_SUCCESS)                              \
				rc = real_wait(&cr_, MPI_STATUS_IGNORE);    \
		}                                                           \
	} while (0)

/* One collective being timed: this rank's entry time and bytes, and the
 * exchange of everybody's (an allgather on the collective's communicator). */
typedef struct vcoll {
	int kind, root, n;      /* n: bytes values per rank (1, or p for alltoall) */
	int64_t t0;
	int64_t *mine, *all;
	MPI_Request xreq;       /* nonblocking collectives: the exchange */
	int done;               /* exit computed */
	vlcoll_out o;         /* this rank's result */
} vcoll;

static vcoll *coll_new(vcomm *v, int kind, int root, int64_t t0, const int64_t *row, int n)
{
	vcoll *c = calloc(1, sizeof(*c));
	int i;

	if (!c)
		vli_error(1, "out of memory");
	c->kind = kind;
	c->root = root;
	c->n = n;
	c->t0 = t0;
	c->xreq = MPI_REQUEST_NULL;
	c->mine = malloc(sizeof(int64_t) * (size_t)(n + 1));
	c->all = malloc(sizeof(int64_t) * (size_t)(n + 1) * (size_t)v->size);
	if (!c->mine || !c->all)
		vli_error(1, "out of memory");
	c->mine[0] = t0;
	for (i = 0; i < n; i++)
		c->mine[i + 1] = row[i];
	return c;
}

static void coll_free(vcoll *c)
{
	free(c->mine);
	free(c->all);
	free(c);
}

/* Simulate the algorithm once the exchange is complete: fills c->o. */
static int coll_sim(vcomm *v, vcoll *c)
{
	int p = v->size, i, n = c->n, rc = 0;
	int64_t *entry = malloc(sizeof(int64_t) * (size_t)p), *bytes = NULL;
	vlcoll_out *out = malloc(sizeof(*out) * (size_t)p);
	vlcoll_in in;

	if (n > 0)
		bytes = malloc(sizeof(int64_t) * (size_t)n * (size_t)p);
	if (!entry || !out || (n > 0 && !bytes))
		vli_error(1, "out of memory");
	for (i = 0; i < p; i++) {
		entry[i] = c->all[(size_t)i * (size_t)(n + 1)];
		if (n > 0)
			memcpy(&bytes[(size_t)i * (size_t)n], &c->all[(size_t)i * (size_t)(n + 1) + 1],
			       sizeof(int64_t) * (size_t)n);
	}
	in.kind = c->kind;
	in.alg = vli_t.cfg.mpi.coll_alg[c->kind];
	in.p = p;
	in.root = c->root;
	in.host = v->host;
	in.entry = entry;
	in.bytes = bytes;
	if (vlcoll_sim(&vli_t.cfg, &in, out) == 0) {
		c->o = out[v->rank];
	} else {
		vli_warn("rank %d: collective %s with algorithm %s could not be timed", world_rank,
			vl_coll_kind_name(c->kind), vlcoll_alg_name(in.alg));
		memset(&c->o, 0, sizeof c->o);
		c->o.exit = c->t0;
		rc = -1;
	}
	c->done = 1;
	free(entry);
	free(bytes);
	free(out);
	return rc;
}

/* Move the clock to the exit the algorithm gives this rank.  A blocking
 * collective costs its communication and waiting; a nonblocking one overlaps
 * with what the rank did since the call, and only waits for what is left. */
static void coll_leave(vcomm *v, vcoll *c, int blocking)
{
	if (blocking) {
		vli_wait_until(vli_t.now + c->o.wait);
		vli_comm(c->o.comm);
	} else {
		vli_wait_until(c->o.exit);
	}
	vli_trace_msg(VL_EV_COLL, c->root >= 0 ? v->world[c->root] : -1, VL_COLL_MPI + c->kind, 0,
		      c->n > 0 ? c->mine[1] : 0, c->t0, vli_t.now, c->o.wait, v->size, 0);
}

/* Time a blocking collective that has just run for real: exchange entry times
 * and sizes, simulate, move the clock.  row: this rank's bytes (n values). */
static int coll_time(vcomm *v, int kind, int root, int64_t t0, const int64_t *row, int n)
{
	vcoll *c = coll_new(v, kind, root, t0, row, n);
	int rc;

	REAL_COLL(PMPI_Allgather(c->mine, n + 1, MPI_INT64_T, c->all, n + 1, MPI_INT64_T, v->comm),
		  PMPI_Iallgather(c->mine, n + 1, MPI_INT64_T, c->all, n + 1, MPI_INT64_T, v->comm,
				  &cr_));
	if (rc == MPI_SUCCESS) {
		coll_sim(v, c);
		coll_leave(v, c, 1);
	}
	coll_free(c);
	return rc;
}

/* A nonblocking collective was started for real as *req: start the exchange
 * (in the same order on every member, as MPI requires of the call itself) and
 * follow the request; Wait/Test finish the timing (coll_done). */
static int coll_start(vcomm *v, int kind, int root, int64_t t0, const int64_t *row, int n,
		      MPI_Request *req)
{
	vcoll *c = coll_new(v, kind, root, t0, row, n);
	vreq *q;
	int rc;

	rc = PMPI_Iallgather(c->mine, n + 1, MPI_INT64_T, c->all, n + 1, MPI_INT64_T, v->comm,
			     &c->xreq);
	if (rc != MPI_SUCCESS) {
		coll_free(c);
		return rc;
	}
	q = vreq_new(*req, VR_COLL, v, -1, 0);
	q->coll = c;
	return MPI_SUCCESS;
}

/* The exit of a nonblocking collective, once its exchange is complete (0 =
 * not yet, test only). */
/* A request of a nonblocking collective freed without completion. */
static void coll_drop(vreq *q)
{
	real_wait(&q->coll->xreq, MPI_STATUS_IGNORE);
	coll_free(q->coll);
	q->coll = NULL;
}

static int64_t coll_exit(const vcoll *c)
{
	return c->o.exit;
}

static int coll_ready(vreq *q, int wait)
{
	vcoll *c = q->coll;
	int flag = 0;

	if (c->done)
		return 1;
	if (wait)
		real_wait(&c->xreq, MPI_STATUS_IGNORE);
	else if (PMPI_Test(&c->xreq, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || !flag)
		return 0;
	coll_sim(q->vc, c);
	return 1;
}

static int timed(MPI_Comm comm, vcomm **v)
{
	*v = comm_find(comm);
	return *v != NULL;
}

/* The collectives themselves, blocking and nonblocking: generated from
 * vlayer/mpi.protos (kinds C and N) by genmpi.sh -c. */
#include "mpi_coll_gen.c"

/* ---- communicators ---- */

/* After a collective creation call on parent: count it and register the
 * result, so that every member agrees on the new communicator's id. */
static int created(int rc, MPI_Comm parent, MPI_Comm *newcomm)
{
	vcomm *p = comm_find(parent);

	if (rc != MPI_SUCCESS || !p)
		return rc;
	comm_add(*newcomm, p);
	p->ncreated++;
	return rc;
}

int vlmpi_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	return created(PMPI_Comm_dup(comm, newcomm), comm, newcomm);
}

int vlmpi_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	return created(PMPI_Comm_split(comm, color, key, newcomm), comm, newcomm);
}

int vlmpi_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm)
{
	return created(PMPI_Comm_split_type(comm, type, key, info, newcomm), comm, newcomm);
}

int vlmpi_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	return created(PMPI_Comm_create(comm, group, newcomm), comm, newcomm);
}

int vlmpi_Cart_create(MPI_Comm old, int ndims, const int dims[], const int periods[], int reorder,
		      MPI_Comm *cart)
{
	return created(PMPI_Cart_create(old, ndims, dims, periods, reorder, cart), old, cart);
}

int vlmpi_Cart_sub(MPI_Comm comm, const int remain[], MPI_Comm *newcomm)
{
	return created(PMPI_Cart_sub(comm, remain, newcomm), comm, newcomm);
}

int vlmpi_Graph_create(MPI_Comm old, int nnodes, const int index[], const int edges[], int reorder,
		       MPI_Comm *graph)
{
	return created(PMPI_Graph_create(old, nnodes, index, edges, reorder, graph), old, graph);
}

int vlmpi_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	return created(PMPI_Comm_dup_with_info(comm, info, newcomm), comm, newcomm);
}

int vlmpi_Dist_graph_create_adjacent(MPI_Comm old, int indegree, const int sources[],
				     const int sourceweights[], int outdegree,
				     const int destinations[], const int destweights[],
				     MPI_Info info, int reorder, MPI_Comm *graph)
{
	return created(PMPI_Dist_graph_create_adjacent(old, indegree, sources, sourceweights,
						       outdegree, destinations, destweights, info,
						       reorder, graph),
		       old, graph);
}

int vlmpi_Dist_graph_create(MPI_Comm old, int n, const int sources[], const int degrees[],
			    const int destinations[], const int weights[], MPI_Info info,
			    int reorder, MPI_Comm *graph)
{
	return created(PMPI_Dist_graph_create(old, n, sources, degrees, destinations, weights, info,
					      reorder, graph),
		       old, graph);
}

int vlmpi_Comm_free(MPI_Comm *comm)
{
	comm_del(*comm);
	return PMPI_Comm_free(comm);
}

/* ---- start, end, time ---- */

static int64_t cpu_before_init;

static void layer_init(void)
{
	int host;
	int64_t c;

	PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
	PMPI_Comm_dup(MPI_COMM_WORLD, &hdr_comm);
	PMPI_Comm_dup(MPI_COMM_WORLD, &ack_comm);
	stashes = calloc((size_t)world_size, sizeof(*stashes));
	if (!stashes)
		vli_error(1, "out of memory");
	comm_add(MPI_COMM_WORLD, NULL);
	comm_add(MPI_COMM_SELF, comms[0]);
	comms[0]->ncreated++;
	host = vlcfg_rank_host(&vli_t.cfg, world_rank);
	vli_init(world_rank, -1, host, 0, program_invocation_name);
	/* computation before MPI_Init counts, the time inside it does not */
	vli_t.now = vli_t.comp = 0;
	c = vli_scale_cpu(&vli_t.cfg, host, cpu_before_init);
	vli_t.now = vli_t.comp = c;
}

static void load_config(void)
{
	cpu_before_init = vli_cpu_ns();
	vli_load_config(&vli_t.cfg); /* a bad VMConfig ends here, status 2 */
}

int vlmpi_Init(int *argc, char ***argv)
{
	int rc;

	load_config();
	rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		layer_init();
	return rc;
}

int vlmpi_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc;

	load_config();
	rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS)
		layer_init();
	return rc;
}

int vlmpi_Finalize(void)
{
	int i;

	vli_trace_flush();
	if (hdr_comm != MPI_COMM_NULL)
		PMPI_Comm_free(&hdr_comm);
	if (ack_comm != MPI_COMM_NULL)
		PMPI_Comm_free(&ack_comm);
	for (i = 0; stashes && i < world_size; i++)
		free(stashes[i].h);
	free(stashes);
	stashes = NULL;
	return PMPI_Finalize();
}

double vlmpi_Wtime(void)
{
	return (double)vli_t.now / 1e9;
}

double vlmpi_Wtick(void)
{
	return 1e-9;
}

/* Fortran: MPI_INIT, MPI_INIT_THREAD and MPI_FINALIZE start and end the layer too. */
static void vlmpi_f_init(MPI_Fint *ierr)
{
	*ierr = vlmpi_Init(NULL, NULL);
}
static void vlmpi_f_init_thread(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
	int p = 0;
	*ierr = vlmpi_Init_thread(NULL, NULL, (int)*required, &p);
	*provided = p;
}
static void vlmpi_f_finalize(MPI_Fint *ierr)
{
	*ierr = MPI_Finalize();
}
#define VLF_ALIAS(proto, target, lc, uc, ompi)                                          \
	void lc proto __attribute__((alias(#target)));                                  \
	void lc##_ proto __attribute__((alias(#target)));                               \
	void lc##__ proto __attribute__((alias(#target)));                              \
	void uc proto __attribute__((alias(#target)));                                  \
	void ompi proto __attribute__((alias(#target)));
VLF_ALIAS((MPI_Fint * ierr), vlmpi_f_init, mpi_init, MPI_INIT, ompi_init_f)
VLF_ALIAS((MPI_Fint * r, MPI_Fint *p, MPI_Fint *ierr), vlmpi_f_init_thread, mpi_init_thread,
	  MPI_INIT_THREAD, ompi_init_thread_f)
VLF_ALIAS((MPI_Fint * ierr), vlmpi_f_finalize, mpi_finalize, MPI_FINALIZE, ompi_finalize_f)
