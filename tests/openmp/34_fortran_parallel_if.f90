! OMP_THREADS: 1 2 3
! OPT: O0 O2
! Fortran OpenMP regions with an `if` clause, as codes write them to stay serial on small
! problems: `!$omp parallel do if(n > limit) reduction(+:s)` taken and not taken (flang
! starts such a region with `__kmpc_fork_call_if(loc, 1, microtask, cond, args)`, which
! libomp forks when `cond` holds and otherwise runs serialized on the calling thread), and
! a `!$omp parallel if(...)` region with a worksharing loop writing an array. Reverse mode
! is checked against central finite differences at both sizes, forward mode against
! reverse mode.
module m34omp
  implicit none
contains
  subroutine energy(x, y, n, limit, f)
    integer, intent(in) :: n, limit
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y(n), f
    real(8) :: s
    integer :: i
    s = 0
    !$omp parallel do if(n > limit) reduction(+:s)
    do i = 1, n
      s = s + sin(x(i)) * x(mod(i, n) + 1)
    end do
    !$omp end parallel do
    !$omp parallel if(n > 2 * limit)
    !$omp do
    do i = 1, n
      y(i) = exp(0.3d0 * x(i)) * s
    end do
    !$omp end do
    !$omp end parallel
    f = s + sum(y * y) * 0.01d0
  end subroutine energy
end module m34omp

program p34omp
  use ferrozyme
  use fz_check
  use m34omp
  implicit none
  integer, parameter :: n = 12
  real(8) :: x(n), dx(n), y(n), dy(n), f, df, fx(n), t, h, fp, fm, vx(n), vy(n), tf, f2
  integer :: seed, i, lim, k
  integer :: limits(3) = (/ 100, 8, 2 /)
  seed = 34
  call fill(x, -1d0, 1d0, seed)
  call fill(vx, -1d0, 1d0, seed)
  do k = 1, 3
    lim = limits(k)
    dx = 0; dy = 0; df = 1
    call __enzyme_autodiff(energy, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n, &
                           enzyme_const, lim, enzyme_dup, f, df)
    do i = 1, n
      t = x(i); h = fd_step(t)
      x(i) = t + h; call energy(x, y, n, lim, fp)
      x(i) = t - h; call energy(x, y, n, lim, fm)
      x(i) = t; fx(i) = (fp - fm) / (2 * h)
    end do
    call check_arr('d f / d x vs fd', dx, fx, 1d-6)
    vy = 0; tf = 0
    call __enzyme_fwddiff_sub(energy, enzyme_dup, x, vx, enzyme_dup, y, vy, enzyme_const, n, &
                              enzyme_const, lim, enzyme_dup, f2, tf)
    call check('forward . v = reverse . v', tf, dot_product(dx, vx), 1d-10)
  end do
  call finish()
end program p34omp
