! OPT: O0 O2
! Array syntax as in a scientific code: an `elemental` softplus and a `pure` function
! with an `intent(in)` array, `where`/`elsewhere` with a mask built from the inputs,
! `forall` with a mask, and a `merge`. With s(t) = log(1 + exp(t)):
!   y_i = s(x_i) * w_i                       (elemental, whole array)
!   z_i = x_i**2 where x_i > 0, -w_i * x_i elsewhere
!   u_i = x_i * w_{n+1-i} for i with w_i > 1 (forall with mask), 0 otherwise
!   f   = sum(y) + sum(z) + sum(u) + wsq(x, w)      with pure wsq = sum(w * x**2) / n
! Reverse mode against the formula and central differences; forward mode by the
! dot-product identity. (The inputs keep every x_i and w_i - 1 away from 0.)
module arr39
  implicit none
  integer, parameter :: n = 6
contains
  elemental real(8) function softplus(t)
    real(8), intent(in) :: t
    softplus = log(1 + exp(t))
  end function softplus

  pure real(8) function wsq(x, w)
    real(8), intent(in) :: x(:), w(:)
    wsq = sum(w * x**2) / size(x)
  end function wsq

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: y(n), z(n), u(n)
    integer :: i
    y = softplus(x) * w
    where (x > 0)
      z = x**2
    elsewhere
      z = -w * x
    end where
    u = 0
    forall (i = 1:n, w(i) > 1) u(i) = x(i) * w(n + 1 - i)
    f = sum(y) + sum(z) + sum(u) + wsq(x, w)
  end subroutine loss
end module arr39

program p39
  use ferrozyme
  use fz_check
  use arr39
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  real(8) :: gx(n), gw(n), sig
  integer :: i
  x = [-0.9d0, -0.35d0, 0.2d0, 0.55d0, 0.8d0, -0.6d0]
  w = [0.6d0, 1.3d0, 0.8d0, 1.45d0, 1.1d0, 0.7d0]
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  do i = 1, n
    sig = 1 / (1 + exp(-x(i)))
    gx(i) = sig * w(i) + 2 * w(i) * x(i) / n
    gw(i) = log(1 + exp(x(i))) + x(i)**2 / n
    if (x(i) > 0) then
      gx(i) = gx(i) + 2 * x(i)
    else
      gx(i) = gx(i) - w(i)
      gw(i) = gw(i) - x(i)
    end if
  end do
  do i = 1, n
    if (w(i) > 1) then
      gx(i) = gx(i) + w(n + 1 - i)
      gw(n + 1 - i) = gw(n + 1 - i) + x(i)
    end if
  end do
  call check_arr('df/dx analytic', dx, gx, 1d-12)
  call check_arr('df/dw analytic', dw, gw, 1d-12)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p39
