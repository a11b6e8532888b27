! OPT: O0 O2
! A time step written as codes write it: a subroutine with a local work variable of a
! derived type with allocatable components (allocated, filled, read; flang finalizes it
! with `_FortranADestroy` at the end of the subroutine), called three times from the
! differentiated loss, so it is differentiated in split mode (an augmented forward and a
! reverse function). Its Destroy was a missing-derivative error; the augmented function
! now keeps a copy of the variable and of its shadow, and the reverse function destroys
! both at its exit, when its sweep is done with the components (hpc36). A second local,
! an array of the type, goes the same way. Reverse mode against central differences and
! the analytic gradient; forward mode by the dot-product identity.
module m80
  implicit none
  integer, parameter :: n = 4
  type work_t
    real(8), allocatable :: a(:), b(:)
  end type work_t
contains
  subroutine step(x, y, c)
    real(8), intent(in) :: x(:)
    real(8), intent(inout) :: y(:)
    real(8), intent(in) :: c
    type(work_t) :: s, pair(2)
    integer :: k
    allocate (s%a(size(x)), s%b(size(x)))
    s%a = x * c
    s%b = sin(s%a) * y
    do k = 1, 2
      allocate (pair(k)%a(size(x)))
      pair(k)%a = s%b * k
    end do
    y = y + s%b * s%a + 0.1d0 * (pair(1)%a - pair(2)%a * 0.25d0)
  end subroutine step

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: y(n)
    integer :: k
    y = w
    do k = 1, 3
      call step(x, y, 0.3d0 * k)
    end do
    f = sum(y**2)
  end subroutine loss
end module m80

program p80
  use ferrozyme
  use fz_check
  use m80
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  real(8) :: y(n), gy(n), gx(n), c, s, e
  integer :: i, k
  x = [(0.3d0 * i, i=1, n)]
  w = [(1d0 - 0.2d0 * i, i=1, n)]
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  ! Analytic: each step is y <- y * e with e = 1 + sin(a) * (a + 0.05), a = x c
  ! (s%b * s%a + 0.1 * (s%b - 2 s%b / 4)), entry by entry.
  do i = 1, n
    y(i) = w(i); gy(i) = 1; gx(i) = 0
  end do
  do k = 1, 3
    c = 0.3d0 * k
    do i = 1, n
      s = sin(x(i) * c)
      e = 1 + s * (x(i) * c + 0.1d0 * (1 - 0.5d0))
      gx(i) = gx(i) * e + y(i) * (cos(x(i) * c) * c * (x(i) * c + 0.05d0) + s * c)
      gy(i) = gy(i) * e
      y(i) = y(i) * e
    end do
  end do
  call check_arr('df/dw analytic', dw, 2 * y * gy, 1d-12)
  call check_arr('df/dx analytic', dx, 2 * y * gx, 1d-12)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p80
