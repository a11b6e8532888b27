! OMP_THREADS: 1 2 3
! OPT: O0 O2
! A Fortran+OpenMP explicit heat solver as HPC users write one: a time loop around
! `!$omp parallel do collapse(2) schedule(dynamic)` on an allocatable work array
! allocated inside, the new field copied back with a `!$omp parallel do` over columns,
! a `!$omp parallel do` over columns with array-section bodies, an energy with `reduction(+:)` and a hot spot
! with `reduction(max:)`, a `num_threads(2)` region with an orphaned `!$omp do` and
! `!$omp atomic` into a shared accumulator, and a `!$omp parallel do simd`. Reverse mode is
! checked against central finite differences, forward mode against reverse mode.
! (`!$omp workshare`, which flang runs with `copyprivate`, is tests/openmp/31; it was a
! missing-derivative error naming `__kmpc_copyprivate`.)
module m23omp
  implicit none
  integer, parameter :: nx = 6, ny = 5, nsteps = 3
contains
  subroutine solve(u0, kap, f)
    real(8), intent(in) :: u0(nx, ny), kap(ny)
    real(8), intent(out) :: f
    real(8), allocatable :: u(:, :), un(:, :)
    real(8) :: e, hot, acc, s
    integer :: i, j, t
    allocate (u(0:nx + 1, 0:ny + 1), un(nx, ny))
    u = 0
    u(1:nx, 1:ny) = u0
    do t = 1, nsteps
      !$omp parallel do collapse(2) schedule(dynamic) private(i, j)
      do j = 1, ny
        do i = 1, nx
          un(i, j) = u(i, j) + kap(j) * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) &
                     + u(i, j + 1) - 4 * u(i, j)) - 0.05d0 * u(i, j)**3
        end do
      end do
      !$omp end parallel do
      !$omp parallel do private(i)
      do j = 1, ny
        do i = 1, nx
          u(i, j) = un(i, j)
        end do
      end do
      !$omp end parallel do
    end do
    !$omp parallel do
    do j = 1, ny
      un(:, j) = u(1:nx, j) * u(1:nx, j)
    end do
    !$omp end parallel do
    e = 0
    hot = -huge(1d0)
    !$omp parallel do reduction(+:e) reduction(max:hot) private(i)
    do j = 1, ny
      do i = 1, nx
        e = e + un(i, j) * (1 + 0.1d0 * i)
        hot = max(hot, u(i, j) + 0.01d0 * i * j)
      end do
    end do
    !$omp end parallel do
    acc = 0
    !$omp parallel num_threads(2) private(s)
    !$omp do
    do j = 1, ny
      s = sin(u(1, j)) * kap(j)
      !$omp atomic
      acc = acc + s
    end do
    !$omp end do
    !$omp end parallel
    s = 0
    !$omp parallel do simd reduction(+:s)
    do i = 1, nx
      s = s + u(i, 2) * u(i, 4)
    end do
    !$omp end parallel do simd
    f = e + hot + acc + s
    deallocate (u, un)
  end subroutine solve
end module m23omp

program p23omp
  use ferrozyme
  use fz_check
  use m23omp
  implicit none
  real(8) :: a(nx, ny), da(nx, ny), k(ny), dk(ny), f, df, fa(nx, ny), fk(ny)
  real(8) :: t, h, fp, fm, va(nx, ny), vk(ny), tf, f2
  integer :: seed, i, j
  seed = 23
  do j = 1, ny
    call fill(a(:, j), -1d0, 1d0, seed)
  end do
  call fill(k, 0.05d0, 0.2d0, seed)
  da = 0; dk = 0; df = 1
  call __enzyme_autodiff(solve, enzyme_dup, a, da, enzyme_dup, k, dk, enzyme_dup, f, df)
  do j = 1, ny
    do i = 1, nx
      t = a(i, j); h = fd_step(t)
      a(i, j) = t + h; call solve(a, k, fp)
      a(i, j) = t - h; call solve(a, k, fm)
      a(i, j) = t; fa(i, j) = (fp - fm) / (2 * h)
    end do
  end do
  do i = 1, ny
    t = k(i); h = fd_step(t)
    k(i) = t + h; call solve(a, k, fp)
    k(i) = t - h; call solve(a, k, fm)
    k(i) = t; fk(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d u0 vs fd', reshape(da, [nx * ny]), reshape(fa, [nx * ny]), 1d-6)
  call check_arr('d f / d kappa vs fd', dk, fk, 1d-6)
  do j = 1, ny
    call fill(va(:, j), -1d0, 1d0, seed)
  end do
  call fill(vk, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(solve, enzyme_dup, a, va, enzyme_dup, k, vk, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, sum(da * va) + dot_product(dk, vk), 1d-10)
  call finish()
end program p23omp
