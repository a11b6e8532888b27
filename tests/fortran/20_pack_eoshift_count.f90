! OPT: O0 O2
! Array intrinsics of a data-reduction code: PACK of the entries above a threshold (a
! logical mask expression: no derivative flows through it), COUNT and ANY on masks,
! EOSHIFT (zero fill at the ends) for a one-sided difference and along DIM=2 of a 3x3
! view with a BOUNDARY that is a variable (its derivative flows), MAXLOC with MASK=, MERGE,
! and PRODUCT over a small section. Reverse mode against central finite
! differences (the mask does not change under the step), forward mode against reverse
! mode (the dot-product identity). PACK and EOSHIFT are flang runtime calls at -O0 and
! PACK at -O2 too (`_FortranAPack`, `_FortranAEoshiftVector`): they were missing-derivative
! errors. (The same with the mask in a LOGICAL array variable: 21_logical_array_mask.)
module m20
  implicit none
contains
  subroutine stats(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    real(8), allocatable :: big(:)
    real(8) :: d(n), g(3, 3)
    integer :: k(1), m
    m = count(x > 0.1d0)
    big = pack(x, x > 0.1d0)
    d = x - eoshift(x, 1)
    k = maxloc(x, mask=x <= 0.1d0)
    y = sum(big**2) / max(m, 1) + 0.5d0 * sum(d**2)
    if (any(x > 0.1d0)) y = y + product(x(1:3) + 2d0)
    if (k(1) > 0) y = y + 0.25d0 * x(k(1))**3
    y = y + sum(merge(x, -x, x > 0.1d0) * 0.1d0)
    ! a 3x3 view shifted down its columns (DIM=2) with a real boundary that is itself x(1)
    g = eoshift(reshape(x, [3, 3]), shift=-1, boundary=x(1), dim=2)
    y = y + sum(g * reshape(x(n:1:-1), [3, 3]))
  end subroutine stats
end module m20

program p20
  use ferrozyme
  use fz_check
  use m20
  implicit none
  integer, parameter :: n = 9
  real(8) :: x(n), dx(n), fx(n), v(n), y, dy, t, h, yp, ym, ty
  integer :: seed, i
  seed = 20
  call fill(x, -1d0, 1d0, seed)
  call fill(v, -1d0, 1d0, seed)
  ! keep every entry away from the threshold so the mask is the same at x +- h
  where (abs(x - 0.1d0) < 0.05d0) x = x + 0.2d0
  dx = 0; dy = 1
  call __enzyme_autodiff(stats, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, y, dy)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call stats(n, x, yp)
    x(i) = t - h; call stats(n, x, ym)
    x(i) = t; fx(i) = (yp - ym) / (2 * h)
  end do
  call check_arr('dy/dx fd', dx, fx, 1d-6)
  ty = 0
  call __enzyme_fwddiff_sub(stats, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, y, ty)
  call check('forward . v = reverse . v', ty, dot_product(dx, v), 1d-12)
  call finish()
end program p20
