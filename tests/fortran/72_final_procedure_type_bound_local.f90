! OPT: O0 O2
! A derived type with a FINAL procedure and an allocatable component, as a local of the
! differentiated routine: flang runs the final subroutine (which counts finalizations in
! a module variable and reads the component, inactive work) from `_FortranADestroy` when
! the local goes out of scope. The Destroy moves after the reverse sweep (hpc33) and the
! shadow's components are freed too, but by `_FortranADestroyWithoutFinalization`: until
! hpc34 the shadow got the same Destroy, which ran the user's FINAL procedure a second
! time per call (the counter said 2). Also a type-bound function reading the component
! and MODULO-wrapped indices. Reverse mode against
! central finite differences; forward mode by the dot-product identity.
module m72
  implicit none
  integer :: finals = 0
  type :: field_t
    real(8), allocatable :: v(:)
  contains
    procedure :: energy
    final :: release
  end type field_t
contains
  subroutine release(self)
    type(field_t), intent(inout) :: self
    finals = finals + 1
    if (allocated(self%v)) deallocate (self%v)
  end subroutine release

  real(8) function energy(self)
    class(field_t), intent(in) :: self
    integer :: i, m
    m = size(self%v)
    energy = 0
    do i = 1, m
      energy = energy + self%v(i) * self%v(modulo(i, m) + 1)
    end do
  end function energy

  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    type(field_t) :: a
    allocate (a%v(n))
    a%v = cos(x) * x
    f = a%energy() + sum(a%v)
  end subroutine loss
end module m72

program p72
  use ferrozyme
  use fz_check
  use m72
  implicit none
  integer, parameter :: n = 8
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i, before
  seed = 72
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  before = finals
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  call check('finalized once by the gradient', real(finals - before, 8), 1d0, 0d0)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(n, x, fp)
    x(i) = t - h; call loss(n, x, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dx, fd, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  before = finals
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('finalized once by the tangent', real(finals - before, 8), 1d0, 0d0)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p72
