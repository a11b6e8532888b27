! OPT: O0 O2
! Explicit DEALLOCATE, inside the differentiated routine, of derived-type objects with
! allocatable components: an allocatable scalar with an allocatable array component,
! deallocated in the middle of the routine after its values have been used (flang frees
! the component with it); an allocatable array of a type with two allocatable components,
! deallocated at the end; and a component deallocated and reallocated to another size
! between two uses. Every object is allocated, used and deallocated in the routine (a
! user's temporary state). Reverse mode against central finite differences, twice (the
! second gradient equal to the first), forward mode by the dot-product identity. The same
! with a FINAL procedure is refused: tests/fortran/91.
module m90
  implicit none
  type :: field_t
    real(8), allocatable :: v(:)
  end type field_t
  type :: cell_t
    real(8), allocatable :: a(:), b(:)
  end type cell_t
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    type(field_t), allocatable :: fld
    type(cell_t), allocatable :: cells(:)
    real(8) :: s
    integer :: i, k
    allocate (fld)
    allocate (fld%v(n))
    fld%v = sin(x) * x
    s = sum(fld%v**2)
    deallocate (fld)
    allocate (cells(3))
    do k = 1, 3
      allocate (cells(k)%a(n), cells(k)%b(k))
      cells(k)%a = x * k + s
      cells(k)%b = 0
      do i = 1, n
        cells(k)%b(mod(i - 1, k) + 1) = cells(k)%b(mod(i - 1, k) + 1) + cells(k)%a(i)**2
      end do
    end do
    f = s
    do k = 1, 3
      f = f + 0.1d0 * sum(cells(k)%b) / k
    end do
    ! The component of the second cell gets a new size.
    deallocate (cells(2)%a)
    allocate (cells(2)%a(2 * n))
    cells(2)%a(1:n) = exp(0.3d0 * x)
    cells(2)%a(n + 1:) = cells(1)%a * cells(3)%a(n:1:-1)
    f = f + sum(cells(2)%a) * 0.01d0
    deallocate (cells)
  end subroutine loss
end module m90

program p90
  use ferrozyme
  use fz_check
  use m90
  implicit none
  integer, parameter :: n = 6
  real(8) :: x(n), dx(n), dx2(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 90
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
  dx2 = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx2, enzyme_dup, f, df)
  call check_arr('second gradient = first', dx2, dx, 1d-13)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p90
