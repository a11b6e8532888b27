! Transformational intrinsics of a periodic stencil code: CSHIFT along each dimension
! (a periodic Laplacian), SUM(..., DIM=1), MAXVAL(..., DIM=2), SPREAD and a rank-1
! CSHIFT. flang calls its runtime for them at -O0 and for SPREAD at -O2 too; they go
! through differentiable implementations. Checked against central finite differences.
module m16
  implicit none
contains
  subroutine stencil(u, y)
    real(8), intent(in) :: u(6, 4)
    real(8), intent(out) :: y
    real(8) :: lap(6, 4), colsum(4), rowmax(6), v(6)
    lap = cshift(u, 1, dim=1) + cshift(u, -1, dim=1) + cshift(u, 2, dim=2) - 3 * u
    colsum = sum(lap**2, dim=1)
    rowmax = maxval(u, dim=2) - minval(u, dim=2)
    v = cshift(rowmax, 1)
    y = sum(colsum) + dot_product(rowmax, v) + sum(spread(colsum, 1, 2) * spread(u(1, :), 1, 2))
  end subroutine stencil
end module m16

program p16
  use ferrozyme
  use fz_check
  use m16
  implicit none
  real(8) :: u(6, 4), du(6, 4), y, dy, h, yp, ym, t, uv(24)
  integer :: i, j, seed
  seed = 16
  call fill(uv, -1d0, 1d0, seed)
  u = reshape(uv, [6, 4])
  du = 0; dy = 1
  call __enzyme_autodiff(stencil, enzyme_dup, u, du, enzyme_dup, y, dy)
  do j = 1, 4
    do i = 1, 6
      t = u(i, j); h = fd_step(t)
      u(i, j) = t + h; call stencil(u, yp)
      u(i, j) = t - h; call stencil(u, ym)
      u(i, j) = t
      call check('du fd', du(i, j), (yp - ym) / (2 * h), 1d-6)
    end do
  end do
  call finish()
end program p16
