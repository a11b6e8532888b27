! OPT: O0 O2
! Array styles of numerical Fortran in one loss: an assumed-shape 2-D dummy walked with
! LBOUND/UBOUND (the actual argument declared with bounds 0:3 and -1:1, so the dummy's
! start at 1 matters), MATMUL(TRANSPOSE(a), b), NORM2 of a column, DOT_PRODUCT of two
! strided sections, WHERE/ELSEWHERE on a temporary, a PURE ELEMENTAL function over a
! matrix, an OPTIONAL weight tested with PRESENT() (called with and without it), and an
! internal (CONTAINS) procedure that reads and updates its host's variables. Reverse mode
! against central finite differences of the same routine, forward mode against the
! reverse gradient.
module m63
  implicit none
contains
  pure elemental real(8) function soft(x)
    real(8), intent(in) :: x
    soft = x / (1.0d0 + x * x)
  end function soft

  real(8) function framed(a, w)
    real(8), intent(in) :: a(:, :)
    real(8), intent(in), optional :: w
    integer :: i, j
    framed = 0
    do j = lbound(a, 2), ubound(a, 2)
      do i = lbound(a, 1), ubound(a, 1)
        framed = framed + a(i, j) * (i + 0.5d0 * j)
      end do
    end do
    if (present(w)) framed = framed * w
  end function framed

  subroutine loss(x, f)
    real(8), intent(in) :: x(12)
    real(8), intent(out) :: f
    real(8) :: a(0:3, -1:1), b(4, 2), c(3, 2), t(4, 3)
    real(8) :: acc
    integer :: i, j
    acc = 0
    do j = -1, 1
      do i = 0, 3
        a(i, j) = x(1 + i + 4 * (j + 1))
      end do
    end do
    do j = 1, 2
      do i = 1, 4
        b(i, j) = x(i + 4 * (j - 1)) * x(13 - i - j)
      end do
    end do
    c = matmul(transpose(a), b)
    t = soft(a)
    where (t > 0.0d0)
      t = t * t
    elsewhere
      t = -0.5d0 * t
    end where
    call add(framed(a))
    call add(framed(t, x(3)))
    call add(norm2(c(:, 2)))
    call add(dot_product(a(0:3:2, 0), a(1:3:2, 1)))
    f = acc + sum(c) * 0.1d0
  contains
    subroutine add(v)
      real(8), intent(in) :: v
      acc = acc * 0.9d0 + v
    end subroutine add
  end subroutine loss
end module m63

program p63
  use ferrozyme
  use fz_check
  use m63
  implicit none
  real(8) :: x(12), dx(12), tx(12), f, df, tf, t, h, fp, fm, fx(12)
  integer :: i
  x = [(0.3d0 * sin(1.7d0 * i) + 0.1d0, i=1, 12)]
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, 12
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(x, fp)
    x(i) = t - h; call loss(x, fm)
    fx(i) = (fp - fm) / (2 * h)
    x(i) = t
  end do
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  tx = [(0.05d0 * i - 0.3d0, i=1, 12)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx), 1d-10)
  call finish()
end program p63
