! OPT: O0 O2
! Optional arguments and character arguments beside real ones, as a library routine
! takes them: `penalty(x, w, mode, scale, weights)` with `character(len=*) :: mode`
! (selected with `select case` and compared with `==`, `trim`), an `optional` real scale
! tested with `present`, and an `optional` array. The differentiated loss calls it
! three ways:
!   p1 = penalty(x, w, 'l2')                 = sum(x**2) / 2
!   p2 = penalty(x, w, 'weighted', 3.0)      = 3 * sum(w * x**2) / 2
!   p3 = penalty(x, w, 'abs  ', weights=w)   = sum(w * sqrt(x**2 + 1d-2))
!   f  = p1 + p2 + p3
! Reverse against the formula and central differences; forward by the dot-product identity.
module opt42
  implicit none
  integer, parameter :: n = 5
contains
  real(8) function penalty(x, w, mode, scale, weights)
    real(8), intent(in) :: x(n), w(n)
    character(len=*), intent(in) :: mode
    real(8), intent(in), optional :: scale
    real(8), intent(in), optional :: weights(n)
    real(8) :: s
    s = 1
    if (present(scale)) s = scale
    select case (trim(mode))
    case ('l2')
      penalty = s * sum(x**2) / 2
    case ('weighted')
      penalty = s * sum(w * x**2) / 2
    case default
      if (trim(mode) == 'abs' .and. present(weights)) then
        penalty = s * sum(weights * sqrt(x**2 + 1d-2))
      else
        penalty = 0
      end if
    end select
  end function penalty

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    f = penalty(x, w, 'l2') + penalty(x, w, 'weighted', 3d0) &
        + penalty(x, w, 'abs  ', weights=w)
  end subroutine loss
end module opt42

program p42
  use ferrozyme
  use fz_check
  use opt42
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  real(8) :: gx(n), gw(n)
  integer :: seed, i
  seed = 42
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  gx = x + 3 * w * x + w * x / sqrt(x**2 + 1d-2)
  gw = 1.5d0 * x**2 + sqrt(x**2 + 1d-2)
  call check_arr('df/dx analytic', dx, gx, 1d-12)
  call check_arr('df/dw analytic', dw, gw, 1d-12)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p42
