! The local part of a distributed energy, in Fortran, called from C through bind(c)
! (tests/mpi/11_fortran_kernel.c): a 2-D block with halo columns, `!$omp parallel do
! collapse(2) reduction(+:e)` over it.
subroutine local_energy(nx, ny, u, e) bind(c, name="local_energy")
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  integer(c_int), value :: nx, ny
  real(c_double), intent(in) :: u(0:nx + 1, ny)
  real(c_double), intent(out) :: e
  integer :: i, j
  e = 0
  !$omp parallel do collapse(2) reduction(+:e)
  do j = 1, ny
    do i = 1, nx
      e = e + (u(i + 1, j) - u(i, j))**2 + 0.1d0 * u(i, j)**4 - u(i - 1, j) * u(i, j)
    end do
  end do
  !$omp end parallel do
end subroutine local_energy
