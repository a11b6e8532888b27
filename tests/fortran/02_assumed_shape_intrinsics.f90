! Assumed-shape arrays (descriptors) and the intrinsics sum, dot_product, exp, sqrt and
! maxval inside a module, differentiated from Fortran through the `ferrozyme` module's
! __enzyme_autodiff; every derivative checked against an analytic formula and central
! finite differences.
module m02
  implicit none
contains
  ! f(x) = sum(exp(x * w)) + sqrt(dot_product(x, x)) + 3 * maxval(x)
  real(8) function objective(x, w)
    real(8), intent(in) :: x(:), w(:)
    objective = sum(exp(x * w)) + sqrt(dot_product(x, x)) + 3 * maxval(x)
  end function objective

  ! The explicit-shape entry point the hook calls (implicit interfaces pass addresses).
  subroutine loss(n, x, w, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: y
    y = objective(x, w)
  end subroutine loss
end module m02

program p02
  use ferrozyme
  use fz_check
  use m02
  implicit none
  integer, parameter :: n = 9
  real(8) :: x(n), w(n), dx(n), dw(n), y, dy, want(n), h, yp, ym, xi
  integer :: seed, i, imax
  seed = 2
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  x(4) = 2.5d0  ! a clear maximum (maxval's derivative goes to it)
  dx = 0; dw = 0; dy = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, w, dw, &
                         enzyme_dup, y, dy)
  call loss(n, x, w, yp)
  call check('y', y, yp, 1d-12)
  imax = maxloc(x, 1)
  do i = 1, n
    want(i) = w(i) * exp(x(i) * w(i)) + x(i) / sqrt(dot_product(x, x))
    if (i == imax) want(i) = want(i) + 3
  end do
  call check_arr('dx analytic', dx, want, 1d-10)
  do i = 1, n
    want(i) = x(i) * exp(x(i) * w(i))
  end do
  call check_arr('dw analytic', dw, want, 1d-10)
  do i = 1, n
    xi = x(i)
    h = fd_step(xi)
    x(i) = xi + h
    call loss(n, x, w, yp)
    x(i) = xi - h
    call loss(n, x, w, ym)
    x(i) = xi
    want(i) = (yp - ym) / (2 * h)
  end do
  call check_arr('dx fd', dx, want, 1d-6)
  call finish()
end program p02
