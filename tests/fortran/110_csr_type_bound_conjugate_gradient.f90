! OPT: O0 O2
! A sparse solver as a scientist writes it: a CSR matrix in a derived type with
! allocatable components (`integer, allocatable :: row_ptr(:), col(:)`, `real(dp),
! allocatable :: val(:)`), built inside the differentiated routine from a 1D stencil whose
! coefficients depend on the inputs, a type-bound `matvec` (`class(csr), intent(in) ::
! this`), and conjugate gradients with a fixed iteration count and an `exit` once the
! residual vanishes (never taken here: the matrix has n distinct eigenvalues and the loop
! stops at n); the loss is b . x. Reverse mode with respect to the coefficients and the
! right-hand side against central finite differences; forward mode by the dot-product
! identity.
module m110
  implicit none
  integer, parameter :: dp = kind(1d0)
  type :: csr
    integer :: n = 0
    integer, allocatable :: row_ptr(:), col(:)
    real(dp), allocatable :: val(:)
  contains
    procedure :: matvec
  end type csr
contains
  subroutine matvec(this, x, y)
    class(csr), intent(in) :: this
    real(dp), intent(in) :: x(:)
    real(dp), intent(out) :: y(:)
    integer :: i, k
    do i = 1, this%n
      y(i) = 0
      do k = this%row_ptr(i), this%row_ptr(i + 1) - 1
        y(i) = y(i) + this%val(k) * x(this%col(k))
      end do
    end do
  end subroutine matvec

  ! A = tridiag(-c(i), d(i) + c(i) + c(i+1), -c(i+1)): symmetric, diagonally dominant.
  subroutine build(a, n, c, d)
    type(csr), intent(out) :: a
    integer, intent(in) :: n
    real(dp), intent(in) :: c(n + 1), d(n)
    integer :: i, k
    a%n = n
    allocate (a%row_ptr(n + 1), a%col(3 * n - 2), a%val(3 * n - 2))
    k = 1
    do i = 1, n
      a%row_ptr(i) = k
      if (i > 1) then
        a%col(k) = i - 1; a%val(k) = -c(i); k = k + 1
      end if
      a%col(k) = i; a%val(k) = d(i) + c(i) + c(i + 1); k = k + 1
      if (i < n) then
        a%col(k) = i + 1; a%val(k) = -c(i + 1); k = k + 1
      end if
    end do
    a%row_ptr(n + 1) = k
  end subroutine build

  subroutine loss(n, c, d, b, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: c(n + 1), d(n), b(n)
    real(dp), intent(out) :: f
    type(csr) :: a
    real(dp), allocatable :: x(:), r(:), p(:), q(:)
    real(dp) :: rr, rr_new, alpha
    integer :: it
    call build(a, n, c, d)
    allocate (x(n), q(n))
    x = 0
    r = b
    p = r
    rr = dot_product(r, r)
    do it = 1, n
      if (rr < 1d-300) exit
      call a%matvec(p, q)
      alpha = rr / dot_product(p, q)
      x = x + alpha * p
      r = r - alpha * q
      rr_new = dot_product(r, r)
      p = r + (rr_new / rr) * p
      rr = rr_new
    end do
    f = dot_product(b, x)
  end subroutine loss
end module m110

program p110
  use ferrozyme
  use fz_check
  use m110
  implicit none
  integer, parameter :: n = 5
  real(dp) :: c(n + 1), d(n), b(n), dc(n + 1), dd(n), db(n), fc(n + 1), fdd(n), fb(n)
  real(dp) :: vc(n + 1), vd(n), vb(n), f, df, tf, f2
  integer :: seed
  seed = 110
  call fill(c, 0.5d0, 1.5d0, seed)
  call fill(d, 0.2d0, 1.2d0, seed)
  call fill(b, -1d0, 1d0, seed)
  dc = 0; dd = 0; db = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, c, dc, enzyme_dup, d, dd, &
                         enzyme_dup, b, db, enzyme_dup, f, df)
  call fd(1, fc)
  call fd(2, fdd)
  call fd(3, fb)
  call check_arr('d f / d c vs fd', dc, fc, 1d-6)
  call check_arr('d f / d d vs fd', dd, fdd, 1d-6)
  call check_arr('d f / d b vs fd', db, fb, 1d-6)
  call fill(vc, -1d0, 1d0, seed)
  call fill(vd, -1d0, 1d0, seed)
  call fill(vb, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, c, vc, enzyme_dup, d, vd, &
                            enzyme_dup, b, vb, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, &
             dot_product(dc, vc) + dot_product(dd, vd) + dot_product(db, vb), 1d-9)
  call finish()
contains
  ! Central differences of the loss with respect to each entry of c (which = 1), d (2)
  ! or b (3).
  subroutine fd(which, g)
    integer, intent(in) :: which
    real(dp), intent(out) :: g(:)
    real(dp) :: t, h, fp, fm
    integer :: i
    do i = 1, size(g)
      t = entry(which, i); h = fd_step(t)
      call set(which, i, t + h); call loss(n, c, d, b, fp)
      call set(which, i, t - h); call loss(n, c, d, b, fm)
      call set(which, i, t); g(i) = (fp - fm) / (2 * h)
    end do
  end subroutine fd

  real(dp) function entry(which, i)
    integer, intent(in) :: which, i
    select case (which)
    case (1); entry = c(i)
    case (2); entry = d(i)
    case default; entry = b(i)
    end select
  end function entry

  subroutine set(which, i, v)
    integer, intent(in) :: which, i
    real(dp), intent(in) :: v
    select case (which)
    case (1); c(i) = v
    case (2); d(i) = v
    case default; b(i) = v
    end select
  end subroutine set
end program p110
