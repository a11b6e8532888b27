! OPT: O0 O2
! OMP_THREADS: 1 2 4
! Coefficient arrays passed `enzyme_const` and read inside `!$omp parallel do`: w(n),
! c(n) (read through a module function's assumed-shape dummy, whose descriptor flang
! builds inside the region) and a constant matrix a(n,n), beside the differentiated x. flang stores their addresses into
! the struct of captures it hands the region, a struct that has a shadow because it
! also holds x and s; the constant arrays' shadow fields hold the arrays themselves and
! the region's derivative skips the adjoints of reads through them at run time
! (runtime activity). It was refused (the random-program tester's Fortran seeds 31, 32,
! 63, 81: "... is handed to an OpenMP parallel region in memory that has one").
! Reverse mode against the analytic gradient and central finite differences, forward
! mode by the dot-product identity; the constant arrays must come back unchanged.
module m71
  implicit none
contains
  pure function cterm(c, i, xi) result(r)
    real(8), intent(in) :: c(:), xi
    integer, intent(in) :: i
    real(8) :: r
    r = c(i) * sin(xi)
  end function cterm

  subroutine energy(n, w, c, a, x, s)
    integer, intent(in) :: n
    real(8), intent(in) :: w(n)
    real(8), intent(in) :: c(n)
    real(8), intent(in) :: a(n, n)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: s
    integer :: i, j
    real(8) :: t
    s = 0
    !$omp parallel do reduction(+:s) private(j, t)
    do i = 1, n
      t = 0
      do j = 1, n
        t = t + a(i, j) * x(j)
      end do
      s = s + w(i) * x(i)**2 + cterm(c, i, x(i)) + 0.5d0 * t * t
    end do
    !$omp end parallel do
  end subroutine energy
end module m71

program p71
  use ferrozyme
  use fz_check
  use m71
  implicit none
  integer, parameter :: n = 9
  real(8) :: w(n), c(n), a(n, n), w0(n), c0(n), a0(n, n)
  real(8) :: x(n), dx(n), want(n), v(n), s, ds, rp, rm, h, xi, ax(n), jv
  integer :: i, j, seed
  seed = 71
  call fill(w, 0.1d0, 1d0, seed)
  call fill(c, -1d0, 1d0, seed)
  do j = 1, n
    call fill(a(:, j), -0.5d0, 0.5d0, seed)
  end do
  call fill(x, -1d0, 1d0, seed)
  call fill(v, -1d0, 1d0, seed)
  w0 = w; c0 = c; a0 = a
  dx = 0; ds = 1
  call __enzyme_autodiff(energy, enzyme_const, n, enzyme_const, w, enzyme_const, c, &
       enzyme_const, a, enzyme_dup, x, dx, enzyme_dup, s, ds)
  ! d/dx_k: 2 w_k x_k + c_k cos(x_k) + sum_i (A x)_i a(i,k)
  ax = matmul(a, x)
  want = 2 * w * x + c * cos(x) + matmul(transpose(a), ax)
  call check_arr('dx analytic', dx, want, 1d-11)
  do i = 1, n
    xi = x(i); h = fd_step(xi)
    x(i) = xi + h; call energy(n, w, c, a, x, rp)
    x(i) = xi - h; call energy(n, w, c, a, x, rm)
    x(i) = xi
    want(i) = (rp - rm) / (2 * h)
  end do
  call check_arr('dx fd', dx, want, 1d-6)
  call check_arr('w unchanged', w, w0, 0d0)
  call check_arr('c unchanged', c, c0, 0d0)
  do j = 1, n
    call check_arr('a unchanged', a(:, j), a0(:, j), 0d0)
  end do
  ! forward mode: <J, v> equals the reverse gradient dotted with v
  want = dx
  dx = v; ds = 0
  call __enzyme_fwddiff_sub(energy, enzyme_const, n, enzyme_const, w, enzyme_const, c, &
       enzyme_const, a, enzyme_dup, x, dx, enzyme_dup, s, ds)
  jv = dot_product(want, v)
  call check('forward vs reverse', ds, jv, 1d-11)
  call finish()
end program p71
