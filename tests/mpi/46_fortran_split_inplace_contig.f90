! MPI: 2 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! A Fortran (mpif.h) model that builds its own communicators and datatype inside the
! differentiated routine, as domain-decomposed codes do: MPI_COMM_SPLIT into pairs of
! ranks, MPI_COMM_DUP, an MPI_TYPE_CONTIGUOUS of three reals committed and used in an
! MPI_SENDRECV around a ring, an MPI_ALLREDUCE with MPI_IN_PLACE on the pair
! communicator, an MPI_REDUCE with MPI_IN_PLACE at the root, an MPI_BCAST of the result,
! then MPI_TYPE_FREE and MPI_COMM_FREE before returning (moved after the reverse sweep).
! The gathered gradient is compared with the serial program's (checked against central
! finite differences); forward mode against the serial gradient.
module m46mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 6
contains
  subroutine energy(x, f)
    real(8), intent(in) :: x(nloc)
    real(8), intent(out) :: f
    real(8) :: ghost(3), pair(2), tot(2), e
    integer :: rank, nproc, pc, dup, trip, ierr, left, right, i
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    call mpi_comm_split(MPI_COMM_WORLD, rank / 2, rank, pc, ierr)
    call mpi_comm_dup(MPI_COMM_WORLD, dup, ierr)
    call mpi_type_contiguous(3, MPI_DOUBLE_PRECISION, trip, ierr)
    call mpi_type_commit(trip, ierr)
    right = mod(rank + 1, nproc)
    left = mod(rank + nproc - 1, nproc)
    ! my last three values go right, the left neighbour's arrive in ghost
    call mpi_sendrecv(x(nloc - 2), 1, trip, right, 7, ghost, 1, trip, left, 7, dup, &
                      MPI_STATUS_IGNORE, ierr)
    pair(1) = sum(x * ghost(1)) + ghost(2)**2
    pair(2) = dot_product(x(1:3), ghost) * x(nloc)
    call mpi_allreduce(MPI_IN_PLACE, pair, 2, MPI_DOUBLE_PRECISION, MPI_SUM, pc, ierr)
    tot = [pair(1) * pair(2), sin(pair(1)) + ghost(3) * x(2)]
    if (rank == 0) then
      call mpi_reduce(MPI_IN_PLACE, tot, 2, MPI_DOUBLE_PRECISION, MPI_SUM, 0, dup, ierr)
    else
      call mpi_reduce(tot, tot, 2, MPI_DOUBLE_PRECISION, MPI_SUM, 0, dup, ierr)
    end if
    call mpi_bcast(tot, 2, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    e = tot(1) + 0.5d0 * tot(2)**2
    do i = 1, nloc
      e = e + 0.01d0 * x(i)**3
    end do
    call mpi_allreduce(e, f, 1, MPI_DOUBLE_PRECISION, MPI_SUM, dup, ierr)
    call mpi_type_free(trip, ierr)
    call mpi_comm_free(dup, ierr)
    call mpi_comm_free(pc, ierr)
  end subroutine energy

  real(8) function serial(m, x)
    integer, intent(in) :: m
    real(8), intent(in) :: x(m)
    integer :: p, r, l, i
    real(8) :: ghost(3), pair(2, 0:15), tot(2), e, lx(nloc)
    p = m / nloc
    pair = 0
    tot = 0
    do r = 0, p - 1
      l = modulo(r - 1, p)
      ghost = x(l * nloc + nloc - 2:l * nloc + nloc)
      lx = x(r * nloc + 1:r * nloc + nloc)
      pair(1, r / 2) = pair(1, r / 2) + sum(lx * ghost(1)) + ghost(2)**2
      pair(2, r / 2) = pair(2, r / 2) + dot_product(lx(1:3), ghost) * lx(nloc)
    end do
    do r = 0, p - 1
      l = modulo(r - 1, p)
      ghost = x(l * nloc + nloc - 2:l * nloc + nloc)
      tot(1) = tot(1) + pair(1, r / 2) * pair(2, r / 2)
      tot(2) = tot(2) + sin(pair(1, r / 2)) + ghost(3) * x(r * nloc + 2)
    end do
    e = tot(1) + 0.5d0 * tot(2)**2
    serial = p * e
    do i = 1, m
      serial = serial + 0.01d0 * x(i)**3
    end do
  end function serial
end module m46mpi

program p46mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m46mpi
  implicit none
  real(8), allocatable :: xall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nloc), dx(nloc), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nproc * nloc
  allocate (xall(n), gall(n), gs(n), gfd(n), vall(n))
  seed = 46
  call fill(xall, -1d0, 1d0, seed)
  x = xall(rank * nloc + 1:rank * nloc + nloc)
  dx = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(energy, enzyme_dup, x, dx, enzyme_dup, f, df)
  call mpi_gather(dx, nloc, MPI_DOUBLE_PRECISION, gall, nloc, MPI_DOUBLE_PRECISION, 0, &
                  MPI_COMM_WORLD, ierr)
  gs = 0
  call __enzyme_autodiff(serial, enzyme_const, n, enzyme_dup, xall, gs)
  do i = 1, n
    t = xall(i); h = fd_step(t)
    xall(i) = t + h; fp = serial(n, xall)
    xall(i) = t - h; fm = serial(n, xall)
    xall(i) = t; gfd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('serial vs fd', gs, gfd, 1d-6)
  if (rank == 0) then
    call check('energy vs serial', f, serial(n, xall), 1d-12)
    call check_arr('gathered vs serial', gall, gs, 1d-12)
  end if
  call fill(vall, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(energy, enzyme_dup, x, vall(rank * nloc + 1:rank * nloc + nloc), &
                            enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, dot_product(gs, vall), 1d-12)
  call fz_mpi_report()
end program p46mpi
