! MPI: 2 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! An MPI program written in Fortran with the `mpif.h` bindings (Open MPI's `use mpi` and
! `use mpi_f08` modules are built by gfortran and cannot be read by flang; `mpif.h` is
! the interface every Fortran compiler reads): a periodic 1-D chain split over the
! ranks, halos exchanged with MPI_SENDRECV, the energies summed with MPI_ALLREDUCE
! (MPI_DOUBLE_PRECISION, MPI_SUM) and the largest local value found with MPI_ALLREDUCE
! (MPI_MAX), and an integer setting broadcast with MPI_BCAST (MPI_INTEGER). Rank 0 seeds
! the total; the gradient gathered with MPI_GATHER (outside the differentiated call) is
! compared with the serial program's gradient (differentiated too) and the serial
! gradient with central finite differences; forward mode (the tangents
! travel with MPI_SENDRECV and MPI_ALLREDUCE too) against the serial gradient.
module m12
  implicit none
  ! mpif.h less mpif-sizeof.h (generated for gfortran: flang-22 rejects its REAL128).
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 5
contains
  subroutine energy(u, e)
    real(8), intent(in) :: u(nloc)
    real(8), intent(out) :: e
    real(8) :: w(0:nloc + 1), local, big, mine
    integer :: rank, nproc, left, right, ierr, i, sweeps
    integer :: status(MPI_STATUS_SIZE)
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    left = mod(rank + nproc - 1, nproc)
    right = mod(rank + 1, nproc)
    ! an integer setting broadcast from rank 0 (MPI_INTEGER: no derivative travels)
    sweeps = 0
    if (rank == 0) sweeps = 1
    call mpi_bcast(sweeps, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    w(1:nloc) = u * sweeps
    call mpi_sendrecv(w(nloc), 1, MPI_DOUBLE_PRECISION, right, 1, w(0), 1, &
                      MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, status, ierr)
    call mpi_sendrecv(w(1), 1, MPI_DOUBLE_PRECISION, left, 2, w(nloc + 1), 1, &
                      MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    local = 0
    do i = 1, nloc
      local = local + (w(i + 1) - w(i))**2 + 0.1d0 * w(i)**2 * w(i - 1)
    end do
    mine = maxval(u)
    call mpi_allreduce(local, e, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call mpi_allreduce(mine, big, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    e = e + 0.5d0 * big**2
  end subroutine energy

  real(8) function serial(n, u)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    integer :: i
    serial = 0
    do i = 1, n
      serial = serial + (u(mod(i, n) + 1) - u(i))**2 + 0.1d0 * u(i)**2 * u(mod(i + n - 2, n) + 1)
    end do
    serial = serial + 0.5d0 * maxval(u)**2
  end function serial
end module m12

program p12
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m12
  implicit none
  real(8), allocatable :: uall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: u(nloc), du(nloc), e, de, t, h, ep, em, te
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nproc * nloc
  allocate (uall(n), gall(n), gs(n), gfd(n), vall(n))
  seed = 12
  call fill(uall, -1d0, 1d0, seed)
  u = uall(rank * nloc + 1:rank * nloc + nloc)
  du = 0
  de = 0
  if (rank == 0) de = 1
  call __enzyme_autodiff(energy, enzyme_dup, u, du, enzyme_dup, e, de)
  call mpi_gather(du, nloc, MPI_DOUBLE_PRECISION, gall, nloc, MPI_DOUBLE_PRECISION, 0, &
                  MPI_COMM_WORLD, ierr)
  ! Every rank: the total against the serial program, the serial gradient against
  ! finite differences; rank 0: the gathered gradient against the serial one.
  gs = 0
  call check('energy vs serial', e, serial(n, uall), 1d-12)
  call __enzyme_autodiff(serial, enzyme_const, n, enzyme_dup, uall, gs)
  do i = 1, n
    t = uall(i); h = fd_step(t)
    uall(i) = t + h; ep = serial(n, uall)
    uall(i) = t - h; em = serial(n, uall)
    uall(i) = t; gfd(i) = (ep - em) / (2 * h)
  end do
  call check_arr('serial vs fd', gs, gfd, 1d-6)
  if (rank == 0) call check_arr('gathered vs serial', gall, gs, 1d-12)
  ! Forward mode: every rank's tangent of the total along v is <serial gradient, v>.
  call fill(vall, -1d0, 1d0, seed)
  te = 0
  call __enzyme_fwddiff_sub(energy, enzyme_dup, u, vall(rank * nloc + 1:rank * nloc + nloc), &
                            enzyme_dup, e, te)
  call check('forward tangent vs serial gradient . v', te, dot_product(gs, vall), 1d-12)
  call fz_mpi_report()
end program p12
