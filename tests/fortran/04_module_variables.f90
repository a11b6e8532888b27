! Module variables: `gain` is read inside the differentiated code and `state` is written
! and read there (its derivative flows through a shadow of the module variable, as for
! a C global). Differentiated from Fortran; checked against finite differences and the
! analytic gradient.
module m04
  implicit none
  real(8) :: gain = 1.5d0
  real(8) :: state(4)
contains
  subroutine model(x, y)
    real(8), intent(in) :: x(4)
    real(8), intent(out) :: y
    integer :: i
    do i = 1, 4
      state(i) = gain * x(i)**2
    end do
    y = 0
    do i = 1, 4
      y = y + state(i) * state(mod(i, 4) + 1)
    end do
  end subroutine model
end module m04

program p04
  use ferrozyme
  use fz_check
  use m04
  implicit none
  real(8) :: x(4), dx(4), y, dy, want(4), h, yp, ym, xi
  integer :: i, seed, nxt, prv
  seed = 4
  call fill(x, -1d0, 1d0, seed)
  dx = 0; dy = 1
  call __enzyme_autodiff(model, enzyme_dup, x, dx, enzyme_dup, y, dy)
  call model(x, yp)
  call check('y', y, yp, 1d-12)
  ! y = sum_i g^2 x_i^2 x_{i+1}^2 (cyclic): dy/dx_i = 2 g^2 x_i (x_{i+1}^2 + x_{i-1}^2)
  do i = 1, 4
    nxt = mod(i, 4) + 1
    prv = mod(i + 2, 4) + 1
    want(i) = 2 * gain**2 * x(i) * (x(nxt)**2 + x(prv)**2)
  end do
  call check_arr('dx analytic', dx, want, 1d-10)
  do i = 1, 4
    xi = x(i)
    h = fd_step(xi)
    x(i) = xi + h
    call model(x, yp)
    x(i) = xi - h
    call model(x, ym)
    x(i) = xi
    want(i) = (yp - ym) / (2 * h)
  end do
  call check_arr('dx fd', dx, want, 1d-6)
  call finish()
end program p04
