! OPT: O0 O2
! OMP_THREADS: 1 2 4
! A Fortran OpenMP loss as scientists write one: a parallel region with a private
! allocatable work array allocated and deallocated by every thread, `!$omp single` that
! records the team size, a `!$omp do schedule(dynamic, 2)` with `reduction(+:s)`,
! `reduction(max:m)` and `reduction(min:mn)` together, per-thread partial sums indexed by
! `omp_get_thread_num()`, a histogram of reals updated with `!$omp atomic` through a
! computed bin, and a `critical` section; the result adds SUM of the partials of the
! team and DOT_PRODUCT with an array constructor. Reverse mode against central
! differences (the value does not depend on the team), forward mode by the dot-product
! identity; 1, 2 and 4 threads.
module omp80
  use omp_lib
  implicit none
  integer, parameter :: n = 12
  integer, parameter :: seed0 = 80
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: s, m, mn, part(0:15), hist(4), acc
    real(8), allocatable :: tmp(:)
    integer :: i, t, b, nt
    s = 0; m = -1d300; mn = 1d300; part = 0; hist = 0; acc = 1; nt = 1
    !$omp parallel private(t, tmp, b)
    t = omp_get_thread_num()
    allocate(tmp(3))
    !$omp single
    nt = omp_get_num_threads()
    !$omp end single
    !$omp do schedule(dynamic, 2) reduction(+:s) reduction(max:m) reduction(min:mn)
    do i = 1, n
      tmp = [x(i), w(i), x(i) * w(i)]
      s = s + sum(tmp**2)
      m = max(m, tmp(3))
      mn = min(mn, x(i) - w(i))
      part(t) = part(t) + exp(0.2d0 * x(i))
      b = mod(i, 4) + 1
      !$omp atomic
      hist(b) = hist(b) + x(i) * x(i) * w(i)
    end do
    !$omp end do
    !$omp critical
    acc = acc * (1 + 0.01d0 * t)
    !$omp end critical
    deallocate(tmp)
    !$omp end parallel
    f = s + m + mn + sum(part(0:nt - 1)) + dot_product(hist, [1d0, 2d0, 3d0, 4d0])
  end subroutine loss
end module omp80

program p80
  use omp80
  include '../fortran/src/check_loss_xw.inc'
end program p80
