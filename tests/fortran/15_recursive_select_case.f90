! Control flow of everyday Fortran: a `recursive` function with a `result` clause
! (pairwise summation of a section, splitting it in halves), `select case` on an integer
! mode, a `do while` with `exit` and `cycle`, and `real(4)` locals mixed into a real(8)
! computation. Checked against central finite differences for every mode.
module m15
  implicit none
contains
  recursive function pairwise(x, lo, hi) result(s)
    real(8), intent(in) :: x(:)
    integer, intent(in) :: lo, hi
    real(8) :: s
    integer :: mid
    if (hi - lo < 2) then
      s = x(lo)**2
      if (hi > lo) s = s + x(hi)**2
    else
      mid = (lo + hi) / 2
      s = pairwise(x, lo, mid) + pairwise(x, mid + 1, hi)
    end if
  end function pairwise

  subroutine model(mode, x, y)
    integer, intent(in) :: mode
    real(8), intent(in) :: x(9)
    real(8), intent(out) :: y
    real(4) :: w
    integer :: i
    select case (mode)
    case (1)
      y = pairwise(x, 1, 9)
    case (2:3)
      y = 0
      i = 0
      do while (.true.)
        i = i + 1
        if (i > 9) exit
        if (mod(i, mode) == 0) cycle
        w = real(i, 4) * 0.5
        y = y + w * sin(x(i)) * x(mod(i, 9) + 1)
      end do
    case default
      y = product(1d0 + 0.1d0 * x)
    end select
  end subroutine model
end module m15

program p15
  use ferrozyme
  use fz_check
  use m15
  implicit none
  real(8) :: x(9), dx(9), y, dy, fd(9), h, yp, ym, t
  integer :: i, seed, mode
  character(len=16) :: name
  seed = 15
  call fill(x, -1d0, 1d0, seed)
  do mode = 1, 4
    dx = 0; dy = 1
    call __enzyme_autodiff(model, enzyme_const, mode, enzyme_dup, x, dx, enzyme_dup, y, dy)
    do i = 1, 9
      t = x(i); h = fd_step(t)
      x(i) = t + h; call model(mode, x, yp)
      x(i) = t - h; call model(mode, x, ym)
      x(i) = t; fd(i) = (yp - ym) / (2 * h)
    end do
    write (name, '(a,i0)') 'mode ', mode
    call check_arr(trim(name), dx, fd, 1d-6)
  end do
  call finish()
end program p15
