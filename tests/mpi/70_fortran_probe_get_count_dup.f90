! MPI: 2 3
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! The Fortran (mpif.h) twin of tests/mpi/69: messages whose length the receiver learns
! by probing. On a communicator from MPI_COMM_DUP (freed inside the differentiated
! routine), each rank sends a different number of active values to the next rank
! (MPI_ISEND + MPI_WAIT); the receiver calls MPI_PROBE from MPI_ANY_SOURCE, sizes the
! receive with MPI_GET_COUNT and receives from status(MPI_SOURCE); a second round
! polls with MPI_IPROBE. Derivatives with respect to every rank's inputs are gathered on
! rank 0 and compared with the serial program's (differentiated too, against central
! differences) to 1e-12; forward mode against the reverse gradient.
module m70
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nloc = 5
contains
  integer function count1(r)
    integer, intent(in) :: r
    count1 = mod(r, 3) + 1
  end function count1

  subroutine energy(u, a, e)
    real(8), intent(in) :: u(nloc), a(2)
    real(8), intent(out) :: e
    real(8) :: out(nloc), in(nloc), back(nloc), got(nloc), local
    integer :: comm, r, p, m, n, n2, k, req, ierr, st(MPI_STATUS_SIZE)
    logical :: flag
    call mpi_comm_dup(MPI_COMM_WORLD, comm, ierr)
    call mpi_comm_rank(comm, r, ierr)
    call mpi_comm_size(comm, p, ierr)
    m = count1(r)
    do k = 1, m
      out(k) = u(k) * u(k + 1) * a(1)
    end do
    call mpi_isend(out, m, MPI_DOUBLE_PRECISION, mod(r + 1, p), 7, comm, req, ierr)
    in = 0
    call mpi_probe(MPI_ANY_SOURCE, 7, comm, st, ierr)
    call mpi_get_count(st, MPI_DOUBLE_PRECISION, n, ierr)
    call mpi_recv(in, n, MPI_DOUBLE_PRECISION, st(MPI_SOURCE), 7, comm, MPI_STATUS_IGNORE, ierr)
    call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
    local = 0
    do k = 1, n
      local = local + in(k) * u(k) * (1 + 0.1d0 * k)
    end do
    do k = 1, 2
      back(k) = sin(u(nloc + 1 - k)) + in(k) * a(2)
    end do
    call mpi_isend(back, 2, MPI_DOUBLE_PRECISION, mod(r + p - 1, p), 8, comm, req, ierr)
    flag = .false.
    do while (.not. flag)
      call mpi_iprobe(mod(r + 1, p), 8, comm, flag, st, ierr)
    end do
    call mpi_get_count(st, MPI_DOUBLE_PRECISION, n2, ierr)
    call mpi_recv(got, n2, MPI_DOUBLE_PRECISION, mod(r + 1, p), 8, comm, MPI_STATUS_IGNORE, ierr)
    call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
    do k = 1, n2
      local = local + got(k)**2 * (0.5d0 + 0.2d0 * k)
    end do
    local = local + 0.1d0 * sum(u**2)
    call mpi_comm_free(comm, ierr)
    call mpi_allreduce(local, e, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end subroutine energy

  ! The same on all ranks' blocks (p ranks, rank r's block is uall(:, r)).
  subroutine serial(p, uall, a, e)
    integer, intent(in) :: p
    real(8), intent(in) :: uall(nloc, 0:p - 1), a(2)
    real(8), intent(out) :: e
    real(8) :: in(nloc, 0:p - 1), b
    integer :: r, prev, nxt, k
    e = 0
    in = 0
    do r = 0, p - 1
      prev = mod(r + p - 1, p)
      do k = 1, count1(prev)
        in(k, r) = uall(k, prev) * uall(k + 1, prev) * a(1)
        e = e + in(k, r) * uall(k, r) * (1 + 0.1d0 * k)
      end do
    end do
    do r = 0, p - 1
      nxt = mod(r + 1, p)
      do k = 1, 2
        b = sin(uall(nloc + 1 - k, nxt)) + in(k, nxt) * a(2)
        e = e + b**2 * (0.5d0 + 0.2d0 * k)
      end do
      e = e + 0.1d0 * sum(uall(:, r)**2)
    end do
  end subroutine serial
end module m70

program p70
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m70
  implicit none
  real(8), allocatable :: uall(:), dall(:), su(:), fu(:), vall(:)
  real(8) :: u(nloc), du(nloc), vu(nloc), a(2), da(2), das(2), sa(2), fa(2), va(2)
  real(8) :: e, de, t, h, lp, lm, te, dot, dot_all
  integer :: rank, nproc, ierr, seed, i, n
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  n = nloc * nproc
  allocate (uall(n), dall(n), su(n), fu(n), vall(n))
  seed = 70
  call fill(uall, -1d0, 1d0, seed)
  call fill(vall, -1d0, 1d0, seed)
  a = [0.7d0, -0.4d0]
  va = [0.3d0, 0.8d0]
  u = uall(rank * nloc + 1:rank * nloc + nloc)
  vu = vall(rank * nloc + 1:rank * nloc + nloc)
  du = 0; da = 0; de = 0
  if (rank == 0) de = 1
  call __enzyme_autodiff(energy, enzyme_dup, u, du, enzyme_dup, a, da, enzyme_dup, e, de)
  call mpi_gather(du, nloc, MPI_DOUBLE_PRECISION, dall, nloc, MPI_DOUBLE_PRECISION, 0, &
                  MPI_COMM_WORLD, ierr)
  call mpi_reduce(da, das, 2, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  te = 0
  call __enzyme_fwddiff_sub(energy, enzyme_dup, u, vu, enzyme_dup, a, va, enzyme_dup, lp, te)
  dot = dot_product(du, vu)
  call mpi_allreduce(dot, dot_all, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mpi_allreduce(da, das, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check('forward vs reverse . v', te, dot_all + dot_product(das, va), 1d-10)
  if (rank == 0) then
    call serial(nproc, uall, a, lp)
    call check('energy vs serial', e, lp, 1d-12)
    su = 0; sa = 0; de = 1
    call __enzyme_autodiff(serial, enzyme_const, nproc, enzyme_dup, uall, su, enzyme_dup, a, &
                           sa, enzyme_dup, lp, de)
    do i = 1, n
      t = uall(i); h = fd_step(t)
      uall(i) = t + h; call serial(nproc, uall, a, lp)
      uall(i) = t - h; call serial(nproc, uall, a, lm)
      uall(i) = t; fu(i) = (lp - lm) / (2 * h)
    end do
    do i = 1, 2
      t = a(i); h = fd_step(t)
      a(i) = t + h; call serial(nproc, uall, a, lp)
      a(i) = t - h; call serial(nproc, uall, a, lm)
      a(i) = t; fa(i) = (lp - lm) / (2 * h)
    end do
    call check_arr('serial d/du vs fd', su, fu, 1d-6)
    call check_arr('serial d/da vs fd', sa, fa, 1d-6)
    call check_arr('distributed d/du vs serial', dall, su, 1d-12)
    call check_arr('distributed d/da vs serial', das, sa, 1d-12)
  end if
  call fz_mpi_report()
end program p70
