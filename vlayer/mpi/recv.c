/* recv.c - receiving and probing: a receive runs for real, then takes the
 * message's timing header (and answers a rendezvous) and moves the clock to
 * the virtual arrival; a nonblocking receive is only traced here and followed
 * until Wait/Test (complete.c).  A probe that sees a message looks at its
 * header without removing it: it sees the envelope, an eager message's with
 * its data, a rendezvous's ahead of them (vlmpi_envelope_of);
 * MPI_Iprobe reports nothing for a message that has not arrived yet in
 * virtual time, and costs the receive delay like a test.  Matched probes
 * (Mprobe, Improbe) are timed as probes, and the receive of the message they
 * matched (Mrecv, Imrecv) as a receive.
 */
#include <sched.h>
#include <stdlib.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

/* A blocking receive by name has its message: it takes no other (its post
 * time no longer holds back a rendezvous from its source). */
static int wild_posted;

static void blocking_done(void)
{
	if (wild_posted) {
		wild_posted = 0;
		vli_order_set_wild_post(VLI_ORDER_NONE, -1, 0);
	}
	if (vlmpi_blocking_post == VLI_ORDER_NONE)
		return;
	vlmpi_blocking_post = VLI_ORDER_NONE;
	vlmpi_rdv_post_update();
}

/* Receiver's side of a message that completed for real with status st,
 * posted at t_post, the call having begun at t0.  The post time of a
 * blocking receive is withdrawn once its rendezvous has left (before, its
 * flow would be pending with nothing to hold the others back) and before
 * its arrival is waited for (after, it would hold back the next one from
 * the same source, which that arrival may wait for). */
static void recv_timing(vlmpi_comm *v, const MPI_Status *st, int64_t t_post, int64_t t0,
			int wild)
{
	vlmpi_hdr h;
	int src, cancelled = 0;

	if (st->MPI_SOURCE == MPI_PROC_NULL || st->MPI_SOURCE < 0) {
		blocking_done();
		return;
	}
	PMPI_Test_cancelled(st, &cancelled);
	if (cancelled) {
		blocking_done();
		return;
	}
	src = v->world[st->MPI_SOURCE];
	vlmpi_header_get(src, v->id, st->MPI_TAG, &h, 0);
	vlmpi_ack_send(src, &h, t_post);
	blocking_done();
	vli_msg_received(src, h.src_host, st->MPI_TAG, h.seq, h.bytes, t0,
			 vlmpi_arrival_of(&h, t_post), wild ? VL_TF_ANY | VL_TF_ANYRDV : 0, 0);
}

/* Whether source is MPI_ANY_SOURCE or a rank of v (else MPI reports the error). */
static int valid_source(const vlmpi_comm *v, int source)
{
	return source == MPI_ANY_SOURCE || (source >= 0 && source < v->size);
}

int vlmpi_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
	       MPI_Status *status)
{
	vlmpi_comm *v;
	MPI_Status st;
	int rc, wild = source == MPI_ANY_SOURCE;
	int64_t t0 = vli_t.now;

	if (source == MPI_PROC_NULL || !(v = vlmpi_comm_timed(comm)))
		return PMPI_Recv(buf, count, dt, source, tag, comm, status);
	if (!wild) { /* a rendezvous from source may leave from now on */
		vlmpi_blocking_post = t0;
		vlmpi_blocking_src = valid_source(v, source) ? v->world[source] : -1;
		vlmpi_blocking_tag = tag == MPI_ANY_TAG ? -1 : tag;
		vlmpi_blocking_comm = v->id;
		vlmpi_rdv_post_update();
	} else if (vlmpi_vorder) { /* a rendezvous it matches may leave from now on */
		wild_posted = 1;
		vli_order_set_wild_post(t0, tag == MPI_ANY_TAG ? -1 : tag, v->id);
	}
	/* virtual order: a wildcard's message is chosen, then received as from
	 * its source; a receive from a named rank has no choice: it waits */
	if (vlmpi_vorder && source == MPI_ANY_SOURCE)
		vlmpi_pick(v, source, tag, VLMPI_PICK_RECV, t0, &source, &tag, "MPI_Recv");
	else if (vlmpi_vorder && valid_source(v, source))
		vlmpi_wait_recv(v, source, tag, t0, "MPI_Recv(source=%d, tag=%d)", source, tag);
	if (vlmpi_n_watch || vlmpi_waiting()) {
		MPI_Request r;
		rc = PMPI_Irecv(buf, count, dt, source, tag, comm, &r);
		if (rc == MPI_SUCCESS)
			rc = vlmpi_real_wait(&r, &st);
	} else {
		rc = PMPI_Recv(buf, count, dt, source, tag, comm, &st);
	}
	if (rc == MPI_SUCCESS)
		recv_timing(v, &st, t0, t0, wild);
	blocking_done();
	vlmpi_wait_end();
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

int vlmpi_Irecv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
		MPI_Request *req)
{
	vlmpi_comm *v;
	int rc;

	/* virtual order: a wildcard's message is chosen when the program waits */
	if (vlmpi_vorder && source == MPI_ANY_SOURCE && (v = vlmpi_comm_find(comm)))
		return vlmpi_deferred_start(v, buf, count, dt, tag, req);
	rc = PMPI_Irecv(buf, count, dt, source, tag, comm, req);
	if (rc != MPI_SUCCESS || source == MPI_PROC_NULL || !(v = vlmpi_comm_timed(comm)))
		return rc;
	vlmpi_irecv_posted(vlmpi_req_new(*req, VLMPI_REQ_RECV, v, source, tag));
	return rc;
}

