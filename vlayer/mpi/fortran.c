/* fortran.c - argument conversions for the generated Fortran entry points
 * (build/gen/mpi_wrap_gen.c).  Open MPI's Fortran bindings call PMPI_* directly, so
 * the layer defines the Fortran symbols itself and converts their arguments
 * the way Open MPI's mpif-h bindings do. */
#include <stdlib.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/fortran.h"

/* the addresses Open MPI gives MPI_BOTTOM and MPI_IN_PLACE in Fortran */
extern int mpi_fortran_bottom_, mpi_fortran_in_place_;

void *vlmpi_f_buf(void *buf)
{
	if (buf == (void *)&mpi_fortran_bottom_)
		return MPI_BOTTOM;
	if (buf == (void *)&mpi_fortran_in_place_)
		return MPI_IN_PLACE;
	return buf;
}

int vlmpi_f_status_ignored(const MPI_Fint *st)
{
	return st == MPI_F_STATUS_IGNORE || st == MPI_F_STATUSES_IGNORE;
}

MPI_Request *vlmpi_f_reqs_in(const MPI_Fint *f, int n)
{
	MPI_Request *c = malloc(sizeof(*c) * (size_t)(n > 0 ? n : 1));
	int i;

	if (!c)
		vli_error(1, "out of memory");
	for (i = 0; i < n; i++)
		c[i] = PMPI_Request_f2c(f[i]);
	return c;
}

void vlmpi_f_reqs_out(MPI_Request *c, MPI_Fint *f, int n)
{
	int i;

	for (i = 0; i < n; i++)
		f[i] = PMPI_Request_c2f(c[i]);
	free(c);
}

MPI_Status *vlmpi_f_statuses_in(MPI_Fint *f, int n)
{
	MPI_Status *c;

	if (vlmpi_f_status_ignored(f))
		return MPI_STATUSES_IGNORE;
	c = malloc(sizeof(*c) * (size_t)(n > 0 ? n : 1));
	if (!c)
		vli_error(1, "out of memory");
	return c;
}

void vlmpi_f_statuses_out(MPI_Status *c, MPI_Fint *f, int n, int rc)
{
	int i;

	if (c == MPI_STATUSES_IGNORE)
		return;
	for (i = 0; rc == MPI_SUCCESS && i < n; i++)
		PMPI_Status_c2f(&c[i], f + (size_t)i * (sizeof(MPI_Status) / sizeof(MPI_Fint)));
	free(c);
}
