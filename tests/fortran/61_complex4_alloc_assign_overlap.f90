! OPT: O0 O2
! complex(4) array assignment through flang's runtime at -O0 (`_FortranAAssign`): an
! allocatable result allocated and then reallocated on assignment to another shape, a
! scalar broadcast into a section, an overlapping shift `a(2:n) = a(1:n-1)` (read
! completely before anything is written), and a TRANSPOSE of an allocatable matrix.
! Reverse mode against central finite differences of the same formula in complex(8)
! (single-precision tolerance), forward mode against the reverse gradient.
module m61
  implicit none
  integer, parameter :: n = 6
contains
  subroutine loss(x, f)
    real(4), intent(in) :: x(n)
    real(4), intent(out) :: f
    complex(4), allocatable :: a(:), m(:, :), t(:, :)
    complex(4) :: b(n)
    integer :: i
    do i = 1, n
      b(i) = cmplx(x(i), x(n + 1 - i) * 0.5, kind=4)
    end do
    a = b(1:3)
    a = b
    a(2:n) = a(1:n - 1)
    a(1) = (0.25, -0.5)
    allocate (m(2, 3))
    do i = 1, n
      m(mod(i - 1, 2) + 1, (i - 1) / 2 + 1) = cmplx(real(a(i)), aimag(a(i)) * x(1), kind=4)
    end do
    t = transpose(m)
    f = 0
    do i = 1, n
      f = f + real(a(i))**2 + aimag(a(i)) * real(b(i))
    end do
    f = f + real(t(3, 1)) * aimag(t(2, 2)) + abs(t(1, 2))**2
  end subroutine loss

  real(8) function loss8(x)
    real(8), intent(in) :: x(n)
    complex(8) :: a(n), b(n), m(2, 3)
    integer :: i
    do i = 1, n
      b(i) = cmplx(x(i), x(n + 1 - i) * 0.5d0, kind=8)
    end do
    a(1) = (0.25d0, -0.5d0)
    a(2:n) = b(1:n - 1)
    do i = 1, n
      m(mod(i - 1, 2) + 1, (i - 1) / 2 + 1) = cmplx(real(a(i)), aimag(a(i)) * x(1), kind=8)
    end do
    loss8 = 0
    do i = 1, n
      loss8 = loss8 + real(a(i))**2 + aimag(a(i)) * real(b(i))
    end do
    loss8 = loss8 + real(m(1, 3)) * aimag(m(2, 2)) + abs(m(2, 1))**2
  end function loss8
end module m61

program p61
  use ferrozyme
  use fz_check
  use m61
  implicit none
  real(4) :: x(n), dx(n), tx(n), f, df, tf
  real(8) :: x8(n), t, h, fx(n), fp
  integer :: i
  x = [0.7, -0.4, 0.9, 0.3, -0.6, 0.5]
  x8 = x
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  call check('value vs complex(8) formula', dble(f), loss8(x8), 1d-5)
  do i = 1, n
    t = x8(i); h = fd_step(t)
    x8(i) = t + h; fp = loss8(x8)
    x8(i) = t - h; fx(i) = (fp - loss8(x8)) / (2 * h)
    x8(i) = t
  end do
  call check_arr('df/dx vs fd', dble(dx), fx, 1d-4)
  tx = [(0.1 * i - 0.35, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', dble(tf), dble(dot_product(dx, tx)), 1d-4)
  call finish()
end program p61
