! OPT: O0 O2
! complex(8) arrays through flang's array-moving intrinsics at -O0 (RESHAPE, CSHIFT by a
! scalar along a dimension and of a vector, SPREAD, PACK with a mask and with VECTOR),
! and a complex(8) array assigned to a complex(4) one (rounded part by part). Reverse mode
! against central finite differences of the same formula written with loops (no
! intrinsics); forward mode against the reverse gradient (the complex(4) copy carries its
! tangent in single precision: 1e-6).
module m62
  implicit none
  integer, parameter :: n = 6
contains
  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    complex(8) :: b(n), c(n)
    complex(8), allocatable :: m(:, :), s(:, :), w(:, :), p(:), q(:)
    complex(4) :: b4(n)
    integer :: i
    do i = 1, n
      b(i) = cmplx(x(i), x(n + 1 - i) * 0.5d0 - 0.1d0 * i, kind=8)
    end do
    m = reshape(b, [2, 3])
    s = cshift(m, 1, dim=2)
    c = cshift(b, -2)
    w = spread(b(1:3), 1, 2)
    p = pack(b, real(b) > 0.0d0)
    q = pack(b(1:4), [.true., .false., .true., .false.], b(3:6))
    b4 = b
    f = 0
    do i = 1, n
      f = f + real(c(i)) * aimag(b(i)) + real(b4(i))**2 - aimag(b4(i)) * real(b(i))
    end do
    f = f + real(s(1, 1) * s(2, 3)) + aimag(s(2, 2))**2 + abs(w(2, 3))**2 + real(w(1, 1))
    do i = 1, size(p)
      f = f + real(p(i)) * aimag(p(i)) * i
    end do
    do i = 1, size(q)
      f = f + aimag(q(i)) * (i + 1)
    end do
  end subroutine loss

  real(8) function loss_loops(x)
    real(8), intent(in) :: x(n)
    complex(8) :: b(n), c(n), s(2, 3), w(2, 3), p(n), q(4)
    integer :: i, j, k
    do i = 1, n
      b(i) = cmplx(x(i), x(n + 1 - i) * 0.5d0 - 0.1d0 * i, kind=8)
    end do
    do j = 1, 3
      do i = 1, 2
        s(i, j) = b(i + 2 * mod(j, 3))
      end do
    end do
    do i = 1, n
      c(i) = b(mod(i - 3 + n, n) + 1)
    end do
    do j = 1, 3
      w(:, j) = b(j)
    end do
    k = 0
    do i = 1, n
      if (real(b(i)) > 0) then
        k = k + 1
        p(k) = b(i)
      end if
    end do
    q = b(3:6)
    q(1) = b(1)
    q(2) = b(3)
    loss_loops = 0
    do i = 1, n
      loss_loops = loss_loops + real(c(i)) * aimag(b(i)) + real(b(i))**2 - aimag(b(i)) * real(b(i))
    end do
    loss_loops = loss_loops + real(s(1, 1) * s(2, 3)) + aimag(s(2, 2))**2 + abs(w(2, 3))**2 &
                 + real(w(1, 1))
    do i = 1, k
      loss_loops = loss_loops + real(p(i)) * aimag(p(i)) * i
    end do
    do i = 1, 4
      loss_loops = loss_loops + aimag(q(i)) * (i + 1)
    end do
  end function loss_loops
end module m62

program p62
  use ferrozyme
  use fz_check
  use m62
  implicit none
  real(8) :: x(n), dx(n), tx(n), f, df, tf, t, h, fx(n), fp
  integer :: i
  x = [0.7d0, -0.4d0, 0.9d0, 0.3d0, -0.6d0, 0.5d0]
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  call check('value vs loops', f, loss_loops(x), 1d-6)
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
  call check('forward . v = reverse . v', tf, dot_product(dx, tx), 1d-6)
  call finish()
end program p62
