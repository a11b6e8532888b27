! Array syntax a Fortran programmer writes without thinking: a `where`/`elsewhere`
! construct, `forall`, `merge`, `min`/`max`/`abs`/`sign`, integer and real powers, and an
! internal procedure (`contains` inside the subroutine) that reads a host-associated
! variable. Checked against central finite differences (inputs kept away from the kinks).
module m13
  implicit none
contains
  subroutine shaped(n, x, c, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), c
    real(8), intent(out) :: e
    real(8) :: y(n), z(n)
    integer :: i
    where (x > 0d0)
      y = sqrt(x) * c
    elsewhere
      y = -x**3 + c * x
    end where
    forall (i = 1:n) z(i) = y(i) * real(i, 8)**0.5d0
    z = merge(z, 2d0 * z, abs(x) > 0.5d0)
    e = 0
    do i = 1, n
      e = e + weight(i) * max(z(i), 0.1d0 * z(i)) + sign(1d0, x(i)) * min(x(i)**2, 4d0)
    end do
    e = e + log(1d0 + c**2) * sum(abs(y))
  contains
    real(8) function weight(k)
      integer, intent(in) :: k
      weight = exp(-c * k / n)
    end function weight
  end subroutine shaped
end module m13

program p13
  use ferrozyme
  use fz_check
  use m13
  implicit none
  integer, parameter :: n = 8
  real(8) :: x(n), dx(n), c, dc, e, de, fd(n), h, ep, em, t
  integer :: i, seed
  seed = 13
  call fill(x, -1d0, 1d0, seed)
  ! keep |x| away from 0 and 0.5 (the kinks of where, merge and sign)
  do i = 1, n
    if (abs(x(i)) < 0.1d0) x(i) = x(i) + sign(0.2d0, x(i))
    if (abs(abs(x(i)) - 0.5d0) < 0.05d0) x(i) = x(i) * 1.2d0
  end do
  c = 0.8d0
  dx = 0; dc = 0; de = 1
  call __enzyme_autodiff(shaped, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, c, dc, &
                         enzyme_dup, e, de)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call shaped(n, x, c, ep)
    x(i) = t - h; call shaped(n, x, c, em)
    x(i) = t; fd(i) = (ep - em) / (2 * h)
  end do
  call check_arr('dx fd', dx, fd, 1d-6)
  h = fd_step(c)
  call shaped(n, x, c + h, ep)
  call shaped(n, x, c - h, em)
  call check('dc fd', dc, (ep - em) / (2 * h), 1d-6)
  call finish()
end program p13
