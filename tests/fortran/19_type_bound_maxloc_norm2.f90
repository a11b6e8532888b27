! A module with a derived type holding allocatable matrices and a type-bound procedure
! (non-polymorphic `type` dummy, so the call is static), MATMUL of allocatable 2-D
! arrays, TRANSPOSE, DOT_PRODUCT, NORM2, a MAXLOC picking an element (integer result:
! no derivative flows through it, the value it selects gets one), ABS and an array-valued
! internal function. Reverse mode is checked against central finite differences, forward
! mode against reverse mode (the dot-product identity). Derivatives are taken with respect
! to the input and to the network (its shadow is a second `mlp` with the same
! allocations). (Passing an internal procedure that uses its host's variables to the
! hook is rejected with a clear error: tests/errors/fortran_internal_procedure.f90.)
module m19
  implicit none
  type :: mlp
    real(8), allocatable :: w1(:, :), w2(:, :)
    real(8) :: gain
  contains
    procedure :: forward => mlp_forward
  end type mlp
contains
  subroutine mlp_forward(net, x, y)
    class(mlp), intent(in) :: net
    real(8), intent(in) :: x(:)
    real(8), intent(out) :: y
    real(8) :: h(size(net%w1, 1)), o(size(net%w2, 2))
    integer :: k(1)
    h = tanh(matmul(net%w1, x))
    o = matmul(transpose(net%w2), h)
    k = maxloc(abs(o))
    y = net%gain * dot_product(o, o) + norm2(h) + 0.5d0 * o(k(1))
  end subroutine mlp_forward

  ! The explicit-shape entry point the hook calls (implicit interfaces pass addresses):
  ! the type-bound call passes `net` to the class dummy with its descriptor.
  subroutine run(net, n, x, y)
    type(mlp), intent(in) :: net
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    call net%forward(x, y)
  end subroutine run
end module m19

program p19
  use ferrozyme
  use fz_check
  use m19
  implicit none
  integer, parameter :: nh = 4, ni = 3, no = 2
  type(mlp) :: net, dnet, tnet
  real(8) :: x(ni), dx(ni), y, dy, fx(ni), t, h, yp, ym, v(ni), tan_y, fw1(nh, ni), fw2(nh, no)
  real(8) :: fg, dotw
  integer :: seed, i, j
  seed = 19
  allocate (net%w1(nh, ni), net%w2(nh, no))
  call fill_mat(net%w1)
  call fill_mat(net%w2)
  net%gain = 0.8d0
  call fill(x, -1d0, 1d0, seed)
  call fill(v, -1d0, 1d0, seed)
  allocate (dnet%w1(nh, ni), dnet%w2(nh, no), tnet%w1(nh, ni), tnet%w2(nh, no))
  dnet%w1 = 0; dnet%w2 = 0; dnet%gain = 0
  dx = 0; dy = 1
  call __enzyme_autodiff(run, enzyme_dup, net, dnet, enzyme_const, ni, enzyme_dup, x, dx, &
                         enzyme_dup, y, dy)
  do i = 1, ni
    t = x(i); h = fd_step(t)
    x(i) = t + h; call run(net, ni, x, yp)
    x(i) = t - h; call run(net, ni, x, ym)
    x(i) = t; fx(i) = (yp - ym) / (2 * h)
  end do
  do j = 1, ni
    do i = 1, nh
      t = net%w1(i, j); h = fd_step(t)
      net%w1(i, j) = t + h; call run(net, ni, x, yp)
      net%w1(i, j) = t - h; call run(net, ni, x, ym)
      net%w1(i, j) = t; fw1(i, j) = (yp - ym) / (2 * h)
    end do
  end do
  do j = 1, no
    do i = 1, nh
      t = net%w2(i, j); h = fd_step(t)
      net%w2(i, j) = t + h; call run(net, ni, x, yp)
      net%w2(i, j) = t - h; call run(net, ni, x, ym)
      net%w2(i, j) = t; fw2(i, j) = (yp - ym) / (2 * h)
    end do
  end do
  t = net%gain; h = fd_step(t)
  net%gain = t + h; call run(net, ni, x, yp)
  net%gain = t - h; call run(net, ni, x, ym)
  net%gain = t; fg = (yp - ym) / (2 * h)
  call check_arr('dy/dx fd', dx, fx, 1d-6)
  call check_arr('dy/dw1 fd', reshape(dnet%w1, [nh * ni]), reshape(fw1, [nh * ni]), 1d-6)
  call check_arr('dy/dw2 fd', reshape(dnet%w2, [nh * no]), reshape(fw2, [nh * no]), 1d-6)
  call check('dy/dgain fd', dnet%gain, fg, 1d-6)
  ! Forward mode along (v, w1, w2, gain directions) against the reverse gradient.
  call fill_mat(tnet%w1)
  call fill_mat(tnet%w2)
  tnet%gain = 0.3d0
  tan_y = 0
  call __enzyme_fwddiff_sub(run, enzyme_dup, net, tnet, enzyme_const, ni, enzyme_dup, x, v, &
                            enzyme_dup, y, tan_y)
  dotw = dot_product(dx, v) + sum(dnet%w1 * tnet%w1) + sum(dnet%w2 * tnet%w2) + &
         dnet%gain * tnet%gain
  call check('forward . v = reverse . v', tan_y, dotw, 1d-12)
  call finish()
contains
  subroutine fill_mat(a)
    real(8), intent(out) :: a(:, :)
    real(8) :: flat(size(a))
    call fill(flat, -1d0, 1d0, seed)
    a = reshape(flat, shape(a))
  end subroutine fill_mat
end program p19
