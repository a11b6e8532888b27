! OMP_THREADS: 1 2
! OPT: O0 O2
! OpenMP in a Fortran module the way a scientist writes it: `!$omp parallel do` with
! `private` temporaries and `reduction(+:e)` calling a module function, a
! `schedule(static, 2)` loop writing an output array, and `lastprivate`. (A
! `reduction(max:)` of a real is differentiated too: tests/openmp/19.) Reverse mode is checked against central finite differences, forward
! mode against reverse mode (the dot-product identity).
module m12
  implicit none
contains
  real(8) function pair(a, b)
    real(8), intent(in) :: a, b
    pair = a * b / (1d0 + a * a)
  end function pair

  subroutine energy(n, x, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: e
    real(8) :: t, u, last
    integer :: i
    e = 0
    last = 0
    !$omp parallel do private(t, u) reduction(+:e) lastprivate(last)
    do i = 1, n - 1
      t = exp(0.3d0 * x(i))
      u = pair(x(i), x(i + 1))
      e = e + t * u
      last = x(i) * x(i + 1)
    end do
    !$omp end parallel do
    e = e + last
  end subroutine energy

  subroutine sweep(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y(n)
    integer :: i
    !$omp parallel do schedule(static, 2)
    do i = 1, n
      y(i) = sin(x(i)) * x(mod(i, n) + 1) + sqrt(1d0 + x(i)**2)
    end do
    !$omp end parallel do
  end subroutine sweep
end module m12

program p12
  use ferrozyme
  use fz_check
  use m12
  implicit none
  integer, parameter :: n = 23
  real(8) :: x(n), dx(n), e, de, h, ep, em, xi, fd(n), v(n), te
  real(8) :: y(n), dy(n), ty(n), w(n)
  integer :: i, seed
  seed = 12
  call fill(x, -1d0, 1d0, seed)
  dx = 0; de = 1
  call __enzyme_autodiff(energy, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, e, de)
  do i = 1, n
    xi = x(i)
    h = fd_step(xi)
    x(i) = xi + h
    call energy(n, x, ep)
    x(i) = xi - h
    call energy(n, x, em)
    x(i) = xi
    fd(i) = (ep - em) / (2 * h)
  end do
  call check_arr('energy fd', dx, fd, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  te = 0
  call __enzyme_fwddiff_sub(energy, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, e, te)
  call check('energy forward vs reverse', te, dot_product(dx, v), 1d-10)
  ! sweep: the gradient of <w, y(x)> against the tangent <w, J v>.
  call fill(w, -1d0, 1d0, seed)
  dx = 0; dy = w
  call __enzyme_autodiff(sweep, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, y, dy)
  ty = 0
  call __enzyme_fwddiff_sub(sweep, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, y, ty)
  call check('sweep <w, J v> vs <J^T w, v>', dot_product(w, ty), dot_product(dx, v), 1d-10)
  call finish()
end program p12
