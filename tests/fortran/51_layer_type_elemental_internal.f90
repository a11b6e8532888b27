! OPT: O0 O2
! A derived type with explicit-shape array components (a weight matrix, a bias vector)
! and an integer component, built inside the differentiated routine from its inputs; a
! module routine applying it with MATMUL and an `elemental` function to assumed-shape
! arrays, with an `optional` scale tested with `present`; a `pure` function of a section;
! an internal function (`contains` in the loss) reading the host's arrays. Reverse mode
! against central differences, forward mode against reverse (the dot-product identity).
module m51
  implicit none
  integer, parameter :: n = 5
  type :: layer
    real(8) :: wt(n, n)
    real(8) :: b(n)
    integer :: kind = 1
  end type layer
contains
  elemental real(8) function softplus(z)
    real(8), intent(in) :: z
    softplus = log(1d0 + exp(z))
  end function softplus

  pure real(8) function spread_of(v)
    real(8), intent(in) :: v(:)
    spread_of = sum((v - sum(v) / size(v))**2)
  end function spread_of

  subroutine apply(l, x, y, scale)
    type(layer), intent(in) :: l
    real(8), intent(in) :: x(:)
    real(8), intent(out) :: y(:)
    real(8), intent(in), optional :: scale
    y = softplus(matmul(l%wt, x) + l%b)
    if (l%kind == 2) y = tanh(y)
    if (present(scale)) y = y * scale
  end subroutine apply

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    type(layer) :: l
    real(8) :: h(n), y(n)
    integer :: i, j
    do j = 1, n
      do i = 1, n
        l%wt(i, j) = w(i) * cos(0.3d0 * (i - j)) + 0.1d0 * w(j)
      end do
    end do
    l%b = 0.1d0 * w
    call apply(l, x, h)
    l%kind = 2
    call apply(l, h, y, scale=0.5d0)
    f = total(y) + spread_of(h(2:n))
  contains
    real(8) function total(v)
      real(8), intent(in) :: v(:)
      total = sum(v * w) + sum(l%b * v)
    end function total
  end subroutine loss
end module m51

program p51
  use ferrozyme
  use fz_check
  use m51
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i
  seed = 51
  call fill(x, -1d0, 1d0, seed)
  call fill(w, -0.8d0, 0.8d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p51
