! OMP_THREADS: 1 2
! OPT: O0 O2
! Active `firstprivate` variables in Fortran OpenMP regions, as model codes use them: a
! scale and a small coefficient array computed from the inputs before the region and
! copied into every thread (`parallel do firstprivate(c, coef) reduction(+:s)`), and a
! `parallel` region whose threads each start a private accumulator from the shared value
! (`firstprivate(base)`) and writes its results into disjoint slots of a shared array.
! The derivative of a firstprivate copy flows back into the variable it was copied from
! (summed over the threads). Reverse mode against central finite differences, forward
! mode against reverse mode (the dot-product identity).
module m42omp
  implicit none
  integer, parameter :: n = 11
contains
  subroutine loss(a, w, f)
    real(8), intent(in) :: a(n), w(3)
    real(8), intent(out) :: f
    real(8) :: c, coef(3), s, base, part(n)
    integer :: i
    c = w(1) * w(2) + 0.5d0
    coef = [w(3), w(1)**2, sin(w(2))]
    s = 0
    !$omp parallel do firstprivate(c, coef) reduction(+:s)
    do i = 1, n
      s = s + c * a(i)**2 + coef(mod(i, 3) + 1) * a(i)
    end do
    !$omp end parallel do
    base = s * 0.1d0 + w(3)
    part = 0
    !$omp parallel do firstprivate(base)
    do i = 1, n
      part(i) = base * cos(a(i))
    end do
    !$omp end parallel do
    f = s + sum(part)
  end subroutine loss
end module m42omp

program p42omp
  use ferrozyme
  use fz_check
  use m42omp
  implicit none
  real(8) :: a(n), da(n), w(3), dw(3), f, df, fa(n), fw(3)
  real(8) :: t, h, fp, fm, va(n), vw(3), tf, f2
  integer :: seed, i
  seed = 42
  call fill(a, -1d0, 1d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  da = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, a, da, enzyme_dup, w, dw, enzyme_dup, f, df)
  do i = 1, n
    t = a(i); h = fd_step(t)
    a(i) = t + h; call loss(a, w, fp)
    a(i) = t - h; call loss(a, w, fm)
    a(i) = t; fa(i) = (fp - fm) / (2 * h)
  end do
  do i = 1, 3
    t = w(i); h = fd_step(t)
    w(i) = t + h; call loss(a, w, fp)
    w(i) = t - h; call loss(a, w, fm)
    w(i) = t; fw(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d a vs fd', da, fa, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(va, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, a, va, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(da, va) + dot_product(dw, vw), 1d-10)
  call finish()
end program p42omp
