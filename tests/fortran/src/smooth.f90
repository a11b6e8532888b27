! Allocatable arrays, allocation on assignment, array sections and whole-array
! expressions, called from C through bind(c) (tests/fortran/03_allocatable_from_c.c).
subroutine smooth_energy(n, x, e) bind(c, name="smooth_energy")
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  integer(c_int), value :: n
  real(c_double), intent(in) :: x(n)
  real(c_double), intent(out) :: e
  real(c_double), allocatable :: y(:), z(:)
  allocate (y(n))
  y = x * x + 0.5d0 * x
  z = exp(-y)
  y(2:n - 1) = (z(1:n - 2) + z(3:n)) * 0.5d0 + y(2:n - 1)
  e = sum(y * z) + sqrt(sum(z**2))
  deallocate (y)
end subroutine smooth_energy
