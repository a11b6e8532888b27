! MPI: 2 3
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! A Fortran (mpif.h) explicit time loop in the style of a teaching heat code: rank 0
! scatters the initial field (MPI_SCATTER), every step the ranks exchange ghost cells
! with MPI_SENDRECV (MPI_PROC_NULL at the two ends), rank 0 receives the global
! maximum of a nonlinear source term by MPI_REDUCE(MPI_MAX) and a total by
! MPI_REDUCE(MPI_SUM), scales them and MPI_BCASTs the resulting rate back to everyone,
! which multiplies the next update; at the end MPI_GATHER returns the field to rank 0,
! where the loss is computed. The field and the rate live in assumed-shape and
! allocatable arrays. Derivatives with respect to the root's initial field and
! coefficients are compared with the serial program's (differentiated too, against
! central differences) to 1e-12; forward mode against the reverse gradient.
module m56
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 4, steps = 4
contains
  subroutine heat_loss(u0, c, loss)
    real(8), intent(in) :: u0(*)
    real(8), intent(in) :: c(2)
    real(8), intent(out) :: loss
    real(8) :: g(0:nloc + 1), unew(nloc), s, smax, stot, rate, cc(2)
    real(8), allocatable :: all(:)
    integer :: rank, nproc, ierr, left, right, t, i
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    left = rank - 1
    right = rank + 1
    if (rank == 0) left = MPI_PROC_NULL
    if (rank == nproc - 1) right = MPI_PROC_NULL
    cc = c
    call mpi_bcast(cc, 2, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    call mpi_scatter(u0, nloc, MPI_DOUBLE_PRECISION, g(1), nloc, MPI_DOUBLE_PRECISION, 0, &
                     MPI_COMM_WORLD, ierr)
    rate = 1
    do t = 1, steps
      g(0) = 0
      g(nloc + 1) = 0
      call mpi_sendrecv(g(nloc), 1, MPI_DOUBLE_PRECISION, right, 1, g(0), 1, &
                        MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call mpi_sendrecv(g(1), 1, MPI_DOUBLE_PRECISION, left, 2, g(nloc + 1), 1, &
                        MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      do i = 1, nloc
        unew(i) = g(i) + rate * cc(1) * (g(i - 1) - 2 * g(i) + g(i + 1)) + 0.05d0 * sin(g(i))
      end do
      g(1:nloc) = unew
      s = maxval(g(1:nloc)**2)
      call mpi_reduce(s, smax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
      s = sum(g(1:nloc))
      call mpi_reduce(s, stot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
      if (rank == 0) rate = 1 / (1 + cc(2) * smax + 0.01d0 * stot**2)
      call mpi_bcast(rate, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    end do
    allocate (all(nloc * nproc))
    call mpi_gather(g(1), nloc, MPI_DOUBLE_PRECISION, all, nloc, MPI_DOUBLE_PRECISION, 0, &
                    MPI_COMM_WORLD, ierr)
    loss = 0
    if (rank == 0) then
      do i = 1, nloc * nproc
        loss = loss + all(i)**2 * (1 + 0.1d0 * i)
      end do
      loss = loss + rate
    end if
    deallocate (all)
  end subroutine heat_loss

  subroutine serial(nproc, u0, c, loss)
    integer, intent(in) :: nproc
    real(8), intent(in) :: u0(nloc * nproc), c(2)
    real(8), intent(out) :: loss
    real(8) :: g(0:nloc * nproc + 1), unew(nloc * nproc), smax, stot, rate
    integer :: n, t, i, k
    n = nloc * nproc
    g(1:n) = u0
    rate = 1
    do t = 1, steps
      g(0) = 0
      g(n + 1) = 0
      do i = 1, n
        unew(i) = g(i) + rate * c(1) * (g(i - 1) - 2 * g(i) + g(i + 1)) + 0.05d0 * sin(g(i))
      end do
      g(1:n) = unew
      smax = maxval(g(1:n)**2)
      stot = 0
      do k = 0, nproc - 1
        stot = stot + sum(g(k * nloc + 1:k * nloc + nloc))
      end do
      rate = 1 / (1 + c(2) * smax + 0.01d0 * stot**2)
    end do
    loss = 0
    do i = 1, n
      loss = loss + g(i)**2 * (1 + 0.1d0 * i)
    end do
    loss = loss + rate
  end subroutine serial
end module m56

program p56
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m56
  implicit none
  real(8), allocatable :: u(:), du(:), su(:), fu(:), vu(:)
  real(8) :: c(2), dc(2), sc(2), fc(2), vc(2), loss, dloss, t, h, lp, lm, tl
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nloc * nproc
  allocate (u(n), du(n), su(n), fu(n), vu(n))
  seed = 56
  call fill(u, -1d0, 1d0, seed)
  c = [0.2d0, 0.3d0]
  call fill(vu, -1d0, 1d0, seed)
  vc = [0.4d0, -0.3d0]
  du = 0; dc = 0; dloss = 1
  call __enzyme_autodiff(heat_loss, enzyme_dup, u, du, enzyme_dup, c, dc, enzyme_dup, loss, dloss)
  if (rank == 0) then
    su = 0; sc = 0; dloss = 1
    call serial(nproc, u, c, lp)
    call check('loss vs serial', loss, lp, 1d-12)
    call __enzyme_autodiff(serial, enzyme_const, nproc, enzyme_dup, u, su, enzyme_dup, c, sc, &
                           enzyme_dup, loss, dloss)
    do i = 1, n
      t = u(i); h = fd_step(t)
      u(i) = t + h; call serial(nproc, u, c, lp)
      u(i) = t - h; call serial(nproc, u, c, lm)
      u(i) = t; fu(i) = (lp - lm) / (2 * h)
    end do
    do i = 1, 2
      t = c(i); h = fd_step(t)
      c(i) = t + h; call serial(nproc, u, c, lp)
      c(i) = t - h; call serial(nproc, u, c, lm)
      c(i) = t; fc(i) = (lp - lm) / (2 * h)
    end do
    call check_arr('serial d/du0 vs fd', su, fu, 1d-6)
    call check_arr('serial d/dc vs fd', sc, fc, 1d-6)
    call check_arr('distributed d/du0 vs serial', du, su, 1d-12)
    call check_arr('distributed d/dc vs serial', dc, sc, 1d-12)
  end if
  tl = 0
  call __enzyme_fwddiff_sub(heat_loss, enzyme_dup, u, vu, enzyme_dup, c, vc, enzyme_dup, loss, tl)
  if (rank == 0) call check('forward vs reverse . v', tl, dot_product(su, vu) + &
                            dot_product(sc, vc), 1d-10)
  call fz_mpi_report()
end program p56
