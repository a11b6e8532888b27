! OPT: O0 O2
! A 2-D heat equation as a Fortran scientist writes it: a module with a `pure elemental`
! conductivity law and an explicit time stepper that allocates its work arrays
! (`allocatable`, allocated with explicit bounds, freed at the end; `allocate(c, mold=u)`
! is differentiated too since hpc17: tests/fortran/25), whole-array
! assignment with sections for the interior, a `do concurrent` loop with a mask for a
! source term, a `block` with local arrays, `associate`, and an objective mixing SUM with
! MASK=, MAXVAL and a SUM over DIM=. Reverse mode w.r.t. the initial field and the
! diffusivity parameters is checked against central finite differences, forward mode
! against reverse mode (the dot-product identity).
module heat22
  implicit none
  integer, parameter :: dp = kind(1d0)
contains
  pure elemental real(dp) function conductivity(u, k0, k1)
    real(dp), intent(in) :: u, k0, k1
    conductivity = k0 + k1 * u * u / (1 + u * u)
  end function conductivity

  subroutine step_all(nx, ny, nsteps, u0, k, obj)
    integer, intent(in) :: nx, ny, nsteps
    real(dp), intent(in) :: u0(nx, ny), k(2)
    real(dp), intent(out) :: obj
    real(dp), allocatable :: u(:, :), c(:, :), lap(:, :)
    integer :: s, i, j
    allocate (u(0:nx + 1, 0:ny + 1), c(0:nx + 1, 0:ny + 1), lap(0:nx + 1, 0:ny + 1))
    u = 0
    u(1:nx, 1:ny) = u0
    do s = 1, nsteps
      c = conductivity(u, k(1), k(2))
      lap = 0
      lap(1:nx, 1:ny) = u(0:nx - 1, 1:ny) + u(2:nx + 1, 1:ny) + u(1:nx, 0:ny - 1) &
                        + u(1:nx, 2:ny + 1) - 4 * u(1:nx, 1:ny)
      do concurrent(i=1:nx, j=1:ny, mod(i + j, 3) == 0)
        lap(i, j) = lap(i, j) + 0.05_dp * sin(u(i, j))
      end do
      u(1:nx, 1:ny) = u(1:nx, 1:ny) + 0.1_dp * c(1:nx, 1:ny) * lap(1:nx, 1:ny)
    end do
    block
      real(dp) :: colsum(ny)
      associate (inner => u(1:nx, 1:ny))
        colsum = sum(inner**2, dim=1)
        obj = sum(inner, mask=inner > 0) + maxval(inner) + dot_product(colsum, colsum)
      end associate
    end block
    deallocate (u, c, lap)
  end subroutine step_all
end module heat22

program p22
  use ferrozyme
  use fz_check
  use heat22
  implicit none
  integer, parameter :: nx = 5, ny = 4, nsteps = 6
  real(dp) :: u0(nx, ny), du0(nx, ny), k(2), dk(2), obj, dobj, fu(nx, ny), fk(2)
  real(dp) :: t, h, op, om, vu(nx, ny), vk(2), tobj, o2
  integer :: seed, i, j
  seed = 22
  do j = 1, ny
    call fill(u0(:, j), -1d0, 1d0, seed)
  end do
  k = [0.3d0, 0.2d0]
  du0 = 0; dk = 0; dobj = 1
  call __enzyme_autodiff(step_all, enzyme_const, nx, enzyme_const, ny, enzyme_const, nsteps, &
                         enzyme_dup, u0, du0, enzyme_dup, k, dk, enzyme_dup, obj, dobj)
  do j = 1, ny
    do i = 1, nx
      t = u0(i, j); h = fd_step(t)
      u0(i, j) = t + h; call step_all(nx, ny, nsteps, u0, k, op)
      u0(i, j) = t - h; call step_all(nx, ny, nsteps, u0, k, om)
      u0(i, j) = t; fu(i, j) = (op - om) / (2 * h)
    end do
  end do
  do i = 1, 2
    t = k(i); h = fd_step(t)
    k(i) = t + h; call step_all(nx, ny, nsteps, u0, k, op)
    k(i) = t - h; call step_all(nx, ny, nsteps, u0, k, om)
    k(i) = t; fk(i) = (op - om) / (2 * h)
  end do
  call check_arr('d obj / d u0 vs fd', reshape(du0, [nx * ny]), reshape(fu, [nx * ny]), 1d-6)
  call check_arr('d obj / d k vs fd', dk, fk, 1d-6)
  do j = 1, ny
    call fill(vu(:, j), -1d0, 1d0, seed)
  end do
  vk = [0.5d0, -0.7d0]
  tobj = 0
  call __enzyme_fwddiff_sub(step_all, enzyme_const, nx, enzyme_const, ny, enzyme_const, nsteps, &
                            enzyme_dup, u0, vu, enzyme_dup, k, vk, enzyme_dup, o2, tobj)
  call check('forward . v = reverse . v', tobj, sum(du0 * vu) + dot_product(dk, vk), 1d-10)
  call finish()
end program p22
