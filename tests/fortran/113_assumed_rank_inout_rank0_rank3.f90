! OPT: O0 O2
! Assumed-rank dummies beyond fortran/71's read-only rank 1 and 2: an `intent(inout)`
! `a(..)` scaled in place through SELECT RANK arms for rank 0 (a scalar), rank 1 and
! rank 3 (an allocatable 3D field), the weights read from `shape(a)` and `size(a, dim=)`,
! and a read-only `norm` with a `rank(default)` arm that stops (never taken). The loss
! sums the scaled field, vector and scalar. Reverse mode against central finite
! differences; forward mode by the dot-product identity.
module m113
  implicit none
  integer, parameter :: dp = kind(1d0)
contains
  subroutine scale_in_place(a, s)
    real(dp), intent(inout) :: a(..)
    real(dp), intent(in) :: s
    integer :: i, j, k
    select rank (a)
    rank (0)
      a = a * s + s**2
    rank (1)
      do i = 1, size(a)
        a(i) = a(i) * s * real(i, dp) / size(a)
      end do
    rank (3)
      do k = 1, size(a, 3)
        do j = 1, size(a, 2)
          do i = 1, size(a, 1)
            a(i, j, k) = sin(a(i, j, k)) * s + real(i + j * k, dp) / product(shape(a))
          end do
        end do
      end do
    end select
  end subroutine scale_in_place

  real(dp) function norm(a)
    real(dp), intent(in) :: a(..)
    select rank (a)
    rank (0)
      norm = a**2
    rank (1)
      norm = sum(a**2)
    rank (3)
      norm = sum(a**2) / size(a, 3)
    rank default
      error stop 'norm: unexpected rank'
    end select
  end function norm

  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: f
    real(dp), allocatable :: field(:, :, :)
    real(dp) :: v(4), s0
    field = reshape(x(1:12), [2, 3, 2])
    v = x(9:12) * x(1)
    s0 = x(2)
    call scale_in_place(field, x(3))
    call scale_in_place(v, 1.5_dp + x(4))
    call scale_in_place(s0, x(5))
    f = norm(field) + norm(v) + norm(s0)
  end subroutine loss
end module m113

program p113
  use ferrozyme
  use fz_check
  use m113
  implicit none
  integer, parameter :: n = 12
  real(dp) :: x(n), dx(n), fd(n), v(n), f, df, tf, f2, t, h, fp, fm
  integer :: seed, i
  seed = 113
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
end program p113
