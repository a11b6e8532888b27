! OMP_THREADS: 1 2
! OPT: O0 O2
! Fortran host `teams` leagues next to a parallel routine: each team of a `!$omp teams
! num_teams(2)` league sums its half of the array into a team-private scalar, publishes
! it in a shared array indexed by team number and adds it into a shared total with
! `!$omp atomic update`; a second league scales each team's published value; then a
! module routine with `!$omp parallel do collapse(2) private(tmp) reduction(max:big)
! reduction(+:a) schedule(dynamic, 2)` where `tmp` is a private local array filled per
! iteration by a module procedure. Reverse mode against central finite differences
! (twice: the second gradient must equal the first), forward mode by the dot-product
! identity. (A `threadprivate` variable in the teams regions is left out: flang-22 looks
! the copy up before `__kmpc_fork_teams`, so every team updates the encountering
! thread's copy, a data race in the program itself; the C twin, tests/openmp/68, has
! one copy per team.)
module m69omp
  use omp_lib
  implicit none
  integer, parameter :: n = 12, m = 3
contains
  subroutine fill_tmp(tmp, x, i, j)
    real(8), intent(out) :: tmp(m)
    real(8), intent(in) :: x(n)
    integer, intent(in) :: i, j
    integer :: k
    do k = 1, m
      tmp(k) = x(i) * cos(x(mod(i + j + k, n) + 1)) + 0.1d0 * k
    end do
  end subroutine fill_tmp

  subroutine pairs(x, w, big, tot)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: big, tot
    real(8) :: tmp(m), a
    integer :: i, j
    big = -1d300
    a = 0
    !$omp parallel do collapse(2) private(tmp) reduction(max:big) reduction(+:a) schedule(dynamic, 2)
    do i = 1, n
      do j = 1, m
        call fill_tmp(tmp, x, i, j)
        big = max(big, tmp(j) * w(i))
        a = a + sum(tmp**2) * w(i)
      end do
    end do
    !$omp end parallel do
    tot = a
  end subroutine pairs

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: tot, tot2, big, a, s, acc, part(2)
    integer :: i, t, nt, lo, hi
    tot = 0
    tot2 = 0
    part = 0
    !$omp teams num_teams(2) private(t, nt, lo, hi, i, acc)
    t = omp_get_team_num()
    nt = omp_get_num_teams()
    lo = t * n / nt + 1
    hi = (t + 1) * n / nt
    acc = 0
    do i = lo, hi
      acc = acc + w(i) * x(i)**2
    end do
    part(t + 1) = acc
    !$omp atomic update
    tot = tot + acc
    !$omp end teams
    !$omp teams num_teams(2) private(t, nt, lo, hi, i, s, acc)
    t = omp_get_team_num()
    nt = omp_get_num_teams()
    lo = t * n / nt + 1
    hi = (t + 1) * n / nt
    s = 0
    do i = lo, hi
      s = s + exp(0.2d0 * x(i))
    end do
    acc = part(t + 1) * s
    !$omp atomic update
    tot2 = tot2 + acc
    !$omp end teams
    call pairs(x, w, big, a)
    f = tot * tot + 3 * tot2 + big * big + 0.1d0 * a
  end subroutine loss
end module m69omp

program p69omp
  use ferrozyme
  use fz_check
  use m69omp
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), dx2(n), dw2(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i
  seed = 69
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.3d0, 1.2d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  dx2 = 0; dw2 = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx2, enzyme_dup, w, dw2, enzyme_dup, f, df)
  call check_arr('second gradient = first (x)', dx2, dx, 1d-12)
  call check_arr('second gradient = first (w)', dw2, dw, 1d-12)
  tx = [(0.1d0 * i - 0.8d0, i=1, n)]
  tw = [(0.07d0 * i - 0.5d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p69omp
