! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! A Fortran field x(nx, ny) per rank (column-major, the ranks stacked along the first
! index): a grid row x(i, :) is strided by nx, so it is communicated as one item of
! MPI_TYPE_VECTOR(ny, 1, nx, MPI_DOUBLE_PRECISION) (mpif.h bindings). Every rank gathers
! the first row of every block with MPI_ALLGATHER (a derived send type into contiguous
! doubles) and rank 0 gathers the last rows with MPI_GATHER; the energy is summed with
! MPI_ALLREDUCE. Before hpc17 the Gather stopped the program (derived datatypes were only
! differentiated in point-to-point calls and MPI_Bcast), and the Allgather's adjoint was
! added to the send buffer as if it were contiguous: a silently wrong gradient (seen in a
! C probe with the Allgather alone: the adjoint of x(1, 1..ny) landed on x(1..ny)). The gathered gradient is compared with the serial program's (checked
! against central finite differences), and forward mode against the serial gradient.
module m26mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nx = 3, ny = 4
  integer :: rowtype
contains
  real(8) function weight(j, r)
    integer, intent(in) :: j, r
    weight = 1 + 0.1d0 * j + 0.01d0 * r
  end function weight

  subroutine energy(x, f)
    real(8), intent(in) :: x(nx, ny)
    real(8), intent(out) :: f
    real(8) :: rows(ny, 0:7), last(ny, 0:7), e
    integer :: rank, nproc, ierr, j, r
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    call mpi_allgather(x(1, 1), 1, rowtype, rows, ny, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
    call mpi_gather(x(nx, 1), 1, rowtype, last, ny, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    e = sum(sin(x)**2)
    do r = 0, nproc - 1
      do j = 1, ny
        e = e + (rank + 1) * rows(j, r)**2 * weight(j, r)
        if (rank == 0) e = e + cos(last(j, r)) * last(j, r)
      end do
    end do
    call mpi_allreduce(e, f, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end subroutine energy

  real(8) function serial(p, x)
    integer, intent(in) :: p
    real(8), intent(in) :: x(p * nx, ny)
    integer :: j, r
    serial = sum(sin(x)**2)
    do r = 0, p - 1
      do j = 1, ny
        serial = serial + p * (p + 1) / 2 * x(r * nx + 1, j)**2 * weight(j, r) &
                 + cos(x(r * nx + nx, j)) * x(r * nx + nx, j)
      end do
    end do
  end function serial
end module m26mpi

program p26mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m26mpi
  implicit none
  real(8), allocatable :: xall(:, :), gall(:, :), gs(:, :), gfd(:, :), vall(:, :), blk(:, :, :), flat(:)
  real(8) :: x(nx, ny), dx(nx, ny), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, j, m, r
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  call mpi_type_vector(ny, 1, nx, MPI_DOUBLE_PRECISION, rowtype, ierr)
  call mpi_type_commit(rowtype, ierr)
  m = nproc * nx
  allocate (xall(m, ny), gall(m, ny), gs(m, ny), gfd(m, ny), vall(m, ny), blk(nx, ny, nproc))
  allocate (flat(m * ny))
  seed = 26
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
  call __enzyme_autodiff(serial, enzyme_const, nproc, enzyme_dup, xall, gs)
  do j = 1, ny
    do i = 1, m
      t = xall(i, j); h = fd_step(t)
      xall(i, j) = t + h; fp = serial(nproc, xall)
      xall(i, j) = t - h; fm = serial(nproc, xall)
      xall(i, j) = t; gfd(i, j) = (fp - fm) / (2 * h)
    end do
  end do
  call check_arr('serial vs fd', reshape(gs, [m * ny]), reshape(gfd, [m * ny]), 1d-6)
  if (rank == 0) then
    call check('energy vs serial', f, serial(nproc, xall), 1d-12)
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
end program p26mpi
