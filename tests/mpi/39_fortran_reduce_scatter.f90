! MPI: 2 3 4
! OPT: O0 O2
! ARGS: -lmpi_mpifh
! SOURCES: src/fz_mpi_check.f90
! The Fortran bindings of the reduce-scatters (mpif.h), as a distributed assembly in
! Fortran writes them: every rank's contributions to the whole vector, MPI_REDUCE_SCATTER_BLOCK
! of their sum into this rank's block, MPI_REDUCE_SCATTER with irregular counts k + 1, and
! an MPI_MAX reduce-scatter. They were "this Fortran MPI binding is not differentiated"
! (hpc22): the C wrappers call the composed C routines (runtime/mpi_fortran.c,
! runtime/mpi_composed.c). Every rank seeds its own loss, so the gradient is that of the
! ranks' summed loss, checked against central finite differences of that sum (each
! rank's unknowns perturbed in turn, every rank evaluating).
module m39mpi
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer, parameter :: nl = 4, nb = 3, npmax = 4
contains
  subroutine assemble(x, f)
    real(8), intent(in) :: x(nl)
    real(8), intent(out) :: f
    real(8) :: c(nb * npmax), c2(npmax * (npmax + 1) / 2), c3(nb * npmax)
    real(8) :: y(nb), z(npmax), m(nb)
    integer :: counts(npmax), rank, nproc, ierr, j, total
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    total = 0
    do j = 1, nproc
      counts(j) = j
      total = total + j
    end do
    do j = 1, nb * nproc
      c(j) = sin(x(mod(j - 1, nl) + 1) * (1 + 0.1d0 * j) + 0.2d0 * rank)
      c3(j) = x(mod(j - 1, nl) + 1)**2 * (1 + 0.05d0 * mod(j + 3 * rank, 7)) - 0.1d0 * j
    end do
    do j = 1, total
      c2(j) = x(mod(j + rank - 1, nl) + 1) * (0.3d0 + 0.07d0 * j) + 0.01d0 * rank
    end do
    call mpi_reduce_scatter_block(c, y, nb, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call mpi_reduce_scatter(c2, z, counts, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call mpi_reduce_scatter_block(c3, m, nb, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    f = 0
    do j = 1, nb
      f = f + y(j)**2 * (1 + 0.1d0 * j) + m(j)**2
    end do
    do j = 1, counts(rank + 1)
      f = f + z(j) * cos(z(j))
    end do
  end subroutine assemble

  real(8) function total_loss(x)
    real(8), intent(in) :: x(nl)
    real(8) :: f, s
    integer :: ierr
    call assemble(x, f)
    call mpi_allreduce(f, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    total_loss = s
  end function total_loss
end module m39mpi

program p39mpi
  use ferrozyme
  use fz_check
  use fz_mpi_check, only: fz_mpi_report
  use m39mpi
  implicit none
  real(8) :: x(nl), dx(nl), f, df, t, h, fp, fm
  integer :: rank, nproc, ierr, seed, i, r
  character(len=32) :: name
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  seed = 39 + rank
  call fill(x, -1d0, 1d0, seed)
  dx = 0
  df = 1
  call __enzyme_autodiff(assemble, enzyme_dup, x, dx, enzyme_dup, f, df)
  do r = 0, nproc - 1
    do i = 1, nl
      t = x(i); h = fd_step(t)
      if (rank == r) x(i) = t + h
      fp = total_loss(x)
      if (rank == r) x(i) = t - h
      fm = total_loss(x)
      if (rank == r) then
        x(i) = t
        write (name, '(a,i0,a,i0,a)') 'rank ', r, ' fd(', i, ')'
        call check(trim(name), dx(i), (fp - fm) / (2 * h), 1d-6)
      end if
    end do
  end do
  call fz_mpi_report()
end program p39mpi
