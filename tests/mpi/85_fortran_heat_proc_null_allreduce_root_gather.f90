! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! A Fortran (mpif.h) 1-D heat equation on a distributed rod: MPI_SENDRECV halos whose
! end ranks talk to MPI_PROC_NULL (zero boundary), explicit steps with a coefficient
! field, the local energy MPI_ALLREDUCE'd, the field MPI_GATHER'ed into an allocatable
! that only the root allocates at full size (the others allocate one element), the loss
! on the root only (seeded there). Every rank's gradient with respect to its own field
! and coefficients is checked against distributed central differences (each rank
! perturbs its entries in turn, every rank recomputes the loss, the root's loss is
! broadcast); forward mode against the allreduced dot product of the reverse gradient.
module heat85
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nl = 4, steps = 3
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(nl), w(nl)
    real(8), intent(out) :: f
    real(8) :: u(0:nl + 1), un(nl), part, tot
    real(8), allocatable :: all(:)
    integer :: rank, np, left, right, ierr, k, t, st(MPI_STATUS_SIZE)
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
    left = rank - 1; right = rank + 1
    if (left < 0) left = MPI_PROC_NULL
    if (right >= np) right = MPI_PROC_NULL
    u = 0
    u(1:nl) = x
    do t = 1, steps
      call MPI_SENDRECV(u(nl), 1, MPI_DOUBLE_PRECISION, right, 1, u(0), 1, &
                        MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, st, ierr)
      call MPI_SENDRECV(u(1), 1, MPI_DOUBLE_PRECISION, left, 2, u(nl + 1), 1, &
                        MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, st, ierr)
      do k = 1, nl
        un(k) = u(k) + 0.2d0 * w(k) * (u(k - 1) - 2 * u(k) + u(k + 1)) + 0.05d0 * sin(u(k))
      end do
      u(1:nl) = un
    end do
    part = sum(u(1:nl)**2)
    call MPI_ALLREDUCE(part, tot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      allocate(all(nl * np))
    else
      allocate(all(1))
    end if
    call MPI_GATHER(u(1), nl, MPI_DOUBLE_PRECISION, all, nl, MPI_DOUBLE_PRECISION, 0, &
                    MPI_COMM_WORLD, ierr)
    f = 0
    if (rank == 0) f = tot + sum(all * all * all)
    deallocate(all)
  end subroutine loss
end module heat85

program p85
  use ferrozyme
  use fz_check
  use heat85
  use fz_mpi_check, only: fz_mpi_report
  implicit none
  real(8) :: x(nl), w(nl), dx(nl), dw(nl), f, df, tf, tx(nl), tw(nl), gx(64), gw(64), fdx, xs(64), ws(64)
  real(8) :: fp, fm, h, tot, dots(2)
  integer :: i, rank, np, ierr, j
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  x = [(sin(1.3d0 * (i + rank * nl)) * 0.8d0, i=1, nl)]
  w = [(0.7d0 + 0.4d0 * cos(0.9d0 * (i + rank * nl)), i=1, nl)]
  dx = 0; dw = 0; df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  ! oracle: distributed central differences (every rank perturbs in turn)
  do j = 0, np - 1
    do i = 1, nl
      h = 1d-6
      if (rank == j) x(i) = x(i) + h
      call loss(x, w, fp)
      if (rank == j) x(i) = x(i) - 2 * h
      call loss(x, w, fm)
      if (rank == j) x(i) = x(i) + h
      call MPI_BCAST(fp, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
      call MPI_BCAST(fm, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
      if (rank == j) call check('dx vs fd', dx(i), (fp - fm) / (2 * h), 1d-6)
      if (rank == j) w(i) = w(i) + h
      call loss(x, w, fp)
      if (rank == j) w(i) = w(i) - 2 * h
      call loss(x, w, fm)
      if (rank == j) w(i) = w(i) + h
      call MPI_BCAST(fp, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
      call MPI_BCAST(fm, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
      if (rank == j) call check('dw vs fd', dw(i), (fp - fm) / (2 * h), 1d-6)
    end do
  end do
  tx = [(0.1d0 * mod(i + rank, 5) - 0.2d0, i=1, nl)]
  tw = [(0.05d0 * mod(i + rank, 3) - 0.04d0, i=1, nl)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  dots(1) = dot_product(dx, tx) + dot_product(dw, tw)
  call MPI_ALLREDUCE(dots(1), dots(2), 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) call check('forward . v = reverse . v', tf, dots(2), 1d-10)
  call fz_mpi_report()
end program p85
