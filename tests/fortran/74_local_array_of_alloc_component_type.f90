! OPT: O0 O2
! An array of a derived type with an allocatable component and a default value, local to
! the differentiated routine: flang default-initializes the array (`_FortranAInitialize`,
! differentiated for arrays since hpc34), each element's component is allocated and
! assigned (`_FortranAAssign` into the component's descriptor), and the array is
! finalized at the end (`_FortranADestroy`, moved after the reverse sweep and repeated on
! the shadow without finalization). Reverse mode against the analytic gradient and
! central finite differences; forward mode by the dot-product identity.
module m74
  implicit none
  type :: cell_t
    real(8), allocatable :: u(:)
    real(8) :: w = 1.5d0
  end type cell_t
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    type(cell_t) :: cs(3)
    integer :: k
    f = 0
    do k = 1, 3
      allocate (cs(k)%u(n))
      cs(k)%u = x * k
    end do
    do k = 1, 3
      f = f + cs(k)%w * sum(cs(k)%u**2)
    end do
  end subroutine loss
end module m74

program p74
  use ferrozyme
  use fz_check
  use m74
  implicit none
  integer, parameter :: n = 6
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 74
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  call check_arr('d f / d x analytic', dx, 2 * 1.5d0 * (1 + 4 + 9) * x, 1d-12)
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
end program p74
