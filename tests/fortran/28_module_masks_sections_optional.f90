! OPT: O0 O2
! A Fortran module as numerical codes write it: `elemental` and `pure` functions applied
! to whole arrays and strided sections (`a(1:n:2)`, `a(n:1:-3)`), `where`/`elsewhere`
! masks, `forall` with a mask, RESHAPE/TRANSPOSE/SPREAD to build a matrix, MAXVAL and
! MINLOC picking entries, an `optional` argument tested with `present()` (called with and
! without it), and an allocatable array of a derived type (each element with an
! allocatable component) allocated and filled inside the differentiated routine and
! deallocated explicitly before it returns. Reverse mode is checked against central
! finite differences, forward mode against reverse mode.
module m28
  implicit none
  integer, parameter :: seed0 = 28
  integer, parameter :: n = 12
  type cell
    real(8) :: c
    real(8), allocatable :: v(:)
  end type cell
contains
  elemental real(8) function soft(t, s)
    real(8), intent(in) :: t, s
    soft = t / sqrt(1d0 + (s * t)**2)
  end function soft

  pure real(8) function wsum(a, b)
    real(8), intent(in) :: a(:), b(:)
    wsum = sum(a * b) + 0.5d0 * sum(a**2)
  end function wsum

  pure real(8) function scaled(a, scale)
    real(8), intent(in) :: a(:)
    real(8), intent(in), optional :: scale
    if (present(scale)) then
      scaled = scale * sum(a)
    else
      scaled = sum(a) / size(a)
    end if
  end function scaled

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: y(n), z(n), m(3, 4), mt(4, 3), sp(3, n / 2), odd(n / 2)
    type(cell), allocatable :: cells(:)
    integer :: i, k
    y = soft(x, 0.7d0)
    odd = soft(x(1:n:2), w(2:n:2))
    where (x > 0d0)
      z = x * w
    elsewhere (x < -0.5d0)
      z = -x**2
    elsewhere
      z = sin(x)
    end where
    forall (i = 1:n, w(i) > 1d0) z(i) = z(i) + 0.1d0 * y(i)
    m = reshape(y, [3, 4])
    mt = transpose(m)
    sp = spread(odd, 1, 3)
    allocate(cells(3))
    do k = 1, 3
      allocate(cells(k)%v(4))
      cells(k)%v = mt(:, k) * w(k)
      cells(k)%c = maxval(cells(k)%v) + x(minloc(w(1:4), 1))
    end do
    f = wsum(z, w) + wsum(x(n:1:-3), y(1:n:3)) + scaled(odd) + scaled(z(2:n:2), 0.3d0)
    f = f + sum(sp(2, :) * w(1:n / 2)) + sum(mt(2:4, 1:3:2))
    do k = 1, 3
      f = f + cells(k)%c * dot_product(cells(k)%v, x(k:k + 3))
      deallocate(cells(k)%v)
    end do
    deallocate(cells)
  end subroutine loss
end module m28

program p28
  use m28
  include 'src/check_loss_xw.inc'
end program p28
