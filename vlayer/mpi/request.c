/* request.c - the requests the layer follows (nonblocking and persistent
 * sends and receives, nonblocking collectives), found by their MPI handle in
 * an open-addressing table; the watch over active receives whose header is
 * not taken yet, and waiting in MPI while keeping that watch (so that
 * rendezvous answers go out); the virtual cost of a poll that finds nothing.
 */
#include <sched.h>
#include <stdlib.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

static vlmpi_req **rq;     /* open addressing on the request handle */
static size_t rq_cap, rq_n;
int vlmpi_n_watch;         /* active receives whose header is not taken yet */

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
	if (kind == VLMPI_REQ_RECV)
		vlmpi_n_watch++;
	return v;
}

/* Trace the post of nonblocking receive q (pattern source -1 = any). */
void vlmpi_irecv_posted(vlmpi_req *q)
{
	q->num = vli_req_next();
	vli_msg_posted(q->peer >= 0 && q->peer < q->vc->size ? q->vc->world[q->peer] : -1,
		       q->tag == MPI_ANY_TAG ? -1 : q->tag, q->num, vli_t.now);
}

void vlmpi_req_free(vlmpi_req *q)
{
	rq_del(q);
	free(q);
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
}

/* Look at every watched receive: those that completed for real give their
 * header now and answer a rendezvous. */
void vlmpi_progress(void)
{
	size_t i;
	int flag;
	MPI_Status st;

	if (!vlmpi_n_watch)
		return;
	for (i = 0; i < rq_cap && vlmpi_n_watch; i++) {
		vlmpi_req *v = rq[i];
		if (!v || v->kind != VLMPI_REQ_RECV || !v->active || v->hdr_ready)
			continue;
		flag = 0;
		PMPI_Request_get_status(v->req, &flag, &st);
		if (flag)
			vlmpi_recv_header(v, &st);
	}
}

/* Wait for the real completion of *r, watching the other receives meanwhile. */
int vlmpi_real_wait(MPI_Request *r, MPI_Status *st)
{
	int flag = 0, rc, spins = 0;

	if (!vlmpi_n_watch)
		return PMPI_Wait(r, st);
	for (;;) {
		rc = PMPI_Test(r, &flag, st);
		if (rc != MPI_SUCCESS || flag)
			return rc;
		vlmpi_progress();
		if (++spins > 64)
			sched_yield();
	}
}

/* Wait for the receiver's answer to a rendezvous.  A program that relies on
 * MPI buffering a message at or above eager_limit (unsafe in MPI's terms)
 * waits here for ever, as it would on a machine with that limit: say so once. */
void vlmpi_ack_wait(MPI_Request *r, int dest_world, int tag, int64_t bytes)
{
	int flag = 0;
	int64_t t0 = vli_mono_ns();
	static int warned;

	for (;;) {
		if (PMPI_Test(r, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || flag)
			return;
		vlmpi_progress();
		sched_yield();
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
