! OMP_THREADS: 1 2 4
! OPT: O0 O2
! Fortran OpenMP constructs beyond `parallel do`: `!$omp parallel do collapse(2)
! schedule(guided)` over a 2-D field writing a second field, `!$omp atomic` updates of a
! histogram-like array through an integer map, `!$omp sections` computing two
! independent terms, an orphaned `!$omp do` with `nowait` followed by `!$omp barrier`,
! `lastprivate` of a real, and a module subroutine called inside the region.
! Reverse mode against central finite differences, forward mode by the dot product.
module m40omp
  implicit none
  integer, parameter :: nx = 6, ny = 5, nb = 4
contains
  subroutine cell(a, i, j, out)
    real(8), intent(in) :: a(nx, ny)
    integer, intent(in) :: i, j
    real(8), intent(out) :: out
    out = a(i, j) * a(mod(i, nx) + 1, j) + sin(a(i, mod(j, ny) + 1))
  end subroutine cell

  subroutine loss(a, f)
    real(8), intent(in) :: a(nx, ny)
    real(8), intent(out) :: f
    real(8) :: b(nx, ny), hist(nb), s1, s2, last, c(nx)
    integer :: i, j, k
    !$omp parallel do collapse(2) schedule(guided) private(i, j)
    do j = 1, ny
      do i = 1, nx
        call cell(a, i, j, b(i, j))
      end do
    end do
    !$omp end parallel do
    hist = 0
    !$omp parallel do private(k)
    do j = 1, ny
      do i = 1, nx
        k = mod(i * 3 + j, nb) + 1
        !$omp atomic
        hist(k) = hist(k) + b(i, j)**2
      end do
    end do
    !$omp end parallel do
    s1 = 0; s2 = 0
    !$omp parallel sections
    !$omp section
    s1 = sum(b(:, 1) * b(:, ny))
    !$omp section
    s2 = maxval(b(2, :)) + b(nx, 2)**3
    !$omp end parallel sections
    !$omp parallel
    !$omp do
    do i = 1, nx
      c(i) = b(i, 2) * a(i, 3)
    end do
    !$omp end do nowait
    !$omp barrier
    !$omp do lastprivate(last)
    do i = 1, nx
      last = c(i) + c(nx + 1 - i)
    end do
    !$omp end do
    !$omp end parallel
    f = sum(hist * [1d0, 2d0, 3d0, 4d0]) + s1 + s2 + last**2
  end subroutine loss
end module m40omp

program p40omp
  use ferrozyme
  use fz_check
  use m40omp
  implicit none
  real(8) :: a(nx, ny), da(nx, ny), fa(nx, ny), va(nx, ny), f, df, t, h, fp, fm, tf, f2
  integer :: seed, i, j
  seed = 40
  do j = 1, ny
    call fill(a(:, j), -1d0, 1d0, seed)
  end do
  da = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, a, da, enzyme_dup, f, df)
  do j = 1, ny
    do i = 1, nx
      t = a(i, j); h = fd_step(t)
      a(i, j) = t + h; call loss(a, fp)
      a(i, j) = t - h; call loss(a, fm)
      a(i, j) = t; fa(i, j) = (fp - fm) / (2 * h)
    end do
  end do
  call check_arr('d f / d a vs fd', reshape(da, [nx * ny]), reshape(fa, [nx * ny]), 1d-6)
  do j = 1, ny
    call fill(va(:, j), -1d0, 1d0, seed)
  end do
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, a, va, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, sum(da * va), 1d-10)
  call finish()
end program p40omp
