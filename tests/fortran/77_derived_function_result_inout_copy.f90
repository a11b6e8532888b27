! OPT: O0 O2
! Derived-type values with allocatable components moving through procedures as user
! code writes them: a function returning such a value (`s = make_state(n, x)`: flang
! assigns the result into `s` and finalizes the temporary), whole-object assignments
! between `intent(inout)` dummies in a callee differentiated in split mode (`t = s`, then
! `s = t` into storage of the same shape, which flang reuses; called twice, so the
! second `t = s` also reuses `t`'s storage), and an `intent(in)` dummy copied into an
! `intent(inout)` one that is then modified (the source keeps its values). (The
! scratch variables are the caller's: a callee's own local of such a type is finalized by
! `_FortranADestroy`, refused in split mode: tests/errors/fortran_derived_destroy.ll.)
! Reverse mode against central finite differences, forward mode by the dot-product
! identity.
module m77
  implicit none
  type :: state_t
    real(8), allocatable :: q(:)
    real(8) :: energy = 0
  end type state_t
contains
  function make_state(n, x) result(s)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    type(state_t) :: s
    allocate (s%q(n))
    s%q = x ** 2 + 0.5d0 * x
    s%energy = sum(x) * 0.25d0
  end function make_state

  subroutine relax(s, t, damping)
    type(state_t), intent(inout) :: s, t
    real(8), intent(in) :: damping
    integer :: i, n
    n = size(s%q)
    t = s
    do i = 2, n
      t%q(i) = (1 - damping) * s%q(i) + damping * s%q(i - 1) * t%q(1)
    end do
    t%energy = s%energy + sum(t%q) * damping
    s = t
  end subroutine relax

  real(8) function measure(s, c) result(m)
    type(state_t), intent(in) :: s
    type(state_t), intent(inout) :: c
    c = s
    c%q = c%q * c%energy
    m = sum(c%q * s%q) + c%energy
  end function measure

  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    type(state_t) :: s, t, c
    s = make_state(n, x)
    call relax(s, t, 0.3d0)
    call relax(s, t, 0.1d0)
    f = measure(s, c) + s%q(n) * x(1)
  end subroutine loss
end module m77

program p77
  use ferrozyme
  use fz_check
  use m77
  implicit none
  integer, parameter :: n = 6
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 77
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(n, x, fp)
    x(i) = t - h; call loss(n, x, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dx, fd, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p77
