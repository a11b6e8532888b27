! OPT: O0 O2
! ALLOCATE of POINTERs to a derived type with default component values inside the
! differentiated routine: a scalar `type(body), pointer :: sun` and an array `type(body),
! pointer :: planets(:)`, whose components `m = 1`, `q(2) = 0` and `tag = 7` come from
! the type's default initialization (flang's PointerAllocate initializes them; the pass's
! implementation does it through Initialize's; f43, a run-time stop "ALLOCATE of a
! POINTER to a derived type is not differentiated" before), then positions and masses
! set from the inputs for some, and a softened gravitational energy summed over pairs;
! both deallocated at the end. The defaults enter the loss (m of the unset bodies, tag),
! so a wrong initialization changes the gradient. Reverse mode against central finite
! differences; forward mode by the dot-product identity.
module m117
  implicit none
  integer, parameter :: dp = kind(1d0)
  type :: body
    real(dp) :: m = 1
    real(dp) :: q(2) = 0
    integer :: tag = 7
  end type body
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(2 * n)
    real(dp), intent(out) :: f
    type(body), pointer :: sun, planets(:)
    integer :: i, j
    allocate (sun)
    allocate (planets(n))
    sun%m = 10 + x(1)**2
    do i = 1, n
      planets(i)%q = [x(2 * i - 1), x(2 * i)] * 3
      if (mod(i, 2) == 0) planets(i)%m = 0.5_dp + x(i)**2
    end do
    f = 0
    do i = 1, n
      f = f - sun%m * planets(i)%m / sqrt(sum((planets(i)%q - sun%q)**2) + 0.1_dp)
      do j = i + 1, n
        f = f - planets(i)%m * planets(j)%m &
            / sqrt(sum((planets(i)%q - planets(j)%q)**2) + 0.1_dp) * planets(j)%tag / 7
      end do
    end do
    deallocate (planets)
    deallocate (sun)
  end subroutine loss
end module m117

program p117
  use ferrozyme
  use fz_check
  use m117
  implicit none
  integer, parameter :: n = 4
  real(dp) :: x(2 * n), dx(2 * n), fd(2 * n), v(2 * n), f, df, tf, f2, t, h, fp, fm
  integer :: seed, i
  seed = 117
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, 2 * n
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
end program p117
