! OPT: O0 O2
! Elemental intrinsics numerical codes reach for that no other program uses: the
! hyperbolic family (SINH, COSH, TANH, ASINH, ACOSH, ATANH), ERFC, ERFC_SCALED (also
! beyond 26, where the implementation sums the asymptotic series), DIM,
! AINT, ANINT, SIGN, SCALE and FRACTION (flang's
! runtime `_FortranAScale8`, `_FortranAFraction8`, `_FortranAErfcScaled8`), the
! IEEE_ARITHMETIC inquiries IEEE_IS_FINITE/IEEE_IS_NAN, and an EQUIVALENCE of two local
! arrays (writes through one, reads through the other). (NEAREST, which flang computes
! on the bits, and real(10), which flang-22 keeps as fp128, are refused with clear
! errors.) Reverse mode against central finite differences, forward mode by the
! dot-product identity.
module m69
  use, intrinsic :: ieee_arithmetic
  implicit none
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8) :: a(4), b(4)
    integer :: i
    equivalence (a(3), b(1))
    a = [x(1), x(2), x(3), x(4)]
    f = sinh(x(1)) + cosh(x(2)) * tanh(x(3)) + asinh(x(4)) + acosh(2 + x(5)**2) &
        + atanh(0.5d0 * x(6))
    f = f + erfc(x(1)) + erfc_scaled(1 + x(2)**2) + 40 * erfc_scaled(30 + x(3)) &
        + dim(x(3), x(4)) + aint(3.7d0) * x(5) &
        + anint(x(6) * 4) * 0.1d0
    f = f + sign(x(3), x(4)) + scale(x(5), 3) + fraction(x(6))
    f = f + b(1) * b(2) + a(1)
    if (ieee_is_finite(f) .and. .not. ieee_is_nan(x(1))) f = f + 1
    do i = 1, n
      f = f + x(i)**2 / (1 + i)
    end do
  end subroutine loss
end module m69

program p69
  use ferrozyme
  use fz_check
  use m69
  implicit none
  integer, parameter :: n = 6
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: i
  ! Inputs away from the kinks of DIM, SIGN and FRACTION's binade edges, and from
  ! the steps of ANINT.
  x = [0.3d0, -0.2d0, 0.55d0, 0.1d0, -0.4d0, 0.6d0]
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(n, x, fp)
    x(i) = t - h; call loss(n, x, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dx, fd, 1d-6)
  v = [0.7d0, -0.3d0, 0.2d0, 0.9d0, -0.5d0, 0.4d0]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p69
