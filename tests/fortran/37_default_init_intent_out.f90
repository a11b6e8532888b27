! OPT: O0 O1 O2
! Default component values meet `intent(out)`: a statistics type whose components have
! default initial values (`real(dp) :: mean = 0, var = 0, scale = 1`), filled by a module
! routine taking it `intent(out)` (flang re-initializes it on entry: `scale` is 1 again,
! whatever the caller stored there), a function returning the type, and an array of the
! type as a local. The caller first stores an active value in `scale`; the derivative must
! not see it (the re-initialization cuts it off). Reverse mode against central finite
! differences and the analytic gradient, forward mode against reverse mode.
module stats37
  implicit none
  integer, parameter :: dp = kind(1d0)
  type :: stats
    real(dp) :: mean = 0, var = 0, scale = 1
    integer :: count = 0
  end type stats
contains
  subroutine describe(x, n, s)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    type(stats), intent(out) :: s
    integer :: i
    do i = 1, n
      s%mean = s%mean + x(i) / n
    end do
    do i = 1, n
      s%var = s%var + (x(i) - s%mean)**2 / n
    end do
    s%count = n
  end subroutine describe

  function shifted(s, d) result(t)
    type(stats), intent(in) :: s
    real(dp), intent(in) :: d
    type(stats) :: t
    t%mean = s%mean + d
    t%var = s%var
  end function shifted

  subroutine model(x, n, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: f
    type(stats) :: s, parts(2)
    s%scale = x(1)**2
    call describe(x, n, s)
    parts(1) = shifted(s, x(2))
    f = s%mean * s%scale + s%var + parts(1)%mean * parts(1)%scale + parts(2)%scale * x(3)
  end subroutine model
end module stats37

program p37
  use ferrozyme
  use fz_check
  use stats37
  implicit none
  integer, parameter :: n = 5
  real(dp) :: x(n), dx(n), tx(n), fd(n), an(n), f, df, tf, t, h, fp, fm, mean, var
  integer :: i, seed
  seed = 37
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(model, enzyme_dup, x, dx, enzyme_const, n, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call model(x, n, fp)
    x(i) = t - h; call model(x, n, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  ! f = 2 mean + var + x(2) + x(3): d mean = 1/n, d var = 2 (x - mean) / n
  mean = sum(x) / n
  var = sum((x - mean)**2) / n
  an = 2._dp / n + 2 * (x - mean) / n
  an(2) = an(2) + 1
  an(3) = an(3) + 1
  call check('primal', f, 2 * mean + var + x(2) + x(3), 1d-12)
  call check_arr('df/dx vs fd', dx, fd, 1d-6)
  call check_arr('df/dx vs analytic', dx, an, 1d-12)
  call fill(tx, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(model, enzyme_dup, x, tx, enzyme_const, n, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx), 1d-10)
  call finish()
end program p37
