! MPI: 2 3
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! A distributed Rayleigh-quotient-like objective in Fortran with the mpif.h bindings, as
! eigen-solvers write it: the global 2-norm of a distributed vector (MPI_ALLREDUCE of
! the local sum of squares, then SQRT on every rank), the normalised vector's
! non-periodic chain energy with halos from MPI_SENDRECV (MPI_PROC_NULL beyond the end
! ranks), two partial sums reduced to rank 0 with one array MPI_REDUCE, and the global
! maximum of the normalised values (MPI_ALLREDUCE with MPI_MAX: the derivative goes to
! the rank that holds it). Rank 0 seeds the objective; the gathered gradient is compared
! with the serial program's (checked against central finite differences), and forward
! mode against the serial gradient.
module m19mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 4
contains
  subroutine objective(x, f)
    real(8), intent(in) :: x(nloc)
    real(8), intent(out) :: f
    real(8) :: y(0:nloc + 1), part(2), tot(2), ss, nrm, big, mine
    integer :: rank, nproc, up, down, ierr, i
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    up = rank + 1
    if (up == nproc) up = MPI_PROC_NULL
    down = rank - 1
    if (rank == 0) down = MPI_PROC_NULL
    ss = sum(x**2)
    call mpi_allreduce(ss, nrm, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    nrm = sqrt(nrm)
    y = 0
    y(1:nloc) = x / nrm
    call mpi_sendrecv(y(nloc), 1, MPI_DOUBLE_PRECISION, up, 3, y(0), 1, &
                      MPI_DOUBLE_PRECISION, down, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    part = 0
    do i = 1, nloc
      if (rank > 0 .or. i > 1) part(1) = part(1) + (y(i) - y(i - 1))**2
      part(2) = part(2) + y(i)**3
    end do
    tot = 0
    call mpi_reduce(part, tot, 2, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    mine = maxval(y(1:nloc))
    call mpi_allreduce(mine, big, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    f = tot(1) + 0.3d0 * tot(2) + 2 * big
  end subroutine objective

  real(8) function serial(n, x)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8) :: y(n)
    integer :: i
    y = x / sqrt(sum(x**2))
    serial = 0
    do i = 2, n
      serial = serial + (y(i) - y(i - 1))**2
    end do
    serial = serial + 0.3d0 * sum(y**3) + 2 * maxval(y)
  end function serial
end module m19mpi

program p19mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m19mpi
  implicit none
  real(8), allocatable :: xall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nloc), dx(nloc), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nproc * nloc
  allocate (xall(n), gall(n), gs(n), gfd(n), vall(n))
  seed = 19
  call fill(xall, -1d0, 1d0, seed)
  x = xall(rank * nloc + 1:rank * nloc + nloc)
  dx = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(objective, enzyme_dup, x, dx, enzyme_dup, f, df)
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
    call check('objective vs serial', f, serial(n, xall), 1d-12)
    call check_arr('gathered vs serial', gall, gs, 1d-12)
  end if
  call fill(vall, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(objective, enzyme_dup, x, vall(rank * nloc + 1:rank * nloc + nloc), &
                            enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, dot_product(gs, vall), 1d-12)
  call fz_mpi_report()
end program p19mpi
