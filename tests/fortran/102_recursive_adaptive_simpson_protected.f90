! OPT: O0 O2
! Adaptive quadrature as numerical libraries write it: a `recursive` function that
! splits an interval until the Simpson estimates agree (the refinement pattern depends
! on the inputs through the tolerance test, a branch the derivative follows), the
! integrand's parameters in `protected` module variables set by a module procedure, an
! `error stop` on a depth the program never reaches, `implicit none (type, external)`.
! Reverse mode against central differences (the refinement stays the same under the
! small perturbation); forward mode by the dot-product identity.
module quad102
  implicit none (type, external)
  integer, parameter :: dp = kind(1d0)
  real(dp), protected :: pa = 1, pb = 1, pc = 0
contains
  subroutine set_params(a, b, c)
    real(dp), intent(in) :: a, b, c
    pa = a; pb = b; pc = c
  end subroutine set_params

  real(dp) function g(t)
    real(dp), intent(in) :: t
    g = pa * sin(pb * t) + exp(-(t - pc)**2)
  end function g

  real(dp) function simp(a, b)
    real(dp), intent(in) :: a, b
    simp = (b - a) / 6 * (g(a) + 4 * g((a + b) / 2) + g(b))
  end function simp

  recursive real(dp) function adapt(a, b, whole, tol, depth) result(r)
    real(dp), intent(in) :: a, b, whole, tol
    integer, intent(in) :: depth
    real(dp) :: m, left, right
    if (depth > 40) error stop 'adaptive quadrature: too deep'
    m = (a + b) / 2
    left = simp(a, m)
    right = simp(m, b)
    if (depth >= 3 .and. abs(left + right - whole) < 15 * tol) then
      r = left + right + (left + right - whole) / 15
    else
      r = adapt(a, m, left, tol / 2, depth + 1) + adapt(m, b, right, tol / 2, depth + 1)
    end if
  end function adapt

  subroutine loss(x, w, f)
    real(dp), intent(in) :: x(3), w(3)
    real(dp), intent(out) :: f
    real(dp) :: hi
    call set_params(x(1) * w(1), 2 + x(2), x(3) + w(2))
    hi = 2 + w(3)
    f = adapt(0d0, hi, simp(0d0, hi), 1d-5, 0)
    f = f * f
  end subroutine loss
end module quad102

program p102
  use ferrozyme
  use fz_check
  use quad102
  implicit none
  real(dp) :: x(3), w(3), dx(3), dw(3), fx(3), fw(3), f, df, vx(3), vw(3), tf, f2
  integer :: seed
  seed = 102
  call fill(x, -0.5d0, 0.5d0, seed)
  call fill(w, 0.2d0, 0.8d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, 3, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
end program p102
