! A Fortran module kernel exported with bind(c) (tests/fortran/11_bind_c_module_kernel.c):
! a spring chain's energy with a 2-D coordinate array (column-major), a `pure` helper,
! `intent(inout)` work storage, `real(c_float)` weights and an optional flag argument.
module chain_kernel
  use, intrinsic :: iso_c_binding, only: c_int, c_double, c_float
  implicit none
contains
  pure real(c_double) function spring(a, b, k)
    real(c_double), intent(in) :: a(2), b(2), k
    spring = 0.5d0 * k * (sqrt(sum((a - b)**2)) - 1d0)**2
  end function spring

  subroutine chain_energy(n, pos, w, work, e) bind(c, name="chain_energy")
    integer(c_int), value :: n
    real(c_double), intent(in) :: pos(2, n)
    real(c_float), intent(in) :: w(n)
    real(c_double), intent(inout) :: work(n)
    real(c_double), intent(out) :: e
    integer :: i
    do i = 1, n - 1
      work(i) = spring(pos(:, i), pos(:, i + 1), real(w(i), c_double))
    end do
    work(n) = 0.1d0 * atan2(pos(2, n), pos(1, n))**2
    e = sum(work) + 0.01d0 * maxval(pos(1, :))**2
  end subroutine chain_energy
end module chain_kernel
