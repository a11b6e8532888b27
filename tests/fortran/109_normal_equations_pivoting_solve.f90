! OPT: O0 O2
! Least squares as a scientist writes it: the normal equations `matmul(transpose(a), a)`
! and `matmul(transpose(a), b)` of allocatable arrays (iso_fortran_env's real64), solved
! by Gaussian elimination with partial pivoting (`maxloc(abs(m(k:, k)))`, whole-row swaps
! through a temporary row, back substitution by `dot_product` of sections); the loss is
! the squared solution plus the residual's `norm2`. Reverse mode with respect to the
! design matrix and the data against central finite differences; forward mode by the
! dot-product identity.
module m109
  use, intrinsic :: iso_fortran_env, only: dp => real64
  implicit none
contains
  subroutine solve(m, r, x)
    real(dp), intent(inout) :: m(:, :), r(:)
    real(dp), intent(out) :: x(:)
    real(dp), allocatable :: row(:)
    real(dp) :: t, piv
    integer :: k, p, i, n
    n = size(r)
    allocate (row(n))
    do k = 1, n - 1
      p = k - 1 + maxloc(abs(m(k:, k)), dim=1)
      if (p /= k) then
        row = m(k, :); m(k, :) = m(p, :); m(p, :) = row
        t = r(k); r(k) = r(p); r(p) = t
      end if
      piv = m(k, k)
      do i = k + 1, n
        t = m(i, k) / piv
        m(i, k:) = m(i, k:) - t * m(k, k:)
        r(i) = r(i) - t * r(k)
      end do
    end do
    do k = n, 1, -1
      x(k) = (r(k) - dot_product(m(k, k + 1:), x(k + 1:))) / m(k, k)
    end do
  end subroutine solve

  subroutine loss(nr, nc, a, b, f)
    integer, intent(in) :: nr, nc
    real(dp), intent(in) :: a(nr, nc), b(nr)
    real(dp), intent(out) :: f
    real(dp), allocatable :: at(:, :), m(:, :), r(:), x(:)
    allocate (x(nc))
    at = transpose(a)
    m = matmul(at, a)
    r = matmul(at, b)
    call solve(m, r, x)
    f = sum(x**2) + 0.5_dp * norm2(matmul(a, x) - b)
  end subroutine loss
end module m109

program p109
  use ferrozyme
  use fz_check
  use m109
  implicit none
  integer, parameter :: nr = 6, nc = 3
  real(dp) :: a(nr, nc), b(nr), da(nr, nc), db(nr), fa(nr, nc), fb(nr), f, df
  real(dp) :: va(nr, nc), vb(nr), tf, f2, t, h, fp, fm
  integer :: seed, i, j
  seed = 109
  call fill_mat(a)
  call fill(b, -1d0, 1d0, seed)
  do j = 1, nc
    a(j, j) = a(j, j) + 2  ! full column rank, well conditioned
  end do
  da = 0; db = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, nr, enzyme_const, nc, enzyme_dup, a, da, &
                         enzyme_dup, b, db, enzyme_dup, f, df)
  do j = 1, nc
    do i = 1, nr
      t = a(i, j); h = fd_step(t)
      a(i, j) = t + h; call loss(nr, nc, a, b, fp)
      a(i, j) = t - h; call loss(nr, nc, a, b, fm)
      a(i, j) = t; fa(i, j) = (fp - fm) / (2 * h)
    end do
  end do
  do i = 1, nr
    t = b(i); h = fd_step(t)
    b(i) = t + h; call loss(nr, nc, a, b, fp)
    b(i) = t - h; call loss(nr, nc, a, b, fm)
    b(i) = t; fb(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d a vs fd', reshape(da, [nr * nc]), reshape(fa, [nr * nc]), 1d-6)
  call check_arr('d f / d b vs fd', db, fb, 1d-6)
  call fill_mat(va)
  call fill(vb, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, nr, enzyme_const, nc, enzyme_dup, a, va, &
                            enzyme_dup, b, vb, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, sum(da * va) + dot_product(db, vb), 1d-10)
  call finish()
contains
  subroutine fill_mat(m)
    real(dp), intent(out) :: m(:, :)
    real(dp) :: col(size(m, 1))
    integer :: k
    do k = 1, size(m, 2)
      call fill(col, -1d0, 1d0, seed)
      m(:, k) = col
    end do
  end subroutine fill_mat
end program p109
