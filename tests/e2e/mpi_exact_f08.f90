! mpi_exact_f08.f90 - mpi_exact_f.f90 with the 'use mpi_f08' bindings (Open
! MPI's call ompi_*_f, which the layer defines; MPI_Wtime is the C function).
! Same scenario, same output (tests/e2e/test_mpi_fortran.sh):
!   mpi_exact_f08 [BYTES]   (default 100)
program mpi_exact_f08
  use mpi_f08
  implicit none
  integer :: ierr, rank, np, n, nd, r, cnt, peer, alen, astat
  type(MPI_Status) :: st, sts(2)
  type(MPI_Request) :: req(2)
  integer(kind=1), allocatable :: b(:), sb(:), rb(:)
  double precision, allocatable :: x(:), y(:)
  character(len=32) :: arg

  call MPI_Init(ierr)
  call chk(ierr, 'MPI_Init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  n = 100
  call GET_COMMAND_ARGUMENT(1, arg, alen, astat)
  if (astat == 0 .and. alen > 0) read (arg, *) n
  allocate (b(max(n, 1)), sb(max(n, 1)), rb(max(n, 1)))
  b = 0

  ! ping-pong of n bytes between ranks 0 and 1, 3 round trips; rank 1 receives
  ! with wildcards and a status, rank 0 alternately with MPI_STATUS_IGNORE
  do r = 1, 3
    if (rank == 0) then
      b = int(r, 1)
      call MPI_Send(b, n, MPI_BYTE, 1, 7, MPI_COMM_WORLD, ierr)
      call chk(ierr, 'MPI_Send')
      b = 0
      if (mod(r, 2) == 1) then
        call MPI_Recv(b, n, MPI_BYTE, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        ! the layer must not have written a status into the sentinel
        if (MPI_STATUS_IGNORE%MPI_SOURCE /= 0 .or. MPI_STATUS_IGNORE%MPI_TAG /= 0) &
          call bad('MPI_STATUS_IGNORE was written')
      else
        call MPI_Recv(b, n, MPI_BYTE, 1, 8, MPI_COMM_WORLD, st, ierr)
        call MPI_Get_count(st, MPI_BYTE, cnt, ierr)
        if (st%MPI_SOURCE /= 1 .or. st%MPI_TAG /= 8 .or. cnt /= n) &
          call bad('pingpong status on rank 0')
      end if
      call chk(ierr, 'MPI_Recv')
      if (n > 0) then
        if (b(1) /= r .or. b(n) /= r) call bad('pingpong data on rank 0')
      end if
      if (r == 1) call t('first')
    else if (rank == 1) then
      b = 0
      call MPI_Recv(b, n, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
      call chk(ierr, 'MPI_Recv')
      call MPI_Get_count(st, MPI_BYTE, cnt, ierr)
      if (st%MPI_SOURCE /= 0 .or. st%MPI_TAG /= 7 .or. cnt /= n) &
        call bad('pingpong status on rank 1')
      if (n > 0) then
        if (b(1) /= r .or. b(n) /= r) call bad('pingpong data on rank 1')
      end if
      call MPI_Send(b, n, MPI_BYTE, 0, 8, MPI_COMM_WORLD, ierr)
      call chk(ierr, 'MPI_Send')
    end if
  end do
  call t('pingpong')

  ! one nonblocking exchange between ranks 0 and 1, completed by MPI_Waitall
  ! with a statuses array; the receive is the second request, so that its
  ! status shows the stride of the conversion
  if (rank < 2 .and. np >= 2) then
    peer = 1 - rank
    sb = int(rank + 1, 1)
    rb = 0
    call MPI_Irecv(rb, n, MPI_BYTE, peer, 9, MPI_COMM_WORLD, req(2), ierr)
    call chk(ierr, 'MPI_Irecv')
    call MPI_Isend(sb, n, MPI_BYTE, peer, 9, MPI_COMM_WORLD, req(1), ierr)
    call chk(ierr, 'MPI_Isend')
    sts(2)%MPI_SOURCE = -1
    sts(2)%MPI_TAG = -1
    call MPI_Waitall(2, req, sts, ierr)
    call chk(ierr, 'MPI_Waitall')
    call MPI_Get_count(sts(2), MPI_BYTE, cnt, ierr)
    if (sts(2)%MPI_SOURCE /= peer .or. sts(2)%MPI_TAG /= 9 .or. cnt /= n) &
      call bad('exchange status')
    if (req(1) /= MPI_REQUEST_NULL .or. req(2) /= MPI_REQUEST_NULL) &
      call bad('exchange requests not freed')
    if (n > 0) then
      if (rb(1) /= peer + 1 .or. rb(n) /= peer + 1) call bad('exchange data')
    end if
  end if
  call t('exchange')     ! = entry into the barrier

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call chk(ierr, 'MPI_Barrier')
  call t('barrier')      ! = entry into the allreduce

  nd = max(1, n / 8)
  allocate (x(nd), y(nd))
  x = rank + 1
  y = 0
  call MPI_Allreduce(x, y, nd, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call chk(ierr, 'MPI_Allreduce')
  if (y(1) /= np * (np + 1) / 2 .or. y(nd) /= np * (np + 1) / 2) call bad('allreduce sum')
  call t('allreduce')    ! = entry into the in-place allreduce

  ! MPI_IN_PLACE: the Fortran sentinel must reach MPI as the C one
  call MPI_Allreduce(MPI_IN_PLACE, y, nd, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call chk(ierr, 'MPI_Allreduce in place')
  if (y(1) /= np * np * (np + 1) / 2 .or. y(nd) /= np * np * (np + 1) / 2) &
    call bad('allreduce in place sum')
  call t('end')

  flush (6)
  call MPI_Finalize(ierr)

contains

  ! "T RANK LABEL NS": the virtual time in nanoseconds
  subroutine t(label)
    character(len=*), intent(in) :: label

    write (*, '(A,I0,A,A,A,I0)') 'T ', rank, ' ', label, ' ', nint(MPI_Wtime() * 1d9, 8)
  end subroutine t

  subroutine bad(what)
    character(len=*), intent(in) :: what

    write (*, '(A,I0,A,A)') 'BAD ', rank, ' ', what
  end subroutine bad

  subroutine chk(e, what)
    integer, intent(in) :: e
    character(len=*), intent(in) :: what

    if (e /= MPI_SUCCESS) call bad(what // ': error code')
  end subroutine chk
end program mpi_exact_f08
