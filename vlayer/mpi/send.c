/* send.c - sending: the blocking and nonblocking sends in the four modes
 * (standard, buffered, synchronous, ready), each preceded by its timing
 * header; an eager send is complete in virtual time at the end of its call, a
 * rendezvous waits for the receiver's answer (blocking) or in Wait/Test
 * (nonblocking).
 */
#include <stdlib.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

int64_t vlmpi_type_bytes(MPI_Datatype t, int count)
{
	int sz = 0;

	if (t == MPI_DATATYPE_NULL || count <= 0)
		return 0;
	PMPI_Type_size(t, &sz);
	return (int64_t)sz * count;
}

/* A buffered send never waits for the receiver; a synchronous one always does. */
int vlmpi_eager(int64_t bytes, int mode)
{
	return mode == VLMPI_MODE_B || (mode != VLMPI_MODE_S && bytes < vli_t.cfg.mpi.eager_limit);
}

static int do_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		   int mode)
{
	vlmpi_comm *v;
	vlmpi_hdr h;
	int64_t bytes, t0 = vli_t.now;
	int rc;
	vli_sent s;

	if (dest == MPI_PROC_NULL || !(v = vlmpi_comm_timed(comm)) || dest < 0 || dest >= v->size)
		goto passthrough;
	bytes = vlmpi_type_bytes(dt, count);
	vlmpi_header_make(&h, v, dest, tag, bytes, !vlmpi_eager(bytes, mode));
	if (!(h.flags & VLMPI_HDR_RDV)) {
		if (vlmpi_vorder && mode != VLMPI_MODE_B && (bytes > VLMPI_COPY_MIN || vli_flows_online())) {
			/* never wait for real where the model does not */
			rc = vlmpi_send_copy(buf, count, dt, dest, tag, comm);
		} else if (vlmpi_n_watch) {
			MPI_Request r;
			rc = PMPI_Isend(buf, count, dt, dest, tag, comm, &r);
			if (rc == MPI_SUCCESS)
				rc = vlmpi_real_wait(&r, MPI_STATUS_IGNORE);
		} else {
			rc = mode == VLMPI_MODE_B   ? PMPI_Bsend(buf, count, dt, dest, tag, comm)
			     : mode == VLMPI_MODE_R ? PMPI_Rsend(buf, count, dt, dest, tag, comm)
						    : PMPI_Send(buf, count, dt, dest, tag, comm);
		}
		vli_msg_sent_flow(v->world[dest], v->host[dest], tag, bytes, h.send_ns, t0, 1, 0,
				  h.flags & VLMPI_HDR_FLOW ? VLI_FLOW_HAVE : VLI_FLOW_NONE, &s);
		return rc;
	} else {
		MPI_Request r[2];
		int64_t ack = 0;

		rc = mode == VLMPI_MODE_S ? PMPI_Issend(buf, count, dt, dest, tag, comm, &r[0])
					  : PMPI_Isend(buf, count, dt, dest, tag, comm, &r[0]);
		if (rc != MPI_SUCCESS)
			return rc;
		vlmpi_ack_irecv(&ack, v->world[dest], &h, &r[1]);
		/* the receiver takes the message when it chooses: wait on it */
		vlmpi_wait_begin(vlmpi_rdv_least_end(&h, v->host[dest]), VLI_ON_TASK(v->world[dest]),
				 VLI_RDV_KEY(v->id, tag),
				 "a rendezvous send to rank %d, tag %d", v->world[dest], tag);
		vlmpi_ack_wait(&r[1], v->world[dest], tag, bytes);
		rc = vlmpi_real_wait(&r[0], MPI_STATUS_IGNORE);
		vlmpi_wait_end();
		/* the data leave when both the send and the receive are there; the
		 * call returns when they are in */
		vli_msg_sent_sync(v->world[dest], v->host[dest], tag, bytes, h.send_ns, t0, ack,
				  h.flags & VLMPI_HDR_FLOW ? vlmpi_rdv_end_wait(&h, v->world[dest], ack)
							   : -1,
				  &s);
		return rc;
	}
passthrough:
	switch (mode) {
	case VLMPI_MODE_B:
		return PMPI_Bsend(buf, count, dt, dest, tag, comm);
	case VLMPI_MODE_S:
		return PMPI_Ssend(buf, count, dt, dest, tag, comm);
	case VLMPI_MODE_R:
		return PMPI_Rsend(buf, count, dt, dest, tag, comm);
	default:
		return PMPI_Send(buf, count, dt, dest, tag, comm);
	}
}

