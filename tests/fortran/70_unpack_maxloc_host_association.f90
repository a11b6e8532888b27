! OPT: O0 O2
! UNPACK scattering a packed, transformed vector back under its mask onto a FIELD array
! (flang's `_FortranAUnpack`, a runtime call at -O0 and -O2: differentiated since hpc34),
! a MAXLOC-selected update, and an internal function reading its host's variables (host
! association). Reverse mode against central finite differences; forward mode by the
! dot-product identity; the UNPACK result against a loop written out, without AD.
module m70
  implicit none
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8), allocatable :: v(:)
    real(8) :: u(n), scale
    logical :: mask(n)
    integer :: k
    scale = 1.5d0
    mask = x > 0.1d0
    v = pack(x * x, mask)
    u = unpack(sin(v) * scale, mask, cos(x))
    k = maxloc(u, 1)
    u(k) = u(k) * x(k)
    f = sum(u * x) + weigh(u)
  contains
    real(8) function weigh(w)
      real(8), intent(in) :: w(:)
      weigh = scale * dot_product(w, w) + x(1) * w(n)
    end function weigh
  end subroutine loss

  subroutine unpack_by_hand(n, x, u)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: u(n)
    integer :: i, k
    k = 0
    do i = 1, n
      if (x(i) > 0.1d0) then
        k = k + 1
        u(i) = sin(x(i) * x(i)) * 1.5d0
      else
        u(i) = cos(x(i))
      end if
    end do
  end subroutine unpack_by_hand
end module m70

program p70
  use ferrozyme
  use fz_check
  use m70
  implicit none
  integer, parameter :: n = 9
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2, u1(n), u2(n)
  logical :: mask(n)
  integer :: seed, i
  seed = 70
  call fill(x, -1d0, 1d0, seed)
  mask = x > 0.1d0
  u2 = 0
  u1 = unpack(sin(pack(x * x, mask)) * 1.5d0, mask, cos(x))
  call unpack_by_hand(n, x, u2)
  call check_arr('unpack vs loop', u1, u2, 1d-14)
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
end program p70
