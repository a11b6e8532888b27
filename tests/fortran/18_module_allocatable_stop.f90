! OPT: O0
! EXPECT-RUNTIME-ERROR: the array of module variable `w` (module `m18`
! EXPECT-RUNTIME-ERROR: pass the array to the differentiated routine as an argument
! Module allocatable arrays allocated before the differentiated call (`setup`) and read
! inside it (`w`, constants) or written and read (`work`): their descriptors are
! globals whose data pointer has no shadow, so derivatives through them cannot be
! tracked. The generated code stops with a message naming the module variable and what
! to write instead (the message used to name flang's global `_QMm18Ew` and suggest
! `__enzyme_inactive_global`, which has no Fortran spelling). The fix in the program:
! pass `w` (enzyme_const) and `work` (enzyme_dup with a shadow array) as arguments.
! probe40: at -O1..-O3 the gradient is now computed (checked against central differences
! by hand): flang stores malloc's result into the descriptor's base address there, and
! that store gives the descriptor's shadow a zeroed allocation of the same size
! (outside_allocations.rs, Enzyme's implicit global shadow). At -O0 the allocation is not
! such a store and the stop stays, so the program runs at -O0 only.
module m18
  implicit none
  real(8), allocatable :: w(:)
  real(8), allocatable :: work(:)
contains
  subroutine setup(n)
    integer, intent(in) :: n
    integer :: i
    allocate (w(n), work(n))
    do i = 1, n
      w(i) = 1d0 / i
    end do
  end subroutine setup
  subroutine model(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    integer :: i
    do i = 1, n
      work(i) = w(i) * x(i)**2
    end do
    y = 0
    do i = 2, n
      y = y + work(i) * work(i - 1)
    end do
  end subroutine model
end module m18
program p18
  use ferrozyme
  use fz_check
  use m18
  implicit none
  integer, parameter :: n = 6
  real(8) :: x(n), dx(n), y, dy, h, yp, ym, t
  integer :: i, seed
  seed = 18
  call fill(x, -1d0, 1d0, seed)
  call setup(n)
  dx = 0; dy = 1
  call __enzyme_autodiff(model, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, y, dy)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call model(n, x, yp)
    x(i) = t - h; call model(n, x, ym)
    x(i) = t
    call check('dx fd', dx(i), (yp - ym) / (2 * h), 1d-6)
  end do
  call finish()
end program p18