int vlmpi_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
	return do_send(buf, count, dt, dest, tag, comm, VLMPI_MODE_STD);
}

int vlmpi_Bsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
	return do_send(buf, count, dt, dest, tag, comm, VLMPI_MODE_B);
}

int vlmpi_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
	return do_send(buf, count, dt, dest, tag, comm, VLMPI_MODE_S);
}

int vlmpi_Rsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
	return do_send(buf, count, dt, dest, tag, comm, VLMPI_MODE_R);
}

/* Start a nonblocking send whose real request is *r (already posted by the
 * caller after this returns the header: see isend/start). */
void vlmpi_isend_timing(vlmpi_req *q, int64_t bytes)
{
	vli_sent s;
	vlmpi_comm *v = q->vc;

	/* the call pays the send; a rendezvous completes in Wait/Test when the
	 * receive was posted (the trace shows the earliest possible arrival) */
	q->num = vli_req_next();
	vli_msg_sent_flow(v->world[q->peer], v->host[q->peer], q->tag, bytes, q->h.send_ns,
			  vli_t.now, 1, q->num,
			  (q->h.flags & VLMPI_HDR_FLOW) && !(q->h.flags & VLMPI_HDR_RDV)
				  ? VLI_FLOW_HAVE
				  : VLI_FLOW_NONE,
			  &s);
	if (!q->rdv)
		return;
	q->ack_done = 0;
	q->flow_read = 0;
	q->ack_t = 0;
	vlmpi_ack_irecv(&q->ack_t, v->world[q->peer], &q->h, &q->ack);
	vlmpi_n_asks++;
}

static int start_isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
		       MPI_Comm comm, int mode, MPI_Request *req);

static int do_isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		    int mode, MPI_Request *req)
{
	vlmpi_comm *v;
	vlmpi_req *q;
	vlmpi_hdr h;
	int64_t bytes;
	int rc;

	if (dest == MPI_PROC_NULL || !(v = vlmpi_comm_timed(comm)) || dest < 0 || dest >= v->size)
		return start_isend(buf, count, dt, dest, tag, comm, mode, req);
	bytes = vlmpi_type_bytes(dt, count);
	vlmpi_header_make(&h, v, dest, tag, bytes, !vlmpi_eager(bytes, mode));
	if (vlmpi_vorder && !(h.flags & VLMPI_HDR_RDV) && mode != VLMPI_MODE_B &&
	    bytes > VLMPI_COPY_MIN) {
		/* virtual order: an eager send is complete at the end of its call, so
		 * the layer sends a copy and gives the program a request that is
		 * complete already (a generalized request) */
		rc = vlmpi_send_copy(buf, count, dt, dest, tag, comm);
		if (rc == MPI_SUCCESS)
			rc = vlmpi_done_request(req);
	} else {
		rc = start_isend(buf, count, dt, dest, tag, comm, mode, req);
	}
	if (rc != MPI_SUCCESS)
		return rc;
	q = vlmpi_req_new(*req, VLMPI_REQ_SEND, v, dest, tag);
	q->h = h;
	q->rdv = (h.flags & VLMPI_HDR_RDV) != 0;
	q->mode = mode;
	vlmpi_isend_timing(q, bytes);
	return rc;
}

static int start_isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
		       MPI_Comm comm, int mode, MPI_Request *req)
{
	int rc;

	switch (mode) {
	case VLMPI_MODE_B:
		rc = PMPI_Ibsend(buf, count, dt, dest, tag, comm, req);
		break;
	case VLMPI_MODE_S:
		rc = PMPI_Issend(buf, count, dt, dest, tag, comm, req);
		break;
	case VLMPI_MODE_R:
		rc = PMPI_Irsend(buf, count, dt, dest, tag, comm, req);
		break;
	default:
		rc = PMPI_Isend(buf, count, dt, dest, tag, comm, req);
	}
	return rc;
}

int vlmpi_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		MPI_Request *req)
{
	return do_isend(buf, count, dt, dest, tag, comm, VLMPI_MODE_STD, req);
}

int vlmpi_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		 MPI_Request *req)
{
	return do_isend(buf, count, dt, dest, tag, comm, VLMPI_MODE_B, req);
}

int vlmpi_Issend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		 MPI_Request *req)
{
	return do_isend(buf, count, dt, dest, tag, comm, VLMPI_MODE_S, req);
}

int vlmpi_Irsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		 MPI_Request *req)
{
	return do_isend(buf, count, dt, dest, tag, comm, VLMPI_MODE_R, req);
}
