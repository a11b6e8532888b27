! OPT: O0 O2
! Linear algebra on allocatable arrays as a scientist writes it: the loss of x (n) and
! w (n) builds an allocatable matrix A(m,n) with A(i,j) = w(j) * (i + j) / 10, then
! f = dot_product(matmul(transpose(A), matmul(A, x)), x) + norm2(x) + sum(matmul(x, transpose(A))).
! Analytic: with B = A^T A and s = A e (e = ones(m)),
!   df/dx = 2 B x + x/|x| + A^T e,   df/dw_j = sum_i c_ij (2 (A x)_i x_j + x_j), c_ij = (i+j)/10.
! Reverse mode against the formula and central differences, forward mode by the
! dot-product identity.
module la38
  implicit none
  integer, parameter :: n = 4, m = 3
contains
  subroutine build(w, a)
    real(8), intent(in) :: w(n)
    real(8), allocatable, intent(out) :: a(:, :)
    integer :: i, j
    allocate (a(m, n))
    do j = 1, n
      do i = 1, m
        a(i, j) = w(j) * (i + j) / 10d0
      end do
    end do
  end subroutine build

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8), allocatable :: a(:, :), ax(:), r(:)
    call build(w, a)
    ax = matmul(a, x)
    r = matmul(transpose(a), ax)
    f = dot_product(r, x) + norm2(x) + sum(matmul(x, transpose(a)))
  end subroutine loss
end module la38

program p38
  use ferrozyme
  use fz_check
  use la38
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  real(8) :: a(m, n), c(m, n), ax(m), gx(n), gw(n)
  integer :: seed, i, j
  seed = 38
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  do j = 1, n
    do i = 1, m
      c(i, j) = (i + j) / 10d0
      a(i, j) = w(j) * c(i, j)
    end do
  end do
  ax = matmul(a, x)
  gx = 2 * matmul(transpose(a), ax) + x / sqrt(sum(x**2)) + sum(a, dim=1)
  do j = 1, n
    gw(j) = sum(c(:, j) * (2 * ax * x(j) + x(j)))
  end do
  call check_arr('df/dx analytic', dx, gx, 1d-11)
  call check_arr('df/dw analytic', dw, gw, 1d-11)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p38
