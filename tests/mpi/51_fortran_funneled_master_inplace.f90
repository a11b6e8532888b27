! MPI: 2 4
! OMP_THREADS: 2
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! Hybrid MPI + OpenMP in Fortran with MPI_THREAD_FUNNELED, as cluster codes started from
! `mpi_init_thread` write it: one `!$omp parallel` region per time step in which only
! the master thread exchanges the ghost cells (`!$omp master` around MPI_SENDRECV, then
! `!$omp barrier`), the team updates the block with an orphaned `!$omp do`, and the
! loss's parts are summed with `!$omp parallel do reduction(+:e)` and then across ranks
! with MPI_ALLREDUCE(MPI_IN_PLACE, e, ...). The program asks for 2 threads with
! omp_set_num_threads on every rank. The gathered gradient is compared with the serial
! program's (checked against central finite differences); forward mode against the
! serial gradient.
module m51mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 8, nsteps = 2
contains
  subroutine energy(x, f)
    real(8), intent(in) :: x(nloc)
    real(8), intent(out) :: f
    real(8) :: u(0:nloc + 1), un(nloc), e
    integer :: rank, nproc, left, right, ierr, s, i
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    right = mod(rank + 1, nproc)
    left = mod(rank + nproc - 1, nproc)
    u = 0
    u(1:nloc) = x
    do s = 1, nsteps
      !$omp parallel
      !$omp master
      call mpi_sendrecv(u(nloc), 1, MPI_DOUBLE_PRECISION, right, 1, u(0), 1, &
                        MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call mpi_sendrecv(u(1), 1, MPI_DOUBLE_PRECISION, left, 2, u(nloc + 1), 1, &
                        MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      !$omp end master
      !$omp barrier
      !$omp do
      do i = 1, nloc
        un(i) = u(i) + 0.2d0 * (u(i - 1) - 2 * u(i) + u(i + 1)) - 0.05d0 * u(i)**3
      end do
      !$omp end do
      !$omp end parallel
      u(1:nloc) = un
    end do
    e = 0
    !$omp parallel do reduction(+:e)
    do i = 1, nloc
      e = e + exp(0.5d0 * u(i)) * u(i)
    end do
    !$omp end parallel do
    call mpi_allreduce(MPI_IN_PLACE, e, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    f = e
  end subroutine energy

  real(8) function serial(m, x)
    integer, intent(in) :: m
    real(8), intent(in) :: x(m)
    real(8) :: u(m), un(m)
    integer :: s, i
    u = x
    do s = 1, nsteps
      do i = 1, m
        un(i) = u(i) + 0.2d0 * (u(modulo(i - 2, m) + 1) - 2 * u(i) + u(modulo(i, m) + 1)) &
                - 0.05d0 * u(i)**3
      end do
      u = un
    end do
    serial = 0
    do i = 1, m
      serial = serial + exp(0.5d0 * u(i)) * u(i)
    end do
  end function serial
end module m51mpi

program p51mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m51mpi
  use omp_lib, only: omp_set_num_threads
  implicit none
  real(8), allocatable :: xall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nloc), dx(nloc), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, n, provided
  call mpi_init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call omp_set_num_threads(2)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nproc * nloc
  allocate (xall(n), gall(n), gs(n), gfd(n), vall(n))
  seed = 51
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
end program p51mpi
