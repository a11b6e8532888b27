! OPT: O0 O2
! SPREAD, PACK and CSHIFT of a real(4) array into allocatables, twice (reallocated on
! the second pass): at -O2 flang copies `x` with `memcpy` for the inline CSHIFT and calls
! its library for SPREAD and PACK, which the pass sends to their real(4)-only
! implementations (f43; the generic ones read `x` as floats and doubles by the run-time
! type code, and the copy's type was unknown). f = sum over two passes of
! sum(sin(spread(x, 2, 3))) + sum(pack(x, x > 0)**2) + dot_product(cshift(x, k), x), so
! df/dx(i) = 2 * (3 cos x(i) + [x(i) > 0] 2 x(i)) + (x(i+1) + x(i-1)) + (x(i+2) + x(i-2))
! (cyclic). Reverse mode against that analytic gradient (real(4) tolerance); forward
! mode by the dot-product identity.
module m114
  implicit none
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(4), intent(in) :: x(n)
    real(4), intent(out) :: f
    real(4), allocatable :: s(:, :), p(:), c(:)
    integer :: k
    f = 0
    do k = 1, 2
      s = spread(x, dim=2, ncopies=3)
      p = pack(x, x > 0)
      c = cshift(x, k)
      f = f + sum(sin(s)) + sum(p**2) + dot_product(c, x)
    end do
  end subroutine loss
end module m114

program p114
  use ferrozyme
  use fz_check
  use m114
  implicit none
  integer, parameter :: n = 9
  real(4) :: x(n), dx(n), v(n), f, df, tf, f2
  real(8) :: x8(n), v8(n), want(n), got(n)
  integer :: seed, i, l1, r1, l2, r2
  seed = 114
  call fill(x8, -1d0, 1d0, seed)
  x = real(x8, 4)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    l1 = modulo(i - 2, n) + 1; r1 = modulo(i, n) + 1
    l2 = modulo(i - 3, n) + 1; r2 = modulo(i + 1, n) + 1
    want(i) = 2 * (3 * cos(dble(x(i))) + merge(2 * dble(x(i)), 0d0, x(i) > 0)) &
              + dble(x(l1)) + dble(x(r1)) + dble(x(l2)) + dble(x(r2))
  end do
  got = dble(dx)
  call check_arr('d f / d x vs analytic', got, want, 1d-5)
  call fill(v8, -1d0, 1d0, seed)
  v = real(v8, 4)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', dble(tf), sum(dble(dx) * dble(v)), 1d-5)
  call finish()
end program p114
