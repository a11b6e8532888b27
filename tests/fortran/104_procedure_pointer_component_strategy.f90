! OPT: O0 O2
! The strategy pattern as modern Fortran writes it: a derived type with a procedure
! pointer component (`procedure(flux_iface), pointer, nopass :: flux => null()`) and a
! `pass` one taking the object, chosen at run time from an integer in the input
! (`select case`), a limiter chosen the same way, and an array of such objects (one per
! cell face) iterated in the loss. Reverse mode against central differences; forward
! mode by the dot-product identity.
module strat104
  implicit none
  integer, parameter :: dp = kind(1d0), n = 7
  abstract interface
    real(dp) function flux_iface(ul, ur)
      import :: dp
      real(dp), intent(in) :: ul, ur
    end function flux_iface
  end interface
  type :: face
    real(dp) :: k = 1
    procedure(flux_iface), pointer, nopass :: flux => null()
    procedure(scaled_iface), pointer, pass(self) :: src => null()
  end type face
  abstract interface
    real(dp) function scaled_iface(self, u)
      import :: dp, face
      class(face), intent(in) :: self
      real(dp), intent(in) :: u
    end function scaled_iface
  end interface
contains
  real(dp) function upwind(ul, ur)
    real(dp), intent(in) :: ul, ur
    upwind = 0.5_dp * (ul**2 + ur**2) - 0.3_dp * (ur - ul)
  end function upwind
  real(dp) function central(ul, ur)
    real(dp), intent(in) :: ul, ur
    central = 0.25_dp * (ul + ur)**2
  end function central
  real(dp) function src_lin(self, u)
    class(face), intent(in) :: self
    real(dp), intent(in) :: u
    src_lin = self%k * u
  end function src_lin
  real(dp) function src_sin(self, u)
    class(face), intent(in) :: self
    real(dp), intent(in) :: u
    src_sin = self%k * sin(u)
  end function src_sin

  subroutine loss(x, w, f)
    real(dp), intent(in) :: x(n), w(n)
    real(dp), intent(out) :: f
    type(face) :: fc(n - 1)
    real(dp) :: u(n), fl(n - 1)
    integer :: i
    do i = 1, n - 1
      fc(i)%k = w(i)
      select case (mod(i, 3))
      case (0)
        fc(i)%flux => upwind
        fc(i)%src => src_sin
      case (1)
        fc(i)%flux => central
        fc(i)%src => src_lin
      case default
        fc(i)%flux => upwind
        fc(i)%src => src_lin
      end select
    end do
    u = x
    do i = 1, n - 1
      fl(i) = fc(i)%flux(u(i), u(i + 1))
    end do
    do i = 2, n - 1
      u(i) = u(i) - 0.2_dp * (fl(i) - fl(i - 1)) + 0.1_dp * fc(i)%src(u(i))
    end do
    f = sum(u**2) + w(n) * u(n)
  end subroutine loss
end module strat104

program p104
  use ferrozyme
  use fz_check
  use strat104
  implicit none
  real(dp) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), f, df, vx(n), vw(n), tf, f2
  integer :: seed
  seed = 104
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.3d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
end program p104
