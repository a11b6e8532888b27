! A small dense layer with MATMUL, TANH and DOT_PRODUCT through assumed-shape arrays,
! differentiated from Fortran in both modes: __enzyme_fwddiff's directional derivative
! is checked against central finite differences along the same direction, and against
! the gradient from __enzyme_autodiff (the dot-product identity <J v, 1> = <v, J^T 1>).
module m06
  implicit none
contains
  real(8) function layer_loss(w, v, b)
    real(8), intent(in) :: w(:, :), v(:), b(:)
    real(8) :: h(size(b))
    h = tanh(matmul(w, v) + b)
    layer_loss = dot_product(h, h) + dot_product(h, v) + sum(w * w) * 0.01d0
  end function layer_loss

  real(8) function loss(w, v, b)
    real(8), intent(in) :: w(3, 3), v(3), b(3)
    loss = layer_loss(w, v, b)
  end function loss
end module m06

program p06
  use ferrozyme
  use fz_check
  use m06
  implicit none
  real(8) :: w(3, 3), v(3), b(3), dw(3, 3), dv(3), db(3), tw(3, 3), tv(3), tb(3)
  real(8) :: jvp, fd, y0, h, rev
  integer :: seed
  seed = 6
  call fill_mat(w)
  call fill(v, -1d0, 1d0, seed)
  call fill(b, -0.5d0, 0.5d0, seed)
  call fill_mat(tw)
  call fill(tv, -1d0, 1d0, seed)
  call fill(tb, -1d0, 1d0, seed)
  ! Forward mode: the directional derivative along (tw, tv, tb).
  jvp = __enzyme_fwddiff(loss, enzyme_dup, w, tw, enzyme_dup, v, tv, enzyme_dup, b, tb)
  h = 1d-6
  fd = (loss(w + h * tw, v + h * tv, b + h * tb) - loss(w - h * tw, v - h * tv, b - h * tb)) &
       / (2 * h)
  call check('jvp vs fd', jvp, fd, 1d-6)
  ! Reverse mode: the gradient, then <grad, direction>.
  dw = 0; dv = 0; db = 0
  call __enzyme_autodiff(loss, enzyme_dup, w, dw, enzyme_dup, v, dv, enzyme_dup, b, db)
  rev = sum(dw * tw) + dot_product(dv, tv) + dot_product(db, tb)
  call check('<grad, dir> vs jvp', rev, jvp, 1d-10)
  y0 = loss(w, v, b)
  call check('loss finite', y0, y0, 0d0)
  call finish()
contains
  subroutine fill_mat(a)
    real(8), intent(out) :: a(3, 3)
    real(8) :: t(9)
    integer :: j
    call fill(t, -1d0, 1d0, seed)
    do j = 1, 3
      a(:, j) = t(3 * j - 2:3 * j)
    end do
  end subroutine fill_mat
end program p06
