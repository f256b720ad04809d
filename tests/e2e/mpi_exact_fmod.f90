! mpi_exact_fmod.f90 - mpi_exact_f.f90 with the 'use mpi' module instead of
! mpif.h (tests/e2e/test_mpi_fortran.sh).
program mpi_exact_fmod
  use mpi
  implicit none
  include 'mpi_exact_f.inc'
end program mpi_exact_fmod
