! OMP_THREADS: 1 2 4
! OPT: O0 O2
! Fortran loop constructs on a 3-D field, as stencil codes write them: `!$omp parallel
! do collapse(3) reduction(+:e)` with a 7-point Laplacian, `!$omp simd reduction(+:s)`
! inside a `parallel do` over columns, and an `!$omp taskloop grainsize(4)` started by a
! `single` thread writing disjoint elements. Reverse mode against central finite
! differences, forward mode by the dot-product identity.
module m45omp
  implicit none
  integer, parameter :: nx = 4, ny = 3, nz = 3, n = nx * ny * nz
contains
  subroutine loss(u, f)
    real(8), intent(in) :: u(nx, ny, nz)
    real(8), intent(out) :: f
    real(8) :: e, s, lap, cols(ny, nz), w(n)
    integer :: i, j, k, m
    e = 0
    !$omp parallel do collapse(3) reduction(+:e) private(lap)
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          lap = -6 * u(i, j, k)
          if (i > 1) lap = lap + u(i - 1, j, k)
          if (i < nx) lap = lap + u(i + 1, j, k)
          if (j > 1) lap = lap + u(i, j - 1, k)
          if (j < ny) lap = lap + u(i, j + 1, k)
          if (k > 1) lap = lap + u(i, j, k - 1)
          if (k < nz) lap = lap + u(i, j, k + 1)
          e = e + lap**2 + sin(u(i, j, k)) * u(i, j, k)
        end do
      end do
    end do
    !$omp end parallel do
    !$omp parallel do collapse(2) private(s, i)
    do k = 1, nz
      do j = 1, ny
        s = 0
        !$omp simd reduction(+:s)
        do i = 1, nx
          s = s + u(i, j, k)**2 * (1 + 0.1d0 * i)
        end do
        cols(j, k) = sqrt(s + 1)
      end do
    end do
    !$omp end parallel do
    !$omp parallel
    !$omp single
    !$omp taskloop grainsize(4)
    do m = 1, n
      w(m) = exp(0.3d0 * u(mod(m - 1, nx) + 1, mod((m - 1) / nx, ny) + 1, (m - 1) / (nx * ny) + 1))
    end do
    !$omp end taskloop
    !$omp end single
    !$omp end parallel
    f = e + sum(cols) + dot_product(w, w)
  end subroutine loss
end module m45omp

program p45omp
  use ferrozyme
  use fz_check
  use m45omp
  implicit none
  real(8) :: u(nx, ny, nz), du(nx, ny, nz), fd(nx, ny, nz), v(nx, ny, nz)
  real(8) :: f, df, t, h, fp, fm, tf, f2
  integer :: seed, i, j, k
  seed = 45
  do k = 1, nz
    do j = 1, ny
      call fill(u(:, j, k), -1d0, 1d0, seed)
    end do
  end do
  du = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, u, du, enzyme_dup, f, df)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        t = u(i, j, k); h = fd_step(t)
        u(i, j, k) = t + h; call loss(u, fp)
        u(i, j, k) = t - h; call loss(u, fm)
        u(i, j, k) = t; fd(i, j, k) = (fp - fm) / (2 * h)
      end do
    end do
  end do
  call check_arr('d f / d u vs fd', reshape(du, [n]), reshape(fd, [n]), 1d-6)
  do k = 1, nz
    do j = 1, ny
      call fill(v(:, j, k), -1d0, 1d0, seed)
    end do
  end do
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, u, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, sum(du * v), 1d-10)
  call finish()
end program p45omp
