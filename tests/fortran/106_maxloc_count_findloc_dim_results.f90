! OPT: O0 O2
! Integer and logical results that flang's library allocates (f42): MAXLOC and MINLOC
! with DIM= (`_FortranAMaxlocDim`, `MinlocDim`), COUNT and ANY with DIM= (`CountDim`,
! `AnyDim`), FINDLOC with DIM= of NINT of the active array (`FindlocDim`), whole MAXLOC
! (`MaxlocReal8`); each writes the address of a fresh result into a descriptor that has
! a shadow (the slot holds a pointer), and nothing wrote the shadow slot (a load of it
! would be garbage). The locations index the active array, the masks pick branches.
! Refused before: cannot-deduce-type at the NINT temporary (-O0: `llvm.lround`'s result
! was not known to be an integer) and at the locations -O2 computes inline into a
! temporary that only flang's inactive Assign reads. Reverse mode against central
! finite differences, forward mode by the dot-product identity.
module m106
  implicit none
  integer, parameter :: dp = kind(1d0)
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: f
    real(dp) :: a(3, 4)
    integer, allocatable :: loc(:), cnt(:), fl(:), li(:)
    logical, allocatable :: anyp(:)
    integer :: im(1)
    integer :: j
    a = reshape(x(1:12), [3, 4])
    loc = maxloc(a, dim=1)
    cnt = count(a > 0, dim=2)
    anyp = any(a > 0.5_dp, dim=1)
    fl = findloc(nint(a * 0), 0, dim=2)
    li = minloc(a, dim=2)
    im = maxloc(x)
    f = x(im(1))**2
    do j = 1, 4
      f = f + a(loc(j), j) * real(j, dp) + merge(a(1, j)**2, sin(a(2, j)), anyp(j))
    end do
    do j = 1, 3
      f = f + real(cnt(j) + fl(j), dp) * a(j, li(j))
    end do
  end subroutine loss
end module m106

program p106
  use ferrozyme
  use fz_check
  use m106
  implicit none
  integer, parameter :: n = 12
  real(dp) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 106
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
end program p106
