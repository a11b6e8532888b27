! OMP_THREADS: 1 2
! OPT: O0 O2
! Fortran host `teams` regions (hpc37): `!$omp teams distribute parallel do
! reduction(+:e)` on the default league (flang's distribute-parallel-do bounds come from
! `__kmpc_dist_for_static_init_4u`), then `!$omp teams num_teams(2)` whose teams each
! take half of an array by `omp_get_team_num()`, write it through a `!$omp parallel do`,
! and add their partial sum into a shared value with `!$omp atomic update`. Reverse mode
! against central finite differences of the same routine, forward mode against reverse
! mode (the dot-product identity).
module m66omp
  use omp_lib
  implicit none
  integer, parameter :: n = 14
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: e, y(n), tot, s
    integer :: i, t, nt, lo, hi
    e = 0
    tot = 0
    !$omp teams distribute parallel do reduction(+:e)
    do i = 1, n
      e = e + w(i) * x(i) ** 2
    end do
    !$omp end teams distribute parallel do
    !$omp teams num_teams(2) private(t, nt, lo, hi, s)
    t = omp_get_team_num()
    nt = omp_get_num_teams()
    lo = t * n / nt + 1
    hi = (t + 1) * n / nt
    !$omp parallel do
    do i = lo, hi
      y(i) = sin(x(i)) * w(mod(i, n) + 1)
    end do
    !$omp end parallel do
    s = sum(y(lo:hi) * x(lo:hi))
    !$omp atomic update
    tot = tot + s
    !$omp end teams
    f = e + tot * tot + 0.5d0 * tot
  end subroutine loss
end module m66omp

program p66omp
  use ferrozyme
  use fz_check
  use m66omp
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i
  seed = 66
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.3d0, 1.2d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  tx = [(0.1d0 * i - 0.8d0, i=1, n)]
  tw = [(0.07d0 * i - 0.5d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p66omp
