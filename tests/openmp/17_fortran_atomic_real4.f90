! OMP_THREADS: 1 2
! OPT: O0 O2
! `!$omp atomic` updates of a real(4) shared sum (`s = s + x*x` and `s = x + s`): flang-22
! lowers them to compare-and-swap loops on the 32-bit pattern, rewritten into
! `atomicrmw fadd` on float before differentiation (16_fortran_collapse_atomic has the
! real(8) ones). The gradient is checked against the analytic 2x + 1.
module m17
  implicit none
contains
  subroutine acc4(n, x, s)
    integer, intent(in) :: n
    real(4), intent(in) :: x(n)
    real(4), intent(out) :: s
    integer :: i
    s = 0
    !$omp parallel do
    do i = 1, n
      !$omp atomic
      s = s + x(i) * x(i)
      !$omp atomic
      s = x(i) + s
    end do
    !$omp end parallel do
  end subroutine acc4
end module m17
program p17
  use ferrozyme
  use fz_check
  use m17
  implicit none
  real(4) :: x(6), dx(6), s, ds
  integer :: i
  x = [(0.1 * i, i = 1, 6)]
  dx = 0; ds = 1
  call __enzyme_autodiff(acc4, enzyme_const, 6, enzyme_dup, x, dx, enzyme_dup, s, ds)
  do i = 1, 6
    call check('ds/dx = 2x + 1', dble(dx(i)), dble(2 * x(i) + 1), 1d-6)
  end do
  call finish()
end program p17
