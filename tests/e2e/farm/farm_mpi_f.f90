! farm_mpi_f.f90 - the MPI task farm of the virtual-order tests in Fortran
! (farm_mpi.c's twin, `use mpi`): rank 0 hands JOBS jobs to the other ranks
! one at a time; a worker that returns a result (MPI_RECV with
! MPI_ANY_SOURCE) gets the next job.  Every job is FLOPS of modelled
! computation (vl_compute_flops, called through ISO_C_BINDING).  Prints what
! farm_sim.py prints.
!
!   farm_mpi_f [JOBS [FLOPS]]
program farm_mpi_f
  use mpi
  use iso_c_binding
  implicit none
  interface
    integer(c_int) function vl_compute_flops(f) bind(C, name="vl_compute_flops")
      import :: c_int, c_double
      real(c_double), value :: f
    end function
    integer(c_int64_t) function vl_time_ns() bind(C, name="vl_time_ns")
      import :: c_int64_t
    end function
  end interface
  integer, parameter :: tag_job = 21, tag_result = 22
  integer :: rank, nproc, ierr, jobs, nxt, done, i, src, job, rc, k
  integer :: st(MPI_STATUS_SIZE)
  integer, allocatable :: cnt(:), ord(:)
  real(c_double) :: flops
  character(len=32) :: arg
  integer(c_int64_t) :: t_end

  jobs = 40
  flops = 1d6
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) jobs
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) flops
  end if
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nproc, ierr)
  if (rank > 0) then
    do
      call MPI_RECV(job, 1, MPI_INTEGER, 0, tag_job, MPI_COMM_WORLD, st, ierr)
      if (job < 0) exit
      rc = vl_compute_flops(flops)
      call MPI_SEND(job, 1, MPI_INTEGER, 0, tag_result, MPI_COMM_WORLD, ierr)
    end do
    call MPI_FINALIZE(ierr)
    stop
  end if
  allocate (cnt(nproc - 1), ord(jobs))
  cnt = 0
  nxt = 0
  done = 0
  do i = 1, nproc - 1
    if (nxt < jobs) then
      job = nxt
      nxt = nxt + 1
      call MPI_SEND(job, 1, MPI_INTEGER, i, tag_job, MPI_COMM_WORLD, ierr)
    end if
  end do
  do while (done < jobs)
    call MPI_RECV(job, 1, MPI_INTEGER, MPI_ANY_SOURCE, tag_result, MPI_COMM_WORLD, st, ierr)
    src = st(MPI_SOURCE)
    done = done + 1
    cnt(src) = cnt(src) + 1
    ord(done) = src - 1
    if (nxt < jobs) then
      job = nxt
      nxt = nxt + 1
      call MPI_SEND(job, 1, MPI_INTEGER, src, tag_job, MPI_COMM_WORLD, ierr)
    end if
  end do
  t_end = vl_time_ns()
  write (*, '(A,I0)') 'end ', t_end
  do i = 1, nproc - 1
    write (*, '(A,I0,A,I0)') 'count ', i - 1, ' ', cnt(i)
    job = -1
    call MPI_SEND(job, 1, MPI_INTEGER, i, tag_job, MPI_COMM_WORLD, ierr)
  end do
  write (*, '(A)', advance='no') 'order'
  do k = 1, jobs
    write (*, '(A,I0)', advance='no') ' ', ord(k)
  end do
  write (*, '(A)') ''
  call MPI_FINALIZE(ierr)
end program farm_mpi_f
