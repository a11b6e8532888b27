! OPT: O0 O2
! An allocatable array of a derived type with an allocatable component, given its value
! by whole-array assignment (flang's Assign allocates it: `cells = seed_cells`), then
! reassigned from an array of another size (flang reallocates it: `cells = more`), and a
! scalar of the type broadcast into it (`cells = one`); the shadow array gets storage of
! each new shape. Reverse mode against central finite differences, forward mode by the
! dot-product identity.
module m78
  implicit none
  type :: cell_t
    real(8), allocatable :: v(:)
    real(8) :: mass = 1
  end type cell_t
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    type(cell_t) :: seed_cells(2), more(3), one
    type(cell_t), allocatable :: cells(:)
    integer :: k
    do k = 1, 2
      allocate (seed_cells(k)%v(n))
      seed_cells(k)%v = x * k
      seed_cells(k)%mass = x(k) ** 2
    end do
    do k = 1, 3
      allocate (more(k)%v(k + 1))
      more(k)%v = x(1:k + 1) + k
      more(k)%mass = exp(0.1d0 * x(k))
    end do
    allocate (one%v(2))
    one%v = [x(n), x(n - 1) ** 2]
    one%mass = x(3)
    cells = seed_cells
    f = 0
    do k = 1, size(cells)
      f = f + cells(k)%mass * sum(cells(k)%v ** 2)
    end do
    cells = more
    do k = 1, size(cells)
      f = f + cells(k)%mass * sum(sin(cells(k)%v))
    end do
    cells = one
    do k = 1, size(cells)
      f = f + cells(k)%mass * cells(k)%v(2) * k
    end do
  end subroutine loss
end module m78

program p78
  use ferrozyme
  use fz_check
  use m78
  implicit none
  integer, parameter :: n = 5
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 78
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
end program p78
