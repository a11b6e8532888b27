! OPT: O0 O2
! A derived-type LOCAL variable with allocatable components inside the differentiated
! routine, as solver codes write work storage: `type(work_t) :: w` with allocatable
! arrays allocated from the problem size, filled from the input, combined, and left to
! go out of scope (flang finalizes it with `_FortranADestroy`; whole-object assignment
! `w2 = w` is `_FortranAAssign`, differentiated by a built-in rule since hpc35, and a
! component with a default value is initialized by `_FortranAInitialize`). Reverse mode
! against central finite differences, forward mode by the dot-product identity.
module m48
  implicit none
  type :: work_t
    real(8), allocatable :: u(:), g(:)
    real(8) :: scale = 2d0
  end type work_t
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    type(work_t) :: w, w2
    integer :: i
    allocate (w%u(n), w%g(n))
    do i = 1, n
      w%u(i) = sin(x(i)) * w%scale
    end do
    w%g = w%u**2 + x
    w2 = w
    w2%u = w2%u * x
    f = 0
    do i = 1, n
      f = f + w%g(i) * w2%u(i) + w2%scale * x(i)
    end do
  end subroutine loss
end module m48

program p48
  use ferrozyme
  use fz_check
  use m48
  implicit none
  integer, parameter :: n = 7
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 48
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(n, x, fp)
    x(i) = t - h; call loss(n, x, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dx, fd, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p48
