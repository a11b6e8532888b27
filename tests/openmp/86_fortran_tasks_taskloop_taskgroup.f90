! OMP_THREADS: 1 2 3
! OPT: O0 O2
! Fortran tasks as scientists write them: `!$omp parallel` + `!$omp single` creating one
! `!$omp task` per block of a field (firstprivate block index, shared result array),
! `!$omp taskwait`, then a `!$omp taskloop grainsize(3)` smoothing pass, and a
! `!$omp taskgroup` around two tasks that each fill half of an array read afterwards.
! Reverse mode against central finite differences of the same routine, forward mode
! against reverse mode (the dot-product identity).
module m86omp
  implicit none
  integer, parameter :: nb = 4, bs = 3, n = nb * bs
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: y(n), z(n), part(nb)
    integer :: b, i
    !$omp parallel
    !$omp single
    do b = 1, nb
      !$omp task firstprivate(b) private(i) shared(x, w, part, y)
      part(b) = 0
      do i = (b - 1) * bs + 1, b * bs
        y(i) = x(i) * w(i) + sin(x(i))
        part(b) = part(b) + y(i) * y(i)
      end do
      !$omp end task
    end do
    !$omp taskwait
    !$omp taskloop grainsize(3) shared(y, z, w)
    do i = 1, n
      z(i) = y(i) + 0.25d0 * (y(mod(i, n) + 1) - y(i)) * w(mod(i + 3, n) + 1)
    end do
    !$omp end taskloop
    !$omp taskgroup
    !$omp task shared(z, y)
    y(1:n / 2) = z(1:n / 2) * 2
    !$omp end task
    !$omp task shared(z, y)
    y(n / 2 + 1:n) = exp(0.3d0 * z(n / 2 + 1:n))
    !$omp end task
    !$omp end taskgroup
    !$omp end single
    !$omp end parallel
    f = sum(part * [(1d0 + 0.1d0 * b, b = 1, nb)]) + sum(y * z)
  end subroutine loss
end module m86omp

program p86
  use ferrozyme
  use fz_check
  use m86omp
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), f, df, vx(n), vw(n), tf, f2
  integer :: seed
  seed = 86
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.3d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
end program p86
