/* sendrecv.c - MPI_Sendrecv and MPI_Sendrecv_replace: a nonblocking receive
 * and a nonblocking send, then both completed (vlmpi_Irecv, vlmpi_Isend,
 * vlmpi_Waitall), so that they are timed like any other pair.
 */
#include <stdlib.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

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
