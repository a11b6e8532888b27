! OPT: O0 O2
! OMP_THREADS: 1 2
! At -O0 the `enzyme_const` section given to MATMUL (a runtime call) puts the routine under runtime activity, and the region's reduction into `s` is an `atomicrmw fadd` through a pointer read from the struct of captures, so maybe the primal: it was refused ("a pointer that is constant or differentiable depending on the run is used by `atomicrmw`, whose derivative cannot be guarded at run time"; the random-program tester's Fortran seed 23, minimized). Its adjoint is now read, and its tangent added, only where the shadow is not the primal, with a run-time stop where it is (hpc39).
! A reduction region and MATMUL of a local matrix with a constant vector section, reverse
! and forward mode against the analytic derivative and central finite differences.
module m87
  implicit none
contains
  subroutine f(n, x, y, res)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), y(n)
    real(8), intent(out) :: res
    real(8) :: s, mat(3, 3), v3(3)
    integer :: i
    s = x(1)
    !$omp parallel do reduction(+:s)
    do i = 1, n
      s = s + 0.5d0 * sin(x(i))
    end do
    !$omp end parallel do
    mat = 1
    mat(1, 1) = x(2)
    mat(2, 3) = x(3) ** 2
    v3 = matmul(mat, y(1:3))
    res = s * x(2) + sum(v3)
  end subroutine f
end module m87

program p87
  use ferrozyme
  use fz_check
  use m87
  implicit none
  integer, parameter :: n = 6
  real(8) :: x(n), y(n), dx(n), v(n), want(n), res, dres, s, t, h, rp, rm
  integer :: i, seed
  seed = 87
  call fill(x, -1d0, 1d0, seed)
  call fill(y, -1d0, 1d0, seed)
  call fill(v, -1d0, 1d0, seed)
  dx = 0; dres = 1
  call __enzyme_autodiff(f, enzyme_const, n, enzyme_dup, x, dx, enzyme_const, y, enzyme_dup, res, dres)
  s = x(1) + 0.5d0 * sum(sin(x))
  want = 0.5d0 * cos(x) * x(2)
  want(1) = want(1) + x(2)
  want(2) = want(2) + s + y(1)
  want(3) = want(3) + 2 * x(3) * y(3)
  call check_arr('dx analytic', dx, want, 1d-12)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call f(n, x, y, rp)
    x(i) = t - h; call f(n, x, y, rm)
    x(i) = t
    want(i) = (rp - rm) / (2 * h)
  end do
  call check_arr('dx fd', dx, want, 1d-6)
  t = sum(v * dx)
  dx = v; dres = 0
  call __enzyme_fwddiff_sub(f, enzyme_const, n, enzyme_dup, x, dx, enzyme_const, y, enzyme_dup, res, dres)
  call check('forward tangent vs the gradient', dres, t, 1d-10)
  call finish()
end program p87
