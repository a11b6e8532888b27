! OPT: O0 O2
! MOD and MODULO of real(8) and real(4) arguments (flang calls `_FortranAModReal8`,
! `_FortranAModuloReal4`, ... even at -O2; the random-program tester found them refused
! with "no derivative"), elementally over arrays with negative values and a negative P,
! differentiated with respect to both A and P in reverse and forward mode. Checked against
! the analytic derivatives (d mod(a, p) / da = 1, / dp = -aint(a / p); MODULO: 1 and
! -floor(a / p)) and central finite differences.
module m84
  implicit none
contains
  subroutine loss(n, a, p, q, r)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n), p, q
    real(8), intent(out) :: r
    real(4) :: a4(n), p4
    integer :: i
    a4 = real(a, 4); p4 = real(q, 4)
    r = 0
    do i = 1, n
      r = r + sin(mod(a(i), p)) + 0.5d0 * modulo(a(i), -p) * a(i)
      r = r + 0.25d0 * mod(a4(i), p4) + 0.125d0 * modulo(a4(i), p4)
    end do
  end subroutine loss
end module m84

program p84
  use ferrozyme
  use fz_check
  use m84
  implicit none
  integer, parameter :: n = 8
  real(8) :: a(n), da(n), p, dp, q, dq, r, dr, want(n), wp, wq, t, h, rp, rm, tan_fd, tang
  real(8) :: va(n)
  real(4) :: a4
  integer :: i, seed
  seed = 84
  call fill(a, -3.1d0, 3.3d0, seed)
  call fill(va, -1d0, 1d0, seed)
  ! a(i) and q exactly representable in real(4), so that the real(4) part is smooth here
  do i = 1, n
    a(i) = dble(real(a(i), 4))
  end do
  p = 0.83d0; q = dble(real(-1.37d0, 4))
  da = 0; dp = 0; dq = 0; dr = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, a, da, enzyme_dup, p, dp, &
                         enzyme_dup, q, dq, enzyme_dup, r, dr)
  wp = 0; wq = 0
  do i = 1, n
    a4 = real(a(i), 4)
    want(i) = cos(mod(a(i), p)) + 0.5d0 * (modulo(a(i), -p) + a(i)) + 0.25d0 + 0.125d0
    wp = wp - cos(mod(a(i), p)) * aint(a(i) / p) + 0.5d0 * a(i) * floor(a(i) / (-p))
    wq = wq - 0.25d0 * aint(dble(a4) / q) - 0.125d0 * floor(dble(a4) / q)
  end do
  call check_arr('d/da analytic', da, want, 1d-6)
  call check('d/dp analytic', dp, wp, 1d-12)
  call check('d/dq analytic', dq, wq, 1d-5)
  ! steps of 1e-3: the real(4) part of the loss rounds its arguments to real(4)
  do i = 1, n
    t = a(i); h = 1d-3
    a(i) = t + h; call loss(n, a, p, q, rp)
    a(i) = t - h; call loss(n, a, p, q, rm)
    a(i) = t
    want(i) = (rp - rm) / (2 * h)
  end do
  call check_arr('d/da fd', da, want, 2d-3)
  t = p; h = 1d-6
  p = t + h; call loss(n, a, p, q, rp)
  p = t - h; call loss(n, a, p, q, rm)
  p = t
  call check('d/dp fd', dp, (rp - rm) / (2 * h), 1d-6)
  t = q; h = 1d-3
  q = t + h; call loss(n, a, p, q, rp)
  q = t - h; call loss(n, a, p, q, rm)
  q = t
  call check('d/dq fd', dq, (rp - rm) / (2 * h), 2d-3)
  ! forward mode along (va, 1, 0): the dot product with the gradient
  da = va; dp = 1; dq = 0; dr = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, a, da, enzyme_dup, p, dp, &
                            enzyme_dup, q, dq, enzyme_dup, r, dr)
  tang = wp
  do i = 1, n
    a4 = real(a(i), 4)
    tang = tang + va(i) * (cos(mod(a(i), p)) + 0.5d0 * (modulo(a(i), -p) + a(i)) + 0.375d0)
  end do
  call check('forward tangent analytic', dr, tang, 1d-6)
  call finish()
end program p84
