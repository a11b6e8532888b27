! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! Fortran one-sided communication and nonblocking collectives (mpif.h bindings), as
! Fortran codes write them: two parameters broadcast from rank 0 with MPI_IBCAST
! overlapped with local set-up and completed by MPI_WAIT; a periodic halo exchange by
! MPI_PUT into the neighbours' ghost cells of a window (MPI_WIN_CREATE over the block
! with its ghosts, MPI_WIN_FENCE around each exchange), two nonlinear diffusion steps;
! MPI_GET of the right neighbour's first two values; every rank's two energies summed
! into rank 0's window memory with MPI_ACCUMULATE(MPI_SUM); MPI_IALLREDUCE of a coupling
! sum and MPI_IALLGATHER of every block's two edge values, completed together by
! MPI_WAITALL; MPI_IALLTOALL of one value per pair and an MPI_IBARRIER completed by
! MPI_WAIT; the windows freed inside. These were missing-derivative errors. The loss is on
! rank 0; the gathered gradient (blocks and parameters) is compared with the serial
! program's (checked against central finite differences), and forward mode against the
! serial gradient.
module m36mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 4, nsteps = 2, maxp = 4
contains
  subroutine energy(x, th, f)
    real(8), intent(in) :: x(nloc), th(2)
    real(8), intent(out) :: f
    real(8) :: u(0:nloc + 1), un(nloc), par(2), far(2), e(2), tot(2), s, stot
    real(8) :: edges(2), alle(2, maxp), pairs(maxp), back(maxp)
    integer :: rank, nproc, left, right, ierr, st, i, r, req(2), wu, wt
    integer(kind=MPI_ADDRESS_KIND) :: bytes, disp
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    right = mod(rank + 1, nproc)
    left = mod(rank + nproc - 1, nproc)
    par = 0
    if (rank == 0) par = th
    call mpi_ibcast(par, 2, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, req(1), ierr)
    u = 0
    u(1:nloc) = x
    tot = 0
    call mpi_wait(req(1), MPI_STATUS_IGNORE, ierr)
    bytes = 8 * (nloc + 2)
    call mpi_win_create(u, bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, wu, ierr)
    bytes = 16
    call mpi_win_create(tot, bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, wt, ierr)
    do st = 1, nsteps
      call mpi_win_fence(0, wu, ierr)
      disp = nloc + 1
      call mpi_put(u(1), 1, MPI_DOUBLE_PRECISION, left, disp, 1, MPI_DOUBLE_PRECISION, wu, ierr)
      disp = 0
      call mpi_put(u(nloc), 1, MPI_DOUBLE_PRECISION, right, disp, 1, MPI_DOUBLE_PRECISION, wu, ierr)
      call mpi_win_fence(0, wu, ierr)
      do i = 1, nloc
        un(i) = u(i) + par(1) * (u(i - 1) - 2 * u(i) + u(i + 1)) - par(2) * u(i)**3
      end do
      u(1:nloc) = un
    end do
    call mpi_win_fence(0, wu, ierr)
    disp = 1
    call mpi_get(far, 2, MPI_DOUBLE_PRECISION, right, disp, 2, MPI_DOUBLE_PRECISION, wu, ierr)
    call mpi_win_fence(0, wu, ierr)
    e(1) = sum(u(1:nloc)**2)
    e(2) = sum(sin(u(1:nloc))) * far(1)
    call mpi_win_fence(0, wt, ierr)
    disp = 0
    call mpi_accumulate(e, 2, MPI_DOUBLE_PRECISION, 0, disp, 2, MPI_DOUBLE_PRECISION, MPI_SUM, &
                        wt, ierr)
    call mpi_win_fence(0, wt, ierr)
    s = sum(u(1:nloc)) * far(2)
    edges = [u(1), u(nloc)]
    call mpi_iallreduce(s, stot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req(1), ierr)
    call mpi_iallgather(edges, 2, MPI_DOUBLE_PRECISION, alle, 2, MPI_DOUBLE_PRECISION, &
                        MPI_COMM_WORLD, req(2), ierr)
    call mpi_waitall(2, req, MPI_STATUSES_IGNORE, ierr)
    do r = 1, nproc
      pairs(r) = u(mod(r - 1, nloc) + 1) * (r + rank)
    end do
    call mpi_ialltoall(pairs, 1, MPI_DOUBLE_PRECISION, back, 1, MPI_DOUBLE_PRECISION, &
                       MPI_COMM_WORLD, req(1), ierr)
    call mpi_wait(req(1), MPI_STATUS_IGNORE, ierr)
    call mpi_ibarrier(MPI_COMM_WORLD, req(2), ierr)
    call mpi_wait(req(2), MPI_STATUS_IGNORE, ierr)
    f = 0
    if (rank == 0) then
      f = tot(1) * stot + tot(2)
      do r = 1, nproc
        f = f + 0.3d0 * r * alle(1, r) * alle(2, r) + 0.1d0 * back(r)**2
      end do
    end if
    call mpi_win_free(wu, ierr)
    call mpi_win_free(wt, ierr)
  end subroutine energy

  ! The same on the whole periodic vector (y(1:m)), parameters y(m+1:m+2).
  real(8) function serial(m, y)
    integer, intent(in) :: m
    real(8), intent(in) :: y(m + 2)
    real(8) :: u(m), un(m), tot(2), stot, far(2)
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
    stot = 0
    serial = 0
    do r = 0, p - 1
      b = r * nloc
      far = u(modulo(b + nloc, m) + 1:modulo(b + nloc, m) + 2)
      tot(1) = tot(1) + sum(u(b + 1:b + nloc)**2)
      tot(2) = tot(2) + sum(sin(u(b + 1:b + nloc))) * far(1)
      stot = stot + sum(u(b + 1:b + nloc)) * far(2)
      serial = serial + 0.3d0 * (r + 1) * u(b + 1) * u(b + nloc)
      ! rank r's pairs(1) (for rank 0) = u_r(1) * (1 + r)
      serial = serial + 0.1d0 * (u(b + 1) * (1 + r))**2
    end do
    serial = serial + tot(1) * stot + tot(2)
  end function serial
