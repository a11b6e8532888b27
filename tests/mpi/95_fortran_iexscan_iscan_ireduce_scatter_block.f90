! MPI: 2 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! Overlapped prefix sums from Fortran (mpif.h bindings), as tests/mpi/94 in C: the
! offset of a distributed cumulative sum is an MPI_IEXSCAN of the local total (MPI_REAL8)
! started before the local prefix is computed and completed by MPI_WAIT, an inclusive
! MPI_ISCAN of a (mass, moment) pair and an MPI_IREDUCE_SCATTER_BLOCK of every rank's
! contributions to two coarse cells per rank, completed together by MPI_WAITALL. They were
! "this Fortran MPI binding is not differentiated" errors (hpc43). The gathered gradient
! is compared with the serial program's (checked against central finite differences) to
! 1e-12, forward mode against the serial gradient.
module m95mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nl = 4, pmax = 4, nc = 2
contains
  subroutine prefix(x, f)
    real(8), intent(in) :: x(nl)
    real(8), intent(out) :: f
    real(8) :: tot, off, cum(nl), run, pair(2), pre(2), contrib(nc * pmax), mine(nc), loss
    integer :: rank, nproc, ierr, i, c, reqs(3)
    integer :: stats(MPI_STATUS_SIZE, 2), st(MPI_STATUS_SIZE)
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    tot = sum(x**2)
    off = 0
    call mpi_iexscan(tot, off, 1, MPI_REAL8, MPI_SUM, MPI_COMM_WORLD, reqs(1), ierr)
    run = 0
    do i = 1, nl
      run = run + x(i)**2
      cum(i) = run
    end do
    call mpi_wait(reqs(1), st, ierr)
    if (rank == 0) off = 0
    cum = cum + off
    pair(1) = sum(x)
    pair(2) = sum(x * [(dble(i + rank * nl), i = 1, nl)])
    do c = 1, nc * nproc
      contrib(c) = 0
      do i = 1, nl
        contrib(c) = contrib(c) + cum(i) * cos(0.3d0 * c + 0.2d0 * (i + rank * nl))
      end do
    end do
    call mpi_iscan(pair, pre, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, reqs(2), ierr)
    call mpi_ireduce_scatter_block(contrib, mine, nc, MPI_DOUBLE_PRECISION, MPI_SUM, &
                                   MPI_COMM_WORLD, reqs(3), ierr)
    call mpi_waitall(2, reqs(2:3), stats, ierr)
    loss = 0
    do i = 1, nl
      loss = loss + cum(i)**2 * (1 + 0.05d0 * (i + rank * nl))
    end do
    loss = loss + pre(2) / pre(1) * (1 + 0.1d0 * rank) + 0.01d0 * sum(mine**2)
    call mpi_allreduce(loss, f, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end subroutine prefix

  real(8) function serial(p, x)
    integer, intent(in) :: p
    real(8), intent(in) :: x(nl * p)
    real(8) :: cum(nl * pmax), run, m0, m1, v
    integer :: i, r, c
    run = 0
    do i = 1, nl * p
      run = run + x(i)**2
      cum(i) = run
    end do
    serial = 0
    do i = 1, nl * p
      serial = serial + cum(i)**2 * (1 + 0.05d0 * i)
    end do
    m0 = 0
    m1 = 0
    do r = 0, p - 1
      do i = r * nl + 1, r * nl + nl
        m0 = m0 + x(i)
        m1 = m1 + x(i) * i
      end do
      serial = serial + m1 / m0 * (1 + 0.1d0 * r)
    end do
    do c = 1, nc * p
      v = 0
      do i = 1, nl * p
        v = v + cum(i) * cos(0.3d0 * c + 0.2d0 * i)
      end do
      serial = serial + 0.01d0 * v**2
    end do
  end function serial
end module m95mpi

program p95mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m95mpi
  implicit none
  real(8), allocatable :: xall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nl), dx(nl), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, m
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  m = nproc * nl
  allocate (xall(m), gall(m), gs(m), gfd(m), vall(m))
  seed = 95
  call fill(xall, 0.5d0, 1.5d0, seed)
  x = xall(rank * nl + 1:rank * nl + nl)
  dx = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(prefix, enzyme_dup, x, dx, enzyme_dup, f, df)
  call mpi_gather(dx, nl, MPI_DOUBLE_PRECISION, gall, nl, MPI_DOUBLE_PRECISION, 0, &
                  MPI_COMM_WORLD, ierr)
  gs = 0
  call __enzyme_autodiff(serial, enzyme_const, nproc, enzyme_dup, xall, gs)
  do i = 1, m
    t = xall(i); h = fd_step(t)
    xall(i) = t + h; fp = serial(nproc, xall)
    xall(i) = t - h; fm = serial(nproc, xall)
    xall(i) = t; gfd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('serial vs fd', gs, gfd, 1d-6)
  if (rank == 0) then
    call check('loss vs serial', f, serial(nproc, xall), 1d-12)
    call check_arr('gathered vs serial', gall, gs, 1d-12)
  end if
  call fill(vall, -1d0, 1d0, seed)
  tf = 0
  x = vall(rank * nl + 1:rank * nl + nl)
  call __enzyme_fwddiff_sub(prefix, enzyme_dup, xall(rank * nl + 1:rank * nl + nl), x, &
                            enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, sum(gs * vall), 1d-12)
  call fz_mpi_report()
end program p95mpi
