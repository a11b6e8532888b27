! OMP_THREADS: 1 2 4
! OPT: O0 O2
! Fortran task parallelism and an order-dependent atomic, as flang-22 lowers them
! (OpenMPIRBuilder: the bounds and captured addresses live in the shareds block):
! `!$omp taskloop grainsize(3)` from a `single`, `!$omp task firstprivate(b)` over
! blocks of a work array with `!$omp taskwait`, tasks with `depend(out:)`/`depend(in:)`,
! and `!$omp atomic` `p = p * f` in a `parallel do schedule(dynamic, 1)`. Tasks were a
! missing-derivative error naming `__kmpc_omp_task_alloc`, the atomic product one naming
! `cmpxchg`; at -O2 flang's dead stores of an extent into the shareds block also made a
! cannot-deduce-type error (now dropped: parallel/tasks.rs). Reverse mode is checked
! against central finite differences, forward mode against reverse mode.
module m29omp
  implicit none
  integer, parameter :: seed0 = 29
  integer, parameter :: n = 14
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: y(n), z(n), u, v, p
    integer :: i, b
    u = 0; v = 0; p = 1
    !$omp parallel shared(y, z, u, v)
    !$omp single
    !$omp taskloop grainsize(3)
    do i = 1, n
      y(i) = x(i)**2 * w(i) + sin(x(i))
    end do
    !$omp end taskloop
    do b = 1, n, 4
      !$omp task firstprivate(b) private(i) shared(x, z)
      do i = b, min(b + 3, n)
        z(i) = exp(0.3d0 * x(i)) * x(mod(i, n) + 1)
      end do
      !$omp end task
    end do
    !$omp taskwait
    !$omp task depend(out:u) shared(u, y)
    u = sum(y(1:n/2))
    !$omp end task
    !$omp task depend(out:v) shared(v, z)
    v = dot_product(z, w)
    !$omp end task
    !$omp task depend(in:u, v) depend(inout:p) shared(u, v, p)
    p = p + u * v
    !$omp end task
    !$omp end single
    !$omp end parallel
    !$omp parallel do schedule(dynamic, 1)
    do i = 1, n
      !$omp atomic
      p = p * (1d0 + 0.1d0 * cos(x(i)) * w(i))
    end do
    !$omp end parallel do
    f = p + sum(y(n/2+1:n) * z(n/2+1:n))
  end subroutine loss
end module m29omp

program p29omp
  use m29omp
  include '../fortran/src/check_loss_xw.inc'
end program p29omp
