! EXPECT-RUNTIME-ERROR: DEALLOCATE, in differentiated code, of an object whose type has a FINAL procedure
! EXPECT-RUNTIME-ERROR: 91_deallocate_final_refused.f90:36
! OPT: O0 O2
! DEALLOCATE, inside the differentiated routine, of an allocatable scalar whose type has
! a FINAL procedure (counting its calls in a module variable and freeing the allocatable
! component). The FINAL procedure used to be skipped silently in differentiated code (the
! gradient was right, the count said 0); running it there would free, through flang's
! own runtime, component memory the reverse sweep still reads. Refused at run time with
! the DEALLOCATE's source line (hpc38); tests/fortran/90 is the same routine without the
! FINAL procedure, which is differentiated, and tests/fortran/72 a local variable of such
! a type (finalized after the reverse sweep).
module m91
  implicit none
  integer :: finals = 0
  type :: field_t
    real(8), allocatable :: v(:)
  contains
    final :: release
  end type field_t
contains
  subroutine release(self)
    type(field_t), intent(inout) :: self
    finals = finals + 1
    if (allocated(self%v)) deallocate (self%v)
  end subroutine release

  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    type(field_t), allocatable :: fld
    allocate (fld)
    allocate (fld%v(n))
    fld%v = sin(x) * x
    f = sum(fld%v**2)
    deallocate (fld)
  end subroutine loss
end module m91

program p91
  use ferrozyme
  use fz_check
  use m91
  implicit none
  integer, parameter :: n = 6
  real(8) :: x(n), dx(n), f, df
  integer :: seed, before
  seed = 91
  call fill(x, -1d0, 1d0, seed)
  before = finals
  call loss(n, x, f)
  call check('primal finalizes once', real(finals - before, 8), 1d0, 0d0)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  call check_arr('d f / d x', dx, 2 * sin(x) * x * (cos(x) * x + sin(x)), 1d-12)
  call finish()
end program p91
