! OPT: O0 O2
! Whole-object assignment of a derived type with an allocatable component that
! reallocates it (`b = c` where b%a has another size, flang's `_FortranAAssign`), after
! the old storage was written and read: the old storage's shadow holds the adjoint of
! what ran before the assignment. Since hpc36 the reverse sweep frees the shadow storage
! the assignment made and puts the old one back, and forward mode frees the old tangent
! storage where flang frees the primal's: both used to leak it (64 bytes per gradient
! call here; valgrind's "definitely lost"). Checked: the gradient against central
! differences, forward mode by the dot-product identity, and the heap in use (glibc's
! mallinfo2) not growing over 50 more calls of each mode (after 50 warm-up calls).
module m81
  use iso_c_binding, only: c_size_t
  implicit none
  integer, parameter :: n = 4
  type bag
    real(8), allocatable :: a(:)
  end type bag
  type, bind(c) :: mallinfo_t
    integer(c_size_t) :: arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, &
                         uordblks, fordblks, keepcost
  end type mallinfo_t
  interface
    function mallinfo2() bind(c, name='mallinfo2')
      import :: mallinfo_t
      type(mallinfo_t) :: mallinfo2
    end function mallinfo2
  end interface
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    type(bag) :: b, c
    allocate (b%a(2))
    b%a = x(1:2) * 3 + w(1:2)
    f = sum(b%a**2)
    allocate (c%a(3))
    c%a = x(2:4) * w(1:3)
    b = c
    f = f + sum(b%a * x(1:3)) + b%a(3)**3
    c%a = 0
    b = c
    f = f + sum(b%a)
  end subroutine loss

  integer(c_size_t) function in_use()
    type(mallinfo_t) :: m
    m = mallinfo2()
    in_use = m%uordblks
  end function in_use
end module m81

program p81
  use ferrozyme
  use fz_check
  use m81
  use iso_c_binding, only: c_size_t
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer(c_size_t) :: before
  integer :: i, k
  x = [(0.3d0 * i - 0.5d0, i=1, n)]
  w = [(1d0 - 0.2d0 * i, i=1, n)]
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
  ! Warm-up calls first: the tape's buffers are kept across calls (a pool that grows
  ! to what a call needs).
  do k = 1, 100
    df = 1
    if (k == 51) before = in_use()
    call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  end do
  call check('heap bytes in use after 50 gradients', dble(in_use() - before), 0d0, 0d0)
  before = in_use()
  do k = 1, 50
    call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  end do
  call check('heap bytes in use after 50 tangents', dble(in_use() - before), 0d0, 0d0)
  call finish()
end program p81
