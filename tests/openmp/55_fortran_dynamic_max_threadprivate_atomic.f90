! OMP_THREADS: 1 2 4
! OPT: O0 O2
! Fortran OpenMP shapes still thin in the suite: `!$omp do collapse(2) schedule(dynamic,
! 3)` with `reduction(max:)` of an active value, `!$omp atomic` updates of an active
! shared array (several iterations per bin), and a module variable made `threadprivate`
! that each thread zeroes, accumulates in an `!$omp do` and adds into a shared total
! under `!$omp atomic`. Reverse mode against central finite differences of the same
! routine, forward mode against reverse mode (the dot-product identity).
module m55omp
  implicit none
  integer, parameter :: n = 6, m = 5, h = 3, k = 14
  real(8) :: acc
  !$omp threadprivate(acc)
contains
  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8) :: y(n, m), bins(h), big, tot
    integer :: i, j, q
    bins = 0
    big = -1d300
    tot = 0
    !$omp parallel private(i, j, q)
    !$omp do collapse(2) schedule(dynamic, 3) reduction(max:big)
    do j = 1, m
      do i = 1, n
        y(i, j) = x(i) * x(mod(i + j, n) + 1) + sin(x(j))
        big = max(big, y(i, j))
      end do
    end do
    !$omp end do
    !$omp do
    do q = 1, k
      !$omp atomic
      bins(mod(q, h) + 1) = bins(mod(q, h) + 1) + x(mod(q, n) + 1) * y(mod(q, n) + 1, mod(q, m) + 1)
    end do
    !$omp end do
    acc = 0
    !$omp do
    do q = 1, n * m
      acc = acc + 0.1d0 * y(mod(q - 1, n) + 1, (q - 1) / n + 1)**2
    end do
    !$omp end do
    !$omp atomic
    tot = tot + acc
    !$omp end parallel
    f = big**2 + tot
    do q = 1, h
      f = f + q * bins(q)**2
    end do
  end subroutine loss
end module m55omp

program p55
  use ferrozyme
  use fz_check
  use m55omp
  implicit none
  real(8) :: x(n), dx(n), tx(n), f, df, tf, t, hh, fp, fm, fx(n)
  integer :: i
  x = [(0.8d0 * cos(1.3d0 * i), i=1, n)]
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); hh = fd_step(t)
    x(i) = t + hh; call loss(x, fp)
    x(i) = t - hh; call loss(x, fm)
    fx(i) = (fp - fm) / (2 * hh)
    x(i) = t
  end do
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  tx = [(0.1d0 * i - 0.3d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx), 1d-10)
  call finish()
end program p55
