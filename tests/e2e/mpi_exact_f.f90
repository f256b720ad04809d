! mpi_exact_f.f90 - a Fortran MPI program (include 'mpif.h') whose virtual
! times have closed forms; tests/e2e/test_mpi_fortran.sh runs it with
! compute = ignore, built through vlcc -mpifort and also natively (mpifort
! alone, under vlrun's LD_PRELOAD).  mpi_exact_fmod.f90 is the same program
! with 'use mpi', mpi_exact_f08.f90 with 'use mpi_f08'.
!   mpi_exact_f [BYTES]   (default 100), on 2 ranks (more ranks join the collectives)
! Ping-pong of BYTES between ranks 0 and 1 (3 round trips, MPI_SEND/MPI_RECV,
! wildcards, statuses, MPI_STATUS_IGNORE), one exchange with
! MPI_ISEND/MPI_IRECV/MPI_WAITALL, MPI_BARRIER, MPI_ALLREDUCE of max(1, BYTES/8)
! doubles, then again in place.  Prints "T RANK LABEL NS" with the virtual time
! of MPI_WTIME after each phase (labels first, pingpong, exchange, barrier,
! allreduce, end) and "BAD RANK WHAT" when a result or status is wrong.
program mpi_exact_f
  implicit none
  include 'mpif.h'
  include 'mpi_exact_f.inc'
end program mpi_exact_f
