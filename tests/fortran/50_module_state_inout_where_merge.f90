! OPT: O0 O2
! A module holding the model (a matrix and a threshold, module variables set by the main
! program and only read by the differentiated routine), an assumed-shape `intent(inout)`
! array updated twice by a module routine that allocates and deallocates two local work
! arrays, TRANSPOSE, MATMUL, `where`/`elsewhere`, MERGE with a mask from another array,
! then SUM, MAXVAL and DOT_PRODUCT in the loss. Reverse mode against central differences
! (the data keep every `where` test and the MAXVAL winner away from ties), forward mode
! against the reverse gradient (the dot-product identity).
module m50
  implicit none
  integer, parameter :: n = 6
  real(8) :: a(n, n)
  real(8) :: shift = 0.05d0
contains
  subroutine relax(u, v)
    real(8), intent(inout) :: u(:)
    real(8), intent(in) :: v(:)
    real(8), allocatable :: t(:), m(:, :)
    allocate (t(size(u)), m(size(u), size(u)))
    m = transpose(a) + a
    t = 0.1d0 * matmul(m, u) + v
    where (t > shift)
      u = u + t**2
    elsewhere
      u = u - sin(t)
    end where
    u = merge(u, 0.5d0 * u, v > 0)
    deallocate (t, m)
  end subroutine relax

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: u(n)
    u = x
    call relax(u, w)
    call relax(u, 0.5d0 * w)
    f = sum(u**2) + maxval(u * w) + dot_product(u, matmul(a, w))
  end subroutine loss
end module m50

program p50
  use ferrozyme
  use fz_check
  use m50
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i, j
  seed = 50
  do j = 1, n
    do i = 1, n
      a(i, j) = 0.3d0 * cos(0.7d0 * i + 0.2d0 * j)
    end do
  end do
  call fill(x, -1d0, 1d0, seed)
  w = [0.8d0, -0.6d0, 0.45d0, -0.3d0, 1.1d0, 0.25d0]
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
end program p50
