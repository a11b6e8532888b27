! OPT: O0 O2
! Arrays of a derived type whose components have default values, as particle and cell
! codes declare them: a local `type(particle_t) :: ps(m)` and an `intent(out)` array
! dummy of the type, both default-initialized by flang's `_FortranAInitialize` (on the
! array descriptor) inside the differentiated routine, then filled from the input,
! updated through `ps(:)%w` sections and a loop over elements. Until hpc34 every such
! array was a cannot-deduce-type error at -O0 (the runtime's initialization copied a
! scratch array of records of reals and integers over the objects). Reverse mode against
! central finite differences; forward mode by the dot-product identity.
module m73
  implicit none
  type :: particle_t
    real(8) :: p(3) = 0d0
    real(8) :: w = 1.5d0
    integer :: tag = -1
  end type particle_t
contains
  subroutine spread_out(n, x, qs)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    type(particle_t), intent(out) :: qs(2)
    qs(1)%p = x(1:3) * qs(1)%w
    qs(2)%p = x(n - 2:n) + qs(2)%w
    qs(2)%tag = 2
  end subroutine spread_out

  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    type(particle_t) :: ps(4), qs(2)
    integer :: k
    do k = 1, 4
      ps(k)%p = x(k:k + 2) * k
      ps(k)%tag = k
    end do
    ps(:)%w = ps(:)%w * x(1:4)
    call spread_out(n, x, qs)
    f = 0
    do k = 1, 4
      f = f + ps(k)%w * sum(ps(k)%p**2) + ps(k)%tag * x(k)
    end do
    f = f + sum(qs(1)%p * qs(2)%p) + qs(2)%tag * qs(1)%w
  end subroutine loss
end module m73

program p73
  use ferrozyme
  use fz_check
  use m73
  implicit none
  integer, parameter :: n = 7
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 73
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
end program p73
