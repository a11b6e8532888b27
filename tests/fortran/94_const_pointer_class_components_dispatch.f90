! OPT: O0 O1 O2 O3
! A regression program for flang -O0's copies of constant class(...) descriptors (f31):
! the array of cells is passed enzyme_const; each cell holds a `class(law), pointer`
! component (pointing at objects allocated apart) and a weight. The flux routine
! dispatches through the component, to a type-bound subroutine (intent(out) result)
! overridden in two extensions and in an extension of an extension that calls its
! parent's binding, and through a non-overridden binding of the base type that
! dispatches again. flang -O0 copies the component's descriptor field by field into a
! temporary with a shadow; the type-descriptor pointer copied there had a null shadow
! (an inactive pointer stored into shadowed memory), and the derivative read the
! binding table through it: a segmentation fault. Reverse mode vs the analytic gradient
! and central finite differences, forward mode by the dot-product identity; the cells
! are unchanged.
module laws94
  implicit none
  integer, parameter :: dp = kind(1d0)
  type, abstract :: law
  contains
    procedure(rate_if), deferred :: rate
    procedure :: doubled => law_doubled
  end type law
  abstract interface
    subroutine rate_if(self, x, y)
      import :: law, dp
      class(law), intent(in) :: self
      real(dp), intent(in) :: x
      real(dp), intent(out) :: y
    end subroutine rate_if
  end interface
  type, extends(law) :: power_law
    real(dp) :: c, p
  contains
    procedure :: rate => power_rate
  end type power_law
  type, extends(power_law) :: damped_power
    real(dp) :: tau
  contains
    procedure :: rate => damped_rate
  end type damped_power
  type, extends(law) :: logistic
    real(dp) :: k
  contains
    procedure :: rate => logistic_rate
  end type logistic
  type :: cell
    class(law), pointer :: m => null()
    real(dp) :: w = 1
  end type cell
contains
  subroutine power_rate(self, x, y)
    class(power_law), intent(in) :: self
    real(dp), intent(in) :: x
    real(dp), intent(out) :: y
    y = self%c * x**self%p
  end subroutine power_rate
  subroutine damped_rate(self, x, y)
    class(damped_power), intent(in) :: self
    real(dp), intent(in) :: x
    real(dp), intent(out) :: y
    call self%power_law%rate(x, y)
    y = y * exp(-x / self%tau)
  end subroutine damped_rate
  subroutine logistic_rate(self, x, y)
    class(logistic), intent(in) :: self
    real(dp), intent(in) :: x
    real(dp), intent(out) :: y
    y = 1 / (1 + exp(-self%k * x))
  end subroutine logistic_rate
  real(dp) function law_doubled(self, x)
    class(law), intent(in) :: self
    real(dp), intent(in) :: x
    real(dp) :: y
    call self%rate(x, y)
    law_doubled = 2 * y
  end function law_doubled

  ! f = sum_i (w_i y_i(x_i) + y_i(x_i) / 4), y_i the rate of cell i's law.
  subroutine flux(cells, x, n, f)
    integer, intent(in) :: n
    type(cell), intent(in) :: cells(n)
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: f
    integer :: i
    real(dp) :: y
    f = 0
    do i = 1, n
      call cells(i)%m%rate(x(i), y)
      f = f + cells(i)%w * y + 0.125_dp * cells(i)%m%doubled(x(i))
    end do
  end subroutine flux
end module laws94

program p94
  use ferrozyme
  use fz_check
  use laws94
  implicit none
  integer, parameter :: n = 6
  type(cell) :: cells(n)
  type(power_law), target :: pw(2)
  type(damped_power), target :: dpw(2)
  type(logistic), target :: lg(2)
  real(dp) :: x(n), dx(n), tx(n), fd(n), an(n), f, df, tf, t, h, fp, fm, y, s
  integer :: i, seed
  do i = 1, 2
    pw(i) = power_law(c=1.5_dp + i, p=1.5_dp + 0.5_dp * i)
    dpw(i) = damped_power(c=0.5_dp + i, p=2._dp, tau=0.7_dp + i)
    lg(i) = logistic(k=1.1_dp * i)
  end do
  cells(1)%m => pw(1); cells(2)%m => dpw(1); cells(3)%m => lg(1)
  cells(4)%m => dpw(2); cells(5)%m => lg(2); cells(6)%m => pw(2)
  do i = 1, n
    cells(i)%w = 0.5_dp + 0.25_dp * i
  end do
  seed = 94
  call fill(x, 0.6d0, 1.7d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(flux, enzyme_const, cells, enzyme_dup, x, dx, enzyme_const, n, &
                         enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call flux(cells, x, n, fp)
    x(i) = t - h; call flux(cells, x, n, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
    select type (q => cells(i)%m)
    type is (power_law)
      y = q%c * q%p * t**(q%p - 1)
    type is (damped_power)
      y = q%c * exp(-t / q%tau) * (q%p * t**(q%p - 1) - t**q%p / q%tau)
    type is (logistic)
      s = 1 / (1 + exp(-q%k * t))
      y = q%k * s * (1 - s)
    end select
    an(i) = (cells(i)%w + 0.25_dp) * y
  end do
  call check_arr('df/dx vs fd', dx, fd, 1d-6)
  call check_arr('df/dx vs analytic', dx, an, 1d-10)
  tx = [(0.2_dp * i - 0.5_dp, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(flux, enzyme_const, cells, enzyme_dup, x, tx, enzyme_const, n, &
                            enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx), 1d-10)
  call check('cells unchanged', cells(4)%w + pw(2)%c + dpw(2)%tau + lg(2)%k, &
             1.5_dp + 3.5_dp + 2.7_dp + 2.2_dp, 0d0)
  call finish()
end program p94
