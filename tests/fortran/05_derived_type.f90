! A derived type with real, array and integer components: the energy of a chain of
! springs, differentiated with respect to an array of the type (its shadow is an array
! of the same type). Every real component's derivative is checked against central
! finite differences.
module m05
  implicit none
  type :: spring
    real(8) :: k
    real(8) :: rest
    real(8) :: pos(2)
    integer :: id
  end type spring
contains
  subroutine energy(n, s, e)
    integer, intent(in) :: n
    type(spring), intent(in) :: s(n)
    real(8), intent(out) :: e
    integer :: i
    real(8) :: d(2), len
    e = 0
    do i = 1, n - 1
      d = s(i + 1)%pos - s(i)%pos
      len = sqrt(d(1)**2 + d(2)**2)
      e = e + 0.5d0 * s(i)%k * (len - s(i)%rest)**2 * (1 + 0.1d0 * s(i)%id)
    end do
  end subroutine energy
end module m05

program p05
  use ferrozyme
  use fz_check
  use m05
  implicit none
  integer, parameter :: n = 5
  type(spring) :: s(n), ds(n)
  real(8) :: e, de, r(4 * n), fd(4 * n), got(4 * n)
  integer :: i, seed
  seed = 5
  call fill(r, 0.5d0, 1.5d0, seed)
  do i = 1, n
    s(i)%k = r(4 * i - 3)
    s(i)%rest = 0.3d0 * r(4 * i - 2)
    s(i)%pos = [dble(i) + 0.2d0 * r(4 * i - 1), 0.4d0 * r(4 * i)]
    s(i)%id = i
    ds(i)%k = 0; ds(i)%rest = 0; ds(i)%pos = 0; ds(i)%id = 0
  end do
  de = 1
  call __enzyme_autodiff(energy, enzyme_const, n, enzyme_dup, s, ds, enzyme_dup, e, de)
  do i = 1, n
    got(4 * i - 3) = ds(i)%k
    got(4 * i - 2) = ds(i)%rest
    got(4 * i - 1) = ds(i)%pos(1)
    got(4 * i) = ds(i)%pos(2)
    fd(4 * i - 3) = fd_of(i, 1)
    fd(4 * i - 2) = fd_of(i, 2)
    fd(4 * i - 1) = fd_of(i, 3)
    fd(4 * i) = fd_of(i, 4)
  end do
  call check_arr('ds', got, fd, 1d-6)
  call finish()
contains
  ! d e / d (component c of spring i), central differences.
  real(8) function fd_of(i, c)
    integer, intent(in) :: i, c
    real(8) :: v, h, ep, em
    v = comp(i, c)
    h = fd_step(v)
    call set_comp(i, c, v + h)
    call energy(n, s, ep)
    call set_comp(i, c, v - h)
    call energy(n, s, em)
    call set_comp(i, c, v)
    fd_of = (ep - em) / (2 * h)
  end function fd_of
  real(8) function comp(i, c)
    integer, intent(in) :: i, c
    select case (c)
    case (1); comp = s(i)%k
    case (2); comp = s(i)%rest
    case (3); comp = s(i)%pos(1)
    case default; comp = s(i)%pos(2)
    end select
  end function comp
  subroutine set_comp(i, c, v)
    integer, intent(in) :: i, c
    real(8), intent(in) :: v
    select case (c)
    case (1); s(i)%k = v
    case (2); s(i)%rest = v
    case (3); s(i)%pos(1) = v
    case default; s(i)%pos(2) = v
    end select
  end subroutine set_comp
end program p05
