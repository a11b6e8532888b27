! OPT: O0 O2
! IGNORE-O0: at -O0 flang fills a temporary with the LOGICAL values and copies it into `mask` through _FortranAAssign, whose differentiable implementation also moves reals: type analysis cannot tell the temporary's type (a clear cannot-deduce-type error on the i32 store); passes at -O2
! 20_pack_eoshift_count with the mask in a LOGICAL array variable, as codes keep it
! (`mask = x > 0.1d0`; no derivative flows through it): PACK, COUNT and ANY on the
! mask, EOSHIFT, MAXLOC with MASK=, MERGE and PRODUCT. Reverse mode against central finite
! differences (the mask does not change under the step), forward mode against reverse
! mode (the dot-product identity).
module m21
  implicit none
contains
  subroutine stats(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    real(8), allocatable :: big(:)
    real(8) :: d(n)
    logical :: mask(n)
    integer :: k(1), m
    mask = x > 0.1d0
    m = count(mask)
    big = pack(x, mask)
    d = x - eoshift(x, 1)
    k = maxloc(x, mask=.not. mask)
    y = sum(big**2) / max(m, 1) + 0.5d0 * sum(d**2)
    if (any(mask)) y = y + product(x(1:3) + 2d0)
    if (k(1) > 0) y = y + 0.25d0 * x(k(1))**3
    y = y + sum(merge(x, -x, mask) * 0.1d0)
  end subroutine stats
end module m21

program p21
  use ferrozyme
  use fz_check
  use m21
  implicit none
  integer, parameter :: n = 9
  real(8) :: x(n), dx(n), fx(n), v(n), y, dy, t, h, yp, ym, ty
  integer :: seed, i
  seed = 21
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
end program p21
