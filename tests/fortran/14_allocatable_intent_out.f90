! An `allocatable, intent(out)` dummy allocated inside the differentiated routine (the
! result array escapes to the caller), real array constructors built by flang's runtime
! (`[x, x(n:1:-1)]` of an assumed-shape array and a real implied-do: differentiable
! implementations of InitArrayConstructorVector/PushArrayConstructorValue), a vector
! subscript, and allocation on assignment; the loss is computed by a second routine
! from the escaped array. Checked against central finite differences. (An integer
! constructor in the same routine as a real one is rejected, cannot-deduce-type: the
! one implementation sees both; alone it goes to flang's routine and passes.)
module m14
  implicit none
contains
  subroutine features(x, f)
    real(8), intent(in) :: x(:)
    real(8), allocatable, intent(out) :: f(:)
    real(8), allocatable :: t(:), u(:)
    integer, allocatable :: idx(:)
    integer :: n, i
    n = size(x)
    t = [x, x(n:1:-1)]
    allocate (idx(n))
    do i = 1, n
      idx(i) = n + 1 - i
    end do
    u = [(x(i) * i, i = 1, n), 0.5d0]
    allocate (f(n))
    f = t(1:n) * t(n + 1:2 * n) + exp(-x**2) + u(idx) * u(n + 1)
  end subroutine features

  subroutine loss(x, y)
    real(8), intent(in) :: x(6)
    real(8), intent(out) :: y
    real(8), allocatable :: f(:)
    call features(x, f)
    y = sum(f**2) + f(1) * f(6)
  end subroutine loss
end module m14

program p14
  use ferrozyme
  use fz_check
  use m14
  implicit none
  real(8) :: x(6), dx(6), y, dy, fd(6), h, yp, ym, t
  integer :: i, seed
  seed = 14
  call fill(x, -1d0, 1d0, seed)
  dx = 0; dy = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, y, dy)
  do i = 1, 6
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(x, yp)
    x(i) = t - h; call loss(x, ym)
    x(i) = t; fd(i) = (yp - ym) / (2 * h)
  end do
  call check_arr('dx fd', dx, fd, 1d-6)
  call finish()
end program p14
