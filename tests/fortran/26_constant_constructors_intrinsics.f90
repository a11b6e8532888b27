! OPT: O0 O2
! Array constructors of constants where flang keeps them as read-only globals (-O0):
! `best = [-huge(1d0), 0d0]` before a peak search that replaces the pair with
! `[v, dble(i)]`, a stencil of constant weights in DOT_PRODUCT, a product with a constant
! vector inside SUM, MATMUL by a constant matrix built with RESHAPE, and SUM with DIM=.
! flang passes such constants to its runtime (Assign, DotProductReal8, ...) in a
! descriptor whose base is the read-only array; it has no shadow, so the reverse sweep
! added the adjoint flowing back to the constant through a null address: a segmentation
! fault at -O0 (hpc18; the clone now gives such descriptors a stack copy,
! `fortran_constants.rs`). Reverse mode is checked against central finite differences,
! forward mode against reverse mode (the dot-product identity).
module peaks26
  implicit none
  integer, parameter :: dp = kind(1d0)
contains
  subroutine score(n, x, obj)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: obj
    real(dp) :: best(2), w(3), a(3, 3), y(3), cols(3), m(3, 4)
    integer :: i, j
    best = [-huge(1d0), 0d0]
    do i = 1, n
      if (sin(x(i)) + 0.1_dp * x(i) > best(1)) best = [sin(x(i)) + 0.1_dp * x(i), dble(i)]
    end do
    w = [0.25_dp, 0.5_dp, 0.25_dp]
    obj = best(1) * (1 + 0.01_dp * best(2))
    do i = 2, n - 1
      obj = obj + dot_product(x(i - 1:i + 1), [1.0_dp, -2.0_dp, 1.0_dp])**2 + dot_product(w, x(i - 1:i + 1))
    end do
    obj = obj + sum(x(1:3) * [0.5_dp, 1.5_dp, -1.0_dp])
    a = reshape([2.0_dp, 1.0_dp, 0.0_dp, -1.0_dp, 3.0_dp, 1.0_dp, 0.5_dp, 0.0_dp, 1.0_dp], [3, 3])
    y = matmul(a, x(1:3)**2)
    obj = obj + dot_product(y, [1.0_dp, 2.0_dp, 3.0_dp])
    do j = 1, 4
      m(:, j) = x(j:j + 2) * j
    end do
    cols = sum(m, dim=2)
    obj = obj + sum(cols**2) * 0.1_dp + maxval(sum(m, dim=1))
  end subroutine score
end module peaks26

program p26
  use ferrozyme
  use fz_check
  use peaks26
  implicit none
  integer, parameter :: n = 8
  real(dp) :: x(n), dx(n), fd(n), v(n), obj, dobj, t, h, op, om, tobj
  integer :: seed, i
  seed = 26
  call fill(x, -1d0, 1d0, seed)
  dx = 0; dobj = 1
  call __enzyme_autodiff(score, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, obj, dobj)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call score(n, x, op)
    x(i) = t - h; call score(n, x, om)
    x(i) = t; fd(i) = (op - om) / (2 * h)
  end do
  call check_arr('reverse vs fd', dx, fd, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  tobj = 0
  call __enzyme_fwddiff_sub(score, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, obj, tobj)
  call check('forward <J v> = <grad, v>', tobj, sum(dx * v), 1d-10)
  call finish()
end program p26
