! MPI: 3
! OPT: O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! A 1-D diffusion code as Fortran MPI users write it: each rank owns an uneven slab
! (3 or 4 cells) in an ALLOCATABLE array with one ghost cell per side, exchanges ghosts
! with MPI_SENDRECV (MPI_PROC_NULL past the ends, so the outer ghosts stay zero: Dirichlet
! boundaries), takes four explicit steps with a nonlinear source, then MPI_ALLREDUCEs an
! array of three real(8) moments (sum u, sum u**2, sum u**3) at once, and MPI_GATHERVs
! the uneven slabs to rank 0, which weights the whole field and MPI_BCASTs the result.
! Every rank's gradient (initial field and its own diffusivity) against distributed
! central differences (each rank perturbs its entries in turn); forward mode against
! the allreduced dot product of the reverse gradient.
module heat102
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: maxl = 4, steps = 4
contains
  integer function local_cells(rank)
    integer, intent(in) :: rank
    local_cells = 3 + mod(rank, 2)
  end function local_cells

  subroutine loss(nl, x, kap, f)
    integer, intent(in) :: nl
    real(8), intent(in) :: x(nl), kap
    real(8), intent(out) :: f
    real(8), allocatable :: u(:), v(:)
    real(8) :: mom(3), gmom(3), whole(4 * maxl), res(1)
    integer :: rank, np, lo, hi, ierr, st(MPI_STATUS_SIZE), s, i, counts(4), displs(4)
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
    lo = rank - 1
    hi = rank + 1
    if (rank == 0) lo = MPI_PROC_NULL
    if (rank == np - 1) hi = MPI_PROC_NULL
    allocate (u(0:nl + 1), v(nl))
    u = 0
    u(1:nl) = x
    do s = 1, steps
      call MPI_SENDRECV(u(1), 1, MPI_DOUBLE_PRECISION, lo, 1, u(nl + 1), 1, &
                        MPI_DOUBLE_PRECISION, hi, 1, MPI_COMM_WORLD, st, ierr)
      call MPI_SENDRECV(u(nl), 1, MPI_DOUBLE_PRECISION, hi, 2, u(0), 1, &
                        MPI_DOUBLE_PRECISION, lo, 2, MPI_COMM_WORLD, st, ierr)
      do i = 1, nl
        v(i) = u(i) + kap * (u(i - 1) - 2 * u(i) + u(i + 1)) - 0.05d0 * u(i)**3
      end do
      u(1:nl) = v
    end do
    mom(1) = sum(u(1:nl))
    mom(2) = sum(u(1:nl)**2)
    mom(3) = sum(u(1:nl)**3)
    call MPI_ALLREDUCE(mom, gmom, 3, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    do i = 1, np
      counts(i) = local_cells(i - 1)
    end do
    displs(1) = 0
    do i = 2, np
      displs(i) = displs(i - 1) + counts(i - 1)
    end do
    whole = 0
    call MPI_GATHERV(u(1), nl, MPI_DOUBLE_PRECISION, whole, counts, displs, &
                     MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    res(1) = 0
    if (rank == 0) then
      do i = 1, displs(np) + counts(np)
        res(1) = res(1) + (1 + 0.1d0 * i) * whole(i)**2
      end do
    end if
    call MPI_BCAST(res, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    f = res(1) + gmom(1) * gmom(2) + 0.2d0 * gmom(3)
    deallocate (u, v)
  end subroutine loss
end module heat102

program p102
  use ferrozyme
  use fz_check
  use heat102
  use fz_mpi_check, only: fz_mpi_report
  implicit none
  real(8) :: x(maxl), dx(maxl), kap, dkap, f, df, tf, tx(maxl), tkap, fp, fm, h, dots(2)
  integer :: i, rank, np, ierr, j, nl
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  nl = local_cells(rank)
  x = [(0.8d0 * sin(1.3d0 * (i + rank * maxl)), i=1, maxl)]
  kap = 0.15d0 + 0.02d0 * rank
  dx = 0; dkap = 0; df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(loss, enzyme_const, nl, enzyme_dup, x, dx, enzyme_dup, kap, dkap, &
                         enzyme_dup, f, df)
  do j = 0, np - 1
    do i = 1, maxl + 1
      if (i > local_cells(j) .and. i <= maxl) cycle
      h = 1d-6
      call bump(h)
      call loss(nl, x, kap, fp)
      call bump(-2 * h)
      call loss(nl, x, kap, fm)
      call bump(h)
      if (rank == j .and. i <= maxl) call check('dx vs fd', dx(i), (fp - fm) / (2 * h), 1d-6)
      if (rank == j .and. i > maxl) call check('dkappa vs fd', dkap, (fp - fm) / (2 * h), 1d-6)
    end do
  end do
  tx = [(0.1d0 * mod(i + rank, 5) - 0.2d0, i=1, maxl)]
  tx(nl + 1:) = 0
  tkap = 0.3d0 - 0.1d0 * rank
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, nl, enzyme_dup, x, tx, enzyme_dup, kap, tkap, &
                            enzyme_dup, f, tf)
  dots(1) = dot_product(dx(1:nl), tx(1:nl)) + dkap * tkap
  call MPI_ALLREDUCE(dots(1), dots(2), 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) call check('forward . v = reverse . v', tf, dots(2), 1d-10)
  call fz_mpi_report()
contains
  subroutine bump(d)
    real(8), intent(in) :: d
    if (rank /= j) return
    if (i <= maxl) then
      x(i) = x(i) + d
    else
      kap = kap + d
    end if
  end subroutine bump
end program p102
