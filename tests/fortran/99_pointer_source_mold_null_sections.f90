! OPT: O0 O2
! POINTER arrays as Fortran codes juggle them: `nullify`, `allocate (p, source = x)`
! (shape and values from an array), `allocate (p(4), source = 0d0)` (a scalar source),
! an allocatable target made with `allocate (a, mold = w)`, a pointer to a strided
! section of it (`q => a(2:n:2)`), `q => null()`, deallocation of the pointers in the
! routine. flang calls `_FortranAPointerAllocateSource` (a missing-derivative error before
! hpc40), `PointerSetBounds`, `PointerDeallocate`, `AllocatableApplyMold`. Reverse mode
! against central differences, forward mode by the dot-product identity.
module m99
  implicit none
  integer, parameter :: n = 8
  integer, parameter :: seed0 = 99
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8), pointer :: p(:), q(:)
    real(8), allocatable, target :: a(:)
    nullify (q)
    allocate (p, source=x)
    allocate (a, mold=w)
    a = w * 2 + sin(x)
    q => a(2:n:2)
    f = sum(p * w) + sum(q**2)
    q => null()
    if (.not. associated(q)) f = f + 0.5d0 * p(3)**2
    deallocate (p)
    allocate (p(4), source=0d0)
    p = p + x(1:4) * w(5:8)
    f = f + sum(exp(0.3d0 * p))
    deallocate (p)
  end subroutine loss
end module m99

program p99
  use m99
  include 'src/check_loss_xw.inc'
end program p99
