! More of flang's array routines inside differentiated code (at -O0 all of them are
! runtime calls, replaced by differentiable implementations): RESHAPE, TRANSPOSE,
! PRODUCT, NORM2, MINVAL, and whole-array assignment into an allocatable. Checked
! against central finite differences.
module m07
  implicit none
contains
  subroutine model(x, y)
    real(8), intent(in) :: x(6)
    real(8), intent(out) :: y
    real(8) :: a(2, 3), t(3, 2)
    real(8), allocatable :: c(:)
    a = reshape(x, [2, 3])
    t = transpose(a)
    c = t(:, 1) * t(:, 2) + 0.5d0
    y = product(c) + norm2(x) + 2 * minval(t) + sum(t(2, :) * a(:, 3))
  end subroutine model
end module m07

program p07
  use ferrozyme
  use fz_check
  use m07
  implicit none
  real(8) :: x(6), dx(6), y, dy, yp, ym, xi, h, want(6)
  integer :: i, seed
  seed = 7
  call fill(x, 0.2d0, 1.5d0, seed)
  x(4) = 0.05d0  ! a clear minimum
  dx = 0; dy = 1
  call __enzyme_autodiff(model, enzyme_dup, x, dx, enzyme_dup, y, dy)
  call model(x, yp)
  call check('y', y, yp, 1d-12)
  do i = 1, 6
    xi = x(i)
    h = fd_step(xi)
    x(i) = xi + h
    call model(x, yp)
    x(i) = xi - h
    call model(x, ym)
    x(i) = xi
    want(i) = (yp - ym) / (2 * h)
  end do
  call check_arr('dx', dx, want, 1d-6)
  call finish()
end program p07
