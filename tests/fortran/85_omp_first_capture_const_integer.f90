! OPT: O0 O2
! OMP_THREADS: 1 2
! flang's struct of captures handed to a parallel region holds the `enzyme_const` `n`
! in its first field when the region uses `n` first: here a region summing a constant
! into `s` (the shape of a region of the random-program tester's Fortran seed 23), `s` scaled by x
! afterwards. The region reads only the integer through that field, as through
! any other field of the struct (tests/openmp/06), so the program is differentiated
! (it was refused at -O2: "argument 1 ... is handed to an OpenMP parallel region in
! memory that has one"). Reverse and forward mode against the analytic derivative and
! central finite differences.
module m85
  implicit none
contains
  subroutine f(n, x, res)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: res
    real(8) :: s
    integer :: i
    s = x(1)
    !$omp parallel do reduction(+:s)
    do i = 1, n
      s = s + 0.5d0
    end do
    !$omp end parallel do
    res = s * x(2)
  end subroutine f
end module m85

program p85
  use ferrozyme
  use fz_check
  use m85
  implicit none
  integer, parameter :: n = 7
  real(8) :: x(n), dx(n), want(n), v(n), res, dres, rp, rm, t, h, s
  integer :: i, seed
  seed = 85
  call fill(x, -1d0, 1d0, seed)
  call fill(v, -1d0, 1d0, seed)
  dx = 0; dres = 1
  call __enzyme_autodiff(f, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, res, dres)
  s = x(1) + 0.5d0 * n
  want = 0
  want(1) = x(2)
  want(2) = s
  call check_arr('dx analytic', dx, want, 1d-12)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call f(n, x, rp)
    x(i) = t - h; call f(n, x, rm)
    x(i) = t
    want(i) = (rp - rm) / (2 * h)
  end do
  call check_arr('dx fd', dx, want, 1d-6)
  dx = v; dres = 0
  call __enzyme_fwddiff_sub(f, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, res, dres)
  t = v(1) * x(2) + v(2) * s
  call check('forward tangent', dres, t, 1d-12)
  call finish()
end program p85
