! OMP_THREADS: 1 2 4
! OPT: O0 O2
! A Fortran OpenMP kernel as scientists write it: `!$omp parallel do collapse(2)
! schedule(dynamic, 2) reduction(+:s)` over a 2-D field with a nonlinear body,
! `!$omp workshare` with whole-array expressions (an elemental `where` and an array
! assignment) inside a parallel region, `!$omp sections` computing two different
! statistics in parallel, then `!$omp parallel do reduction(min:lo) reduction(+:e)`.
! Reverse mode against central finite differences of the same routine, forward mode
! against reverse mode (the dot-product identity).
module m85omp
  implicit none
  integer, parameter :: nx = 5, ny = 4, n = nx * ny
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: u(nx, ny), v(nx, ny), s, a, b, lo, e
    integer :: i, j
    u = reshape(x, [nx, ny])
    s = 0
    !$omp parallel do collapse(2) schedule(dynamic, 2) reduction(+:s)
    do j = 1, ny
      do i = 1, nx
        v(i, j) = u(i, j) * w(i + (j - 1) * nx) + 0.2d0 * sin(u(mod(i, nx) + 1, j))
        s = s + v(i, j)**2
      end do
    end do
    !$omp end parallel do
    !$omp parallel
    !$omp workshare
    where (v > 0)
      u = v * 1.5d0
    elsewhere
      u = v * 0.5d0 + u * 0.1d0
    end where
    v = u * u + v
    !$omp end workshare
    !$omp sections
    !$omp section
    a = sum(v(:, 1)) * s
    !$omp section
    b = sum(u(2, :) * v(3, :))
    !$omp end sections
    !$omp end parallel
    lo = huge(1d0)
    e = 0
    !$omp parallel do reduction(min:lo) reduction(+:e)
    do i = 1, n
      lo = min(lo, v(mod(i - 1, nx) + 1, (i - 1) / nx + 1) + x(i))
      e = e + exp(0.1d0 * u(mod(i - 1, nx) + 1, (i - 1) / nx + 1))
    end do
    !$omp end parallel do
    f = a + b + lo + e
  end subroutine loss
end module m85omp

program p85
  use ferrozyme
  use fz_check
  use m85omp
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), f, df, vx(n), vw(n), tf, f2
  integer :: seed
  seed = 85
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.3d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
end program p85
