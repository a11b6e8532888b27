! OPT: O0 O2
! A `do while` convergence loop as solvers write it: the fixed point u = x + 0.4 cos(A u)
! (a contraction) iterated until MAXVAL(ABS(u_new - u)) < 1d-14, with `allocatable` locals
! allocated before the loop and deallocated after, the matrix built with an implied-do
! array constructor and RESHAPE, an `intent(inout)` iteration counter (integer, inactive)
! and a `character` label argument. The derivative of the converged u satisfies
! (I + 0.4 diag(sin(A u)) A) du = dx; the loss is f = sum(w * u**2). Reverse mode against
! central differences and against the implicit-function formula solved by hand (Gauss
! elimination in the main program), forward mode against reverse.
module m52
  implicit none
  integer, parameter :: n = 4
contains
  subroutine solve(x, a, u, iters, label)
    real(8), intent(in) :: x(:), a(:, :)
    real(8), intent(out) :: u(:)
    integer, intent(inout) :: iters
    character(len=*), intent(in) :: label
    real(8), allocatable :: unew(:)
    real(8) :: err
    allocate (unew(size(x)))
    u = x
    err = 1
    do while (err > 1d-14 .and. iters < 200)
      unew = x + 0.4d0 * cos(matmul(a, u))
      err = maxval(abs(unew - u))
      u = unew
      iters = iters + 1
    end do
    if (len_trim(label) == 0) u = 0
    deallocate (unew)
  end subroutine solve

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: a(n, n), u(n)
    integer :: i, iters
    a = reshape([(0.5d0 * sin(0.9d0 * i), i=1, n * n)], [n, n])
    iters = 0
    call solve(x, a, u, iters, 'picard')
    f = sum(w * u**2)
  end subroutine loss
end module m52

program p52
  use ferrozyme
  use fz_check
  use m52
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  real(8) :: a(n, n), u(n), m(n, n), g(n), s(n), piv
  integer :: seed, i, j, k, iters
  seed = 52
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  ! implicit function: df/dx = M^-T (2 w u), M = I + 0.4 diag(sin(A u)) A
  a = reshape([(0.5d0 * sin(0.9d0 * i), i=1, n * n)], [n, n])
  iters = 0
  call solve(x, a, u, iters, 'check')
  s = sin(matmul(a, u))
  do j = 1, n
    do i = 1, n
      m(j, i) = 0.4d0 * s(i) * a(i, j)   ! M^T
      if (i == j) m(j, i) = m(j, i) + 1
    end do
  end do
  g = 2 * w * u
  do k = 1, n
    do i = k + 1, n
      piv = m(i, k) / m(k, k)
      m(i, k:n) = m(i, k:n) - piv * m(k, k:n)
      g(i) = g(i) - piv * g(k)
    end do
  end do
  do i = n, 1, -1
    g(i) = (g(i) - sum(m(i, i + 1:n) * g(i + 1:n))) / m(i, i)
  end do
  call check_arr('df/dx implicit', dx, g, 1d-9)
  call check_arr('df/dw analytic', dw, u**2, 1d-9)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p52
