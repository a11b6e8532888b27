! OPT: O0 O2
! complex(8) arrays as signal-processing codes hold them: a discrete Fourier transform of
! a real signal written as a double loop with EXP of an imaginary phase into a complex
! array, then array expressions on it: ABS, CONJG, REAL/AIMAG, complex SUM and
! DOT_PRODUCT (which conjugates its first argument), MATMUL of a complex matrix by a
! complex vector, and a complex `intent(inout)` assumed-shape dummy scaled in place.
! By Parseval, sum |X_k|^2 = n sum x_j^2; the loss combines those terms with weights w.
! Reverse mode against central differences, forward mode against reverse.
module m54
  implicit none
  integer, parameter :: n = 6
  real(8), parameter :: pi = 3.14159265358979323846d0
contains
  subroutine damp(c, w)
    complex(8), intent(inout) :: c(:)
    real(8), intent(in) :: w(:)
    c = c * cmplx(1 - 0.1d0 * w, 0.05d0 * w, kind=8)
  end subroutine damp

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    complex(8) :: c(n), a(n, n), y(n), s, d
    integer :: j, k
    do k = 1, n
      c(k) = (0d0, 0d0)
      do j = 1, n
        c(k) = c(k) + x(j) * exp(cmplx(0d0, -2 * pi * (j - 1) * (k - 1) / n, kind=8))
      end do
    end do
    call damp(c, w)
    do k = 1, n
      do j = 1, n
        a(j, k) = cmplx(w(j) * 0.1d0, 0.02d0 * (j - k), kind=8)
      end do
    end do
    y = matmul(a, c)
    s = sum(c * conjg(y))
    d = dot_product(c, y)
    f = sum(abs(c)**2) / n + real(s) + 0.5d0 * aimag(d) + sum(w * real(y) * aimag(c))
  end subroutine loss
end module m54

program p54
  use ferrozyme
  use fz_check
  use m54
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i
  seed = 54
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.2d0, 1d0, seed)
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
end program p54
