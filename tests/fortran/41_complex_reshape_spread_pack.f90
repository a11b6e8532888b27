! OPT: O0 O2
! complex(8) arithmetic and array reshaping together: z_k = cmplx(x_k, w_k),
!   p = sum over k of |z_k**2 + conjg(z_k) * (0.5, 1)|**2       (complex *, +, conjg, abs)
!   M = reshape(x, [2, 3]),  S = spread(w(1:3), 1, 2)  (2x3, rows copies of w(1:3))
!   q = sum(M * S)  = sum_j (x(2j-1) + x(2j)) * w(j)
!   r = sum(pack(x, w > 1)**2)
!   f = p + q + r
! Reverse mode against the analytic gradient and central differences; forward mode by
! the dot-product identity.
module cz41
  implicit none
  integer, parameter :: n = 6
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    complex(8) :: z
    real(8) :: m(2, 3), s(2, 3)
    integer :: k
    f = 0
    do k = 1, n
      z = cmplx(x(k), w(k), kind=8)
      f = f + abs(z * z + conjg(z) * (0.5d0, 1d0))**2
    end do
    m = reshape(x, [2, 3])
    s = spread(w(1:3), 1, 2)
    f = f + sum(m * s) + sum(pack(x, w > 1)**2)
  end subroutine loss
end module cz41

program p41
  use ferrozyme
  use fz_check
  use cz41
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  real(8) :: gx(n), gw(n), a, b, re, im
  integer :: i, j
  x = [-0.9d0, -0.35d0, 0.2d0, 0.55d0, 0.8d0, -0.6d0]
  w = [0.6d0, 1.3d0, 0.8d0, 1.45d0, 1.1d0, 0.7d0]
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  ! Analytic: z = a + ib, z^2 + conj(z)(0.5 + i) = (a^2 - b^2 + 0.5a + b) + i(2ab + a - 0.5b)
  do i = 1, n
    a = x(i); b = w(i)
    re = a * a - b * b + 0.5d0 * a + b
    im = 2 * a * b + a - 0.5d0 * b
    gx(i) = 2 * re * (2 * a + 0.5d0) + 2 * im * (2 * b + 1)
    gw(i) = 2 * re * (-2 * b + 1) + 2 * im * (2 * a - 0.5d0)
    if (w(i) > 1) gx(i) = gx(i) + 2 * x(i)
  end do
  do j = 1, 3
    gx(2 * j - 1) = gx(2 * j - 1) + w(j)
    gx(2 * j) = gx(2 * j) + w(j)
    gw(j) = gw(j) + x(2 * j - 1) + x(2 * j)
  end do
  call check_arr('df/dx analytic', dx, gx, 1d-12)
  call check_arr('df/dw analytic', dw, gw, 1d-12)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p41
