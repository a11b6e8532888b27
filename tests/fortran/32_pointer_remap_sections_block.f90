! OPT: O0 O2
! Array idioms of numerical Fortran: a `contiguous` rank-2 pointer remapped onto a rank-1
! target (`w(1:n, 1:m) => flat`), MATMUL and DOT_PRODUCT on strided sections
! (`x(1:2*m:2)`, `w(1:n:2, :)`), SUM with MASK=, PRODUCT, MINVAL, MERGE, a `block`
! construct with its own declarations, `associate` names for sections, and a work array
! grown with `move_alloc` inside the differentiated routine. The loss is differentiated
! with respect to the flat weights and the input in reverse mode (central finite
! differences) and forward mode (the dot-product identity).
module remap32
  implicit none
  integer, parameter :: dp = kind(1d0)
contains
  subroutine loss(flat, x, n, m, f)
    integer, intent(in) :: n, m
    real(dp), intent(in), target :: flat(n * m)
    real(dp), intent(in) :: x(2 * m)
    real(dp), intent(out) :: f
    real(dp), pointer, contiguous :: w(:, :)
    real(dp), allocatable :: buf(:), bigger(:)
    real(dp) :: y(n)
    integer :: k
    w(1:n, 1:m) => flat
    y = matmul(w, x(1:2 * m:2))
    f = dot_product(w(1:n:2, 1), y(1:n:2))
    f = f + sum(y, mask=y > 0) - 0.5_dp * minval(y)
    associate (head => y(1:3), tail => y(n - 2:n))
      f = f + product(1 + 0.1_dp * head) + sum(merge(tail**2, -tail, tail > 0))
    end associate
    allocate (buf(2))
    buf = [y(1), y(2)]
    do k = 3, n
      block
        real(dp) :: scale
        scale = 1 + 0.01_dp * k
        allocate (bigger(k))
        bigger(1:k - 1) = buf
        bigger(k) = scale * y(k)
        call move_alloc(bigger, buf)
      end block
    end do
    f = f + 0.1_dp * sum(buf * buf) + sum(x(2:2 * m:2))**2
  end subroutine loss
end module remap32

program p32
  use ferrozyme
  use fz_check
  use remap32
  implicit none
  integer, parameter :: n = 6, m = 4
  real(dp) :: flat(n * m), dflat(n * m), x(2 * m), dx(2 * m), fdw(n * m), fdx(2 * m)
  real(dp) :: tflat(n * m), tx(2 * m), f, df, tf, t, h, fp, fm
  integer :: i, seed
  seed = 32
  call fill(flat, -1d0, 1d0, seed)
  call fill(x, -1d0, 1d0, seed)
  dflat = 0; dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, flat, dflat, enzyme_dup, x, dx, enzyme_const, n, &
                         enzyme_const, m, enzyme_dup, f, df)
  do i = 1, n * m
    t = flat(i); h = fd_step(t)
    flat(i) = t + h; call loss(flat, x, n, m, fp)
    flat(i) = t - h; call loss(flat, x, n, m, fm)
    flat(i) = t; fdw(i) = (fp - fm) / (2 * h)
  end do
  do i = 1, 2 * m
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(flat, x, n, m, fp)
    x(i) = t - h; call loss(flat, x, n, m, fm)
    x(i) = t; fdx(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('df/dw vs fd', dflat, fdw, 1d-6)
  call check_arr('df/dx vs fd', dx, fdx, 1d-6)
  call fill(tflat, -1d0, 1d0, seed)
  call fill(tx, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, flat, tflat, enzyme_dup, x, tx, enzyme_const, n, &
                            enzyme_const, m, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dflat, tflat) + dot_product(dx, tx), &
             1d-10)
  call finish()
end program p32
