! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! A Fortran (mpif.h) program in the style of a parallel particle/field code: the
! vector's global norm by MPI_ALLREDUCE with MPI_IN_PLACE, a ring shift of a work array
! with MPI_SENDRECV_REPLACE (periodic neighbours), even and odd ranks grouped by
! MPI_COMM_SPLIT with an MPI_REDUCE(MPI_SUM) to each group's root and an MPI_BCAST back
! in the group, the loss MPI_ALLREDUCE'd in place on MPI_COMM_WORLD and seeded on rank 0
! only; the sub-communicator is freed inside. Every rank's gradient against
! distributed central differences (each rank perturbs its entries in turn); forward
! mode against the allreduced dot product of the reverse gradient.
module ring90
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nl = 4
contains
  subroutine loss(x, f)
    real(8), intent(in) :: x(nl)
    real(8), intent(out) :: f
    real(8) :: nrm(1), work(nl), grp(nl), gsum(nl), part(1)
    integer :: rank, np, next, prev, ierr, st(MPI_STATUS_SIZE), sub, srank
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
    next = mod(rank + 1, np)
    prev = mod(rank + np - 1, np)
    nrm(1) = sum(x**2)
    call MPI_ALLREDUCE(MPI_IN_PLACE, nrm, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    work = x / sqrt(nrm(1)) + 0.1d0 * x**3
    call MPI_SENDRECV_REPLACE(work, nl, MPI_DOUBLE_PRECISION, next, 4, prev, 4, &
                              MPI_COMM_WORLD, st, ierr)
    call MPI_COMM_SPLIT(MPI_COMM_WORLD, mod(rank, 2), rank, sub, ierr)
    call MPI_COMM_RANK(sub, srank, ierr)
    grp = work * x
    call MPI_REDUCE(grp, gsum, nl, MPI_DOUBLE_PRECISION, MPI_SUM, 0, sub, ierr)
    call MPI_BCAST(gsum, nl, MPI_DOUBLE_PRECISION, 0, sub, ierr)
    part(1) = sum(gsum * work) + 0.5d0 * sum(sin(work))
    call MPI_ALLREDUCE(MPI_IN_PLACE, part, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    f = part(1)
    call MPI_COMM_FREE(sub, ierr)
  end subroutine loss
end module ring90

program p90
  use ferrozyme
  use fz_check
  use ring90
  use fz_mpi_check, only: fz_mpi_report
  implicit none
  real(8) :: x(nl), dx(nl), f, df, tf, tx(nl), fp, fm, h, dots(2)
  integer :: i, rank, np, ierr, j
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  x = [(sin(1.7d0 * (i + rank * nl)) * 0.9d0, i=1, nl)]
  dx = 0; df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  do j = 0, np - 1
    do i = 1, nl
      h = 1d-6
      if (rank == j) x(i) = x(i) + h
      call loss(x, fp)
      if (rank == j) x(i) = x(i) - 2 * h
      call loss(x, fm)
      if (rank == j) x(i) = x(i) + h
      if (rank == j) call check('dx vs fd', dx(i), (fp - fm) / (2 * h), 1d-6)
    end do
  end do
  tx = [(0.1d0 * mod(i + rank, 5) - 0.2d0, i=1, nl)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, f, tf)
  dots(1) = dot_product(dx, tx)
  call MPI_ALLREDUCE(dots(1), dots(2), 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) call check('forward . v = reverse . v', tf, dots(2), 1d-10)
  call fz_mpi_report()
end program p90