end module m36mpi

program p36mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m36mpi
  implicit none
  real(8), allocatable :: yall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nloc), dx(nloc), th(2), dth(2), f, df, t, h, fp, fm, tf, vt(2)
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nproc * nloc
  allocate (yall(n + 2), gall(n + 2), gs(n + 2), gfd(n + 2), vall(n + 2))
  seed = 36
  call fill(yall, -1d0, 1d0, seed)
  yall(n + 1) = 0.2d0
  yall(n + 2) = 0.3d0
  x = yall(rank * nloc + 1:rank * nloc + nloc)
  th = 0
  if (rank == 0) th = yall(n + 1:n + 2)
  dx = 0
  dth = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(energy, enzyme_dup, x, dx, enzyme_dup, th, dth, enzyme_dup, f, df)
  call mpi_gather(dx, nloc, MPI_DOUBLE_PRECISION, gall, nloc, MPI_DOUBLE_PRECISION, 0, &
                  MPI_COMM_WORLD, ierr)
  gall(n + 1:n + 2) = dth
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
  else
    call check('other ranks parameter gradient is zero', abs(dth(1)) + abs(dth(2)), 0d0, 0d0)
  end if
  call fill(vall, -1d0, 1d0, seed)
  vt = 0
  if (rank == 0) vt = vall(n + 1:n + 2)
  tf = 0
  call __enzyme_fwddiff_sub(energy, enzyme_dup, x, vall(rank * nloc + 1:rank * nloc + nloc), &
                            enzyme_dup, th, vt, enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, dot_product(gs, vall), 1d-12)
  call fz_mpi_report()
end program p36mpi
