! A 1-D heat equation with explicit-shape arrays, automatic arrays and do loops, called
! from C through bind(c) (tests/fortran/01_explicit_shape_from_c.c).
subroutine heat_loss(n, steps, u0, kappa, loss) bind(c, name="heat_loss")
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  integer(c_int), value :: n, steps
  real(c_double), intent(in) :: u0(n)
  real(c_double), intent(in) :: kappa
  real(c_double), intent(out) :: loss
  real(c_double) :: u(n), un(n)
  integer :: i, t
  u = u0
  do t = 1, steps
    do i = 2, n - 1
      un(i) = u(i) + kappa * (u(i - 1) - 2 * u(i) + u(i + 1))
    end do
    un(1) = u(1) * (1 - kappa)
    un(n) = u(n) * (1 - kappa)
    u = un
  end do
  loss = 0
  do i = 1, n
    loss = loss + u(i)**2 * sin(dble(i))
  end do
end subroutine heat_loss
