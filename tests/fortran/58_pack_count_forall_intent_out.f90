! OPT: O0 O2
! Masked statistics as data-analysis codes write them: a subroutine with `intent(out)`
! arrays (a residual and a weight it fills completely), a `forall` with a mask building a
! banded matrix from the input, PACK of the entries above a threshold with the mean over
! COUNT of them, PACK with a VECTOR= padding argument, MINLOC of the residual and a
! masked SUM. Reverse mode against central finite differences (no entry sits near the
! threshold, the MINLOC winner is clear), forward mode against the reverse gradient.
module m58
  implicit none
  integer, parameter :: n = 8
contains
  subroutine residual(x, w, r, q)
    real(8), intent(in) :: x(:), w(:)
    real(8), intent(out) :: r(:), q(:)
    r = x * w - 0.3d0
    q = exp(-x**2)
  end subroutine residual

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: r(n), q(n), a(n, n), big(n)
    real(8), allocatable :: sel(:)
    integer :: i, j, c, k
    call residual(x, w, r, q)
    a = 0
    forall (i = 1:n, j = 1:n, abs(i - j) <= 1) a(i, j) = r(i) * q(j) + merge(1d0, 0d0, i == j)
    c = count(r > 0)
    sel = pack(r, r > 0)
    f = sum(sel) / max(c, 1) + sum(matmul(a, w)**2) * 0.05d0
    big = pack(q, q > 0.5d0, vector=w)
    k = minloc(r, dim=1)
    f = f + sum(big * x) + 2 * r(k)**2 + sum(q, mask=r < 0)
  end subroutine loss
end module m58

program p58
  use ferrozyme
  use fz_check
  use m58
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: i
  x = [0.9d0, -0.7d0, 0.35d0, 1.3d0, -0.2d0, 0.6d0, -1.1d0, 0.15d0]
  w = [1.1d0, 0.8d0, -0.9d0, 0.7d0, 1.2d0, 0.95d0, 0.5d0, -0.6d0]
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  tx = [(0.1d0 * i - 0.45d0, i=1, n)]
  tw = [(0.07d0 * i - 0.2d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p58
