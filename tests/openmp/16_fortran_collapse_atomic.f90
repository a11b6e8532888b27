! OMP_THREADS: 1 2
! OPT: O0 O2
! OpenMP in Fortran as a finite-volume code writes it: `!$omp parallel do collapse(2)`
! over a 2-D grid with `private` temporaries and `reduction(+:flux_sum, area)`, an
! edge loop scattering fluxes into both neighbouring cells with `!$omp atomic`, a
! `!$omp critical` section, `schedule(dynamic)` and `!$omp single` inside a parallel
! region, on allocatable arrays. Reverse mode is checked against central finite
! differences, forward mode against reverse mode (the dot-product identity).
module m16
  implicit none
  integer, parameter :: nx = 6, ny = 5
contains
  subroutine residual(u, k, r)
    real(8), intent(in) :: u(nx, ny), k(nx)
    real(8), intent(out) :: r
    real(8), allocatable :: acc(:, :)
    real(8) :: flux_sum, area, f, g, big
    integer :: i, j
    allocate (acc(nx, ny))
    acc = 0
    flux_sum = 0
    area = 0
    big = 0
    !$omp parallel do collapse(2) private(f, g) reduction(+:flux_sum, area)
    do j = 1, ny
      do i = 1, nx
        f = k(i) * u(i, j)**2
        g = sin(u(i, j)) * j
        flux_sum = flux_sum + f * g
        area = area + u(i, j)
      end do
    end do
    !$omp end parallel do
    !$omp parallel private(f)
    !$omp do schedule(dynamic)
    do j = 1, ny
      do i = 1, nx - 1
        f = 0.5d0 * (k(i) + k(i + 1)) * (u(i + 1, j) - u(i, j))
        !$omp atomic
        acc(i, j) = acc(i, j) + f
        !$omp atomic
        acc(i + 1, j) = acc(i + 1, j) - f
      end do
    end do
    !$omp end do
    !$omp single
    acc(1, 1) = acc(1, 1) * 2
    !$omp end single
    !$omp do
    do j = 1, ny
      f = sum(acc(:, j)**2)
      !$omp critical
      big = big + f * exp(-0.1d0 * j)
      !$omp end critical
    end do
    !$omp end do
    !$omp end parallel
    r = flux_sum + 0.3d0 * area**2 + big
    deallocate (acc)
  end subroutine residual
end module m16

program p16
  use ferrozyme
  use fz_check
  use m16
  implicit none
  real(8) :: u(nx, ny), du(nx, ny), fu(nx, ny), k(nx), dk(nx), fk(nx), vu(nx, ny), vk(nx)
  real(8) :: r, dr, t, h, rp, rm, tr
  integer :: seed, i, j
  seed = 16
  call fill_grid(u)
  call fill(k, 0.5d0, 1.5d0, seed)
  call fill_grid(vu)
  call fill(vk, -1d0, 1d0, seed)
  du = 0; dk = 0; dr = 1
  call __enzyme_autodiff(residual, enzyme_dup, u, du, enzyme_dup, k, dk, enzyme_dup, r, dr)
  do j = 1, ny
    do i = 1, nx
      t = u(i, j); h = fd_step(t)
      u(i, j) = t + h; call residual(u, k, rp)
      u(i, j) = t - h; call residual(u, k, rm)
      u(i, j) = t; fu(i, j) = (rp - rm) / (2 * h)
    end do
  end do
  do i = 1, nx
    t = k(i); h = fd_step(t)
    k(i) = t + h; call residual(u, k, rp)
    k(i) = t - h; call residual(u, k, rm)
    k(i) = t; fk(i) = (rp - rm) / (2 * h)
  end do
  call check_arr('dr/du fd', reshape(du, [nx * ny]), reshape(fu, [nx * ny]), 1d-6)
  call check_arr('dr/dk fd', dk, fk, 1d-6)
  tr = 0
  call __enzyme_fwddiff_sub(residual, enzyme_dup, u, vu, enzyme_dup, k, vk, enzyme_dup, r, tr)
  call check('forward . v = reverse . v', tr, sum(du * vu) + dot_product(dk, vk), 1d-10)
  call finish()
contains
  subroutine fill_grid(a)
    real(8), intent(out) :: a(:, :)
    real(8) :: flat(size(a))
    call fill(flat, -1d0, 1d0, seed)
    a = reshape(flat, shape(a))
  end subroutine fill_grid
end program p16
