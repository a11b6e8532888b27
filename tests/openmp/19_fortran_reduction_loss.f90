! OMP_THREADS: 1 2
! OPT: O0 O2
! A Fortran OpenMP loss with the clauses HPC codes use on it: `parallel do` with two
! scalar reductions and `collapse(2)` over a 2-D field, `schedule(dynamic, 3)`, an
! array reduction `reduction(+:hist)` (a whole array as the variable), `parallel do simd`
! with a reduction, a `parallel` region with an orphaned `do` and a `single`, and
! `reduction(max:)` with `reduction(*:)` on reals (combined in a critical section).
! Reverse mode is checked against central finite differences, forward mode against
! reverse mode (the dot-product identity).
module m19omp
  implicit none
  integer, parameter :: nx = 7, ny = 5, nb = 3
contains
  subroutine loss(a, w, f)
    real(8), intent(in) :: a(nx, ny), w(nb)
    real(8), intent(out) :: f
    real(8) :: s1, s2, s3, hist(nb), norm, big, pr
    integer :: i, j, b
    s1 = 0; s2 = 0; s3 = 0; hist = 0; norm = 0; big = -huge(1d0); pr = 1
    !$omp parallel do collapse(2) reduction(+:s1, s2) schedule(dynamic, 3)
    do j = 1, ny
      do i = 1, nx
        s1 = s1 + a(i, j)**2 * w(mod(i + j, nb) + 1)
        s2 = s2 + sin(a(i, j)) * a(mod(i, nx) + 1, j)
      end do
    end do
    !$omp end parallel do
    !$omp parallel do reduction(+:hist) private(b)
    do j = 1, ny
      do i = 1, nx
        b = mod(i * j, nb) + 1
        hist(b) = hist(b) + exp(0.2d0 * a(i, j))
      end do
    end do
    !$omp end parallel do
    !$omp parallel do simd reduction(+:s3)
    do i = 1, nx
      s3 = s3 + a(i, 1) * a(i, ny)
    end do
    !$omp end parallel do simd
    !$omp parallel
    !$omp do reduction(+:norm)
    do b = 1, nb
      norm = norm + hist(b) * hist(b) * w(b)
    end do
    !$omp end do
    !$omp single
    norm = sqrt(norm)
    !$omp end single
    !$omp end parallel
    !$omp parallel do reduction(max:big) reduction(*:pr) schedule(dynamic, 2)
    do i = 1, nx
      big = max(big, a(i, 2) * w(1) + a(i, 3))
      pr = pr * (1 + 0.2d0 * sin(a(i, 4)))
    end do
    !$omp end parallel do
    f = s1 + 0.5d0 * s2 + s3 + norm + big + pr
  end subroutine loss
end module m19omp

program p19omp
  use ferrozyme
  use fz_check
  use m19omp
  implicit none
  real(8) :: a(nx, ny), da(nx, ny), w(nb), dw(nb), f, df, fa(nx, ny), fw(nb)
  real(8) :: t, h, fp, fm, va(nx, ny), vw(nb), tf, f2
  integer :: seed, i, j
  seed = 19
  do j = 1, ny
    call fill(a(:, j), -1d0, 1d0, seed)
  end do
  call fill(w, 0.5d0, 1.5d0, seed)
  da = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, a, da, enzyme_dup, w, dw, enzyme_dup, f, df)
  do j = 1, ny
    do i = 1, nx
      t = a(i, j); h = fd_step(t)
      a(i, j) = t + h; call loss(a, w, fp)
      a(i, j) = t - h; call loss(a, w, fm)
      a(i, j) = t; fa(i, j) = (fp - fm) / (2 * h)
    end do
  end do
  do i = 1, nb
    t = w(i); h = fd_step(t)
    w(i) = t + h; call loss(a, w, fp)
    w(i) = t - h; call loss(a, w, fm)
    w(i) = t; fw(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d a vs fd', reshape(da, [nx * ny]), reshape(fa, [nx * ny]), 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  do j = 1, ny
    call fill(va(:, j), -1d0, 1d0, seed)
  end do
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, a, va, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, sum(da * va) + dot_product(dw, vw), 1d-10)
  call finish()
end program p19omp
