! `do concurrent` loops, MATMUL of a local matrix, array sections with strides, and a
! single-precision (real(4)) twin of the same model: the real(8) gradient is checked
! against central finite differences and the real(4) gradient against the real(8) one.
module m10
  implicit none
contains
  subroutine model8(a, x, y)
    real(8), intent(in) :: a(4, 4), x(4)
    real(8), intent(out) :: y
    real(8) :: z(4), s(4)
    integer :: i
    z = matmul(a, x)
    do concurrent (i = 1:4)
      s(i) = exp(0.2d0 * z(i)) + z(i)**2 / (1d0 + x(i)**2)
    end do
    y = sum(s(1:4:2)) * 2 + sum(s(2:4:2))
  end subroutine model8

  subroutine model4(a, x, y)
    real(4), intent(in) :: a(4, 4), x(4)
    real(4), intent(out) :: y
    real(4) :: z(4), s(4)
    integer :: i
    z = matmul(a, x)
    do concurrent (i = 1:4)
      s(i) = exp(0.2 * z(i)) + z(i)**2 / (1.0 + x(i)**2)
    end do
    y = sum(s(1:4:2)) * 2 + sum(s(2:4:2))
  end subroutine model4
end module m10

program p10
  use ferrozyme
  use fz_check
  use m10
  implicit none
  real(8) :: a(4, 4), x(4), da(4, 4), dx(4), y, dy, h, yp, ym, t, fd(4), av(16)
  real(4) :: a4(4, 4), x4(4), da4(4, 4), dx4(4), y4, dy4
  integer :: i, j, seed
  seed = 10
  call fill(av, -1d0, 1d0, seed)
  a = reshape(av, [4, 4])
  call fill(x, -1d0, 1d0, seed)
  da = 0; dx = 0; dy = 1
  call __enzyme_autodiff(model8, enzyme_dup, a, da, enzyme_dup, x, dx, enzyme_dup, y, dy)
  do i = 1, 4
    t = x(i)
    h = fd_step(t)
    x(i) = t + h
    call model8(a, x, yp)
    x(i) = t - h
    call model8(a, x, ym)
    x(i) = t
    fd(i) = (yp - ym) / (2 * h)
  end do
  call check_arr('dx fd', dx, fd, 1d-6)
  do j = 1, 4, 3
    do i = 1, 4
      t = a(i, j)
      h = fd_step(t)
      a(i, j) = t + h
      call model8(a, x, yp)
      a(i, j) = t - h
      call model8(a, x, ym)
      a(i, j) = t
      call check('da fd', da(i, j), (yp - ym) / (2 * h), 1d-6)
    end do
  end do
  a4 = real(a, 4); x4 = real(x, 4)
  da4 = 0; dx4 = 0; dy4 = 1
  call __enzyme_autodiff(model4, enzyme_dup, a4, da4, enzyme_dup, x4, dx4, enzyme_dup, y4, dy4)
  do i = 1, 4
    call check('real(4) dx vs real(8)', dble(dx4(i)), dx(i), 1d-4)
    call check('real(4) da vs real(8)', dble(da4(i, 2)), da(i, 2), 1d-4)
  end do
  call finish()
end program p10
