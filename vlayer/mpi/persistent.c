/* persistent.c - persistent requests: MPI_Send_init (and the other modes)
 * and MPI_Recv_init create a request the layer follows, inactive, with the
 * call's arguments; each MPI_Start makes a fresh timing header for a send, or
 * traces the post of a receive, just as the nonblocking call would.
 */
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

/* Create the persistent request *req and follow it, inactive (a receive is
 * watched only once started). */
static int do_init(const void *buf, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
		   int kind, int mode, MPI_Request *req)
{
	vlmpi_comm *v;
	vlmpi_req *q;
	int rc;

	if (kind == VLMPI_REQ_RECV)
		rc = PMPI_Recv_init((void *)buf, count, dt, peer, tag, comm, req);
	else if (mode == VLMPI_MODE_B)
		rc = PMPI_Bsend_init(buf, count, dt, peer, tag, comm, req);
	else if (mode == VLMPI_MODE_S)
		rc = PMPI_Ssend_init(buf, count, dt, peer, tag, comm, req);
	else if (mode == VLMPI_MODE_R)
		rc = PMPI_Rsend_init(buf, count, dt, peer, tag, comm, req);
	else
		rc = PMPI_Send_init(buf, count, dt, peer, tag, comm, req);
	if (rc != MPI_SUCCESS || peer == MPI_PROC_NULL || !(v = vlmpi_comm_timed(comm)))
		return rc;
	q = vlmpi_req_new(*req, kind, v, peer, tag);
	if (kind == VLMPI_REQ_RECV)
		vlmpi_n_watch--;
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
	return do_init(buf, count, dt, dest, tag, comm, VLMPI_REQ_SEND, VLMPI_MODE_STD, req);
}

int vlmpi_Bsend_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		     MPI_Request *req)
{
	return do_init(buf, count, dt, dest, tag, comm, VLMPI_REQ_SEND, VLMPI_MODE_B, req);
}

int vlmpi_Ssend_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		     MPI_Request *req)
{
	return do_init(buf, count, dt, dest, tag, comm, VLMPI_REQ_SEND, VLMPI_MODE_S, req);
}

int vlmpi_Rsend_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		     MPI_Request *req)
{
	return do_init(buf, count, dt, dest, tag, comm, VLMPI_REQ_SEND, VLMPI_MODE_R, req);
}

int vlmpi_Recv_init(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
		    MPI_Request *req)
{
	return do_init(buf, count, dt, source, tag, comm, VLMPI_REQ_RECV, VLMPI_MODE_STD, req);
}

int vlmpi_Start(MPI_Request *req)
{
	vlmpi_req *q = vlmpi_req_find(*req);

	if (!q)
		return PMPI_Start(req);
	q->active = 1;
	q->t_post = vli_t.now;
	q->hdr_ready = 0;
	if (q->kind == VLMPI_REQ_RECV) {
		vlmpi_n_watch++;
		vlmpi_rdv_post_update();
		vlmpi_irecv_posted(q);
		if (vlmpi_vorder && q->peer == MPI_ANY_SOURCE)
			return vlmpi_deferred_restart(q); /* virtual order chooses */
		return PMPI_Start(req);
	}
	int64_t bytes = vlmpi_type_bytes(q->dt, q->count);
	vlmpi_header_make(&q->h, q->vc, q->peer, q->tag, bytes, !vlmpi_eager(bytes, q->mode));
	q->rdv = (q->h.flags & VLMPI_HDR_RDV) != 0;
	int rc = PMPI_Start(req);
	vlmpi_isend_timing(q, bytes);
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
