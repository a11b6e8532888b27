! OMP_THREADS: 1 2 4
! OPT: O0 O2
! Fortran OpenMP as statistics and time-stepping codes write it: a user-defined
! reduction over a derived type (`!$omp declare reduction(adds : stats_t : omp_out =
! add_stats(omp_out, omp_in)) initializer(...)`, the combiner a pure function) collecting
! running sums and sums of squares, a `schedule(runtime)` loop whose schedule the caller
! set with `omp_set_schedule(omp_sched_dynamic, 2)`, a `schedule(auto)` loop, and a
! `parallel do ordered` whose `!$omp ordered` block carries a recurrence through the
! iterations in order. Reverse mode against central finite differences, forward mode
! against the reverse gradient.
module m58omp
  use omp_lib
  implicit none
  integer, parameter :: n = 7
  type stats_t
    real(8) :: s = 0, q = 0
  end type stats_t
  !$omp declare reduction(adds : stats_t : omp_out = add_stats(omp_out, omp_in)) &
  !$omp&   initializer(omp_priv = stats_t(0d0, 0d0))
contains
  pure function add_stats(a, b) result(c)
    type(stats_t), intent(in) :: a, b
    type(stats_t) :: c
    c%s = a%s + b%s
    c%q = a%q + b%q
  end function add_stats

  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8) :: y(n), seq(n), run, mean
    type(stats_t) :: st
    integer :: i
    !$omp parallel do schedule(runtime)
    do i = 1, n
      y(i) = sin(x(i)) * x(mod(i, n) + 1) + 0.1d0 * i
    end do
    !$omp end parallel do
    !$omp parallel do reduction(adds:st) schedule(auto)
    do i = 1, n
      st%s = st%s + y(i)
      st%q = st%q + y(i) * y(i)
    end do
    !$omp end parallel do
    mean = st%s / n
    run = 0
    !$omp parallel do ordered
    do i = 1, n
      seq(i) = (x(i) - mean)**2
      !$omp ordered
      run = run * 0.8d0 + seq(i) * (1 + 0.05d0 * i)
      !$omp end ordered
    end do
    !$omp end parallel do
    f = st%q / n - mean**2 + run
  end subroutine loss
end module m58omp

program p58omp
  use ferrozyme
  use fz_check
  use m58omp
  implicit none
  real(8) :: x(n), dx(n), f, df, fx(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  call omp_set_schedule(omp_sched_dynamic, 2)
  seed = 58
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
end program p58omp
