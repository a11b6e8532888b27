! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! Fortran halo exchanges (mpif.h bindings) completed in the orders overlap codes use: a
! periodic 1-D chain of blocks whose ghost cells are posted with MPI_IRECV/MPI_ISEND and
! completed by MPI_WAITANY (each boundary point updated as soon as its ghost arrives),
! by MPI_WAITSOME in a loop, by `do while (.not. done); call mpi_testall(...)`, and
! request by request with `do while (.not. flag); call mpi_test(...)`. The gathered
! gradient is compared with the serial program's (checked against central finite
! differences), and forward mode against the serial gradient.
module m50mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 5, nsteps = 4
contains
  real(8) function pt(l, m, r)
    real(8), intent(in) :: l, m, r
    pt = m + 0.2d0 * (l - 2 * m + r) + 0.05d0 * m**2
  end function pt

  subroutine energy(x, f)
    real(8), intent(in) :: x(nloc)
    real(8), intent(out) :: f
    real(8) :: u(-1:nloc + 2), un(nloc), e
    integer :: rank, nproc, left, right, ierr, s, i, k, idx, outc, left4, idxs(4), req(4)
    integer :: st(MPI_STATUS_SIZE, 4)
    logical :: done
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    right = mod(rank + 1, nproc)
    left = mod(rank + nproc - 1, nproc)
    u = 0
    u(1:nloc) = x
    do s = 1, nsteps
      call mpi_irecv(u(0), 1, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, req(1), ierr)
      call mpi_irecv(u(nloc + 1), 1, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, req(2), ierr)
      call mpi_isend(u(nloc), 1, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD, req(3), ierr)
      call mpi_isend(u(1), 1, MPI_DOUBLE_PRECISION, left, 2, MPI_COMM_WORLD, req(4), ierr)
      select case (mod(s, 4))
      case (1)
        do k = 1, 4
          call mpi_waitany(4, req, idx, MPI_STATUS_IGNORE, ierr)
          if (idx == 1) un(1) = pt(u(0), u(1), u(2))
          if (idx == 2) un(nloc) = pt(u(nloc - 1), u(nloc), u(nloc + 1))
        end do
      case (2)
        left4 = 4
        do while (left4 > 0)
          call mpi_waitsome(4, req, outc, idxs, st, ierr)
          do k = 1, outc
            if (idxs(k) == 1) un(1) = pt(u(0), u(1), u(2))
            if (idxs(k) == 2) un(nloc) = pt(u(nloc - 1), u(nloc), u(nloc + 1))
          end do
          left4 = left4 - outc
        end do
      case (3)
        done = .false.
        do while (.not. done)
          call mpi_testall(4, req, done, st, ierr)
        end do
        un(1) = pt(u(0), u(1), u(2))
        un(nloc) = pt(u(nloc - 1), u(nloc), u(nloc + 1))
      case default
        do k = 4, 1, -1
          done = .false.
          do while (.not. done)
            call mpi_test(req(k), done, MPI_STATUS_IGNORE, ierr)
          end do
        end do
        un(1) = pt(u(0), u(1), u(2))
        un(nloc) = pt(u(nloc - 1), u(nloc), u(nloc + 1))
      end select
      do i = 2, nloc - 1
        un(i) = pt(u(i - 1), u(i), u(i + 1))
      end do
      u(1:nloc) = un
    end do
    ! two-wide halos, each request waited for on its own
    call mpi_irecv(u(-1), 2, MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, req(1), ierr)
    call mpi_isend(u(nloc - 1), 2, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD, req(2), ierr)
    call mpi_wait(req(2), MPI_STATUS_IGNORE, ierr)
    call mpi_wait(req(1), MPI_STATUS_IGNORE, ierr)
    e = 0
    do i = 1, nloc
      e = e + cos(u(i)) * u(i - 2) * (1 + 0.1d0 * i)
    end do
    call mpi_allreduce(e, f, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end subroutine energy

  real(8) function serial(m, x)
    integer, intent(in) :: m
    real(8), intent(in) :: x(m)
    real(8) :: u(m), un(m)
    integer :: s, i, k
    u = x
    do s = 1, nsteps
      do i = 1, m
        un(i) = u(i) + 0.2d0 * (u(modulo(i - 2, m) + 1) - 2 * u(i) + u(modulo(i, m) + 1)) &
                + 0.05d0 * u(i)**2
      end do
      u = un
    end do
    serial = 0
    do i = 1, m
      k = mod(i - 1, nloc) + 1
      serial = serial + cos(u(i)) * u(modulo(i - 3, m) + 1) * (1 + 0.1d0 * k)
    end do
  end function serial
end module m50mpi

program p50mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m50mpi
  implicit none
  real(8), allocatable :: xall(:), gall(:), gs(:), gfd(:), vall(:)
  real(8) :: x(nloc), dx(nloc), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nproc * nloc
  allocate (xall(n), gall(n), gs(n), gfd(n), vall(n))
  seed = 50
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
end program p50mpi
