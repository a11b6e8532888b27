! OPT: O0 O2
! Array idioms of numerical Fortran on values from the input: MATMUL of strided and
! transposed sections (`a(1:n:2, :)`, `transpose(a(1:2, :))`), array constructors with
! implied-do loops (`[(x(i) * i, i = 1, n)]`, nested, with a scalar among them), a
! `pointer` array associated with a section of a `target` array (`p => a(2, :)`) and a
! pointer to a whole allocatable, FINDLOC and MAXLOC choosing elements, DO CONCURRENT
! with a LOCAL temporary, and ASSOCIATE naming a section. Reverse mode against central
! finite differences; forward mode against the reverse gradient.
module m66
  implicit none
  integer, parameter :: n = 6
contains
  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8), target :: a(n, 3)
    real(8), allocatable, target :: w(:)
    real(8), pointer :: p(:), q(:)
    real(8) :: b(3, 3), c(3, 2), v(n + 1), t
    integer :: i, j, k(1), m
    do j = 1, 3
      do i = 1, n
        a(i, j) = x(i) * j + 0.1d0 * (i - j)
      end do
    end do
    b = matmul(transpose(a(1:n:2, :)), a(2:n:2, :))
    c = matmul(b, transpose(a(1:2, :)))
    v = [(x(i) * i, i = 1, n), 0.5d0]
    w = [((x(i) * x(j), i = j, j + 1), j = 1, 3)]
    p => a(2, :)
    q => w
    k = findloc([(mod(i, 3), i = 1, n)], 2)
    m = maxloc(abs(x), dim=1)
    f = sum(c) + dot_product(p, b(:, 2)) + sum(q**2) + v(k(1)) * x(m) + v(n + 1) * x(1)
    do concurrent (i = 1:n) local(t)
      t = sin(v(i))
      a(i, 1) = t * t
    end do
    associate (col => a(:, 1), top => b(1, :))
      f = f + sum(col * x) + top(3) * col(2)
    end associate
  end subroutine loss
end module m66

program p66
  use ferrozyme
  use fz_check
  use m66
  implicit none
  real(8) :: x(n), dx(n), tx(n), f, df, tf, t, h, fx(n), fp, fm
  integer :: i
  x = [0.7d0, -0.4d0, 0.9d0, 0.3d0, -0.6d0, 0.5d0]
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(x, fp)
    x(i) = t - h; call loss(x, fm)
    fx(i) = (fp - fm) / (2 * h)
    x(i) = t
  end do
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  tx = [(0.1d0 * i - 0.35d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx), 1d-10)
  call finish()
end program p66
