/* fortran.h - the argument conversions of fortran.c, used by the generated
 * Fortran entry points (build/gen/mpi_wrap_gen.c). */
#ifndef VLMPI_FORTRAN_H
#define VLMPI_FORTRAN_H

#include <mpi.h>

/* Fortran arguments: MPI_BOTTOM / MPI_IN_PLACE as Fortran passes them become
 * the C constants; the other helpers convert arrays of requests and statuses
 * (malloc'd copies, freed by the _out function). */
void *vlmpi_f_buf(void *buf);
int vlmpi_f_status_ignored(const MPI_Fint *st);
MPI_Request *vlmpi_f_reqs_in(const MPI_Fint *f, int n);
void vlmpi_f_reqs_out(MPI_Request *c, MPI_Fint *f, int n);
MPI_Status *vlmpi_f_statuses_in(MPI_Fint *f, int n);
void vlmpi_f_statuses_out(MPI_Status *c, MPI_Fint *f, int n, int rc);

#endif
