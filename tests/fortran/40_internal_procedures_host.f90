! OPT: O0 O2
! Internal procedures (after `contains` inside the differentiated routine) that read
! and write the host's variables: `scale` (a local of the host computed from w),
! `acc` (accumulated by an internal subroutine), and the host's dummy `x`. The host is a
! module procedure, so it is what the hook receives; its internal procedures are
! differentiated where they are called. With c = 1 + sum(w**2):
!   g(t)  = scale * sin(t),   scale = c / 2
!   acc   = sum_i g(x_i) * w_i  (internal `add` called in the loop)
!   f     = acc + h(2) ,  h(k) = x(k) * x(k+1) * scale   (reads the host's x)
! Reverse against the formula and central differences; forward by the dot-product identity.
module host40
  implicit none
  integer, parameter :: n = 5
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: scale, acc
    integer :: i
    scale = (1 + sum(w**2)) / 2
    acc = 0
    do i = 1, n
      call add(g(x(i)) * w(i))
    end do
    f = acc + h(2)
  contains
    real(8) function g(t)
      real(8), intent(in) :: t
      g = scale * sin(t)
    end function g
    subroutine add(v)
      real(8), intent(in) :: v
      acc = acc + v
    end subroutine add
    real(8) function h(k)
      integer, intent(in) :: k
      h = x(k) * x(k + 1) * scale
    end function h
  end subroutine loss
end module host40

program p40
  use ferrozyme
  use fz_check
  use host40
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  real(8) :: gx(n), gw(n), scale, dscale
  integer :: seed, i
  seed = 40
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  scale = (1 + sum(w**2)) / 2
  ! d f / d scale
  dscale = sum(sin(x) * w) + x(2) * x(3)
  gx = scale * cos(x) * w
  gx(2) = gx(2) + x(3) * scale
  gx(3) = gx(3) + x(2) * scale
  gw = scale * sin(x) + dscale * w
  call check_arr('df/dx analytic', dx, gx, 1d-12)
  call check_arr('df/dw analytic', dw, gw, 1d-12)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p40
