! An array of derived-type particles (position, mass, an integer id) differentiated
! through: a pairwise softened gravitational potential written with `associate`, and
! whole-array component references `p(:)%m` and `p%x(1)`. The shadow is a second
! particle array; the integer component carries nothing. Checked against central finite
! differences for every position and mass.
module m17
  implicit none
  type :: particle
    real(8) :: x(3)
    real(8) :: m
    integer :: id
  end type particle
contains
  subroutine potential(n, p, e)
    integer, intent(in) :: n
    type(particle), intent(in) :: p(n)
    real(8), intent(out) :: e
    integer :: i, j
    real(8) :: r2
    e = 0
    do i = 1, n
      associate (xi => p(i)%x, mi => p(i)%m)
        do j = i + 1, n
          r2 = sum((xi - p(j)%x)**2)
          e = e - mi * p(j)%m / sqrt(r2 + 0.01d0)
        end do
      end associate
    end do
    e = e + 0.5d0 * sum(p(:)%m**2) + sum(p%x(1))
  end subroutine potential
end module m17
program p17
  use ferrozyme
  use fz_check
  use m17
  implicit none
  integer, parameter :: n = 5
  type(particle) :: p(n), dp(n)
  real(8) :: e, de, h, ep, em, t, v(3 * n)
  integer :: i, k, seed
  seed = 17
  call fill(v, -1d0, 1d0, seed)
  do i = 1, n
    p(i)%x = v(3 * i - 2:3 * i)
    p(i)%m = 1d0 + 0.1d0 * i
    p(i)%id = i
    dp(i)%x = 0; dp(i)%m = 0; dp(i)%id = 0
  end do
  de = 1
  call __enzyme_autodiff(potential, enzyme_const, n, enzyme_dup, p, dp, enzyme_dup, e, de)
  do i = 1, n
    do k = 1, 3
      t = p(i)%x(k); h = fd_step(t)
      p(i)%x(k) = t + h; call potential(n, p, ep)
      p(i)%x(k) = t - h; call potential(n, p, em)
      p(i)%x(k) = t
      call check('dx fd', dp(i)%x(k), (ep - em) / (2 * h), 1d-6)
    end do
    t = p(i)%m; h = fd_step(t)
    p(i)%m = t + h; call potential(n, p, ep)
    p(i)%m = t - h; call potential(n, p, em)
    p(i)%m = t
    call check('dm fd', dp(i)%m, (ep - em) / (2 * h), 1d-6)
  end do
  call finish()
end program p17
