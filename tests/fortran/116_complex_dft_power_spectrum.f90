! OPT: O0 O2
! Spectral analysis as a scientist writes it in complex(dp): a direct DFT of a windowed
! real signal (`cmplx(x * w, 0, dp)`, twiddles `exp(cmplx(0, -2 pi k j / n, dp))` into an
! allocatable complex array), the power spectrum `abs(z)**2` and `real(z * conjg(z))`,
! a phase-weighted term through `aimag` and `atan2`, and a spectral derivative
! `(0, k) * z` summed back by `sum(real(...))`. The loss weights the spectrum by
! frequency. Reverse mode with respect to the signal and the window against central
! finite differences; forward mode by the dot-product identity.
module m116
  implicit none
  integer, parameter :: dp = kind(1d0)
  real(dp), parameter :: pi = 3.14159265358979323846_dp
contains
  subroutine loss(n, x, w, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n), w(n)
    real(dp), intent(out) :: f
    complex(dp), allocatable :: z(:), s(:)
    complex(dp) :: tw
    integer :: k, j
    allocate (z(0:n - 1))
    s = cmplx(x * w, 0, dp)
    do k = 0, n - 1
      z(k) = (0, 0)
      do j = 0, n - 1
        tw = exp(cmplx(0, -2 * pi * k * j / n, dp))
        z(k) = z(k) + s(j + 1) * tw
      end do
    end do
    f = 0
    do k = 1, n / 2
      f = f + k * abs(z(k))**2 / n + 0.1_dp * real(z(k) * conjg(z(k)), dp) / n
      f = f + 0.05_dp * atan2(aimag(z(k)), real(z(k), dp) + 10)
    end do
    f = f + 0.01_dp * sum(real(cmplx(0, 1, dp) * [(real(k, dp), k = 0, n - 1)] * z, dp))
  end subroutine loss
end module m116

program p116
  use ferrozyme
  use fz_check
  use m116
  implicit none
  integer, parameter :: n = 8
  real(dp) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), vx(n), vw(n), f, df, tf, f2
  integer :: seed
  seed = 116
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, w, dw, &
                         enzyme_dup, f, df)
  call fd_grad2(loss_xw, x, w, n, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, vx, enzyme_dup, w, vw, &
                            enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
contains
  subroutine loss_xw(xx, ww, ff)
    real(dp), intent(in) :: xx(n), ww(n)
    real(dp), intent(out) :: ff
    call loss(n, xx, ww, ff)
  end subroutine loss_xw
end program p116
