! OPT: O0 O2
! complex(8) arithmetic inside a `do while` convergence loop: the principal square root
! of c = x + i w by Newton's iteration, stopping when |dz| < 1d-14 (a data-dependent trip
! count), then CONJG, EXP of a complex, `**2`, REAL and AIMAG of the sum:
!   z_i = sqrt(x_i + i w_i),  f = Re(s) + 0.5 Im(s),  s = sum(z_i conjg(z_i) e^{i x_i} + z_i^2)
! Since |z|^2 = |c| and z^2 = c, f = sum(|c| (cos x + 0.5 sin x) + x + 0.5 w): reverse
! mode against that formula (1e-9: the derivative of a converged iteration) and central
! differences; forward mode against the reverse gradient (the dot-product identity).
module m49
  implicit none
  integer, parameter :: n = 5
contains
  complex(8) function newton_sqrt(c)
    complex(8), intent(in) :: c
    complex(8) :: z, dz
    integer :: it
    z = (1d0, 0.5d0)
    dz = (1d0, 0d0)
    it = 0
    do while (abs(dz) > 1d-14 .and. it < 60)
      dz = (z * z - c) / (2 * z)
      z = z - dz
      it = it + 1
    end do
    newton_sqrt = z
  end function newton_sqrt

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    complex(8) :: z, s
    integer :: i
    s = (0d0, 0d0)
    do i = 1, n
      z = newton_sqrt(cmplx(x(i), w(i), kind=8))
      s = s + z * conjg(z) * exp(cmplx(0d0, x(i), kind=8)) + z**2
    end do
    f = real(s) + 0.5d0 * aimag(s)
  end subroutine loss
end module m49

program p49
  use ferrozyme
  use fz_check
  use m49
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), r(n), f, df, tf
  integer :: seed, i
  seed = 49
  call fill(x, 0.5d0, 1.5d0, seed)
  call fill(w, -1d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  r = sqrt(x**2 + w**2)
  call check_arr('df/dx analytic', dx, x / r * (cos(x) + 0.5d0 * sin(x)) &
                 + r * (0.5d0 * cos(x) - sin(x)) + 1, 1d-9)
  call check_arr('df/dw analytic', dw, w / r * (cos(x) + 0.5d0 * sin(x)) + 0.5d0, 1d-9)
  tx = [(0.1d0 * i - 0.2d0, i=1, n)]
  tw = [(0.3d0 - 0.07d0 * i, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p49