/* ---- probes ---- */

int vlmpi_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	vlmpi_comm *v = vlmpi_comm_timed(comm);
	MPI_Status st;
	vlmpi_hdr h;
	int64_t t0 = vli_t.now;
	int rc;

	vlmpi_progress();
	if (vlmpi_vorder && v && valid_source(v, source)) {
		/* virtual order: a message is there exactly when it has arrived by now */
		int s, htag;
		*flag = vlmpi_pick(v, source, tag, VLMPI_PICK_POLL, t0, &s, &htag, "MPI_Iprobe");
		rc = MPI_SUCCESS;
		if (*flag)
			rc = PMPI_Probe(s, htag, comm, &st);
		vlmpi_poll_cost(t0, source >= 0 ? v->host[source] : -1);
		if (rc == MPI_SUCCESS && *flag && status != MPI_STATUS_IGNORE)
			*status = st;
		return rc;
	}
	rc = PMPI_Iprobe(source, tag, comm, flag, &st);
	if (rc != MPI_SUCCESS || !v || source == MPI_PROC_NULL) {
		if (status != MPI_STATUS_IGNORE)
			*status = st;
		return rc;
	}
	if (*flag) {
		vlmpi_header_get(v->world[st.MPI_SOURCE], v->id, st.MPI_TAG, &h, 1);
		/* a probe sees the envelope (a rendezvous's ahead of its data) */
		if (vlmpi_envelope_of(&h) > vli_t.now)
			*flag = 0; /* not there yet in virtual time */
	}
	vlmpi_poll_cost(t0, source >= 0 && source < v->size ? v->host[source] : -1);
	if (*flag && status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

/* Block for a message (matching it into *m if m is not NULL): in MPI, or,
 * while receives are watched, by polling and keeping them going. */
static int probe_blocking(int source, int tag, MPI_Comm comm, MPI_Message *m, MPI_Status *st)
{
	int flag = 0, rc, spins = 0;

	if (!vlmpi_n_watch && !vlmpi_waiting())
		return m ? PMPI_Mprobe(source, tag, comm, m, st) : PMPI_Probe(source, tag, comm, st);
	for (;;) {
		rc = m ? PMPI_Improbe(source, tag, comm, &flag, m, st)
		       : PMPI_Iprobe(source, tag, comm, &flag, st);
		if (rc != MPI_SUCCESS || flag)
			return rc;
		vlmpi_progress();
		vlmpi_wait_poll();
		if (++spins > 64)
			sched_yield();
	}
}

int vlmpi_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	vlmpi_comm *v = vlmpi_comm_timed(comm);
	MPI_Status st;
	vlmpi_hdr h;
	int rc;
	int64_t t0 = vli_t.now;

	if (!v || source == MPI_PROC_NULL)
		return PMPI_Probe(source, tag, comm, status);
	if (vlmpi_vorder && source == MPI_ANY_SOURCE)
		vlmpi_pick(v, source, tag, VLMPI_PICK_PROBE, t0, &source, &tag, "MPI_Probe");
	else if (vlmpi_vorder && valid_source(v, source))
		vlmpi_wait_recv(v, source, tag, 0, "MPI_Probe(source=%d, tag=%d)", source, tag);
	rc = probe_blocking(source, tag, comm, NULL, &st);
	vlmpi_wait_end();
	if (rc != MPI_SUCCESS)
		return rc;
	vlmpi_header_get(v->world[st.MPI_SOURCE], v->id, st.MPI_TAG, &h, 1);
	/* a probe sees the envelope (a rendezvous's ahead of its data) */
	vli_msg_probed(v->world[st.MPI_SOURCE], h.src_host, st.MPI_TAG, h.seq, t0,
		       vlmpi_envelope_of(&h));
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

/* ---- matched probes (MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv) ----
 * A matched probe takes the message out of MPI's matching, so the layer
 * remembers, per message handle, the communicator, source and tag: the
 * receive of that message (Mrecv, Imrecv) then takes its timing header as a
 * receive from that source would. */
typedef struct matched {
	MPI_Message m;
	vlmpi_comm *v;
	int src, tag;
} matched;
static matched *mt;
static int nmt, capmt;

static void matched_add(MPI_Message m, vlmpi_comm *v, const MPI_Status *st)
{
	if (nmt == capmt) {
		capmt = capmt ? 2 * capmt : 8;
		mt = realloc(mt, sizeof(*mt) * (size_t)capmt);
		if (!mt)
			vli_error(1, "out of memory");
	}
	mt[nmt].m = m;
	mt[nmt].v = v;
	mt[nmt].src = st->MPI_SOURCE;
	mt[nmt].tag = st->MPI_TAG;
	nmt++;
}

/* The entry of message m, removed from the table; 0 if the layer did not see
 * its probe (an untimed communicator, MPI_MESSAGE_NO_PROC). */
static int matched_take(MPI_Message m, matched *out)
{
	int i;

	for (i = 0; i < nmt; i++)
		if (mt[i].m == m) {
			*out = mt[i];
			mt[i] = mt[--nmt];
			return 1;
		}
	return 0;
}

int vlmpi_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
	vlmpi_comm *v = vlmpi_comm_timed(comm);
	MPI_Status st;
	vlmpi_hdr h;
	int rc;
	int64_t t0 = vli_t.now;

	if (!v || source == MPI_PROC_NULL)
		return PMPI_Mprobe(source, tag, comm, message, status);
	if (vlmpi_vorder && source == MPI_ANY_SOURCE)
		vlmpi_pick(v, source, tag, VLMPI_PICK_PROBE, t0, &source, &tag, "MPI_Mprobe");
	else if (vlmpi_vorder && valid_source(v, source))
		vlmpi_wait_recv(v, source, tag, 0, "MPI_Mprobe(source=%d, tag=%d)", source, tag);
	rc = probe_blocking(source, tag, comm, message, &st);
	vlmpi_wait_end();
	if (rc != MPI_SUCCESS)
		return rc;
	vlmpi_header_get(v->world[st.MPI_SOURCE], v->id, st.MPI_TAG, &h, 1);
	/* as MPI_Probe: the envelope */
	vli_msg_probed(v->world[st.MPI_SOURCE], h.src_host, st.MPI_TAG, h.seq, t0,
		       vlmpi_envelope_of(&h));
	matched_add(*message, v, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

int vlmpi_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
		  MPI_Status *status)
{
	vlmpi_comm *v = vlmpi_comm_timed(comm);
	MPI_Status st;
	vlmpi_hdr h;
	int64_t t0 = vli_t.now;
	int rc, chose;

	if (!v || source == MPI_PROC_NULL)
		return PMPI_Improbe(source, tag, comm, flag, message, status);
	vlmpi_progress();
	if ((chose = vlmpi_vorder && valid_source(v, source))) {
		/* virtual order: the message chosen, then matched from its source */
		int s, htag;
		*flag = vlmpi_pick(v, source, tag, VLMPI_PICK_POLL, t0, &s, &htag, "MPI_Improbe");
		rc = *flag ? probe_blocking(s, htag, comm, message, &st) : MPI_SUCCESS;
	} else {
		/* look first without matching: a message that has not arrived yet in
		 * virtual time must stay where MPI_Improbe would have taken it from */
		rc = PMPI_Iprobe(source, tag, comm, flag, &st);
	}
	if (!chose && rc == MPI_SUCCESS && *flag) {
		vlmpi_header_get(v->world[st.MPI_SOURCE], v->id, st.MPI_TAG, &h, 1);
		if (vlmpi_envelope_of(&h) > vli_t.now)
			*flag = 0;
		else /* the same message: the first from that source with that tag */
			rc = PMPI_Improbe(st.MPI_SOURCE, st.MPI_TAG, comm, flag, message, &st);
	}
	vlmpi_poll_cost(t0, source >= 0 && source < v->size ? v->host[source] : -1);
	if (rc != MPI_SUCCESS)
		return rc;
	if (*flag) {
		matched_add(*message, v, &st);
		if (status != MPI_STATUS_IGNORE)
			*status = st;
	}
	return rc;
}

int vlmpi_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message, MPI_Status *status)
{
	matched e;
	MPI_Status st;
	int64_t t0 = vli_t.now;
	int rc;

	if (!message || !matched_take(*message, &e))
		return PMPI_Mrecv(buf, count, dt, message, status);
	rc = PMPI_Mrecv(buf, count, dt, message, &st);
	if (rc == MPI_SUCCESS)
		recv_timing(e.v, &st, t0, t0, 0);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

int vlmpi_Imrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message, MPI_Request *req)
{
	matched e;
	int rc;

	if (!message || !matched_take(*message, &e))
		return PMPI_Imrecv(buf, count, dt, message, req);
	rc = PMPI_Imrecv(buf, count, dt, message, req);
	if (rc != MPI_SUCCESS)
		return rc;
	vlmpi_irecv_posted(vlmpi_req_new(*req, VLMPI_REQ_RECV, e.v, e.src, e.tag));
	return rc;
}
