! OPT: O0 O1 O2 O3
! RESHAPE of an active array with PAD= and ORDER= (flang -O2 keeps the `_FortranAReshape`
! call for these), NORM2 of a whole array and along a dimension, MAXVAL/MINVAL/SUM with
! DIM=, and MATMUL of two reshaped arrays, in one loss. Reverse mode against central
! finite differences, forward mode by the dot-product identity.
module m88
  implicit none
  integer, parameter :: dp = kind(1d0)
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: f
    real(dp) :: a(3, 4), b(4, 3), c(3, 3), e(3, 4)
    a = reshape(x(1:10), [3, 4], pad=[1.5_dp, -0.5_dp], order=[2, 1])
    b = reshape(x(3:n), [4, 3], pad=[0.25_dp])
    c = matmul(a, b)
    e = a * x(2) + 0.1_dp
    f = norm2(c) + sum(norm2(e, dim=1)**2) + sum(maxval(a, dim=2)) &
        - 0.5_dp * sum(minval(b, dim=1)) + 0.1_dp * sum(sum(c, dim=2)**2)
  end subroutine loss
end module m88

program p88
  use ferrozyme
  use fz_check
  use m88
  implicit none
  integer, parameter :: n = 12
  real(dp) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 88
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(n, x, fp)
    x(i) = t - h; call loss(n, x, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dx, fd, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p88
