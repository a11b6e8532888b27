! MPI: 2 3
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! A Fortran 2-D diffusion u(0:nx+1, ny), column-major, split over the first index (rows
! of the grid), as Fortran stencil codes often do: the halo rows u(0, :) and u(nx+1, :)
! are strided by nx+2, so they are exchanged with a derived datatype made once in the
! main program (MPI_TYPE_VECTOR(ny, 1, nx+2, MPI_DOUBLE_PRECISION) + MPI_TYPE_COMMIT,
! kept in a module variable) through MPI_SENDRECV (mpif.h bindings), MPI_PROC_NULL
! beyond the end ranks; the energy is summed with MPI_ALLREDUCE. The gathered gradient is
! compared with the serial program's (checked against central finite differences), and
! forward mode against the serial gradient.
module m21mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nx = 3, ny = 4, nsteps = 3
  integer :: rowtype
contains
  subroutine relax(u, m)
    integer, intent(in) :: m
    real(8), intent(inout) :: u(0:m + 1, 0:ny + 1)
    real(8) :: nw(m, ny)
    integer :: i, j
    do j = 1, ny
      do i = 1, m
        nw(i, j) = u(i, j) + 0.1d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) &
                   - 4 * u(i, j)) + 0.03d0 * u(i, j)**2
      end do
    end do
    u(1:m, 1:ny) = nw
  end subroutine relax

  subroutine energy(x, f)
    real(8), intent(in) :: x(nx, ny)
    real(8), intent(out) :: f
    real(8) :: u(0:nx + 1, 0:ny + 1), e
    integer :: rank, nproc, up, down, ierr, s, j
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    up = rank + 1
    if (up == nproc) up = MPI_PROC_NULL
    down = rank - 1
    if (rank == 0) down = MPI_PROC_NULL
    u = 0
    u(1:nx, 1:ny) = x
    do s = 1, nsteps
      call mpi_sendrecv(u(nx, 1), 1, rowtype, up, 1, u(0, 1), 1, rowtype, down, 1, &
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call mpi_sendrecv(u(1, 1), 1, rowtype, down, 2, u(nx + 1, 1), 1, rowtype, up, 2, &
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call relax(u, nx)
    end do
    e = 0
    do j = 1, ny
      e = e + sum(cos(u(1:nx, j))) * (1 + 0.1d0 * j)
    end do
    call mpi_allreduce(e, f, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end subroutine energy

  real(8) function serial(m, x)
    integer, intent(in) :: m
    real(8), intent(in) :: x(m, ny)
    real(8) :: u(0:m + 1, 0:ny + 1)
    integer :: s, j
    u = 0
    u(1:m, 1:ny) = x
    do s = 1, nsteps
      call relax(u, m)
    end do
    serial = 0
    do j = 1, ny
      serial = serial + sum(cos(u(1:m, j))) * (1 + 0.1d0 * j)
    end do
  end function serial
end module m21mpi

program p21mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m21mpi
  implicit none
  real(8), allocatable :: xall(:, :), gall(:, :), gs(:, :), gfd(:, :), vall(:, :), blk(:, :, :), flat(:)
  real(8) :: x(nx, ny), dx(nx, ny), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, j, m, r
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  call mpi_type_vector(ny, 1, nx + 2, MPI_DOUBLE_PRECISION, rowtype, ierr)
  call mpi_type_commit(rowtype, ierr)
  m = nproc * nx
  allocate (xall(m, ny), gall(m, ny), gs(m, ny), gfd(m, ny), vall(m, ny), blk(nx, ny, nproc))
  allocate (flat(m * ny))
  seed = 21
  call fill(flat, -1d0, 1d0, seed)
  xall = reshape(flat, [m, ny])
  x = xall(rank * nx + 1:rank * nx + nx, :)
  dx = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(energy, enzyme_dup, x, dx, enzyme_dup, f, df)
  call mpi_gather(dx, nx * ny, MPI_DOUBLE_PRECISION, blk, nx * ny, MPI_DOUBLE_PRECISION, 0, &
                  MPI_COMM_WORLD, ierr)
  do r = 1, nproc
    gall((r - 1) * nx + 1:r * nx, :) = blk(:, :, r)
  end do
  gs = 0
  call __enzyme_autodiff(serial, enzyme_const, m, enzyme_dup, xall, gs)
  do j = 1, ny
    do i = 1, m
      t = xall(i, j); h = fd_step(t)
      xall(i, j) = t + h; fp = serial(m, xall)
      xall(i, j) = t - h; fm = serial(m, xall)
      xall(i, j) = t; gfd(i, j) = (fp - fm) / (2 * h)
    end do
  end do
  call check_arr('serial vs fd', reshape(gs, [m * ny]), reshape(gfd, [m * ny]), 1d-6)
  if (rank == 0) then
    call check('energy vs serial', f, serial(m, xall), 1d-12)
    call check_arr('gathered vs serial', reshape(gall, [m * ny]), reshape(gs, [m * ny]), 1d-12)
  end if
  call fill(flat, -1d0, 1d0, seed)
  vall = reshape(flat, [m, ny])
  tf = 0
  x = vall(rank * nx + 1:rank * nx + nx, :)
  call __enzyme_fwddiff_sub(energy, enzyme_dup, xall(rank * nx + 1:rank * nx + nx, :), x, &
                            enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, sum(gs * vall), 1d-12)
  call mpi_type_free(rowtype, ierr)
  call fz_mpi_report()
end program p21mpi
