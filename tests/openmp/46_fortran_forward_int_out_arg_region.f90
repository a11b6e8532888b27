! OMP_THREADS: 1 2 4
! OPT: O0 O2
! A Fortran parallel region whose master thread calls a subroutine that writes an
! integer shared variable (a count, an error code: MPI_SENDRECV's `ierr` in
! tests/mpi/51) beside real data. flang passes the region's variables in one argument
! block; at -O0 forward mode handed the callee a null shadow for the integer, and the
! tangent crashed writing through it (the integer's shadow is now zeroed scratch
! memory). Reverse mode against central finite differences, forward mode by the
! dot-product identity.
module m46omp
  implicit none
  integer, parameter :: n = 9
contains
  subroutine setup(k, y, x)
    integer, intent(out) :: k
    real(8), intent(inout) :: y(n)
    real(8), intent(in) :: x(n)
    k = 3
    y(1) = x(1) * 2 + sin(x(n))
  end subroutine setup

  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8) :: y(n)
    integer :: i, cnt
    cnt = 0
    !$omp parallel
    !$omp master
    call setup(cnt, y, x)
    !$omp end master
    !$omp barrier
    !$omp do
    do i = 2, n
      y(i) = x(i) * x(i - 1) + cos(x(i))
    end do
    !$omp end do
    !$omp end parallel
    f = sum(y**2) * cnt
  end subroutine loss
end module m46omp

program p46omp
  use ferrozyme
  use fz_check
  use m46omp
  implicit none
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 46
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(x, fp)
    x(i) = t - h; call loss(x, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dx, fd, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call check('primal unchanged by forward mode', f2, f, 1d-14)
  call finish()
end program p46omp
