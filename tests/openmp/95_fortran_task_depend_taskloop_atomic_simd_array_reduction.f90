! OMP_THREADS: 1 2 3
! OPT: O0 O2
! Fortran task graphs and loop clauses: per block a producer `!$omp task depend(out: a(k))`
! and a consumer `depend(in: a(k)) depend(out: b(k))` created by `!$omp single`, a
! `!$omp taskwait`, a `!$omp taskloop grainsize(2)` whose iterations add into a shared sum
! with `!$omp atomic update` (flang-22 does not lower `taskloop reduction`: "not yet
! implemented: Unhandled clause reduction in omp.taskloop operation"), a `!$omp parallel do
! simd reduction(+: h)` of an allocatable array, and `!$omp parallel do lastprivate(last)`.
! Reverse mode against central finite differences of the serial routine, forward mode by
! the dot-product identity.
module m95omp
  implicit none
  integer, parameter :: nb = 4, bs = 3, n = nb * bs
contains
  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8) :: a(n), b(n), s, last, t
    real(8), allocatable :: h(:)
    integer :: k, i
    allocate (h(nb))
    h = 0
    s = 0
    !$omp parallel
    !$omp single
    do k = 1, nb
      !$omp task depend(out: a((k - 1) * bs + 1)) firstprivate(k) private(i) shared(a, x)
      do i = (k - 1) * bs + 1, k * bs
        a(i) = x(i) * x(i) + 0.5d0 * x(i)
      end do
      !$omp end task
      !$omp task depend(in: a((k - 1) * bs + 1)) depend(out: b((k - 1) * bs + 1)) firstprivate(k) private(i) shared(a, b)
      do i = (k - 1) * bs + 1, k * bs
        b(i) = sin(a(i)) * (1 + 0.1d0 * i)
      end do
      !$omp end task
    end do
    !$omp taskwait
    !$omp taskloop grainsize(2) shared(b, s)
    do i = 1, n
      !$omp atomic update
      s = s + b(i) * b(i)
    end do
    !$omp end taskloop
    !$omp end single
    !$omp end parallel
    !$omp parallel do simd reduction(+: h) private(t)
    do i = 1, n
      t = b(i) * a(i)
      h(mod(i - 1, nb) + 1) = h(mod(i - 1, nb) + 1) + t
    end do
    !$omp end parallel do simd
    !$omp parallel do lastprivate(last)
    do i = 1, n
      last = a(i) * b(i) + x(i)
    end do
    !$omp end parallel do
    f = s + sum(h**2) * 0.1d0 + last**2
    deallocate (h)
  end subroutine loss

  real(8) function serial(x)
    real(8), intent(in) :: x(n)
    real(8) :: a(n), b(n), h(nb), s
    integer :: i
    h = 0
    s = 0
    do i = 1, n
      a(i) = x(i) * x(i) + 0.5d0 * x(i)
      b(i) = sin(a(i)) * (1 + 0.1d0 * i)
      s = s + b(i) * b(i)
      h(mod(i - 1, nb) + 1) = h(mod(i - 1, nb) + 1) + b(i) * a(i)
    end do
    serial = s + sum(h**2) * 0.1d0 + (a(n) * b(n) + x(n))**2
  end function serial
end module m95omp

program p95omp
  use ferrozyme
  use fz_check
  use m95omp
  implicit none
  real(8) :: x(n), dx(n), v(n), f, df, fp, fm, t, h, tf, gfd(n)
  integer :: seed, i
  seed = 95
  call fill(x, -1d0, 1d0, seed)
  call loss(x, f)
  call check('value vs serial', f, serial(x), 1d-12)
  dx = 0
  df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; fp = serial(x)
    x(i) = t - h; fm = serial(x)
    x(i) = t; gfd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('grad vs fd', dx, gfd, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, v, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, sum(dx * v), 1d-10)
  call finish()
end program p95omp
