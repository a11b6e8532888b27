! OPT: O0 O2
! A small vector-algebra module as physicists write it: a derived type `vec3` with
! overloaded `+`, `-`, `*` (scalar times vector, vector times scalar) and a user-defined
! `.dot.` operator, a `generic` interface `norm` resolving by `module procedure` to a
! `vec3` and a plain real(8) array version, `elemental` helpers, and `intent(in), value`
! arguments. The energy of a chain of particles joined by springs (rest length r0,
! stiffness k, both `value`), plus a gravity term, is differentiated with respect to the
! positions in reverse mode and checked against central finite differences and the
! analytic gradient; forward mode against reverse mode (the dot-product identity).
module vecalg29
  implicit none
  integer, parameter :: dp = kind(1d0)
  type :: vec3
    real(dp) :: x = 0, y = 0, z = 0
  end type vec3
  interface operator(+)
    module procedure add3
  end interface
  interface operator(-)
    module procedure sub3
  end interface
  interface operator(*)
    module procedure scale_left, scale_right
  end interface
  interface operator(.dot.)
    module procedure dot3
  end interface
  interface norm
    module procedure norm3, norm_arr
  end interface
contains
  elemental function add3(a, b) result(c)
    type(vec3), intent(in) :: a, b
    type(vec3) :: c
    c = vec3(a%x + b%x, a%y + b%y, a%z + b%z)
  end function add3
  elemental function sub3(a, b) result(c)
    type(vec3), intent(in) :: a, b
    type(vec3) :: c
    c = vec3(a%x - b%x, a%y - b%y, a%z - b%z)
  end function sub3
  elemental function scale_left(s, a) result(c)
    real(dp), intent(in) :: s
    type(vec3), intent(in) :: a
    type(vec3) :: c
    c = vec3(s * a%x, s * a%y, s * a%z)
  end function scale_left
  elemental function scale_right(a, s) result(c)
    type(vec3), intent(in) :: a
    real(dp), intent(in) :: s
    type(vec3) :: c
    c = scale_left(s, a)
  end function scale_right
  elemental real(dp) function dot3(a, b)
    type(vec3), intent(in) :: a, b
    dot3 = a%x * b%x + a%y * b%y + a%z * b%z
  end function dot3
  elemental real(dp) function norm3(a)
    type(vec3), intent(in) :: a
    norm3 = sqrt(a .dot. a)
  end function norm3
  pure real(dp) function norm_arr(a)
    real(dp), intent(in) :: a(:)
    norm_arr = sqrt(sum(a * a))
  end function norm_arr

  real(dp) function spring(a, b, k, r0)
    type(vec3), intent(in) :: a, b
    real(dp), intent(in), value :: k, r0
    spring = 0.5_dp * k * (norm(b - a) - r0)**2
  end function spring

  ! Energy of the chain; `g` points down z, the centre of mass term uses the array norm.
  subroutine chain_energy(p, n, e)
    integer, intent(in) :: n
    type(vec3), intent(in) :: p(n)
    real(dp), intent(out) :: e
    type(vec3) :: com, g
    integer :: i
    g = vec3(0._dp, 0._dp, -9.81_dp)
    com = vec3()
    e = 0
    do i = 1, n - 1
      e = e + spring(p(i), p(i + 1), 40._dp, 1.0_dp)
    end do
    do i = 1, n
      com = com + (1._dp / n) * p(i)
      e = e - ((0.1_dp * p(i)) .dot. g)
    end do
    e = e + 0.5_dp * norm([com%x, com%y, com%z])**2
  end subroutine chain_energy
end module vecalg29

program p29
  use ferrozyme
  use fz_check
  use vecalg29
  implicit none
  integer, parameter :: n = 5
  type(vec3) :: p(n), dp3(n), tp(n)
  real(dp) :: e, de, flat(3 * n), got(3 * n), fd(3 * n), an(3 * n), t, h, ep, em, te, dotv
  real(dp) :: com(3), d(3), r
  integer :: i, seed
  seed = 29
  call fill(flat, -1d0, 1d0, seed)
  do i = 1, n
    flat(3 * i - 2) = flat(3 * i - 2) + 1.1_dp * i
  end do
  call unflat(flat, p)
  dp3 = vec3()
  de = 1
  call __enzyme_autodiff(chain_energy, enzyme_dup, p, dp3, enzyme_const, n, enzyme_dup, e, de)
  do i = 1, n
    got(3 * i - 2:3 * i) = [dp3(i)%x, dp3(i)%y, dp3(i)%z]
  end do
  do i = 1, 3 * n
    t = flat(i); h = fd_step(t)
    flat(i) = t + h; call unflat(flat, p); call chain_energy(p, n, ep)
    flat(i) = t - h; call unflat(flat, p); call chain_energy(p, n, em)
    flat(i) = t; fd(i) = (ep - em) / (2 * h)
  end do
  call unflat(flat, p)
  ! The analytic gradient: springs, gravity, centre of mass.
  an = 0
  com = 0
  do i = 1, n
    com = com + flat(3 * i - 2:3 * i) / n
  end do
  do i = 1, n - 1
    d = flat(3 * i + 1:3 * i + 3) - flat(3 * i - 2:3 * i)
    r = sqrt(sum(d**2))
    an(3 * i + 1:3 * i + 3) = an(3 * i + 1:3 * i + 3) + 40 * (r - 1) * d / r
    an(3 * i - 2:3 * i) = an(3 * i - 2:3 * i) - 40 * (r - 1) * d / r
  end do
  do i = 1, n
    an(3 * i) = an(3 * i) + 0.981_dp
    an(3 * i - 2:3 * i) = an(3 * i - 2:3 * i) + com / n
  end do
  call check_arr('dE/dp vs fd', got, fd, 1d-6)
  call check_arr('dE/dp vs analytic', got, an, 1d-10)
  do i = 1, n
    tp(i) = vec3(0.3_dp * i, -0.2_dp, 0.1_dp * (n - i))
  end do
  te = 0
  call __enzyme_fwddiff_sub(chain_energy, enzyme_dup, p, tp, enzyme_const, n, enzyme_dup, e, te)
  dotv = sum(dp3 .dot. tp)
  call check('forward . v = reverse . v', te, dotv, 1d-10)
  call finish()
contains
  subroutine unflat(f, q)
    real(dp), intent(in) :: f(:)
    type(vec3), intent(out) :: q(:)
    integer :: j
    do j = 1, size(q)
      q(j) = vec3(f(3 * j - 2), f(3 * j - 1), f(3 * j))
    end do
  end subroutine unflat
end program p29
