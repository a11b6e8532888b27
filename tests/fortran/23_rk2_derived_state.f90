! OPT: O0 O2
! A chemical-kinetics style ODE integrator in a Fortran module: the state is a derived
! type with allocatable concentration and rate arrays and a scalar temperature, created
! by the caller and passed `intent(inout)` (the integrator overwrites it), a
! type-bound function for the right-hand side returning an array, a second derived type
! holding parameters with an allocatable 2-D stoichiometry matrix, RK2 (Heun) steps with
! a `pointer` dummy aliasing the state's array through `target`, and MATMUL/EXP/PRODUCT.
! The derivative of the final objective w.r.t. the initial concentrations, the
! temperature and the rate constants is checked against central finite differences;
! forward mode against reverse mode (the dot-product identity).
module kin23
  implicit none
  integer, parameter :: dp = kind(1d0)
  type :: state
    real(dp), allocatable :: c(:)
    real(dp) :: temp
  end type state
  type :: model
    real(dp), allocatable :: k(:), nu(:, :)
  contains
    procedure :: rhs
  end type model
contains
  function rhs(m, c, temp) result(dc)
    class(model), intent(in) :: m
    real(dp), intent(in) :: c(:), temp
    real(dp) :: dc(size(c)), rate(size(m%k))
    integer :: r
    do r = 1, size(m%k)
      rate(r) = m%k(r) * exp(-1 / temp) * product(c, mask=m%nu(:, r) < 0)
    end do
    dc = matmul(m%nu, rate)
  end function rhs

  subroutine heun(m, s, h)
    type(model), intent(in) :: m
    type(state), intent(inout), target :: s
    real(dp), intent(in) :: h
    real(dp), pointer :: cp(:)
    real(dp) :: k1(size(s%c)), k2(size(s%c))
    cp => s%c
    k1 = m%rhs(cp, s%temp)
    k2 = m%rhs(cp + h * k1, s%temp)
    cp = cp + 0.5_dp * h * (k1 + k2)
    s%temp = s%temp + h * 0.1_dp * sum(k1)
  end subroutine heun

  subroutine integrate(m, s, nsteps, obj)
    type(model), intent(in) :: m
    type(state), intent(inout) :: s
    integer, intent(in) :: nsteps
    real(dp), intent(out) :: obj
    integer :: t
    do t = 1, nsteps
      call heun(m, s, 0.05_dp)
    end do
    obj = sum(s%c**2) + s%temp
  end subroutine integrate
end module kin23

program p23
  use ferrozyme
  use fz_check
  use kin23
  implicit none
  integer, parameter :: ns = 3, nr = 2, nsteps = 5
  type(model) :: m, dm, tm
  type(state) :: s, ds, ts, s0
  real(dp) :: obj, dobj, t, h, op, om, fc(ns), fk(nr), ft, tobj, dotv
  integer :: i, seed
  seed = 23
  allocate (m%k(nr), m%nu(ns, nr), dm%k(nr), dm%nu(ns, nr), tm%k(nr), tm%nu(ns, nr))
  m%k = [1.5_dp, 0.7_dp]
  m%nu = reshape([-1._dp, -1._dp, 1._dp, 1._dp, 0._dp, -1._dp], [ns, nr])
  allocate (s0%c(ns))
  call fill(s0%c, 0.5d0, 1.5d0, seed)
  s0%temp = 2.0_dp
  s = s0
  ds%c = [0._dp, 0._dp, 0._dp]
  ds%temp = 0
  dm%k = 0; dm%nu = 0
  dobj = 1
  call __enzyme_autodiff(integrate, enzyme_dup, m, dm, enzyme_dup, s, ds, enzyme_const, nsteps, &
                         enzyme_dup, obj, dobj)
  do i = 1, ns
    s = s0; t = s%c(i); h = fd_step(t)
    s%c(i) = t + h; call integrate(m, s, nsteps, op)
    s = s0; s%c(i) = t - h; call integrate(m, s, nsteps, om)
    fc(i) = (op - om) / (2 * h)
  end do
  s = s0; h = fd_step(s0%temp)
  s%temp = s0%temp + h; call integrate(m, s, nsteps, op)
  s = s0; s%temp = s0%temp - h; call integrate(m, s, nsteps, om)
  ft = (op - om) / (2 * h)
  do i = 1, nr
    t = m%k(i); h = fd_step(t)
    s = s0; m%k(i) = t + h; call integrate(m, s, nsteps, op)
    s = s0; m%k(i) = t - h; call integrate(m, s, nsteps, om)
    m%k(i) = t; fk(i) = (op - om) / (2 * h)
  end do
  call check_arr('d obj / d c0 vs fd', ds%c, fc, 1d-6)
  call check('d obj / d temp0 vs fd', ds%temp, ft, 1d-6)
  call check_arr('d obj / d k vs fd', dm%k, fk, 1d-6)
  ! Forward mode along (c0, temp0, k) directions.
  s = s0
  ts%c = [0.3_dp, -0.2_dp, 0.5_dp]
  ts%temp = 0.4_dp
  tm%k = [-0.6_dp, 0.9_dp]; tm%nu = 0
  tobj = 0
  dotv = dot_product(ds%c, ts%c) + ds%temp * ts%temp + dot_product(dm%k, tm%k)
  call __enzyme_fwddiff_sub(integrate, enzyme_dup, m, tm, enzyme_dup, s, ts, enzyme_const, &
                            nsteps, enzyme_dup, obj, tobj)
  call check('forward . v = reverse . v', tobj, dotv, 1d-10)
  call finish()
end program p23
