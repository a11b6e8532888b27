! OMP_THREADS: 1 2
! `!$omp parallel do` in Fortran: a reduction(+:s) (flang combines it under a lock,
! rewritten to an atomic update before differentiation) and a stencil writing shared
! arrays, differentiated from Fortran through the `ferrozyme` module in reverse and
! forward mode; checked against the analytic derivatives.
module m06
  implicit none
contains
  subroutine weighted_sumsq(n, x, s)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: s
    integer :: i
    s = 0
    !$omp parallel do reduction(+:s)
    do i = 1, n
      s = s + x(i)**2 * (1 + 0.1d0 * i)
    end do
    !$omp end parallel do
  end subroutine weighted_sumsq

  subroutine smooth(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(inout) :: y(n)
    integer :: i
    !$omp parallel do
    do i = 2, n - 1
      y(i) = exp(x(i - 1)) + x(i) * x(i + 1)
    end do
    !$omp end parallel do
  end subroutine smooth
end module m06

program p06
  use ferrozyme
  use fz_check
  use m06
  implicit none
  integer, parameter :: n = 40
  real(8) :: x(n), dx(n), s, ds, want(n), y(n), dy(n), v(n)
  integer :: i, seed
  seed = 16
  call fill(x, -1d0, 1d0, seed)
  dx = 0; ds = 1
  call __enzyme_autodiff(weighted_sumsq, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, s, ds)
  do i = 1, n
    want(i) = 2 * x(i) * (1 + 0.1d0 * i)
  end do
  call check_arr('d sumsq', dx, want, 1d-12)
  dx = 0; y = 0; dy = 1
  call __enzyme_autodiff(smooth, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, y, dy)
  want = 0
  do i = 2, n - 1
    want(i - 1) = want(i - 1) + exp(x(i - 1))
    want(i) = want(i) + x(i + 1)
    want(i + 1) = want(i + 1) + x(i)
  end do
  call check_arr('d smooth', dx, want, 1d-12)
  ! Forward mode: tangents along v.
  call fill(v, -1d0, 1d0, seed)
  y = 0; dy = 0
  call __enzyme_fwddiff_sub(smooth, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, y, dy)
  do i = 2, n - 1
    want(i) = exp(x(i - 1)) * v(i - 1) + v(i) * x(i + 1) + x(i) * v(i + 1)
  end do
  call check_arr('tangent smooth', dy(2:n - 1), want(2:n - 1), 1d-12)
  ds = 0
  call __enzyme_fwddiff_sub(weighted_sumsq, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, s, ds)
  call check('tangent sumsq', ds, sum(2 * x * v * [(1 + 0.1d0 * i, i = 1, n)]), 1d-12)
  call finish()
end program p06
