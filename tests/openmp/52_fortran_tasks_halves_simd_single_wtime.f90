! OMP_THREADS: 1 2 4
! OPT: O0 O2
! The constructs of tests/openmp/51 from Fortran: `!$omp task` over the two halves of an
! array (each half a module-routine call writing its own partial sum) joined by
! `!$omp taskwait` inside a `single`, `!$omp simd reduction(+:)` in an `!$omp do`,
! `!$omp single nowait` then `!$omp barrier`, `omp_get_wtime()` read inside the region
! (a clock, only its sign used), `firstprivate` of an active scale and `lastprivate` of
! an active value in `parallel do`. Reverse mode against central finite differences of
! the same routine, forward mode against reverse mode (the dot-product identity).
module m52omp
  use omp_lib
  implicit none
  integer, parameter :: n = 16
contains
  subroutine half(x, lo, hi, s)
    real(8), intent(in) :: x(n)
    integer, intent(in) :: lo, hi
    real(8), intent(out) :: s
    integer :: i
    s = 0
    do i = lo, hi
      s = s + x(i)**2 * cos(x(i))
    end do
  end subroutine half

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: a, b, c, p, s, scale, last, y(n), t0
    integer :: i, j, ok
    ok = 1
    s = 0
    !$omp parallel shared(a, b, c, s, y, ok) private(t0, p, i, j)
    t0 = omp_get_wtime()
    !$omp single
    !$omp task shared(a)
    call half(x, 1, n / 2, a)
    !$omp end task
    !$omp task shared(b)
    call half(x, n / 2 + 1, n, b)
    !$omp end task
    !$omp taskwait
    !$omp end single
    !$omp single
    c = a * b + a
    !$omp end single nowait
    !$omp barrier
    !$omp do reduction(+:s)
    do j = 1, n, 4
      p = 0
      !$omp simd reduction(+:p)
      do i = j, j + 3
        p = p + w(i) * x(i) * c
      end do
      s = s + p * p
    end do
    !$omp end do
    if (omp_get_wtime() < t0 - 86400d0) ok = 0  ! wall clock (gettimeofday): may step back a little
    !$omp end parallel
    scale = w(1) * 0.5d0 + 1
    !$omp parallel do firstprivate(scale) lastprivate(last)
    do i = 1, n
      y(i) = scale * x(i) * w(i)
      last = y(i) + scale
    end do
    !$omp end parallel do
    f = s + sum(y**2) * 0.1d0 + last**2
    if (ok == 0) f = 0
  end subroutine loss
end module m52omp

program p52omp
  use ferrozyme
  use fz_check
  use m52omp
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i
  seed = 52
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.3d0, 1.2d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  tx = [(0.1d0 * i - 0.8d0, i=1, n)]
  tw = [(0.07d0 * i - 0.5d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p52omp
