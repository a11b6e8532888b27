! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! The chain of tests/mpi/58 from Fortran (mpif.h bindings): MPI_ALLTOALL of one product
! per destination, MPI_ALLGATHERV with r + 1 values from rank r (counts and
! displacements differ per rank), an inclusive MPI_SCAN of an active squared total and
! MPI_REDUCE_SCATTER with one entry per rank, each feeding the next. The gathered
! gradient is compared with the serial program's (checked against central finite
! differences) to 1e-12, forward mode against the serial gradient.
module m59mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nl = 4, pmax = 4, tmax = pmax * (pmax + 1) / 2
contains
  subroutine chain(x, f)
    real(8), intent(in) :: x(nl)
    real(8), intent(out) :: f
    real(8) :: snd(pmax), rcv(pmax), y(pmax), all(tmax), c(pmax), a, s, rs, loss
    integer :: counts(pmax), displs(pmax), ones(pmax), rank, nproc, ierr, j, k, d
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    do j = 1, nproc
      snd(j) = x(j) * x(mod(j, nl) + 1)
    end do
    call mpi_alltoall(snd, 1, MPI_DOUBLE_PRECISION, rcv, 1, MPI_DOUBLE_PRECISION, &
                      MPI_COMM_WORLD, ierr)
    d = 0
    do j = 1, nproc
      counts(j) = j
      displs(j) = d
      d = d + j
      ones(j) = 1
    end do
    do k = 1, rank + 1
      y(k) = x(k) + rcv(mod(k - 1, nproc) + 1)
    end do
    call mpi_allgatherv(y, rank + 1, MPI_DOUBLE_PRECISION, all, counts, displs, &
                        MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
    a = sum(rcv(1:nproc))**2
    call mpi_scan(a, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    do j = 1, nproc
      c(j) = x(mod(j - 1, nl) + 1) * all(j)
    end do
    call mpi_reduce_scatter(c, rs, ones, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    loss = s * x(1) + rs**2
    if (rank == 0) then
      do k = 1, d
        loss = loss + all(k)**2 * (1 + 0.1d0 * (k - 1))
      end do
    end if
    call mpi_allreduce(loss, f, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end subroutine chain

  real(8) function serial(p, x)
    integer, intent(in) :: p
    real(8), intent(in) :: x(nl, p)
    real(8) :: rcv(pmax, pmax), all(tmax), a(pmax), s, rs
    integer :: m, j, r, k, t, q
    do m = 1, p
      do j = 1, p
        rcv(j, m) = x(m, j) * x(mod(m, nl) + 1, j)
      end do
    end do
    t = 0
    do r = 1, p
      do k = 1, r
        t = t + 1
        all(t) = x(k, r) + rcv(mod(k - 1, p) + 1, r)
      end do
      a(r) = sum(rcv(1:p, r))**2
    end do
    serial = 0
    s = 0
    do r = 1, p
      s = s + a(r)
      rs = 0
      do q = 1, p
        rs = rs + x(mod(r - 1, nl) + 1, q) * all(r)
      end do
      serial = serial + s * x(1, r) + rs**2
    end do
    do k = 1, t
      serial = serial + all(k)**2 * (1 + 0.1d0 * (k - 1))
    end do
  end function serial
end module m59mpi

program p59mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m59mpi
  implicit none
  real(8), allocatable :: xall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nl), dx(nl), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, m
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  m = nproc * nl
  allocate (xall(m), gall(m), gs(m), gfd(m), vall(m))
  seed = 59
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
end program p59mpi
