! OPT: O0 O1 O2 O3
! The same model as 30 with the potentials passed enzyme_const (a user who wants only dE/dr).
! Polymorphism as an object-oriented Fortran code uses it: an abstract base type
! `potential` with a deferred type-bound function, two extensions (`harmonic`, `morse`)
! overriding it, an array of `class(potential)` wrappers holding allocatable polymorphic
! components (`allocate(..., source=)`), dynamic dispatch in the loop, `select type` with
! `type is`/`class is`/`class default` to read an extension's own component, and an
! unlimited polymorphic `class(*)` argument inspected with `select type` (a real(8) scale
! or an integer power). The total energy of bond lengths r(:) is differentiated with
! respect to r in reverse mode (checked against the analytic gradient and central finite
! differences) and forward mode (the dot-product identity).
module pot31
  implicit none
  integer, parameter :: dp = kind(1d0)
  type, abstract :: potential
  contains
    procedure(energy_if), deferred :: energy
  end type potential
  abstract interface
    real(dp) function energy_if(self, r)
      import :: potential, dp
      class(potential), intent(in) :: self
      real(dp), intent(in) :: r
    end function energy_if
  end interface
  type, extends(potential) :: harmonic
    real(dp) :: k, r0
  contains
    procedure :: energy => harmonic_energy
  end type harmonic
  type, extends(potential) :: morse
    real(dp) :: d, a, r0
  contains
    procedure :: energy => morse_energy
  end type morse
  type :: slot
    class(potential), allocatable :: p
  end type slot
contains
  real(dp) function harmonic_energy(self, r)
    class(harmonic), intent(in) :: self
    real(dp), intent(in) :: r
    harmonic_energy = 0.5_dp * self%k * (r - self%r0)**2
  end function harmonic_energy
  real(dp) function morse_energy(self, r)
    class(morse), intent(in) :: self
    real(dp), intent(in) :: r
    morse_energy = self%d * (1 - exp(-self%a * (r - self%r0)))**2
  end function morse_energy

  ! A factor given as "anything": a real(8) multiplies, an integer is a power of r.
  real(dp) function weight(w, r)
    class(*), intent(in) :: w
    real(dp), intent(in) :: r
    select type (w)
    type is (real(dp))
      weight = w
    type is (integer)
      weight = r**w
    class default
      weight = 1
    end select
  end function weight

  subroutine total(pots, r, n, e)
    integer, intent(in) :: n
    type(slot), intent(in) :: pots(n)
    real(dp), intent(in) :: r(n)
    real(dp), intent(out) :: e
    integer :: i
    real(dp) :: extra
    e = 0
    do i = 1, n
      e = e + pots(i)%p%energy(r(i))
      select type (q => pots(i)%p)
      type is (morse)
        extra = weight(2, r(i)) * q%a
      class is (harmonic)
        extra = weight(0.25_dp, r(i)) * r(i)
      class default
        extra = 0
      end select
      e = e + 0.1_dp * extra
    end do
  end subroutine total
end module pot31

program p31
  use ferrozyme
  use fz_check
  use pot31
  implicit none
  integer, parameter :: n = 6
  type(slot) :: pots(n), dpots(n)
  real(dp) :: r(n), dr(n), tr(n), fd(n), an(n), e, de, te, t, h, ep, em, x
  integer :: i, seed
  seed = 30
  do i = 1, n
    if (mod(i, 2) == 1) then
      allocate (pots(i)%p, source=harmonic(k=2._dp + i, r0=1._dp))
      allocate (dpots(i)%p, source=harmonic(k=0, r0=0))
    else
      allocate (pots(i)%p, source=morse(d=1.5_dp, a=0.8_dp + 0.1_dp * i, r0=1.2_dp))
      allocate (dpots(i)%p, source=morse(d=0, a=0, r0=0))
    end if
  end do
  call fill(r, 0.7d0, 1.8d0, seed)
  dr = 0; de = 1
  call __enzyme_autodiff(total, enzyme_const, pots, enzyme_dup, r, dr, enzyme_const, n, &
                         enzyme_dup, e, de)
  do i = 1, n
    t = r(i); h = fd_step(t)
    r(i) = t + h; call total(pots, r, n, ep)
    r(i) = t - h; call total(pots, r, n, em)
    r(i) = t; fd(i) = (ep - em) / (2 * h)
    x = r(i)
    select type (q => pots(i)%p)
    type is (harmonic)
      an(i) = q%k * (x - q%r0) + 0.1_dp * 0.25_dp
    type is (morse)
      an(i) = 2 * q%d * (1 - exp(-q%a * (x - q%r0))) * q%a * exp(-q%a * (x - q%r0)) &
              + 0.1_dp * 2 * x * q%a
    end select
  end do
  call check_arr('dE/dr vs fd', dr, fd, 1d-6)
  call check_arr('dE/dr vs analytic', dr, an, 1d-10)
  tr = [(0.1_dp * i - 0.3_dp, i=1, n)]
  te = 0
  call __enzyme_fwddiff_sub(total, enzyme_const, pots, enzyme_dup, r, tr, enzyme_const, n, &
                            enzyme_dup, e, te)
  call check('forward . v = reverse . v', te, dot_product(dr, tr), 1d-10)
  call finish()
contains
  subroutine reset(d)
    type(slot), intent(inout) :: d(:)
    integer :: j
    do j = 1, size(d)
      select type (q => d(j)%p)
      type is (harmonic)
        q%k = 0; q%r0 = 0
      type is (morse)
        q%d = 0; q%a = 0; q%r0 = 0
      end select
    end do
  end subroutine reset
end program p31
