! OPT: O0 O2
! Derived-type work storage with allocatable components, created and finalized inside
! the differentiated routine as solver codes do: an `intent(out)` dummy (flang destroys
! it on entry with `_FortranADestroy`: the components the caller had there are freed at
! once; their shadows are kept for the reverse sweep), two scalar locals of that type (destroyed
! at the end of the routine: the combined gradient moves those Destroys after the reverse
! sweep, which still reads the components, and repeats them on the shadows), and a type
! that holds another type's allocatable component after a fixed-size real array, an
! integer and a character component (`state_t`: destroyed through the nested
! component), one component allocated by assignment; next to them, a reversed and a
! strided section passed to explicit-shape dummies (flang copies them in and out with
! `_FortranACopyInAssign`/`_FortranACopyOutAssign`). (Arrays of such types, which flang
! initializes with `_FortranAInitialize`, and whole-object assignment `s2 = s` are not
! differentiated yet: tests/fortran/48.) Reverse mode against central finite
! differences of every input, forward mode by the dot-product identity.
module m68
  implicit none
  type :: cell_t
    real(8), allocatable :: a(:)
    real(8) :: w = 0.5d0
  end type cell_t
  type :: inner_t
    real(8), allocatable :: v(:)
  end type inner_t
  type :: state_t
    real(8) :: fixed(3) = 0
    integer :: count = 0
    character(len=4) :: tag = 'none'
    type(inner_t) :: in
  end type state_t
contains
  subroutine prepare(n, x, out)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    type(cell_t), intent(out) :: out
    integer :: i
    allocate (out%a(n))
    do i = 1, n
      out%a(i) = x(i) * x(i)
    end do
    out%w = 1.5d0
  end subroutine prepare

  subroutine weigh(n, a, r)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n)
    real(8), intent(out) :: r(n)
    integer :: i
    do i = 1, n
      r(i) = a(i) * (1 + 0.1d0 * i)
    end do
  end subroutine weigh

  subroutine square(n, a)
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n)
    a = a * a
  end subroutine square

  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    type(cell_t) :: one, two
    type(state_t) :: s
    real(8) :: r(n)
    integer :: i
    call prepare(n, x, one)
    call weigh(n, x(n:1:-1), r)               ! a reversed section: copied in
    call square(n / 2, r(1:n:2))              ! a strided one: copied in and out
    allocate (two%a(n - 1))
    do i = 1, n - 1
      two%a(i) = x(i + 1) * one%a(i) + exp(0.1d0 * x(i))
    end do
    two%w = 0.25d0
    s%in%v = [(sin(x(i)), i = 1, n)]          ! allocated by the assignment
    s%fixed(1) = x(1)
    s%fixed(2) = x(2) * x(3)
    s%fixed(3) = cos(x(n))
    s%count = n
    s%tag = 'live'
    f = 0
    do i = 1, n - 1
      f = f + two%w * two%a(i)**2
    end do
    do i = 1, n
      f = f + s%in%v(i) * cos(x(i)) * one%w + one%a(i) * 0.1d0
    end do
    if (s%tag == 'live' .and. s%count == n) f = f + sum(s%fixed * s%fixed)
    f = f + sum(r * x)
  end subroutine loss
end module m68

program p68
  use ferrozyme
  use fz_check
  use m68
  implicit none
  integer, parameter :: n = 6
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 68
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
end program p68
