! MPI: 2 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! Fortran passive-target one-sided communication (mpif.h bindings): a periodic halo
! exchange by MPI_PUT into the neighbours' ghost cells of a window (MPI_WIN_CREATE over
! the block with its ghosts), each Put in its own MPI_WIN_LOCK/MPI_WIN_UNLOCK epoch (the
! second with an MPI_WIN_FLUSH), MPI_BARRIER before and after each nonlinear diffusion
! step; MPI_GET of the right neighbour's first two values inside
! MPI_WIN_LOCK_ALL/MPI_WIN_UNLOCK_ALL; every rank's two energies summed into rank 0's
! window memory with MPI_ACCUMULATE(MPI_SUM) under a shared lock. The loss is on rank 0;
! the gathered gradient is compared with the serial program's (checked against central
! finite differences), and forward mode against the serial gradient.
module m42mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 4, nsteps = 2
contains
  subroutine energy(x, th, f)
    real(8), intent(in) :: x(nloc), th(2)
    real(8), intent(out) :: f
    real(8) :: u(0:nloc + 1), un(nloc), far(2), e(2), tot(2)
    integer :: rank, nproc, left, right, ierr, st, i, wu, wt
    integer(kind=MPI_ADDRESS_KIND) :: bytes, disp
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    right = mod(rank + 1, nproc)
    left = mod(rank + nproc - 1, nproc)
    u = 0
    u(1:nloc) = x
    tot = 0
    bytes = 8 * (nloc + 2)
    call mpi_win_create(u, bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, wu, ierr)
    bytes = 16
    call mpi_win_create(tot, bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, wt, ierr)
    do st = 1, nsteps
      call mpi_win_lock(MPI_LOCK_EXCLUSIVE, left, 0, wu, ierr)
      disp = nloc + 1
      call mpi_put(u(1), 1, MPI_DOUBLE_PRECISION, left, disp, 1, MPI_DOUBLE_PRECISION, wu, ierr)
      call mpi_win_unlock(left, wu, ierr)
      call mpi_win_lock(MPI_LOCK_SHARED, right, 0, wu, ierr)
      disp = 0
      call mpi_put(u(nloc), 1, MPI_DOUBLE_PRECISION, right, disp, 1, MPI_DOUBLE_PRECISION, wu, ierr)
      call mpi_win_flush(right, wu, ierr)
      call mpi_win_unlock(right, wu, ierr)
      call mpi_barrier(MPI_COMM_WORLD, ierr)
      do i = 1, nloc
        un(i) = u(i) + th(1) * (u(i - 1) - 2 * u(i) + u(i + 1)) - th(2) * u(i)**3
      end do
      u(1:nloc) = un
      call mpi_barrier(MPI_COMM_WORLD, ierr)
    end do
    call mpi_win_lock_all(0, wu, ierr)
    disp = 1
    call mpi_get(far, 2, MPI_DOUBLE_PRECISION, right, disp, 2, MPI_DOUBLE_PRECISION, wu, ierr)
    call mpi_win_unlock_all(wu, ierr)
    e(1) = sum(u(1:nloc)**2) * far(2)
    e(2) = sum(sin(u(1:nloc))) * far(1)
    call mpi_win_lock(MPI_LOCK_SHARED, 0, 0, wt, ierr)
    disp = 0
    call mpi_accumulate(e, 2, MPI_DOUBLE_PRECISION, 0, disp, 2, MPI_DOUBLE_PRECISION, MPI_SUM, &
                        wt, ierr)
    call mpi_win_unlock(0, wt, ierr)
    call mpi_barrier(MPI_COMM_WORLD, ierr)
    f = 0
    if (rank == 0) f = tot(1) * tot(2) + tot(2)
    call mpi_win_free(wu, ierr)
    call mpi_win_free(wt, ierr)
  end subroutine energy

  ! The same on the whole periodic vector (y(1:m)), every rank's parameters y(m+1:m+2).
  real(8) function serial(m, y)
    integer, intent(in) :: m
    real(8), intent(in) :: y(m + 2)
    real(8) :: u(m), un(m), tot(2), far(2)
    integer :: st, i, r, p, b
    p = m / nloc
    u = y(1:m)
    do st = 1, nsteps
      do i = 1, m
        un(i) = u(i) + y(m + 1) * (u(modulo(i - 2, m) + 1) - 2 * u(i) + u(modulo(i, m) + 1)) &
                - y(m + 2) * u(i)**3
      end do
      u = un
    end do
    tot = 0
    do r = 0, p - 1
      b = r * nloc
      far = u(modulo(b + nloc, m) + 1:modulo(b + nloc, m) + 2)
      tot(1) = tot(1) + sum(u(b + 1:b + nloc)**2) * far(2)
      tot(2) = tot(2) + sum(sin(u(b + 1:b + nloc))) * far(1)
    end do
    serial = tot(1) * tot(2) + tot(2)
  end function serial
end module m42mpi

program p42mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m42mpi
  implicit none
  real(8), allocatable :: yall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nloc), dx(nloc), th(2), dth(2), f, df, t, h, fp, fm, tf, vt(2), dsum(2)
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nproc * nloc
  allocate (yall(n + 2), gall(n + 2), gs(n + 2), gfd(n + 2), vall(n + 2))
  seed = 42
  call fill(yall, -1d0, 1d0, seed)
  yall(n + 1) = 0.2d0
  yall(n + 2) = 0.3d0
  x = yall(rank * nloc + 1:rank * nloc + nloc)
  th = yall(n + 1:n + 2)
  dx = 0
  dth = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(energy, enzyme_dup, x, dx, enzyme_dup, th, dth, enzyme_dup, f, df)
  call mpi_gather(dx, nloc, MPI_DOUBLE_PRECISION, gall, nloc, MPI_DOUBLE_PRECISION, 0, &
                  MPI_COMM_WORLD, ierr)
  ! every rank uses the parameters: their gradient is the sum over the ranks
  call mpi_reduce(dth, dsum, 2, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  gall(n + 1:n + 2) = dsum
  gs = 0
  call __enzyme_autodiff(serial, enzyme_const, n, enzyme_dup, yall, gs)
  do i = 1, n + 2
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
  vt = vall(n + 1:n + 2)
  tf = 0
  call __enzyme_fwddiff_sub(energy, enzyme_dup, x, vall(rank * nloc + 1:rank * nloc + nloc), &
                            enzyme_dup, th, vt, enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, dot_product(gs, vall), 1d-12)
  call fz_mpi_report()
end program p42mpi
