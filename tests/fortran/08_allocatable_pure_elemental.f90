! OPT: O0 O2
! A module with `contains`: `intent(in)/intent(out)` arguments, an allocatable work array
! allocated and deallocated inside the differentiated routine, a `pure` function and an
! `elemental` function applied to array sections, and the SUM, DOT_PRODUCT, MAXVAL and
! ** intrinsics. Checked against central finite differences and the analytic gradient.
module m08
  implicit none
contains
  pure real(8) function softplus(t)
    real(8), intent(in) :: t
    softplus = log(1d0 + exp(t))
  end function softplus

  elemental real(8) function cube(t)
    real(8), intent(in) :: t
    cube = t**3
  end function cube

  subroutine energy(n, x, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: e
    real(8), allocatable :: w(:)
    integer :: i
    allocate (w(n))
    do i = 1, n
      w(i) = softplus(x(i)) * x(i)
    end do
    w(2:n) = w(2:n) + 0.5d0 * cube(x(1:n - 1))
    e = sum(w) + dot_product(x(1:n:2), w(1:n:2)) + maxval(w)**2 + sqrt(1d0 + sum(x**2))
    deallocate (w)
  end subroutine energy
end module m08

program p08
  use ferrozyme
  use fz_check
  use m08
  implicit none
  integer, parameter :: n = 9
  real(8) :: x(n), dx(n), e, de, want(n), h, ep, em, xi
  integer :: i, seed
  seed = 8
  call fill(x, -1d0, 1d0, seed)
  dx = 0; de = 1
  call __enzyme_autodiff(energy, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, e, de)
  call energy(n, x, ep)
  call check('e', e, ep, 1d-12)
  do i = 1, n
    xi = x(i)
    h = fd_step(xi)
    x(i) = xi + h
    call energy(n, x, ep)
    x(i) = xi - h
    call energy(n, x, em)
    x(i) = xi
    want(i) = (ep - em) / (2 * h)
  end do
  call check_arr('dx fd', dx, want, 1d-6)
  call finish()
end program p08
