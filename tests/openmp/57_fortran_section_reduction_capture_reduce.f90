! OMP_THREADS: 1 2 4
! OPT: O0 O2
! Fortran OpenMP and Fortran 2023 reductions on values from the input: a `parallel do`
! with `reduction(+:h(2:5))` (an array SECTION as the reduction variable) binning
! squares, `!$omp atomic capture` of running sums (flang: a compare-and-swap loop whose
! old or new value is used after it; these were cannot-deduce-type/cmpxchg errors at
! -O0, now critical sections: parallel/atomic_cas.rs): the value captured before an
! update of positive increments (its minimum over the threads is the start value) and
! the value captured after one (its maximum, `reduction(max:)`, is the total whatever
! the threads' order, with its derivative); and `do concurrent ... reduce(+:s)`. Reverse
! mode against central finite differences; forward mode against the reverse gradient.
module m57omp
  implicit none
  integer, parameter :: n = 12
contains
  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8) :: h(6), s, old, acc, tot, new, lo, big
    integer :: i
    h = 0.25d0
    s = 0
    acc = 0
    tot = 0.5d0
    lo = huge(1d0)
    big = -huge(1d0)
    !$omp parallel do reduction(+:h(2:5)) reduction(min:lo) reduction(max:big) private(old, new)
    do i = 1, n
      h(mod(i, 4) + 2) = h(mod(i, 4) + 2) + x(i)**2
      !$omp atomic capture
      old = acc
      acc = acc + (x(i)**2 + 0.2d0) * 0.5d0
      !$omp end atomic
      lo = min(lo, old)
      !$omp atomic capture
      tot = tot + (x(i)**2 + 0.1d0)
      new = tot
      !$omp end atomic
      big = max(big, new)
    end do
    !$omp end parallel do
    do concurrent (i = 1:n) reduce(+:s)
      s = s + sin(x(i)) * i
    end do
    f = sum(h * [1d0, 2d0, 3d0, 4d0, 5d0, 6d0]) + s * acc + 3 * lo + big**2
  end subroutine loss
end module m57omp

program p57omp
  use ferrozyme
  use fz_check
  use m57omp
  implicit none
  real(8) :: x(n), dx(n), f, df, fx(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 57
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(x, fp)
    x(i) = t - h; call loss(x, fm)
    x(i) = t; fx(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p57omp
