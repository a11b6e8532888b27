! MPI: 2 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! The Fortran twin of mpi/66 (mpif.h bindings): rows of a column-major matrix a(nr, nc)
! dealt out by a row datatype (MPI_TYPE_VECTOR of nc reals with stride nr) resized to the
! extent of one real(8) (MPI_TYPE_CREATE_RESIZED, with MPI_TYPE_SIZE and
! MPI_TYPE_GET_EXTENT queried), made and freed inside the differentiated routine, so
! MPI_SCATTER with 2 of them per rank sends consecutive
! row pairs from rank 0, received as 2 * nc MPI_DOUBLE_PRECISION; each rank updates its
! rows and MPI_GATHER with the same type puts them back on rank 0, which computes the
! loss. The datatype constructors and queries were refused from Fortran (only
! MPI_TYPE_CONTIGUOUS/VECTOR/COMMIT were known). Rank 0's gradient against the serial
! program's (checked against central finite differences), the others' must be zero;
! forward mode against the serial gradient.
module m68mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nc = 5, rpr = 2
  integer :: nr, tsize
  integer(kind=MPI_ADDRESS_KIND) :: lb, ext
contains
  subroutine loss(a, f)
    real(8), intent(in) :: a(nr, nc)
    real(8), intent(out) :: f
    real(8) :: mine(nc, rpr), upd(nc, rpr), back(nr, nc), lo, hi
    integer :: me, ierr, r, c, vec, rowt
    call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
    call mpi_type_vector(nc, 1, nr, MPI_DOUBLE_PRECISION, vec, ierr)
    call mpi_type_create_resized(vec, 0_MPI_ADDRESS_KIND, 8_MPI_ADDRESS_KIND, rowt, ierr)
    call mpi_type_commit(rowt, ierr)
    call mpi_type_size(rowt, tsize, ierr)
    call mpi_type_get_extent(rowt, lb, ext, ierr)
    call mpi_scatter(a, rpr, rowt, mine, rpr * nc, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    do r = 1, rpr
      do c = 1, nc
        lo = 0
        hi = 0
        if (c > 1) lo = mine(c - 1, r)
        if (c < nc) hi = mine(c + 1, r)
        upd(c, r) = 2 * mine(c, r) - 0.5d0 * (lo + hi) + 0.1d0 * mine(c, r)**2
      end do
    end do
    call mpi_gather(upd, rpr * nc, MPI_DOUBLE_PRECISION, back, rpr, rowt, 0, MPI_COMM_WORLD, ierr)
    f = 0
    if (me == 0) then
      do c = 1, nc
        do r = 1, nr
          f = f + sin(back(r, c)) * (1 + 0.1d0 * r) * c
        end do
      end do
    end if
    call mpi_type_free(rowt, ierr)
    call mpi_type_free(vec, ierr)
  end subroutine loss

  real(8) function serial(m, a)
    integer, intent(in) :: m
    real(8), intent(in) :: a(m, nc)
    real(8) :: lo, hi, u
    integer :: r, c
    serial = 0
    do c = 1, nc
      do r = 1, m
        lo = 0
        hi = 0
        if (c > 1) lo = a(r, c - 1)
        if (c < nc) hi = a(r, c + 1)
        u = 2 * a(r, c) - 0.5d0 * (lo + hi) + 0.1d0 * a(r, c)**2
        serial = serial + sin(u) * (1 + 0.1d0 * r) * c
      end do
    end do
  end function serial
end module m68mpi

program p68mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m68mpi
  implicit none
  real(8), allocatable :: aall(:, :), a(:, :), da(:, :), gs(:, :), gfd(:, :), v(:, :)
  real(8) :: f, df, t, h, fp, fm, tf, val
  integer :: rank, nproc, ierr, seed, i, j
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  nr = rpr * nproc
  allocate (aall(nr, nc), a(nr, nc), da(nr, nc), gs(nr, nc), gfd(nr, nc), v(nr, nc))
  seed = 68
  do j = 1, nc
    call fill(aall(:, j), -1d0, 1d0, seed)
  end do
  a = 0
  if (rank == 0) a = aall
  call loss(a, val)
  call check('row type size', dble(tsize), dble(8 * nc), 0d0)
  call check('row type extent', dble(ext), 8d0, 0d0)
  da = 0
  df = 0
  if (rank == 0) df = 1
  call __enzyme_autodiff(loss, enzyme_dup, a, da, enzyme_dup, f, df)
  if (rank == 0) then
    gs = 0
    call __enzyme_autodiff(serial, enzyme_const, nr, enzyme_dup, aall, gs)
    do j = 1, nc
      do i = 1, nr
        t = aall(i, j); h = fd_step(t)
        aall(i, j) = t + h; fp = serial(nr, aall)
        aall(i, j) = t - h; fm = serial(nr, aall)
        aall(i, j) = t; gfd(i, j) = (fp - fm) / (2 * h)
      end do
    end do
    call check_arr('serial vs fd', reshape(gs, [nr * nc]), reshape(gfd, [nr * nc]), 1d-6)
    call check('value vs serial', val, serial(nr, aall), 1d-12)
    call check_arr('rank 0 gradient vs serial', reshape(da, [nr * nc]), reshape(gs, [nr * nc]), 1d-12)
  else
    call check_arr('other ranks'' gradient is zero', reshape(da, [nr * nc]), &
                   reshape(0 * da, [nr * nc]), 0d0)
  end if
  do j = 1, nc
    call fill(v(:, j), -1d0, 1d0, seed)
  end do
  if (rank /= 0) v = 0
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, a, v, enzyme_dup, f, tf)
  if (rank == 0) call check('forward tangent vs serial gradient . v', tf, sum(gs * v), 1d-10)
  call fz_mpi_report()
end program p68mpi
