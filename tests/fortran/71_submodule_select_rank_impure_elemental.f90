! OPT: O0 O2
! Fortran 2008/2018 program structure on the differentiated path: a module procedure
! implemented in a SUBMODULE (`module subroutine` / `module procedure`), an
! assumed-rank dummy `a(..)` dispatched with SELECT RANK (rank 1 and rank 2 arms, the
! shape read from the descriptor; each arm's descriptor is flang's
! `_FortranACopyAndUpdateDescriptor` of the dummy's at -O0 and -O2, differentiated since
! hpc34), an IMPURE ELEMENTAL function counting its calls in a module variable (called
! once per element by the derivative too), and the intrinsics DPROD, LOG10 and MODULO.
! Reverse mode against central finite differences; forward mode by the dot-product
! identity.
module m71
  implicit none
  integer :: calls = 0
  interface
    module subroutine smooth(n, x, y)
      integer, intent(in) :: n
      real(8), intent(in) :: x(n)
      real(8), intent(out) :: y(n)
    end subroutine smooth
  end interface
contains
  impure elemental real(8) function soft(t)
    real(8), intent(in) :: t
    calls = calls + 1
    soft = log10(1 + t * t) + modulo(3.5d0, 2d0) * t
  end function soft

  real(8) function weigh(a)
    real(8), intent(in) :: a(..)
    weigh = 0
    select rank (a)
    rank (1)
      weigh = sum(a * a) + a(size(a))
    rank (2)
      weigh = sum(a(:, 1) * a(:, size(a, 2))) + 2 * sum(a)
    rank default
      weigh = -1
    end select
  end function weigh

  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8) :: y(n), m(3, n / 3)
    call smooth(n, x, y)
    y = soft(y)
    m = reshape(y(1:3 * (n / 3)), [3, n / 3])
    f = weigh(y) + weigh(m) + dprod(real(n, 4), 0.25) * x(1)
  end subroutine loss
end module m71

submodule (m71) m71_impl
  implicit none
contains
  module procedure smooth
    integer :: i
    do i = 1, n
      y(i) = 0.5d0 * x(i) + 0.25d0 * (x(modulo(i - 2, n) + 1) + x(modulo(i, n) + 1))
    end do
  end procedure smooth
end submodule m71_impl

program p71
  use ferrozyme
  use fz_check
  use m71
  implicit none
  integer, parameter :: n = 9
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 71
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  call check('soft called on every element', real(calls, 8), real(n, 8), 0d0)
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
end program p71
