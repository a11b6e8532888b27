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
  use ferrozyme
  use fz_check
  use model97
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: i
  x = [(sin(1.3d0 * i) * 0.8d0, i=1, n)]
  w = [(0.7d0 + 0.4d0 * cos(0.9d0 * i), i=1, n)]
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  tx = [(0.1d0 * mod(i, 5) - 0.2d0, i=1, n)]
  tw = [(0.05d0 * mod(i, 3) - 0.04d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call check_arr('second gradient', dx, fx, 1d-6)
  call finish()
end program p97
