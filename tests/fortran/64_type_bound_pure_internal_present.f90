! OPT: O0 O2
! A derived type with type-bound procedures as small solver libraries write it: a
! `spring_t` holding stiffness and rest lengths, a type-bound PURE function for its
! energy over an assumed-shape position array, a type-bound subroutine that updates its
! own component (`this%k`) from the state, and a type-bound function with an OPTIONAL
! damping argument tested with PRESENT(); a CONTAINS-internal function of the driver
! reads the host's type instance and a host scalar. Reverse mode against central finite
! differences of the same routine, forward mode against the reverse gradient.
module m64
  implicit none
  integer, parameter :: n = 5
  type :: spring_t
    real(8) :: k = 1.0d0
    real(8) :: rest(n - 1)
  contains
    procedure :: energy => spring_energy
    procedure :: stiffen => spring_stiffen
    procedure :: force_norm => spring_force_norm
  end type spring_t
contains
  pure real(8) function spring_energy(this, p)
    class(spring_t), intent(in) :: this
    real(8), intent(in) :: p(:)
    integer :: i
    spring_energy = 0
    do i = lbound(p, 1), ubound(p, 1) - 1
      spring_energy = spring_energy + 0.5d0 * this%k * (p(i + 1) - p(i) - this%rest(i))**2
    end do
  end function spring_energy

  subroutine spring_stiffen(this, p)
    class(spring_t), intent(inout) :: this
    real(8), intent(in) :: p(:)
    this%k = this%k * (1.0d0 + 0.1d0 * sum(p**2))
  end subroutine spring_stiffen

  real(8) function spring_force_norm(this, p, damping)
    class(spring_t), intent(in) :: this
    real(8), intent(in) :: p(:)
    real(8), intent(in), optional :: damping
    real(8) :: g(size(p))
    integer :: i
    g = 0
    do i = 1, size(p) - 1
      g(i) = g(i) - this%k * (p(i + 1) - p(i) - this%rest(i))
      g(i + 1) = g(i + 1) + this%k * (p(i + 1) - p(i) - this%rest(i))
    end do
    spring_force_norm = sqrt(sum(g**2))
    if (present(damping)) spring_force_norm = spring_force_norm * exp(-damping)
  end function spring_force_norm

  subroutine loss(x, f)
    real(8), intent(in) :: x(n + 1)
    real(8), intent(out) :: f
    type(spring_t) :: s
    real(8) :: scale
    integer :: i
    scale = x(n + 1)
    s%rest = [(0.5d0 + 0.1d0 * i, i=1, n - 1)]
    call s%stiffen(x(1:n))
    f = s%energy(x(1:n)) + s%force_norm(x(1:n)) + s%force_norm(x(1:n), scale) + tail()
  contains
    real(8) function tail()
      tail = s%k * scale**2 + s%energy(x(n:1:-1))
    end function tail
  end subroutine loss
end module m64

program p64
  use ferrozyme
  use fz_check
  use m64
  implicit none
  real(8) :: x(n + 1), dx(n + 1), tx(n + 1), f, df, tf, t, h, fp, fm, fx(n + 1)
  integer :: i
  x = [(0.6d0 * i + 0.2d0 * sin(2.1d0 * i), i=1, n + 1)]
  x(n + 1) = 0.3d0
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n + 1
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(x, fp)
    x(i) = t - h; call loss(x, fm)
    fx(i) = (fp - fm) / (2 * h)
    x(i) = t
  end do
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  tx = [(0.07d0 * i - 0.2d0, i=1, n + 1)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx), 1d-10)
  call finish()
end program p64
