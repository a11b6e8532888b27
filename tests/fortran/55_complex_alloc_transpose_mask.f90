! OPT: O0 O2
! complex(8) arrays in allocatable locals and assumed-shape dummies: ALLOCATE of a
! complex matrix and vector, whole-array complex assignments (reallocation on
! assignment), TRANSPOSE and MATMUL of complex matrices, SUM with a MASK, an
! `intent(inout)` complex dummy updated with CONJG and a complex scalar broadcast, and
! DOT_PRODUCT. Reverse mode against central differences, forward mode against reverse.
module m55
  implicit none
  integer, parameter :: n = 4
contains
  subroutine rotate(c, z)
    complex(8), intent(inout) :: c(:)
    complex(8), intent(in) :: z
    c = c * z + 0.1d0 * conjg(c)
  end subroutine rotate

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    complex(8), allocatable :: a(:, :), c(:), y(:)
    complex(8) :: z
    integer :: i, j
    allocate (a(n, n), c(n))
    do j = 1, n
      do i = 1, n
        a(i, j) = cmplx(x(i) * w(j), 0.3d0 * (i - j) * x(j), kind=8)
      end do
    end do
    c = cmplx(w, x, kind=8)
    z = cmplx(cos(x(1)), sin(x(1)), kind=8)
    call rotate(c, z)
    y = matmul(transpose(a), c)
    f = real(sum(y, mask=real(y) > -100d0)) + aimag(dot_product(y, c)) + sum(abs(y)**2) / 10
    deallocate (a, c)
  end subroutine loss
end module m55

program p55
  use ferrozyme
  use fz_check
  use m55
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i
  seed = 55
  call fill(x, -1d0, 1d0, seed)
  call fill(w, -1d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p55
