! OPT: O0 O2
! Control flow a hand-written Fortran solver uses around its arithmetic: named nested `do`
! loops left early with `exit outer` and skipped with `cycle inner`, a `select case` on a
! character argument (the method name, trimmed), a `do while` damping loop with a
! run-time trip count, MAXLOC with a MASK and DIM=, MINVAL along a dimension into an
! array, and an internal function. Reverse mode against central finite differences (the
! inputs keep every branch and the MAXLOC winner away from ties), forward mode against
! the reverse gradient (the dot-product identity).
module m60
  implicit none
  integer, parameter :: n = 8
  character(len=8) :: method = 'damped'
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: g(4, 2), colmin(2), r
    integer :: i, j, k, it
    f = 0
    outer: do i = 1, n
      inner: do j = 1, n
        if (j == i) cycle inner
        if (x(i) * x(j) > 0.8d0) exit outer
        f = f + x(i) * w(j) * 0.05d0
      end do inner
    end do outer
    g = reshape(x * w, [4, 2])
    colmin = minval(g, dim=1)
    k = maxloc(x, dim=1, mask=w > 0.5d0)
    select case (trim(method))
    case ('plain')
      r = x(k)
    case ('damped')
      r = x(k)
      it = 0
      do while (abs(r) > 0.05d0 .and. it < 6)
        r = r * damp(w(k))
        it = it + 1
      end do
    case default
      r = 0
    end select
    f = f + r**2 + sum(colmin * [1d0, 2d0]) + sum(x**2 * w)
  contains
    real(8) function damp(v)
      real(8), intent(in) :: v
      damp = 0.5d0 + 0.3d0 * sin(v)
    end function damp
  end subroutine loss
end module m60

program p60
  use ferrozyme
  use fz_check
  use m60
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: i, j
  x = [0.3d0, -0.6d0, 0.85d0, 0.2d0, 1.05d0, -0.4d0, 0.7d0, 0.1d0]
  w = [0.9d0, 0.4d0, 0.7d0, 1.1d0, 0.3d0, 0.8d0, 0.6d0, 0.2d0]
  do i = 1, 2
    if (i == 2) method = 'plain'
    dx = 0; dw = 0; df = 1
    call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
    call fd_grad2(loss, x, w, n, fx, fw)
    call check_arr('df/dx vs fd', dx, fx, 1d-6)
    call check_arr('df/dw vs fd', dw, fw, 1d-6)
    tx = [(0.1d0 * j - 0.45d0, j=1, n)]
    tw = [(0.07d0 * j - 0.2d0, j=1, n)]
    tf = 0
    call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
    call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  end do
  call finish()
end program p60
