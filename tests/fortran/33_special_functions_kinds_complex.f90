! OPT: O0 O2
! Special functions and kinds in one scientific routine: EXP, LOG, SQRT, ATAN2, HYPOT,
! ERF, GAMMA, LOG_GAMMA and BESSEL_J0 of real(8) data, the same model in real(4) (checked
! against the real(8) one), and complex(8) arithmetic (CMPLX, `*`, `/`, ABS, EXP, CONJG,
! REAL/AIMAG) on a transfer function. Every derivative is checked against its analytic
! formula (d erf = 2/sqrt(pi) exp(-x^2), d J0 = -J1, d hypot = x/r, ...) or central
! finite differences; forward mode against reverse mode.
module spec33
  implicit none
  integer, parameter :: dp = kind(1d0), sp = kind(1.0)
contains
  subroutine special(x, f)
    real(dp), intent(in) :: x(6)
    real(dp), intent(out) :: f
    f = exp(0.5_dp * x(1)) + log(x(2)) + sqrt(x(3)) + atan2(x(4), x(5)) + hypot(x(1), x(4)) &
        + erf(x(6)) + gamma(x(3)) + log_gamma(x(2)) + bessel_j0(x(5))
  end subroutine special

  subroutine special4(x, f)
    real(sp), intent(in) :: x(6)
    real(sp), intent(out) :: f
    f = exp(0.5 * x(1)) + log(x(2)) + sqrt(x(3)) + atan2(x(4), x(5)) + hypot(x(1), x(4)) &
        + erf(x(6))
  end subroutine special4

  ! |H(iw)|^2 summed over frequencies, H(s) = (b0 + b1 s) / (s^2 + a1 s + a0), plus the
  ! phase of exp(H) at the first frequency through its real and imaginary parts.
  subroutine response(p, w, n, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: p(4), w(n)
    real(dp), intent(out) :: f
    complex(dp) :: s, h, e
    integer :: k
    f = 0
    do k = 1, n
      s = cmplx(0._dp, w(k), kind=dp)
      h = (p(1) + p(2) * s) / (s * s + p(3) * s + p(4))
      f = f + abs(h)**2 + real(h * conjg(h), dp) * 0.1_dp
    end do
    e = exp(cmplx(0._dp, w(1), kind=dp) * h)
    f = f + aimag(e) - 0.5_dp * real(e, dp)
  end subroutine response
end module spec33

program p33
  use ferrozyme
  use fz_check
  use spec33
  implicit none
  real(dp), parameter :: pi = 3.14159265358979323846_dp
  real(dp) :: x(6), dx(6), an(6), tx(6), f, df, tf, r, p(4), dp4(4), fd(4), w(5), t, h, fp, fm
  real(sp) :: x4(6), dx4(6), f4, df4
  integer :: i
  x = [0.3_dp, 1.7_dp, 2.4_dp, -0.6_dp, 1.1_dp, 0.45_dp]
  dx = 0; df = 1
  call __enzyme_autodiff(special, enzyme_dup, x, dx, enzyme_dup, f, df)
  r = hypot(x(1), x(4))
  an(1) = 0.5_dp * exp(0.5_dp * x(1)) + x(1) / r
  an(2) = 1 / x(2) + (log_gamma(x(2) + 1d-6) - log_gamma(x(2) - 1d-6)) / 2d-6
  an(3) = 0.5_dp / sqrt(x(3)) + (gamma(x(3) + 1d-6) - gamma(x(3) - 1d-6)) / 2d-6
  an(4) = x(5) / (x(4)**2 + x(5)**2) + x(4) / r
  an(5) = -x(4) / (x(4)**2 + x(5)**2) - bessel_j1(x(5))
  an(6) = 2 / sqrt(pi) * exp(-x(6)**2)
  call check_arr('special vs formula', dx, an, 1d-6)
  dx = 0; df = 1
  call __enzyme_autodiff(special, enzyme_dup, x, dx, enzyme_dup, f, df)
  call check('d/dx(1) exact', dx(1), 0.5_dp * exp(0.5_dp * x(1)) + x(1) / r, 1d-12)
  call check('d/dx(5) exact (atan2, J0)', dx(5), -x(4) / (x(4)**2 + x(5)**2) - bessel_j1(x(5)), 1d-12)
  call check('d/dx(6) exact (erf)', dx(6), 2 / sqrt(pi) * exp(-x(6)**2), 1d-12)
  tx = [0.2_dp, -0.1_dp, 0.4_dp, 0.3_dp, -0.5_dp, 0.6_dp]
  tf = 0
  call __enzyme_fwddiff_sub(special, enzyme_dup, x, tx, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx), 1d-10)
  ! real(4): the same derivatives to single precision.
  x4 = real(x, sp); dx4 = 0; df4 = 1
  call __enzyme_autodiff(special4, enzyme_dup, x4, dx4, enzyme_dup, f4, df4)
  an(1) = 0.5_dp * exp(0.5_dp * x(1)) + x(1) / r
  an(2) = 1 / x(2)
  an(3) = 0.5_dp / sqrt(x(3))
  an(4) = x(5) / (x(4)**2 + x(5)**2) + x(4) / r
  an(5) = -x(4) / (x(4)**2 + x(5)**2)
  an(6) = 2 / sqrt(pi) * exp(-x(6)**2)
  call check_arr('real(4) vs real(8) formula', real(dx4, dp), an, 1d-5)
  ! complex(8)
  p = [1.0_dp, 0.4_dp, 0.7_dp, 2.0_dp]
  w = [0.3_dp, 0.8_dp, 1.3_dp, 1.9_dp, 2.6_dp]
  dp4 = 0; df = 1
  call __enzyme_autodiff(response, enzyme_dup, p, dp4, enzyme_const, w, enzyme_const, 5, &
                         enzyme_dup, f, df)
  do i = 1, 4
    t = p(i); h = fd_step(t)
    p(i) = t + h; call response(p, w, 5, fp)
    p(i) = t - h; call response(p, w, 5, fm)
    p(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('complex(8) response vs fd', dp4, fd, 1d-6)
  call finish()
end program p33
