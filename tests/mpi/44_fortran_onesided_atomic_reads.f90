! MPI: 2 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! Fortran one-sided atomic reads (mpif.h bindings): rank 0's parameter, in a window
! (MPI_WIN_CREATE), is read by every rank with MPI_FETCH_AND_OP(MPI_NO_OP) inside
! MPI_WIN_LOCK_ALL/MPI_WIN_UNLOCK_ALL; the right neighbour's first two values with
! MPI_GET_ACCUMULATE(MPI_NO_OP) under a shared MPI_WIN_LOCK, then MPI_BARRIER; each rank's
! nonlinear energy is summed on rank 0 with MPI_REDUCE. MPI_NO_OP makes both MPI_GETs for
! differentiation (runtime/mpi_composed.c). The gathered gradient is compared with the
! serial program's (checked against central finite differences), and forward mode against
! the serial gradient.
module m44mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 4
contains
  subroutine energy(x, th, f)
    real(8), intent(in) :: x(nloc), th(1)
    real(8), intent(out) :: f
    real(8) :: u(nloc), par(1), a, nb(2), c, none(1)
    integer :: rank, nproc, right, ierr, wu, wp
    integer(kind=MPI_ADDRESS_KIND) :: bytes, disp
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    right = mod(rank + 1, nproc)
    u = x
    par = 0
    if (rank == 0) par(1) = th(1)
    a = 0
    nb = 0
    none = 0
    bytes = 8 * nloc
    call mpi_win_create(u, bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, wu, ierr)
    bytes = 8
    call mpi_win_create(par, bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, wp, ierr)
    call mpi_barrier(MPI_COMM_WORLD, ierr)
    call mpi_win_lock_all(0, wp, ierr)
    disp = 0
    call mpi_fetch_and_op(none, a, MPI_DOUBLE_PRECISION, 0, disp, MPI_NO_OP, wp, ierr)
    call mpi_win_unlock_all(wp, ierr)
    call mpi_win_lock(MPI_LOCK_SHARED, right, 0, wu, ierr)
    call mpi_get_accumulate(none, 0, MPI_DOUBLE_PRECISION, nb, 2, MPI_DOUBLE_PRECISION, right, &
                            disp, 2, MPI_DOUBLE_PRECISION, MPI_NO_OP, wu, ierr)
    call mpi_win_unlock(right, wu, ierr)
    call mpi_barrier(MPI_COMM_WORLD, ierr)
    c = a * sum(sin(u)) + u(nloc) * nb(1) + nb(2)**2 * u(1)
    f = 0
    call mpi_reduce(c, f, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    call mpi_win_free(wu, ierr)
    call mpi_win_free(wp, ierr)
  end subroutine energy

  ! The same on the whole periodic vector (y(1:m)), the parameter y(m+1).
  real(8) function serial(m, y)
    integer, intent(in) :: m
    real(8), intent(in) :: y(m + 1)
    real(8) :: nb(2)
    integer :: r, p, b, q
    p = m / nloc
    serial = 0
    do r = 0, p - 1
      b = r * nloc
      q = modulo(b + nloc, m)
      nb = y(q + 1:q + 2)
      serial = serial + y(m + 1) * sum(sin(y(b + 1:b + nloc))) + y(b + nloc) * nb(1) &
               + nb(2)**2 * y(b + 1)
    end do
  end function serial
end module m44mpi

program p44mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m44mpi
  implicit none
  real(8), allocatable :: yall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nloc), dx(nloc), th(1), dth(1), f, df, t, h, fp, fm, tf, vt(1), dsum(1)
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nproc * nloc
  allocate (yall(n + 1), gall(n + 1), gs(n + 1), gfd(n + 1), vall(n + 1))
  seed = 44
  call fill(yall, -1d0, 1d0, seed)
  yall(n + 1) = 0.7d0
  x = yall(rank * nloc + 1:rank * nloc + nloc)
  th = yall(n + 1:n + 1)
  dx = 0
  dth = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(energy, enzyme_dup, x, dx, enzyme_dup, th, dth, enzyme_dup, f, df)
  call mpi_gather(dx, nloc, MPI_DOUBLE_PRECISION, gall, nloc, MPI_DOUBLE_PRECISION, 0, &
                  MPI_COMM_WORLD, ierr)
  ! only rank 0's parameter is read: the sum over the ranks is rank 0's
  call mpi_reduce(dth, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  gall(n + 1) = dsum(1)
  gs = 0
  call __enzyme_autodiff(serial, enzyme_const, n, enzyme_dup, yall, gs)
  do i = 1, n + 1
    t = yall(i); h = fd_step(t)
    yall(i) = t + h; fp = serial(n, yall)
    yall(i) = t - h; fm = serial(n, yall)
    yall(i) = t; gfd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('serial vs fd', gs, gfd, 1d-6)
  if (rank == 0) then
    call check('energy vs serial', f, serial(n, yall), 1d-12)
    call check_arr('gathered vs serial', gall, gs, 1d-12)
  end if
  call fill(vall, -1d0, 1d0, seed)
  vt = vall(n + 1:n + 1)
  tf = 0
  call __enzyme_fwddiff_sub(energy, enzyme_dup, x, vall(rank * nloc + 1:rank * nloc + nloc), &
                            enzyme_dup, th, vt, enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, dot_product(gs, vall), 1d-12)
  call fz_mpi_report()
end program p44mpi
