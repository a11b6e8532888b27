! OPT: O0 O2
! A user's loss written with assumed-shape dummies `x(:)`. Handed to __enzyme_autodiff
! directly it cannot work: `use ferrozyme` declares the hook `external`, so flang passes
! the arrays' addresses where `loss` reads descriptors; that call is now a compile-time
! error naming the argument and this workaround (tests/errors/fortran_assumed_shape_hook.ll;
! before, the derivative segfaulted). The workaround, checked here: differentiate a
! wrapper with explicit-shape dummies that calls the assumed-shape routine (flang builds
! the descriptors inside, which the pass differentiates), in reverse mode against the
! analytic gradient and central finite differences, and in forward mode.
module shape34
  implicit none
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(:), w(:)
    real(8), intent(out) :: f
    f = sum(w * x**2) + sum(x)**2
  end subroutine loss

  subroutine loss_n(n, x, w, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    call loss(x, w, f)
  end subroutine loss_n
end module shape34

program p34
  use ferrozyme
  use fz_check
  use shape34
  implicit none
  integer, parameter :: n = 5
  real(8) :: x(n), w(n), dx(n), dw(n), fd(n), tx(n), tw(n), f, df, tf, t, h, fp, fm
  integer :: seed, i
  seed = 34
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss_n, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, w, dw, &
                         enzyme_dup, f, df)
  call check_arr('df/dx', dx, 2 * w * x + 2 * sum(x), 1d-12)
  call check_arr('df/dw', dw, x**2, 1d-12)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(x, w, fp)
    x(i) = t - h; call loss(x, w, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('df/dx vs fd', dx, fd, 1d-6)
  tx = [(0.1d0 * i - 0.2d0, i=1, n)]
  tw = [(0.05d0 * i, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss_n, enzyme_const, n, enzyme_dup, x, tx, enzyme_dup, w, tw, &
                            enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-12)
  call finish()
end program p34
