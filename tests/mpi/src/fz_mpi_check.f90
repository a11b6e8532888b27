! fz_mpi_check: the global verdict of a Fortran MPI program (the Fortran twin of
! fz_mpi_finish in tests/mpi/fz_mpi.h): every rank's `fz_check` failures and checks are
! summed, rank 0 prints `PASS (n checks on p ranks)` or `FAIL (...)`, MPI is finalized,
! and every rank stops with status 1 on failure. Uses Open MPI's `mpif.h` (less
! mpif-sizeof.h, generated for gfortran: flang-22 rejects its REAL128). Every rank flushes
! its check lines before the verdict and rank 0 flushes the verdict at once, as in C, so
! that mpirun cannot forward another rank's lines inside it.
module fz_mpi_check
  use fz_check
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
contains
  subroutine fz_mpi_report()
    integer :: mine(2), total(2), rank, nproc, ierr
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
    flush(6)
    mine = [fz_failures, fz_checks]
    call mpi_allreduce(mine, total, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      if (total(1) == 0 .and. total(2) > 0) then
        write (*, '(a,i0,a,i0,a)') 'PASS (', total(2), ' checks on ', nproc, ' ranks)'
      else
        write (*, '(a,i0,a,i0,a)') 'FAIL (', total(1), ' mismatches of ', total(2), ' checks)'
      end if
      flush(6)
    end if
    call mpi_finalize(ierr)
    if (total(1) /= 0 .or. total(2) == 0) stop 1
  end subroutine fz_mpi_report
end module fz_mpi_check
