! EXPECT-RUNTIME-ERROR: is added atomically (an OpenMP reduction or atomic update) to constant (enzyme_const) memory
! EXPECT-RUNTIME-ERROR: pass that buffer with enzyme_dup
! OPT: O0 O2
! OMP_THREADS: 1 2
! The reduction variable of a `!$omp parallel do reduction(+:acc)` is a dummy the user
! passes `enzyme_const`, and the routine reads it back into the differentiated result.
! flang hands the region acc's address in its struct of captures, which has a shadow (x
! and res are there too); acc's shadow there is acc itself (runtime activity), so the
! region's reduction adds the active sum into memory whose derivative is not kept: the
! derivative of res through acc would be lost. The program stops at run time with a
! message naming the fix (hpc39: the atomic add of the reduction is a checked store);
! it was a compile-time refusal before, which also refused constant coefficient arrays
! read in such regions (tests/openmp/71, which work now).
module m72
  implicit none
contains
  subroutine f(n, x, acc, res)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(inout) :: acc
    real(8), intent(out) :: res
    integer :: i
    !$omp parallel do reduction(+:acc)
    do i = 1, n
      acc = acc + 0.5d0 * sin(x(i))
    end do
    !$omp end parallel do
    res = acc * x(2)
  end subroutine f
end module m72

program p72
  use ferrozyme
  use fz_check
  use m72
  implicit none
  integer, parameter :: n = 6
  real(8) :: x(n), dx(n), acc, res, dres
  integer :: seed
  seed = 72
  call fill(x, -1d0, 1d0, seed)
  acc = 0; dx = 0; dres = 1
  call __enzyme_autodiff(f, enzyme_const, n, enzyme_dup, x, dx, enzyme_const, acc, enzyme_dup, res, dres)
  call check('not reached', 0d0, 1d0, 0d0)
  call finish()
end program p72
