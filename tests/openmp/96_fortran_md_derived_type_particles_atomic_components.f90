! OMP_THREADS: 1 2 3
! OPT: O0 O2
! Molecular dynamics in Fortran with an array of derived-type particles, as Fortran MD
! codes hold them (`type particle; real(8) :: x, v, f, m`): forces by a `!$omp parallel do
! schedule(dynamic, 2)` over pairs i < j with `!$omp atomic update` on `p(j)%f` and
! `p(i)%f`, the potential energy a `reduction(+: epot)`, then velocity-Verlet steps whose
! updates of the components run in `!$omp parallel do` loops, and the kinetic energy a
! `reduction(+: ekin)`. The loss is the final total energy plus a position penalty;
! reverse mode against central finite differences of the serial routine, forward mode by
! the dot-product identity.
module m96omp
  implicit none
  integer, parameter :: np = 7, nsteps = 3
  real(8), parameter :: dt = 0.05d0
  type particle
    real(8) :: x, v, f, m
  end type particle
contains
  subroutine forces(p, epot)
    type(particle), intent(inout) :: p(np)
    real(8), intent(out) :: epot
    integer :: i, j
    real(8) :: d, r2, s6, fij
    do i = 1, np
      p(i)%f = 0
    end do
    epot = 0
    !$omp parallel do schedule(dynamic, 2) private(j, d, r2, s6, fij) reduction(+: epot)
    do i = 1, np
      do j = i + 1, np
        d = p(j)%x - p(i)%x
        r2 = d * d + 0.8d0
        s6 = 1 / r2**3
        epot = epot + s6 * s6 - s6
        fij = (12 * s6 * s6 - 6 * s6) / r2 * d
        !$omp atomic update
        p(i)%f = p(i)%f - fij
        !$omp atomic update
        p(j)%f = p(j)%f + fij
      end do
    end do
    !$omp end parallel do
  end subroutine forces

  subroutine forces_serial(p, epot)
    type(particle), intent(inout) :: p(np)
    real(8), intent(out) :: epot
    integer :: i, j
    real(8) :: d, r2, s6, fij
    p%f = 0
    epot = 0
    do i = 1, np
      do j = i + 1, np
        d = p(j)%x - p(i)%x
        r2 = d * d + 0.8d0
        s6 = 1 / r2**3
        epot = epot + s6 * s6 - s6
        fij = (12 * s6 * s6 - 6 * s6) / r2 * d
        p(i)%f = p(i)%f - fij
        p(j)%f = p(j)%f + fij
      end do
    end do
  end subroutine forces_serial

  subroutine loss(x0, v0, e)
    real(8), intent(in) :: x0(np), v0(np)
    real(8), intent(out) :: e
    type(particle) :: p(np)
    real(8) :: epot, ekin
    integer :: i, s
    !$omp parallel do
    do i = 1, np
      p(i)%x = x0(i)
      p(i)%v = v0(i)
      p(i)%m = 1 + 0.1d0 * i
    end do
    !$omp end parallel do
    call forces(p, epot)
    do s = 1, nsteps
      !$omp parallel do
      do i = 1, np
        p(i)%v = p(i)%v + 0.5d0 * dt * p(i)%f / p(i)%m
        p(i)%x = p(i)%x + dt * p(i)%v
      end do
      !$omp end parallel do
      call forces(p, epot)
      !$omp parallel do
      do i = 1, np
        p(i)%v = p(i)%v + 0.5d0 * dt * p(i)%f / p(i)%m
      end do
      !$omp end parallel do
    end do
    ekin = 0
    !$omp parallel do reduction(+: ekin)
    do i = 1, np
      ekin = ekin + 0.5d0 * p(i)%m * p(i)%v**2
    end do
    !$omp end parallel do
    e = ekin + epot + 0.01d0 * sum(p%x**2)
  end subroutine loss

  real(8) function serial(x0, v0)
    real(8), intent(in) :: x0(np), v0(np)
    type(particle) :: p(np)
    real(8) :: epot
    integer :: i, s
    do i = 1, np
      p(i)%x = x0(i)
      p(i)%v = v0(i)
      p(i)%m = 1 + 0.1d0 * i
    end do
    call forces_serial(p, epot)
    do s = 1, nsteps
      p%v = p%v + 0.5d0 * dt * p%f / p%m
      p%x = p%x + dt * p%v
      call forces_serial(p, epot)
      p%v = p%v + 0.5d0 * dt * p%f / p%m
    end do
    serial = sum(0.5d0 * p%m * p%v**2) + epot + 0.01d0 * sum(p%x**2)
  end function serial
end module m96omp

program p96omp
  use ferrozyme
  use fz_check
  use m96omp
  implicit none
  real(8) :: x(np), v(np), dx(np), dv(np), tx(np), tv(np), gx(np), gv(np)
  real(8) :: e, de, te, t, h, fp, fm
  integer :: seed, i
  seed = 96
  call fill(v, -0.5d0, 0.5d0, seed)
  do i = 1, np
    x(i) = 1.2d0 * i + 0.1d0 * v(i)
  end do
  call fill(v, -0.5d0, 0.5d0, seed)
  call loss(x, v, e)
  call check('value vs serial', e, serial(x, v), 1d-12)
  dx = 0
  dv = 0
  de = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, v, dv, enzyme_dup, e, de)
  do i = 1, np
    t = x(i); h = fd_step(t)
    x(i) = t + h; fp = serial(x, v)
    x(i) = t - h; fm = serial(x, v)
    x(i) = t; gx(i) = (fp - fm) / (2 * h)
    t = v(i); h = fd_step(t)
    v(i) = t + h; fp = serial(x, v)
    v(i) = t - h; fm = serial(x, v)
    v(i) = t; gv(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d/dx vs fd', dx, gx, 1d-6)
  call check_arr('d/dv vs fd', dv, gv, 1d-6)
  call fill(tx, -1d0, 1d0, seed)
  call fill(tv, -1d0, 1d0, seed)
  te = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, v, tv, enzyme_dup, e, te)
  call check('forward . v = reverse . v', te, sum(dx * tx) + sum(dv * tv), 1d-10)
  call finish()
end program p96omp
