! MPI: 2 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! Fortran persistent halo requests (mpif.h bindings), the Fortran twin of mpi/57: the
! 1-D heat equation with MPI_RECV_INIT/MPI_SEND_INIT set up once before the time loop,
! MPI_STARTALL + MPI_WAITALL every step, then one more persistent pair (MPI_SSEND_INIT
! among them) started with MPI_START and completed with MPI_WAIT in the opposite order,
! and MPI_REQUEST_FREE of all six. These bindings used to be refused (persistent
! requests only from C). Only rank 0 seeds the energy, so the gathered gradient equals
! the serial program's (checked against central finite differences); forward mode
! against the serial gradient.
module m64mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 6, nsteps = 5
  real(8), parameter :: kap = 0.15d0, beta = 0.03d0
contains
  subroutine energy(x, f)
    real(8), intent(in) :: x(nloc)
    real(8), intent(out) :: f
    real(8) :: u(0:nloc + 1), un(nloc), e
    integer :: rank, nproc, left, right, ierr, s, i, req(4), last(2)
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    right = mod(rank + 1, nproc)
    left = mod(rank + nproc - 1, nproc)
    u = 0
    u(1:nloc) = x
    call mpi_recv_init(u(0), 1, MPI_DOUBLE_PRECISION, left, 10, MPI_COMM_WORLD, req(1), ierr)
    call mpi_recv_init(u(nloc + 1), 1, MPI_DOUBLE_PRECISION, right, 11, MPI_COMM_WORLD, &
                       req(2), ierr)
    call mpi_send_init(u(nloc), 1, MPI_DOUBLE_PRECISION, right, 10, MPI_COMM_WORLD, req(3), ierr)
    call mpi_send_init(u(1), 1, MPI_DOUBLE_PRECISION, left, 11, MPI_COMM_WORLD, req(4), ierr)
    call mpi_recv_init(u(0), 1, MPI_DOUBLE_PRECISION, left, 12, MPI_COMM_WORLD, last(1), ierr)
    call mpi_ssend_init(u(nloc), 1, MPI_DOUBLE_PRECISION, right, 12, MPI_COMM_WORLD, &
                        last(2), ierr)
    do s = 1, nsteps
      call mpi_startall(4, req, ierr)
      call mpi_waitall(4, req, MPI_STATUSES_IGNORE, ierr)
      do i = 1, nloc
        un(i) = u(i) + kap * (u(i - 1) - 2 * u(i) + u(i + 1)) + beta * u(i)**2
      end do
      u(1:nloc) = un
    end do
    call mpi_start(last(1), ierr)
    call mpi_start(last(2), ierr)
    call mpi_wait(last(2), MPI_STATUS_IGNORE, ierr)
    call mpi_wait(last(1), MPI_STATUS_IGNORE, ierr)
    do i = 1, 4
      call mpi_request_free(req(i), ierr)
    end do
    call mpi_request_free(last(1), ierr)
    call mpi_request_free(last(2), ierr)
    e = u(0) * u(1)
    do i = 1, nloc
      e = e + u(i)**2 * (1 + 0.01d0 * i)
    end do
    call mpi_allreduce(e, f, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end subroutine energy

  real(8) function serial(m, x)
    integer, intent(in) :: m
    real(8), intent(in) :: x(m)
    real(8) :: u(m), un(m)
    integer :: s, i, b
    u = x
    do s = 1, nsteps
      do i = 1, m
        un(i) = u(i) + kap * (u(modulo(i - 2, m) + 1) - 2 * u(i) + u(modulo(i, m) + 1)) &
                + beta * u(i)**2
      end do
      u = un
    end do
    serial = 0
    do i = 1, m
      serial = serial + u(i)**2 * (1 + 0.01d0 * (mod(i - 1, nloc) + 1))
    end do
    ! every block's first entry times its left neighbour's last (the last exchange)
    do b = 1, m, nloc
      serial = serial + u(modulo(b - 2, m) + 1) * u(b)
    end do
  end function serial
end module m64mpi

program p64mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m64mpi
  implicit none
  real(8), allocatable :: xall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nloc), dx(nloc), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nproc * nloc
  allocate (xall(n), gall(n), gs(n), gfd(n), vall(n))
  seed = 64
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
end program p64mpi
