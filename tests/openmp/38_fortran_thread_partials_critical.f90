! OMP_THREADS: 1 2 4
! OPT: O0 O2
! Fortran OpenMP as solver codes write it without reduction clauses on everything:
! per-thread partial sums indexed by omp_get_thread_num() (use omp_lib) in a `parallel`
! region with an orphaned `!$omp do schedule(dynamic, 2)`, combined after the region;
! a `!$omp critical` accumulation of a private sum; `reduction(+:s) reduction(max:m)`
! mixed in one directive; `!$omp single` computing a shared scale every thread reads
! after the implied barrier; `!$omp master` + `!$omp barrier`; a module function and an
! elemental function called in the loop body; `firstprivate` of an inactive integer.
! Reverse mode against central finite differences, forward mode by the dot product.
module m38omp
  use omp_lib
  implicit none
  integer, parameter :: n = 29, maxt = 64
contains
  elemental real(8) function soft(v)
    real(8), intent(in) :: v
    soft = log(1d0 + exp(v))
  end function soft

  real(8) function pairterm(x, i)
    real(8), intent(in) :: x(n)
    integer, intent(in) :: i
    pairterm = x(i) * x(mod(i, n) + 1) + 0.1d0 * soft(x(i))
  end function pairterm

  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8) :: part(0:maxt - 1), tot, s, m, scale, head, mine
    integer :: i, t, nt, off
    part = 0
    nt = 1
    !$omp parallel private(t)
    t = omp_get_thread_num()
    !$omp single
    nt = omp_get_num_threads()
    !$omp end single
    !$omp do schedule(dynamic, 2)
    do i = 1, n
      part(t) = part(t) + pairterm(x, i)
    end do
    !$omp end do
    !$omp end parallel
    tot = sum(part(0:nt - 1))

    tot = tot * tot
    s = 0
    !$omp parallel private(mine)
    mine = 0
    !$omp do
    do i = 1, n
      mine = mine + sin(x(i)) * x(n + 1 - i)
    end do
    !$omp end do
    !$omp critical
    s = s + mine
    !$omp end critical
    !$omp end parallel

    m = -huge(1d0)
    off = 3
    head = 0
    !$omp parallel do reduction(+:s) reduction(max:m) firstprivate(off)
    do i = 1, n
      s = s + soft(x(i)) * x(mod(i + off - 1, n) + 1)
      m = max(m, x(i) * x(i) + 0.3d0 * x(i))
    end do
    !$omp end parallel do

    !$omp parallel
    !$omp master
    head = x(1) * x(n)
    !$omp end master
    !$omp barrier
    !$omp single
    scale = 1d0 + head * head
    !$omp end single
    !$omp do reduction(+:s)
    do i = 1, n
      s = s + scale * cos(x(i))
    end do
    !$omp end do
    !$omp end parallel
    f = tot + s + 2 * m
  end subroutine loss
end module m38omp

program p38omp
  use ferrozyme
  use fz_check
  use m38omp
  implicit none
  real(8) :: x(n), dx(n), fx(n), v(n), f, df, t, h, fp, fm, tf, f2
  integer :: seed, i
  seed = 38
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
end program p38omp
