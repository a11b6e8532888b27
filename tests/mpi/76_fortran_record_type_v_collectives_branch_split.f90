! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! Records of two reals in Fortran (mpif.h bindings): a type made with
! MPI_TYPE_CONTIGUOUS inside the differentiated routine, rank 0 scattering an uneven
! number of records to each rank with MPI_SCATTERV and gathering them back with
! MPI_GATHERV on that type (derived datatypes in the v-collectives: hpc36), a
! communicator of pairs of ranks split, used and freed under an `if` (the reverse sweep
! frees the handle after its last use, only when the primal made it: hpc36), and an
! MPI_SCAN prefix sum of the blocks' sums. The loss (rank 0) is differentiated with
! respect to rank 0's vector, with and without the split; the gradient is compared with
! the serial program's (checked against central finite differences), and forward mode
! against the serial gradient.
module m76mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nrec = 7, n = 2 * nrec
contains
  subroutine layout(nproc, counts, displs)
    integer, intent(in) :: nproc
    integer, intent(out) :: counts(nproc), displs(nproc)
    integer :: r
    do r = 1, nproc
      counts(r) = nrec / nproc
      if (r <= mod(nrec, nproc)) counts(r) = counts(r) + 1
    end do
    displs(1) = 0
    do r = 2, nproc
      displs(r) = displs(r - 1) + counts(r - 1)
    end do
  end subroutine layout

  subroutine loss(x, f, pairs)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    integer, intent(in) :: pairs
    real(8) :: mine(n), back(n), s, ps, blk, pre, tot
    integer :: counts(8), displs(8), rank, nproc, ierr, m, rec, pair
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    call layout(nproc, counts, displs)
    m = counts(rank + 1)
    call mpi_type_contiguous(2, MPI_DOUBLE_PRECISION, rec, ierr)
    call mpi_type_commit(rec, ierr)
    call mpi_scatterv(x, counts, displs, rec, mine, m, rec, 0, MPI_COMM_WORLD, ierr)
    mine(1:2 * m) = sin(mine(1:2 * m)) * (1 + 0.1d0 * rank)
    s = sum(mine(1:2 * m)**2)
    ps = s
    if (pairs /= 0) then
      call mpi_comm_split(MPI_COMM_WORLD, rank / 2, rank, pair, ierr)
      call mpi_allreduce(s, ps, 1, MPI_DOUBLE_PRECISION, MPI_SUM, pair, ierr)
      call mpi_comm_free(pair, ierr)
    end if
    mine(1:2 * m) = mine(1:2 * m) * ps
    blk = sum(mine(1:2 * m))
    call mpi_scan(blk, pre, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    back = 0
    call mpi_gatherv(mine, m, rec, back, counts, displs, rec, 0, MPI_COMM_WORLD, ierr)
    call mpi_allreduce(pre**2, tot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call mpi_type_free(rec, ierr)
    f = 0
    if (rank == 0) f = sum(back**2) + tot
  end subroutine loss

  real(8) function serial(x, nproc, pairs)
    real(8), intent(in) :: x(n)
    integer, intent(in) :: nproc, pairs
    real(8) :: a(n), s(8), ps, pre
    integer :: counts(8), displs(8), r, lo, hi, q
    call layout(nproc, counts, displs)
    do r = 1, nproc
      lo = 2 * displs(r) + 1; hi = 2 * (displs(r) + counts(r))
      a(lo:hi) = sin(x(lo:hi)) * (1 + 0.1d0 * (r - 1))
      s(r) = sum(a(lo:hi)**2)
    end do
    serial = 0
    pre = 0
    do r = 1, nproc
      lo = 2 * displs(r) + 1; hi = 2 * (displs(r) + counts(r))
      ps = s(r)
      if (pairs /= 0) then
        q = 2 * ((r - 1) / 2) + 1
        ps = s(q)
        if (q + 1 <= nproc) ps = ps + s(q + 1)
      end if
      a(lo:hi) = a(lo:hi) * ps
      pre = pre + sum(a(lo:hi))
      serial = serial + pre**2 + sum(a(lo:hi)**2)
    end do
  end function serial
end module m76mpi

program p76mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m76mpi
  implicit none
  real(8) :: x(n), dx(n), gs(n), gfd(n), v(n), f, df, t, h, fp, fm, tf
  integer :: rank, nproc, ierr, seed, i, pairs
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  do pairs = 0, 1
    seed = 76
    call fill(x, -1d0, 1d0, seed)
    dx = 0
    df = 0
    if (rank == 0) df = 1
    call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df, enzyme_const, pairs)
    gs = 0
    call __enzyme_autodiff(serial, enzyme_dup, x, gs, enzyme_const, nproc, enzyme_const, pairs)
    do i = 1, n
      t = x(i); h = fd_step(t)
      x(i) = t + h; fp = serial(x, nproc, pairs)
      x(i) = t - h; fm = serial(x, nproc, pairs)
      x(i) = t; gfd(i) = (fp - fm) / (2 * h)
    end do
    call check_arr('serial vs fd', gs, gfd, 1d-6)
    if (rank == 0) then
      call check('loss vs serial', f, serial(x, nproc, pairs), 1d-12)
      call check_arr('rank 0 gradient vs serial', dx, gs, 1d-12)
    end if
    call fill(v, -1d0, 1d0, seed)
    tf = 0
    call __enzyme_fwddiff_sub(loss, enzyme_dup, x, v, enzyme_dup, f, tf, enzyme_const, pairs)
    if (rank == 0) call check('forward tangent vs serial gradient . v', tf, dot_product(gs, v), 1d-12)
  end do
  call fz_mpi_report()
end program p76mpi
