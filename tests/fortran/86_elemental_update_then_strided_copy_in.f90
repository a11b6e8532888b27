! OPT: O0 O1 O2 O3
! A local array updated by an elemental module function, then a strided section of it
! (and a reversed strided section of y) passed to an explicit-shape dummy, reverse and
! forward mode vs central finite differences.
! -O2 was refused (cannot-deduce-type at flang's memcpy of the elemental temporary into b:
! the generic copy-in/copy-out implementations also read floats); such calls of a real(8)
! variable now go to real(8)-only implementations (filetest f31_fortran_copy_in_real8).
module m86
  implicit none
contains
  elemental real(8) function e(u, v)
    real(8), intent(in) :: u, v
    e = sin(u) * v
  end function e

  subroutine upd(m, a, c)
    integer, intent(in) :: m
    real(8), intent(inout) :: a(m)
    real(8), intent(in) :: c(m)
    integer :: k
    do k = 1, m
      a(k) = a(k) + 0.3d0 * sin(c(k)) * a(k)
    end do
  end subroutine upd

  subroutine f(n, x, y, res)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), y(n)
    real(8), intent(out) :: res
    real(8) :: b(n)
    b = 0.5d0 * x
    b = b + e(x, y)
    call upd(size(b(1:n:2)), b(1:n:2), y(n:1:-2))
    res = sum(b * x)
  end subroutine f
end module m86

program p86
  use ferrozyme
  use fz_check
  use m86
  implicit none
  integer, parameter :: n = 7
  real(8) :: x(n), y(n), dx(n), dy(n), vx(n), vy(n), res, dres, want(n), t, h, rp, rm, tan
  integer :: i, seed
  seed = 86
  call fill(x, -1d0, 1d0, seed)
  call fill(y, -1d0, 1d0, seed)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vy, -1d0, 1d0, seed)
  dx = 0; dy = 0; dres = 1
  call __enzyme_autodiff(f, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, res, dres)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call f(n, x, y, rp)
    x(i) = t - h; call f(n, x, y, rm)
    x(i) = t
    want(i) = (rp - rm) / (2 * h)
  end do
  call check_arr('dx fd', dx, want, 1d-6)
  do i = 1, n
    t = y(i); h = fd_step(t)
    y(i) = t + h; call f(n, x, y, rp)
    y(i) = t - h; call f(n, x, y, rm)
    y(i) = t
    want(i) = (rp - rm) / (2 * h)
  end do
  call check_arr('dy fd', dy, want, 1d-6)
  tan = sum(vx * dx) + sum(vy * dy)
  dx = vx; dy = vy; dres = 0
  call __enzyme_fwddiff_sub(f, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, res, dres)
  call check('forward tangent vs the gradient', dres, tan, 1d-10)
  call finish()
end program p86
