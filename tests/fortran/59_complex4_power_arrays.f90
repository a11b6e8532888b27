! OPT: O0 O2
! complex(4) data, as single-precision spectral and electromagnetics codes hold them:
! `z**k` with an integer power (flang's `_FortranAcpowi`, a `<2 x float>` by value in one
! register at -O0), SUM and DOT_PRODUCT of complex(4) arrays, a complex(4) array
! assignment, and MATMUL of a TRANSPOSE, built from real(4) inputs. Reverse mode against central finite differences
! in real(8) arithmetic of the same formula (single-precision tolerance), forward mode
! against the reverse gradient (the dot-product identity).
module m59
  implicit none
  integer, parameter :: n = 5
contains
  subroutine loss(x, y, f)
    real(4), intent(in) :: x(n), y(n)
    real(4), intent(out) :: f
    complex(4) :: a(n), b(n), z, s, d, c(2, 2), m(2, 2)
    integer :: i
    do i = 1, n
      a(i) = cmplx(x(i), 0.5 * y(i), kind=4)
    end do
    b = a
    z = cmplx(x(1), y(2), kind=4)
    s = sum(b) + z**3
    d = dot_product(a, b)
    c(:, 1) = a(1:2)
    c(:, 2) = a(3:4)
    m = matmul(transpose(c), c)
    f = real(s) * aimag(s) + real(d) + 0.5 * abs(z**(-2)) + real(sum(m)) - aimag(m(1, 2))
  end subroutine loss

  real(8) function loss8(x, y)
    real(8), intent(in) :: x(n), y(n)
    complex(8) :: a(n), z, s, d, c(2, 2), m(2, 2)
    integer :: i, j, k
    do i = 1, n
      a(i) = cmplx(x(i), 0.5d0 * y(i), kind=8)
    end do
    z = cmplx(x(1), y(2), kind=8)
    s = sum(a) + z * z * z
    d = sum(conjg(a) * a)
    c(:, 1) = a(1:2)
    c(:, 2) = a(3:4)
    do j = 1, 2
      do i = 1, 2
        m(i, j) = 0
        do k = 1, 2
          m(i, j) = m(i, j) + c(k, i) * c(k, j)
        end do
      end do
    end do
    loss8 = real(s) * aimag(s) + real(d) + 0.5d0 / abs(z * z) + real(sum(m)) - aimag(m(1, 2))
  end function loss8
end module m59

program p59
  use ferrozyme
  use fz_check
  use m59
  implicit none
  real(4) :: x(n), y(n), dx(n), dy(n), tx(n), ty(n), f, df, tf
  real(8) :: x8(n), y8(n), t, h, fx(n), fy(n)
  integer :: i
  x = [0.7, -0.4, 0.9, 0.3, -0.6]
  y = [0.2, 0.8, -0.5, 0.6, 0.4]
  x8 = x; y8 = y
  dx = 0; dy = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, f, df)
  call check('value vs real(8) formula', dble(f), loss8(x8, y8), 1d-5)
  do i = 1, n
    t = x8(i); h = fd_step(t)
    x8(i) = t + h; fx(i) = loss8(x8, y8)
    x8(i) = t - h; fx(i) = (fx(i) - loss8(x8, y8)) / (2 * h)
    x8(i) = t
    t = y8(i); h = fd_step(t)
    y8(i) = t + h; fy(i) = loss8(x8, y8)
    y8(i) = t - h; fy(i) = (fy(i) - loss8(x8, y8)) / (2 * h)
    y8(i) = t
  end do
  call check_arr('df/dx vs fd', dble(dx), fx, 1d-4)
  call check_arr('df/dy vs fd', dble(dy), fy, 1d-4)
  tx = [(0.1 * i - 0.25, i=1, n)]
  ty = [(0.05 * i - 0.1, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, y, ty, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', dble(tf), dble(dot_product(dx, tx) + dot_product(dy, ty)), 1d-4)
  call finish()
end program p59
