! OPT: O0 O2
! The model of 09_derived_alloc_optional.f90 through a wrapper that calls it without the
! optional argument (absent: flang passes a null pointer) and with a literal `character`
! argument; the derived type with allocatable components is allocated by the caller, its
! shadow alike. Checked against central finite differences for both variants. At -O2
! flang inlines loss into the wrapper and reads size(l%w) as `ashr (shl ext, 32), 32` of
! the descriptor's i64 extent: it was a cannot-deduce-type error until type analysis
! read that idiom as an integer (filetest sext_idiom_integer_type).
module m12
  implicit none
  type :: layer
    real(8), allocatable :: w(:)
    real(8), allocatable :: b(:)
    real(8) :: scale
  end type layer
contains
  real(8) function penalty(v, n)
    integer, intent(in) :: n
    real(8), intent(in) :: v(*)
    penalty = sum(v(1:n)**2)
  end function penalty

  subroutine loss(kind, l, y, damping)
    character(len=*), intent(in) :: kind
    type(layer), intent(in) :: l
    real(8), intent(out) :: y
    real(8), intent(in), optional :: damping
    integer :: i
    y = 0
    do i = 1, size(l%w)
      if (kind == 'tanh') then
        y = y + tanh(l%w(i) * i * 0.3d0 + l%b(i))**2
      else
        y = y + atan2(l%w(i), 1.5d0 + l%b(i)**2)
      end if
    end do
    y = y * l%scale
    if (present(damping)) y = y + damping * penalty(l%w, size(l%w))
  end subroutine loss

  subroutine loss_plain(l, y)
    type(layer), intent(in) :: l
    real(8), intent(out) :: y
    call loss('atan', l, y)
  end subroutine loss_plain
end module m12

program p12
  use ferrozyme
  use fz_check
  use m12
  implicit none
  integer, parameter :: n = 5
  type(layer) :: l, dl
  real(8) :: y, dy, h, yp, ym, t, damp, fw(n), fb(n), fs
  integer :: seed, pass
  seed = 9
  allocate (l%w(n), l%b(n), dl%w(n), dl%b(n))
  call fill(l%w, -1d0, 1d0, seed)
  call fill(l%b, -1d0, 1d0, seed)
  l%scale = 1.3d0
  damp = 0.7d0
  do pass = 1, 2
    dl%w = 0; dl%b = 0; dl%scale = 0; dy = 1
    if (pass == 1) then
      call __enzyme_autodiff(loss, enzyme_const, 'tanh', enzyme_dup, l, dl, enzyme_dup, y, dy, &
                             enzyme_const, damp)
    else
      call __enzyme_autodiff(loss_plain, enzyme_dup, l, dl, enzyme_dup, y, dy)
    end if
    call fd_all(pass)
    call check_arr('d w fd', dl%w, fw, 1d-6)
    call check_arr('d b fd', dl%b, fb, 1d-6)
    call check('d scale fd', dl%scale, fs, 1d-6)
  end do
  call finish()
contains
  real(8) function eval(pass)
    integer, intent(in) :: pass
    if (pass == 1) then
      call loss('tanh', l, eval, damp)
    else
      call loss_plain(l, eval)
    end if
  end function eval

  subroutine fd_all(pass)
    integer, intent(in) :: pass
    integer :: i
    do i = 1, n
      t = l%w(i); h = fd_step(t)
      l%w(i) = t + h; yp = eval(pass)
      l%w(i) = t - h; ym = eval(pass)
      l%w(i) = t; fw(i) = (yp - ym) / (2 * h)
      t = l%b(i); h = fd_step(t)
      l%b(i) = t + h; yp = eval(pass)
      l%b(i) = t - h; ym = eval(pass)
      l%b(i) = t; fb(i) = (yp - ym) / (2 * h)
    end do
    t = l%scale; h = fd_step(t)
    l%scale = t + h; yp = eval(pass)
    l%scale = t - h; ym = eval(pass)
    l%scale = t; fs = (yp - ym) / (2 * h)
  end subroutine fd_all
end program p12
