! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! The Fortran twin of mpi/65 (mpif.h bindings): rank 0 deals out irregular blocks (2 to
! 5 elements per rank) with MPI_ISCATTERV, completed by MPI_WAIT after local work; each
! rank transforms its block, the energy is summed with MPI_ALLREDUCE(MPI_IN_PLACE), and
! the blocks go back to rank 0 with MPI_IGATHERV completed by MPI_WAITALL together with
! an MPI_IREDUCE. These bindings used to be refused. Rank 0's gradient is compared with
! the serial program's (checked against central finite differences), the other ranks'
! must be zero; forward mode against the serial gradient.
module m67mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: maxn = 20
  integer :: counts(0:3), displs(0:3), ng
contains
  subroutine loss(x, f)
    real(8), intent(in) :: x(ng)
    real(8), intent(out) :: f
    real(8) :: loc(5), y(5), yall(maxn), e, cube, c, w
    integer :: me, ierr, n, i, req(2)
    call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
    n = counts(me)
    call mpi_iscatterv(x, counts, displs, MPI_DOUBLE_PRECISION, loc, n, MPI_DOUBLE_PRECISION, &
                       0, MPI_COMM_WORLD, req(1), ierr)
    w = 1 + 0.1d0 * me * me
    call mpi_wait(req(1), MPI_STATUS_IGNORE, ierr)
    e = 0
    do i = 1, n
      y(i) = sin(loc(i)) + loc(i) * loc(mod(i, n) + 1) * w
      e = e + y(i)**2
    end do
    call mpi_allreduce(MPI_IN_PLACE, e, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    cube = 0
    do i = 1, n
      y(i) = y(i) / sqrt(e)
      cube = cube + y(i)**3
    end do
    c = 0
    call mpi_igatherv(y, n, MPI_DOUBLE_PRECISION, yall, counts, displs, MPI_DOUBLE_PRECISION, &
                      0, MPI_COMM_WORLD, req(1), ierr)
    call mpi_ireduce(cube, c, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, req(2), ierr)
    call mpi_waitall(2, req, MPI_STATUSES_IGNORE, ierr)
    f = 0
    if (me == 0) then
      f = c
      do i = 1, ng
        f = f + (0.3d0 + 0.1d0 * mod(i - 1, 3)) * yall(i)
      end do
    end if
  end subroutine loss

  real(8) function serial(m, np, x)
    integer, intent(in) :: m, np
    real(8), intent(in) :: x(m)
    real(8) :: y(maxn), e
    integer :: r, i, n, d
    e = 0
    do r = 0, np - 1
      n = counts(r)
      d = displs(r)
      do i = 1, n
        y(d + i) = sin(x(d + i)) + x(d + i) * x(d + mod(i, n) + 1) * (1 + 0.1d0 * r * r)
        e = e + y(d + i)**2
      end do
    end do
    serial = 0
    do i = 1, m
      serial = serial + (y(i) / sqrt(e))**3 + (0.3d0 + 0.1d0 * mod(i - 1, 3)) * y(i) / sqrt(e)
    end do
  end function serial
end module m67mpi

program p67mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m67mpi
  implicit none
  real(8), allocatable :: xall(:), x(:), dx(:), gs(:), gfd(:), v(:), zero(:)
  real(8) :: f, df, t, h, fp, fm, tf, val
  integer :: rank, nproc, ierr, seed, i, r
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  ng = 0
  do r = 0, nproc - 1
    counts(r) = 2 + mod(r * 3, 4)
    displs(r) = ng
    ng = ng + counts(r)
  end do
  allocate (xall(ng), x(ng), dx(ng), gs(ng), gfd(ng), v(ng), zero(ng))
  seed = 67
  call fill(xall, -1d0, 1d0, seed)
  x = 0
  if (rank == 0) x = xall
  call loss(x, val)
  dx = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  if (rank == 0) then
    gs = 0
    call __enzyme_autodiff(serial, enzyme_const, ng, enzyme_const, nproc, enzyme_dup, xall, gs)
    do i = 1, ng
      t = xall(i); h = fd_step(t)
      xall(i) = t + h; fp = serial(ng, nproc, xall)
      xall(i) = t - h; fm = serial(ng, nproc, xall)
      xall(i) = t; gfd(i) = (fp - fm) / (2 * h)
    end do
    call check_arr('serial vs fd', gs, gfd, 1d-6)
    call check('value vs serial', val, serial(ng, nproc, xall), 1d-12)
    call check_arr('rank 0 gradient vs serial', dx, gs, 1d-12)
  else
    zero = 0
    call check_arr('other ranks'' gradient is zero', dx, zero, 0d0)
  end if
  call fill(v, -1d0, 1d0, seed)
  if (rank /= 0) v = 0
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, v, enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, dot_product(gs, v), 1d-10)
  call fz_mpi_report()
end program p67mpi
