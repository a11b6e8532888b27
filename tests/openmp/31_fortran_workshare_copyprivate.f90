! OMP_THREADS: 1 2 3
! OPT: O0 O2
! Fortran OpenMP with `single ... end single copyprivate(...)` and `workshare`, as
! Fortran codes write array statements in a parallel region: a `single` computes a mean
! and a spread of the whole field and hands them to every thread's private copies
! (copyprivate of two scalars); a `workshare` block normalises the field with array
! expressions and a `where`, and sums it with SUM (flang runs workshare as a `single`
! whose temporaries it shares with copyprivate); an `!$omp do reduction(+:)` over the
! normalised field with a coefficient array handed out by a second
! `end single copyprivate(c)`. These were a missing-derivative error naming
! `__kmpc_copyprivate`; the derivative now runs copyprivate as publish, barrier, copy,
! barrier (parallel/copyprivate.rs). Reverse mode is checked against central finite
! differences, forward mode against reverse mode.
module m31omp
  implicit none
  integer, parameter :: n = 10
contains
  subroutine energy(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: z(n), mean, spread, tot, c(3), s
    integer :: i
    s = 0
    !$omp parallel private(mean, spread, c) reduction(+:s)
    !$omp single
    mean = sum(x) / n
    spread = sqrt(sum((x - mean)**2) / n + 0.1d0)
    !$omp end single copyprivate(mean, spread)
    !$omp workshare
    z = (x - mean) / spread * w
    where (z > 0.5d0) z = 0.5d0 + 0.1d0 * (z - 0.5d0)
    tot = sum(z * z)
    !$omp end workshare
    !$omp single
    c(1) = tot
    c(2) = exp(0.2d0 * z(1))
    c(3) = z(n) * mean
    !$omp end single copyprivate(c)
    !$omp do
    do i = 1, n
      s = s + c(mod(i, 3) + 1) * z(i) + c(mod(i + 1, 3) + 1) * w(i) * x(i)
    end do
    !$omp end do
    !$omp end parallel
    f = s
  end subroutine energy
end module m31omp

program p31omp
  use ferrozyme
  use fz_check
  use m31omp
  implicit none
  real(8) :: x(n), dx(n), w(n), dw(n), f, df, fx(n), fw(n), t, h, fp, fm, vx(n), vw(n), tf, f2
  integer :: seed, i
  seed = 31
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(energy, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call energy(x, w, fp)
    x(i) = t - h; call energy(x, w, fm)
    x(i) = t; fx(i) = (fp - fm) / (2 * h)
    t = w(i); h = fd_step(t)
    w(i) = t + h; call energy(x, w, fp)
    w(i) = t - h; call energy(x, w, fm)
    w(i) = t; fw(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(energy, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
end program p31omp
