! OPT: O0 O2
! SOURCES: src/hpc40_csq.c
! A layer type with allocatable components and a type-bound function (tanh of MATMUL
! plus a bias), filled by FORALL statements over its allocatable component (`forall (i =
! 1:n, j = 1:n) l%w(i, j) = ...`, also with a mask) and from a PARAMETER array through a
! vector subscript; WHERE/ELSEWHERE, NORM2, MAXVAL, DOT_PRODUCT, a strided SUM, and a C
! function called through a `bind(c)` interface with a `value` argument (compiled on the
! same command line and differentiated with the Fortran code). flang saves the FORALL's
! left-hand-side element addresses on a descriptor stack (`_FortranACreateDescriptorStack`,
! `PushDescriptor`, `DescriptorAt`, `DestroyDescriptorStack`): before hpc40 a
! missing-derivative error at -O0 and -O2; now a differentiable implementation
! (runtime/fortran.c). Reverse mode against central differences; forward mode by the
! dot-product identity.
module model97
  use iso_c_binding, only: c_double
  implicit none
  integer, parameter :: n = 6
  integer, parameter :: seed0 = 97
  real(8), parameter :: coef(3) = [0.5d0, -0.25d0, 0.125d0]
  type :: layer_t
    real(8), allocatable :: w(:, :)
    real(8), allocatable :: b(:)
  contains
    procedure :: apply => layer_apply
  end type layer_t
  interface
    real(c_double) function csq(a) bind(c, name='csq')
      import :: c_double
      real(c_double), value :: a
    end function csq
  end interface
contains
  function layer_apply(self, x) result(y)
    class(layer_t), intent(in) :: self
    real(8), intent(in) :: x(:)
    real(8) :: y(size(self%b))
    y = tanh(matmul(self%w, x) + self%b)
  end function layer_apply

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    type(layer_t) :: l
    real(8) :: h(n), tmp(n)
    integer :: i, j
    allocate (l%w(n, n), l%b(n))
    forall (i = 1:n, j = 1:n) l%w(i, j) = w(i) * cos(0.3d0 * (i - j))
    forall (i = 1:n, j = 1:n, i > j) l%w(i, j) = l%w(i, j) + 0.1d0 * x(j) * w(i)
    l%b = coef(mod([(i, i=1, n)], 3) + 1)
    forall (i = 1:n:2) l%b(i) = l%b(i) + 0.2d0 * x(i)**2
    h = l%apply(x)
    where (h > 0)
      tmp = h * h
    elsewhere
      tmp = -h * 0.5d0
    end where
    f = norm2(tmp) + maxval(h) + dot_product(h, x) + sum(tmp(2:n:2))
    do i = 1, n
      f = f + csq(h(i)) * 0.1d0
    end do
  end subroutine loss
end module model97

program p97
  use model97
  include 'src/check_loss_xw.inc'
end program p97
