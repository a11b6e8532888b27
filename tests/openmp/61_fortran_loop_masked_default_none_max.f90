! OMP_THREADS: 1 3
! OPT: O0 O2
! Newer Fortran OpenMP constructs on active data: `!$omp parallel default(none)` with
! every variable listed, `!$omp loop` (the OpenMP 5 loop construct, bound to the team)
! writing an array, `!$omp masked` (a block only thread 0 runs) that folds a value all
! threads then read after a barrier, an `!$omp do` whose body holds a loop of varying trip
! count, and `!$omp do reduction(max:)` of an active value. (flang-22 does not lower
! `!$omp unroll partial`: "not yet implemented: Unhandled clause PARTIAL in UNROLL
! construct"; C's is in tests/openmp/60.) Reverse mode against central finite differences of the same routine,
! forward mode against reverse mode (the dot-product identity).
module m61omp
  implicit none
  integer, parameter :: n = 15
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: y(n), z(n), c, s, big, a
    integer :: i, j
    s = 0
    big = -huge(1d0)
    !$omp parallel default(none) shared(x, w, y, z, c, s, big) private(i, j, a)
    !$omp loop
    do i = 1, n
      y(i) = sin(x(i)) * w(i) + 0.1d0 * x(mod(i, n) + 1)
    end do
    !$omp masked
    c = y(1) * y(n) + 1
    !$omp end masked
    !$omp barrier
    !$omp do reduction(+:s)
    do i = 1, n
      a = 0
      do j = 1, mod(i, 5) + 1
        a = a + y(mod(i + j, n) + 1) * j
      end do
      z(i) = a * c
      s = s + a * a
    end do
    !$omp end do
    !$omp do reduction(max:big)
    do i = 1, n
      big = max(big, z(i) * w(i))
    end do
    !$omp end do
    !$omp end parallel
    f = s * 0.2d0 + big + sum(z * x)
  end subroutine loss
end module m61omp

program p61omp
  use ferrozyme
  use fz_check
  use m61omp
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i
  seed = 61
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
end program p61omp
