! OPT: O0 O2
! complex arrays through flang's reductions along a dimension and EOSHIFT at -O0 (each
! used to stop at run time: flang's routine would drop the derivative): EOSHIFT of a
! complex(8) vector (zero shifted in) and along DIM=2 of a matrix with a complex
! BOUNDARY, SUM(DIM=1), SUM(DIM=2), PRODUCT(DIM=1), whole-array PRODUCT of complex(8)
! and complex(4), SUM(DIM=1) of complex(4). Reverse mode against central finite
! differences of the same formula written with loops (no intrinsics, complex(8) where
! the loss rounds to complex(4): differences of rounded values would be noise); forward
! mode against the reverse gradient (complex(4) parts carry single precision: 1e-5).
module m65
  implicit none
  integer, parameter :: n = 6
contains
  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    complex(8) :: b(n), m(2, 3), e(n), m2(2, 3), cs(3), rs(2), cp(3), pp
    complex(4) :: b4(2, 3), s4(3), p4
    integer :: i, j
    do i = 1, n
      b(i) = cmplx(x(i), x(n + 1 - i) * 0.5d0 - 0.1d0 * i, kind=8)
    end do
    m = reshape(b, [2, 3])
    e = eoshift(b, 2)
    m2 = eoshift(m, -1, boundary=(0.5d0, -0.25d0), dim=2)
    cs = sum(m, dim=1)
    rs = sum(m, dim=2)
    cp = product(m, dim=1)
    pp = product(b(2:5))
    b4 = m
    s4 = sum(b4, dim=1)
    p4 = product(b4(1, :))
    f = real(pp) + aimag(p4) + real(s4(2)) * aimag(s4(3)) + abs(rs(1)) * real(rs(2))
    do i = 1, n
      f = f + real(e(i)) * i + aimag(e(i)) * real(b(i))
    end do
    do j = 1, 3
      f = f + real(cs(j) * cp(j)) + aimag(cp(j)) * j
      do i = 1, 2
        f = f + real(m2(i, j)) * aimag(m2(i, j)) * (i + j)
      end do
    end do
  end subroutine loss

  real(8) function loss_loops(x)
    real(8), intent(in) :: x(n)
    complex(8) :: b(n), m(2, 3), e(n), m2(2, 3), cs(3), rs(2), cp(3), pp
    complex(8) :: b4(2, 3), s4(3), p4
    integer :: i, j
    do i = 1, n
      b(i) = cmplx(x(i), x(n + 1 - i) * 0.5d0 - 0.1d0 * i, kind=8)
    end do
    do j = 1, 3
      do i = 1, 2
        m(i, j) = b(i + 2 * (j - 1))
      end do
    end do
    e = (0d0, 0d0)
    do i = 1, n - 2
      e(i) = b(i + 2)
    end do
    do i = 1, 2
      m2(i, 1) = (0.5d0, -0.25d0)
      m2(i, 2) = m(i, 1)
      m2(i, 3) = m(i, 2)
    end do
    rs = (0d0, 0d0)
    do j = 1, 3
      cs(j) = m(1, j) + m(2, j)
      cp(j) = m(1, j) * m(2, j)
      rs(1) = rs(1) + m(1, j)
      rs(2) = rs(2) + m(2, j)
    end do
    pp = b(2) * b(3) * b(4) * b(5)
    do j = 1, 3
      do i = 1, 2
        b4(i, j) = m(i, j)
      end do
      s4(j) = b4(1, j) + b4(2, j)
    end do
    p4 = b4(1, 1) * b4(1, 2) * b4(1, 3)
    loss_loops = real(pp) + aimag(p4) + real(s4(2)) * aimag(s4(3)) + abs(rs(1)) * real(rs(2))
    do i = 1, n
      loss_loops = loss_loops + real(e(i)) * i + aimag(e(i)) * real(b(i))
    end do
    do j = 1, 3
      loss_loops = loss_loops + real(cs(j) * cp(j)) + aimag(cp(j)) * j
      do i = 1, 2
        loss_loops = loss_loops + real(m2(i, j)) * aimag(m2(i, j)) * (i + j)
      end do
    end do
  end function loss_loops
end module m65

program p65
  use ferrozyme
  use fz_check
  use m65
  implicit none
  real(8) :: x(n), dx(n), tx(n), f, df, tf, t, h, fx(n), fp
  integer :: i
  x = [0.7d0, -0.4d0, 0.9d0, 0.3d0, -0.6d0, 0.5d0]
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  call check('value vs loops', f, loss_loops(x), 1d-5)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; fp = loss_loops(x)
    x(i) = t - h; fx(i) = (fp - loss_loops(x)) / (2 * h)
    x(i) = t
  end do
  call check_arr('df/dx vs fd', dx, fx, 1d-5)
  tx = [(0.1d0 * i - 0.35d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx), 1d-5)
  call finish()
end program p65
