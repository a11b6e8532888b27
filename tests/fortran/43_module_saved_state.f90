! OPT: O0 O2
! A module with `save`d state, as physics codes keep their tables: a coefficient table
! filled on the first call (a saved `logical :: ready` guard), a call counter, and a
! saved scratch array reused by every call. None of it depends on x or w; the scratch
! array carries x through one call. With c_i = 1 / (i + 1):
!   scratch = c * x ;  f = sum(scratch * w) + sum(scratch**2) * w(1)
! The derivative is the first call (it fills the table), the finite differences and
! forward mode come after: the result must not depend on which call filled it. Reverse
! against the formula and central differences; forward by the dot-product identity; the
! counter counts every call, the derivatives' included.
module state43
  implicit none
  integer, parameter :: n = 5
  logical, save :: ready = .false.
  integer, save :: calls = 0
  real(8), save :: coef(n)
  real(8), save :: scratch(n)
contains
  subroutine setup()
    integer :: i
    do i = 1, n
      coef(i) = 1d0 / (i + 1)
    end do
    ready = .true.
  end subroutine setup

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    if (.not. ready) call setup()
    calls = calls + 1
    scratch = coef * x
    f = sum(scratch * w) + sum(scratch**2) * w(1)
  end subroutine loss
end module state43

program p43
  use ferrozyme
  use fz_check
  use state43
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  real(8) :: gx(n), gw(n), c(n)
  integer :: seed, i
  seed = 43
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call check('table filled inside the derivative', merge(1d0, 0d0, ready), 1d0, 0d0)
  call check('one call counted', real(calls, 8), 1d0, 0d0)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  c = [(1d0 / (i + 1), i=1, n)]
  gx = c * w + 2 * c**2 * x * w(1)
  gw = c * x
  gw(1) = gw(1) + sum((c * x)**2)
  call check_arr('df/dx analytic', dx, gx, 1d-12)
  call check_arr('df/dw analytic', dw, gw, 1d-12)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call check('calls counted', real(calls, 8), 2d0 + 4 * n, 0d0)
  call finish()
end program p43
