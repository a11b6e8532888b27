! MPI: 2 3
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! Fortran MPI collectives through the `mpif.h` bindings, the way a fitting code is
! written: rank 0 broadcasts the model parameters (MPI_BCAST) and scatters the data
! (MPI_SCATTER), every rank computes its residuals, passes its last residual to the next
! rank with MPI_SEND/MPI_RECV (with a status), sums a correction with MPI_ALLREDUCE on
! MPI_IN_PLACE, calls MPI_BARRIER, and rank 0 collects the residuals with MPI_GATHER and
! a single-precision (MPI_REAL) partial sum with MPI_REDUCE. The loss lives on rank 0;
! the derivatives of the parameters and the data (both held by rank 0) are compared with
! the serial program's, differentiated too and checked against central finite
! differences; forward mode against the reverse gradient (the dot-product identity).
module m13
  implicit none
  ! mpif.h less mpif-sizeof.h (generated for gfortran: flang-22 rejects its REAL128).
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 4, np = 3
contains
  ! Only rank 0's p and x matter (the others' are overwritten by MPI_BCAST/MPI_SCATTER).
  subroutine fit_loss(p, x, loss)
    real(8), intent(inout) :: p(np)
    real(8), intent(in) :: x(*)
    real(8), intent(out) :: loss
    real(8) :: mine(nloc), r(nloc), prev, corr(2)
    real(8), allocatable :: all(:)
    real(4) :: part, total4
    integer :: rank, nproc, ierr, i, status(MPI_STATUS_SIZE)
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    call mpi_bcast(p, np, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    call mpi_scatter(x, nloc, MPI_DOUBLE_PRECISION, mine, nloc, MPI_DOUBLE_PRECISION, 0, &
                     MPI_COMM_WORLD, ierr)
    do i = 1, nloc
      r(i) = p(1) * exp(p(2) * mine(i)) + p(3) - sin(mine(i))
    end do
    ! a chain: rank k receives rank k-1's last residual (rank 0 gets none)
    prev = 0
    if (rank > 0) call mpi_recv(prev, 1, MPI_DOUBLE_PRECISION, rank - 1, 7, MPI_COMM_WORLD, &
                                status, ierr)
    if (rank < nproc - 1) call mpi_send(r(nloc), 1, MPI_DOUBLE_PRECISION, rank + 1, 7, &
                                        MPI_COMM_WORLD, ierr)
    r(1) = r(1) + 0.5d0 * prev
    corr = [sum(r), sum(r * mine)]
    call mpi_allreduce(MPI_IN_PLACE, corr, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call mpi_barrier(MPI_COMM_WORLD, ierr)
    part = real(sum(r**2), 4)
    call mpi_reduce(part, total4, 1, MPI_REAL, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    allocate (all(nloc * nproc))
    call mpi_gather(r, nloc, MPI_DOUBLE_PRECISION, all, nloc, MPI_DOUBLE_PRECISION, 0, &
                    MPI_COMM_WORLD, ierr)
    loss = 0
    if (rank == 0) then
      do i = 1, nloc * nproc
        loss = loss + all(i)**2 * (1 + 0.1d0 * i)
      end do
      loss = loss + 0.01d0 * corr(1) * corr(2) + 1d-3 * real(total4, 8)
    end if
  end subroutine fit_loss

  ! The same on one process with n = nproc * nloc data; with prec = 8 the MPI_REAL sum is
  ! done in double precision (for finite differences, which a single-precision term
  ! would swamp with rounding; its derivative differs by float rounding only).
  subroutine serial(nproc, prec, p, x, loss)
    integer, intent(in) :: nproc, prec
    real(8), intent(in) :: p(np), x(nloc * nproc)
    real(8), intent(out) :: loss
    real(8) :: r(nloc * nproc), corr(2)
    real(4) :: total4
    real(8) :: total8
    integer :: i, k
    do i = 1, nloc * nproc
      r(i) = p(1) * exp(p(2) * x(i)) + p(3) - sin(x(i))
    end do
    do k = nproc - 1, 1, -1
      r(k * nloc + 1) = r(k * nloc + 1) + 0.5d0 * r(k * nloc)
    end do
    corr = [sum(r), sum(r * x)]
    total4 = 0
    total8 = 0
    do k = 0, nproc - 1
      total4 = total4 + real(sum(r(k * nloc + 1:k * nloc + nloc)**2), 4)
      total8 = total8 + sum(r(k * nloc + 1:k * nloc + nloc)**2)
    end do
    if (prec == 4) total8 = real(total4, 8)
    loss = 0
    do i = 1, nloc * nproc
      loss = loss + r(i)**2 * (1 + 0.1d0 * i)
    end do
    loss = loss + 0.01d0 * corr(1) * corr(2) + 1d-3 * total8
  end subroutine serial
end module m13

program p13
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m13
  implicit none
  real(8), allocatable :: x(:), dx(:), sx(:), fx(:), vx(:)
  real(8) :: p(np), dp(np), sp(np), fp(np), vp(np), p0(np), loss, dloss, t, h, lp, lm, tl
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nloc * nproc
  allocate (x(n), dx(n), sx(n), fx(n), vx(n))
  seed = 13
  call fill(x, -1d0, 1d0, seed)
  call fill(p0, 0.2d0, 0.8d0, seed)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vp, -1d0, 1d0, seed)
  p = p0
  if (rank /= 0) p = 0 ! only the root's parameters count
  dx = 0; dp = 0; dloss = 1
  call __enzyme_autodiff(fit_loss, enzyme_dup, p, dp, enzyme_dup, x, dx, enzyme_dup, loss, dloss)
  if (rank == 0) then
    p = p0
    sx = 0; sp = 0; dloss = 1
    call serial(nproc, 4, p, x, lp)
    call check('loss vs serial', loss, lp, 1d-12)
    call __enzyme_autodiff(serial, enzyme_const, nproc, enzyme_const, 4, enzyme_dup, p, sp, enzyme_dup, x, sx, &
                           enzyme_dup, loss, dloss)
    do i = 1, n
      t = x(i); h = fd_step(t)
      x(i) = t + h; call serial(nproc, 8, p, x, lp)
      x(i) = t - h; call serial(nproc, 8, p, x, lm)
      x(i) = t; fx(i) = (lp - lm) / (2 * h)
    end do
    do i = 1, np
      t = p(i); h = fd_step(t)
      p(i) = t + h; call serial(nproc, 8, p, x, lp)
      p(i) = t - h; call serial(nproc, 8, p, x, lm)
      p(i) = t; fp(i) = (lp - lm) / (2 * h)
    end do
    call check_arr('serial d/dx vs fd', sx, fx, 1d-6)
    call check_arr('serial d/dp vs fd', sp, fp, 1d-6)
    call check_arr('distributed d/dx vs serial', dx, sx, 1d-12)
    call check_arr('distributed d/dp vs serial', dp, sp, 1d-12)
  else
    call check_arr('non-root d/dp is zero', dp, [0d0, 0d0, 0d0], 0d0)
  end if
  ! Forward mode: rank 0's tangent of the loss along (vp, vx) is <(sp, sx), (vp, vx)>.
  p = p0
  if (rank /= 0) p = 0
  tl = 0
  call __enzyme_fwddiff_sub(fit_loss, enzyme_dup, p, vp, enzyme_dup, x, vx, enzyme_dup, loss, tl)
  if (rank == 0) call check('forward vs reverse . v', tl, dot_product(sp, vp) + &
                            dot_product(sx, vx), 1d-10)
  call fz_mpi_report()
end program p13
