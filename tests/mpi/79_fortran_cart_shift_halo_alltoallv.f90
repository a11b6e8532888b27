! MPI: 2 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! A periodic process ring from Fortran (mpif.h; hpc37): MPI_DIMS_CREATE and
! MPI_CART_CREATE in the main program, MPI_CART_SHIFT inside the differentiated routine
! (the communicator passed as enzyme_const), a ghost exchange with MPI_SENDRECV both
! ways, then MPI_ALLTOALLV where rank r receives mod(r, 2) + 1 values from every rank
! (send and receive counts and displacements differ per rank), and MPI_ALLREDUCE of the
! loss. The gathered gradient is compared with the serial program's (checked against
! central finite differences) to 1e-12, forward mode against the serial gradient.
module m79mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nl = 4, pmax = 4
contains
  subroutine chain(x, f, cart)
    real(8), intent(in) :: x(nl)
    real(8), intent(out) :: f
    integer, intent(in) :: cart
    real(8) :: u(0:nl + 1), y(nl), snd(2 * pmax), rcv(2 * pmax), loss
    integer :: scounts(pmax), sdispls(pmax), rcounts(pmax), rdispls(pmax)
    integer :: rank, nproc, ierr, left, right, q, j, d, status(MPI_STATUS_SIZE)
    call mpi_comm_rank(cart, rank, ierr)
    call mpi_comm_size(cart, nproc, ierr)
    call mpi_cart_shift(cart, 0, 1, left, right, ierr)
    u(1:nl) = x
    call mpi_sendrecv(u(nl), 1, MPI_DOUBLE_PRECISION, right, 5, u(0), 1, &
                      MPI_DOUBLE_PRECISION, left, 5, cart, status, ierr)
    call mpi_sendrecv(u(1), 1, MPI_DOUBLE_PRECISION, left, 6, u(nl + 1), 1, &
                      MPI_DOUBLE_PRECISION, right, 6, cart, status, ierr)
    do j = 1, nl
      y(j) = u(j - 1) * u(j + 1) + sin(u(j))
    end do
    d = 0
    do q = 1, nproc
      scounts(q) = mod(q - 1, 2) + 1
      sdispls(q) = d
      snd(d + 1:d + scounts(q)) = y(1:scounts(q)) * q
      d = d + scounts(q)
      rcounts(q) = mod(rank, 2) + 1
      rdispls(q) = (q - 1) * rcounts(q)
    end do
    call mpi_alltoallv(snd, scounts, sdispls, MPI_DOUBLE_PRECISION, rcv, rcounts, rdispls, &
                       MPI_DOUBLE_PRECISION, cart, ierr)
    loss = sum(rcv(1:nproc * rcounts(1)) ** 2) + 0.1d0 * sum(y)
    call mpi_allreduce(loss, f, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart, ierr)
  end subroutine chain

  real(8) function serial(p, x)
    integer, intent(in) :: p
    real(8), intent(in) :: x(nl * p)
    real(8) :: y(nl, pmax)
    integer :: n, r, q, j, g, c
    n = nl * p
    do r = 1, p
      do j = 1, nl
        g = (r - 1) * nl + j
        y(j, r) = x(modulo(g - 2, n) + 1) * x(modulo(g, n) + 1) + sin(x(g))
      end do
    end do
    serial = 0
    do r = 1, p
      c = mod(r - 1, 2) + 1
      do q = 1, p
        do j = 1, c
          serial = serial + (y(j, q) * r) ** 2
        end do
      end do
      serial = serial + 0.1d0 * sum(y(:, r))
    end do
  end function serial
end module m79mpi

program p79mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m79mpi
  implicit none
  real(8), allocatable :: xall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nl), dx(nl), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, m, cart, dims(1)
  logical :: periods(1)
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  dims = 0
  call mpi_dims_create(nproc, 1, dims, ierr)
  periods = .true.
  call mpi_cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  m = nproc * nl
  allocate (xall(m), gall(m), gs(m), gfd(m), vall(m))
  seed = 79
  call fill(xall, -1d0, 1d0, seed)
  x = xall(rank * nl + 1:rank * nl + nl)
  dx = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(chain, enzyme_dup, x, dx, enzyme_dup, f, df, enzyme_const, cart)
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
                            enzyme_dup, f, tf, enzyme_const, cart)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, sum(gs * vall), 1d-12)
  call mpi_comm_free(cart, ierr)
  call fz_mpi_report()
end program p79mpi
