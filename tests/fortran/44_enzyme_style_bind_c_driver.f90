! OPT: O0 O2
! A Fortran driver written the way Enzyme's Fortran examples are, without Ferrozyme's
! `ferrozyme` module: the hooks declared in an `interface` block with `bind(c)` and
! explicit argument types, the activity markers as `bind(c)` integer variables passed by
! value, the differentiated procedures `bind(c)` with `value` scalars and
! `type(c_ptr)`-free explicit-shape arrays, and `c_funloc` of the procedure. Checked
! against the analytic derivative and central finite differences.
module m44
  use, intrinsic :: iso_c_binding
  implicit none
  ! Enzyme's `extern int enzyme_dup;` ... (the driver passes their values)
  integer(c_int), bind(c, name="enzyme_out") :: enzyme_out
  integer(c_int), bind(c, name="enzyme_const") :: enzyme_const
  integer(c_int), bind(c, name="enzyme_dup") :: enzyme_dup
contains
  ! f(x, y) = x^2 sin(y) + exp(x y)
  real(c_double) function f(x, y) bind(c)
    real(c_double), value :: x, y
    f = x * x * sin(y) + exp(x * y)
  end function f

  ! loss(w) = sum_i (w_i - c_i)^2 w_{i+1} + norm2(w)
  subroutine loss(n, w, c, out) bind(c)
    integer(c_int), value :: n
    real(c_double), intent(in) :: w(n), c(n)
    real(c_double), intent(out) :: out
    integer :: i
    out = 0
    do i = 1, n - 1
      out = out + (w(i) - c(i))**2 * w(i + 1)
    end do
    out = out + norm2(w)
  end subroutine loss
end module m44

program p44
  use, intrinsic :: iso_c_binding
  use fz_check
  use m44
  implicit none
  interface
    real(c_double) function autodiff_xy(fn, mk1, x, mk2, y) bind(c, name="__enzyme_autodiff")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: fn
      integer(c_int), value :: mk1, mk2
      real(c_double), value :: x, y
    end function autodiff_xy
    subroutine autodiff_loss(fn, mk0, n, mk1, w, dw, mk2, c, mk3, out, dout) &
        bind(c, name="__enzyme_autodiff")
      import :: c_funptr, c_double, c_int
      type(c_funptr), value :: fn
      integer(c_int), value :: mk0, n, mk1, mk2, mk3
      real(c_double) :: w(*), dw(*), c(*), out, dout
    end subroutine autodiff_loss
  end interface
  integer(c_int), parameter :: n = 7
  real(c_double) :: x, y, dfdx, w(n), dw(n), c(n), out, dout, fdw(n), t, h, fp, fm
  integer :: seed, i
  x = 0.7d0; y = -0.4d0
  ! The derivative with respect to the first active scalar (Enzyme returns the first
  ! `enzyme_out` adjoint when the return type is one double).
  dfdx = autodiff_xy(c_funloc(f), enzyme_out, x, enzyme_const, y)
  call check('d f / d x analytic', dfdx, 2 * x * sin(y) + y * exp(x * y), 1d-12)
  seed = 44
  call fill(w, -1d0, 1d0, seed)
  call fill(c, -1d0, 1d0, seed)
  dw = 0; dout = 1
  call autodiff_loss(c_funloc(loss), enzyme_const, n, enzyme_dup, w, dw, enzyme_const, c, &
                     enzyme_dup, out, dout)
  do i = 1, n
    t = w(i); h = fd_step(t)
    w(i) = t + h; call loss(n, w, c, fp)
    w(i) = t - h; call loss(n, w, c, fm)
    w(i) = t; fdw(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d loss / d w vs fd', dw, fdw, 1d-6)
  call finish()
end program p44
