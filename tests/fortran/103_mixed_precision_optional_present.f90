! OPT: O0 O2
! Mixed precision as production codes use it: a single-precision (`real(4)`, kind from
! `selected_real_kind(6)`) work array filled from double inputs with `real(..., sp)`,
! a single-precision elemental kernel, accumulation back into double with `real(...,
! dp)`; an `optional` weight array tested with `present` (called with and without it),
! `integer(8)` extents, `tiny`/`huge` guards. Reverse mode against the analytic gradient
! for the inputs that pass through single precision (central differences of a
! single-precision quantity are rounding noise at this step) and central differences
! for the others; forward mode by the dot-product identity.
module mixed103
  implicit none
  integer, parameter :: dp = kind(1d0), sp = selected_real_kind(6)
  integer, parameter :: n = 6
contains
  elemental real(sp) function soft(t)
    real(sp), intent(in) :: t
    soft = t / (1.0_sp + abs(t)) + 0.1_sp * t * t
  end function soft

  real(dp) function wsum(a, m, wt)
    integer(8), intent(in) :: m
    real(dp), intent(in) :: a(m)
    real(dp), intent(in), optional :: wt(m)
    if (present(wt)) then
      wsum = sum(a * wt)
    else
      wsum = sum(a)
    end if
  end function wsum

  subroutine loss(x, w, f)
    real(dp), intent(in) :: x(n), w(n)
    real(dp), intent(out) :: f
    real(sp) :: s(n)
    real(dp) :: d(n), e(n)
    integer(8) :: m
    m = n
    s = soft(real(x * 0.5_dp, sp))
    d = real(s, dp) * w
    e = x**2 * w + tiny(1d0)
    f = wsum(d, m, w) + wsum(e, m)
    f = min(f, huge(1d0)) + log(1 + sum(e))
  end subroutine loss
end module mixed103

program p103
  use ferrozyme
  use fz_check
  use mixed103
  implicit none
  real(dp) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), f, df, vx(n), vw(n), tf, f2
  real(dp) :: ax(n), e(n), t
  integer :: seed, i
  seed = 103
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.3d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  ! x reaches the loss through single precision: central differences of a
  ! single-precision quantity carry its rounding (1e-7 relative, divided by the step),
  ! so the x-gradient is checked against the analytic formula evaluated in double
  ! precision (soft'(t) = 1/(1+|t|)**2 + 0.2 t at t = x/2); w enters in double only.
  e = x**2 * w
  do i = 1, n
    t = 0.5d0 * x(i)
    ax(i) = w(i)**2 * (1 / (1 + abs(t))**2 + 0.2d0 * t) * 0.5d0 &
            + 2 * x(i) * w(i) * (1 + 1 / (1 + sum(e)))
  end do
  call check_arr('d f / d x vs analytic', dx, ax, 1d-5)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-6)
  call finish()
end program p103
