! OPT: O0 O2
! IGNORE: the differentiated routine itself takes assumed-shape arrays `x(:)`: `use ferrozyme` declares __enzyme_autodiff without an explicit interface for its arguments, so flang passes the arrays' addresses where the derivative expects descriptors, and the derivative segfaults (also on main before front23). Explicit-shape dummies `x(n)` work (32 and every other program here); the pass should reject this with an error naming the dummy
! A user's loss written with assumed-shape dummies, differentiated directly.
module shape34
  implicit none
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(:), w(:)
    real(8), intent(out) :: f
    f = sum(w * x**2) + sum(x)**2
  end subroutine loss
end module shape34

program p34
  use ferrozyme
  use fz_check
  use shape34
  implicit none
  real(8) :: x(5), w(5), dx(5), dw(5), f, df
  integer :: seed
  seed = 34
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call check_arr('df/dx', dx, 2 * w * x + 2 * sum(x), 1d-12)
  call check_arr('df/dw', dw, x**2, 1d-12)
  call finish()
end program p34
