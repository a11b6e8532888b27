! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! Irregular distributions in Fortran (mpif.h bindings), as load-balanced codes write
! them: rank 0 scatters a vector of 11 unevenly with MPI_SCATTERV (counts and
! displacements computed on every rank), each rank transforms its block, the blocks come
! back to everyone with MPI_ALLGATHERV, a weighted block goes to rank 0 with MPI_GATHERV,
! and a ring shift of each rank's first value uses MPI_SENDRECV_REPLACE. These Fortran
! bindings used to be a missing-derivative error (only their C routines were
! differentiated). The loss (rank 0) is differentiated with respect to rank 0's vector;
! the gradient is compared with the serial program's (checked against central finite
! differences), and forward mode against the serial gradient.
module m24mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: n = 11
contains
  subroutine layout(nproc, counts, displs)
    integer, intent(in) :: nproc
    integer, intent(out) :: counts(nproc), displs(nproc)
    integer :: r
    do r = 1, nproc
      counts(r) = n / nproc
      if (r <= mod(n, nproc)) counts(r) = counts(r) + 1
    end do
    displs(1) = 0
    do r = 2, nproc
      displs(r) = displs(r - 1) + counts(r - 1)
    end do
  end subroutine layout

  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8) :: mine(n), all(n), back(n), first
    integer :: counts(8), displs(8), rank, nproc, ierr, m, left, right, i
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    call layout(nproc, counts, displs)
    m = counts(rank + 1)
    call mpi_scatterv(x, counts, displs, MPI_DOUBLE_PRECISION, mine, m, &
                      MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    do i = 1, m
      mine(i) = sin(mine(i)) * (1 + 0.1d0 * rank)
    end do
    call mpi_allgatherv(mine, m, MPI_DOUBLE_PRECISION, all, counts, displs, &
                        MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
    do i = 1, m
      mine(i) = mine(i) * all(n + 1 - (displs(rank + 1) + i))
    end do
    back = 0
    call mpi_gatherv(mine, m, MPI_DOUBLE_PRECISION, back, counts, displs, &
                     MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    first = mine(1)
    right = mod(rank + 1, nproc)
    left = mod(rank + nproc - 1, nproc)
    call mpi_sendrecv_replace(first, 1, MPI_DOUBLE_PRECISION, right, 4, left, 4, &
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    ! rank 0 now holds the first value of the last rank's block
    f = 0
    if (rank == 0) f = sum(back**2) + 3 * first
  end subroutine loss

  real(8) function serial(x, nproc)
    real(8), intent(in) :: x(n)
    integer, intent(in) :: nproc
    real(8) :: a(n), b(n)
    integer :: counts(8), displs(8), r, i
    call layout(nproc, counts, displs)
    do r = 1, nproc
      do i = displs(r) + 1, displs(r) + counts(r)
        a(i) = sin(x(i)) * (1 + 0.1d0 * (r - 1))
      end do
    end do
    do i = 1, n
      b(i) = a(i) * a(n + 1 - i)
    end do
    serial = sum(b**2) + 3 * b(displs(nproc) + 1)
  end function serial
end module m24mpi

program p24mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m24mpi
  implicit none
  real(8) :: x(n), dx(n), gs(n), gfd(n), v(n), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  seed = 24
  call fill(x, -1d0, 1d0, seed)
  dx = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  gs = 0
  call __enzyme_autodiff(serial, enzyme_dup, x, gs, enzyme_const, nproc)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; fp = serial(x, nproc)
    x(i) = t - h; fm = serial(x, nproc)
    x(i) = t; gfd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('serial vs fd', gs, gfd, 1d-6)
  if (rank == 0) then
    call check('loss vs serial', f, serial(x, nproc), 1d-12)
    call check_arr('rank 0 gradient vs serial', dx, gs, 1d-12)
  end if
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, v, enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, dot_product(gs, v), 1d-12)
  call fz_mpi_report()
end program p24mpi
