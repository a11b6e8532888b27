! OPT: O0 O2
! An internal procedure that reads its host's variables, passed as an actual argument
! (flang passes it through a trampoline that adds the host-link tuple of the host's
! variables to each call) to a module's integrator with a `procedure(integrand)` dummy: Simpson's rule
! over a parameterised integrand whose parameters come from the differentiated inputs,
! and a second internal procedure passed to a Newton solver (`abstract interface`) whose
! root enters the loss. Reverse mode against central differences; forward mode by the
! dot-product identity. At -O0 the calls through the trampolines are made direct calls
! in the clone being differentiated (f43: `trampolines.rs`; an unsupported-instruction
! error before).
module quad96
  implicit none
  integer, parameter :: dp = kind(1d0)
  abstract interface
    real(dp) function integrand(t)
      import :: dp
      real(dp), intent(in) :: t
    end function integrand
  end interface
contains
  real(dp) function simpson(g, a, b, m)
    procedure(integrand) :: g
    real(dp), intent(in) :: a, b
    integer, intent(in) :: m
    real(dp) :: h
    integer :: k
    h = (b - a) / (2 * m)
    simpson = g(a) + g(b)
    do k = 1, 2 * m - 1
      simpson = simpson + merge(4, 2, mod(k, 2) == 1) * g(a + k * h)
    end do
    simpson = simpson * h / 3
  end function simpson

  real(dp) function newton(g, dg, x0)
    procedure(integrand) :: g, dg
    real(dp), intent(in) :: x0
    integer :: k
    newton = x0
    do k = 1, 8
      newton = newton - g(newton) / dg(newton)
    end do
  end function newton

  subroutine loss(x, w, f)
    real(dp), intent(in) :: x(3), w(3)
    real(dp), intent(out) :: f
    real(dp) :: amp, rate, shift, r
    amp = x(1) * w(1)
    rate = 1 + x(2)**2
    shift = x(3) + w(2)
    f = simpson(bump, 0d0, 1d0 + w(3), 6)
    r = newton(cubic, dcubic, 1.5d0)
    f = f + r * r + amp * r
  contains
    real(dp) function bump(t)
      real(dp), intent(in) :: t
      bump = amp * exp(-rate * (t - shift)**2)
    end function bump
    real(dp) function cubic(t)
      real(dp), intent(in) :: t
      cubic = t**3 - rate * t - amp - 2
    end function cubic
    real(dp) function dcubic(t)
      real(dp), intent(in) :: t
      dcubic = 3 * t**2 - rate
    end function dcubic
  end subroutine loss
end module quad96

program p96
  use ferrozyme
  use fz_check
  use quad96
  implicit none
  real(dp) :: x(3), w(3), dx(3), dw(3), fx(3), fw(3), f, df, vx(3), vw(3), tf, f2
  integer :: seed
  seed = 96
  call fill(x, -0.5d0, 0.5d0, seed)
  call fill(w, 0.2d0, 0.8d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss_xw, x, w, 3, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
contains
  subroutine loss_xw(xx, ww, ff)
    real(dp), intent(in) :: xx(3), ww(3)
    real(dp), intent(out) :: ff
    call loss(xx, ww, ff)
  end subroutine loss_xw
end program p96
