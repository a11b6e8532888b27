! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! The routines hpc17 left as errors, from Fortran (mpif.h bindings): an INTEGER
! MPI_EXSCAN numbers each rank's elements (it stays Open MPI's call), a real MPI_EXSCAN
! shifts them by the totals of the ranks before, MPI_ALLTOALL sends one scaled element to
! every rank, MPI_ALLREDUCE with MPI_MAXLOC on MPI_2DOUBLE_PRECISION pairs (value, global
! index as a real) finds the peak everywhere, and an inclusive MPI_SCAN of every rank's
! energy feeds the loss. The gathered gradient is compared with the serial program's
! (checked against central finite differences), and forward mode against the serial
! gradient.
module m32mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nl = 4
contains
  subroutine chain(x, f)
    real(8), intent(in) :: x(nl)
    real(8), intent(out) :: f
    real(8) :: y(nl), s(0:7), r(0:7), mine, off, pair(2), piv(2), e, run, part
    integer :: rank, nproc, ierr, i, q, first
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    first = 0
    call mpi_exscan(nl, first, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0) first = 0
    mine = sum(x)
    off = 0
    call mpi_exscan(mine, off, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0) off = 0
    y = x + off
    do q = 0, nproc - 1
      s(q) = y(mod(q, nl) + 1) * (1 + 0.1d0 * q)
    end do
    call mpi_alltoall(s, 1, MPI_DOUBLE_PRECISION, r, 1, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
    pair = [-1d300, -1d0]
    do i = 1, nl
      if (sin(y(i)) > pair(1)) pair = [sin(y(i)), dble(first + i)]
    end do
    call mpi_allreduce(pair, piv, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
    e = 0.1d0 * (rank + 1) * sum(r(0:nproc - 1)**2) + sum(cos(y))
    if (rank == 0) e = e + piv(1) * (1 + 0.01d0 * piv(2))
    call mpi_scan(e, run, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    part = 0.01d0 * run**2
    call mpi_allreduce(part, f, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end subroutine chain

  real(8) function serial(p, x)
    integer, intent(in) :: p
    real(8), intent(in) :: x(p * nl)
    real(8) :: y(p * nl), pv, pi, e, run
    integer :: i, k, me, src
    do k = 0, p - 1
      y(k * nl + 1:k * nl + nl) = x(k * nl + 1:k * nl + nl) + sum(x(1:k * nl))
    end do
    pv = -1d300
    pi = -1
    do i = 1, p * nl
      if (sin(y(i)) > pv) then
        pv = sin(y(i))
        pi = i
      end if
    end do
    serial = 0
    run = 0
    do me = 0, p - 1
      e = sum(cos(y(me * nl + 1:me * nl + nl)))
      do src = 0, p - 1
        e = e + 0.1d0 * (me + 1) * (y(src * nl + mod(me, nl) + 1) * (1 + 0.1d0 * me))**2
      end do
      if (me == 0) e = e + pv * (1 + 0.01d0 * pi)
      run = run + e
      serial = serial + 0.01d0 * run**2
    end do
  end function serial
end module m32mpi

program p32mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m32mpi
  implicit none
  real(8), allocatable :: xall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nl), dx(nl), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, m
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  m = nproc * nl
  allocate (xall(m), gall(m), gs(m), gfd(m), vall(m))
  seed = 32
  call fill(xall, -1d0, 1d0, seed)
  x = xall(rank * nl + 1:rank * nl + nl)
  dx = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(chain, enzyme_dup, x, dx, enzyme_dup, f, df)
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
  call __enzyme_fwddiff_sub(chain, enzyme_dup, xall(rank * nl + 1:rank * nl + nl), x, &
                            enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, sum(gs * vall), 1d-12)
  call fz_mpi_report()
end program p32mpi
