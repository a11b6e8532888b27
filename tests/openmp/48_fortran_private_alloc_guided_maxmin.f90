! OMP_THREADS: 1 2 3
! OPT: O0 O2
! Fortran OpenMP in module routines taking assumed-shape arrays: a `parallel` region with
! an `allocatable` work array allocated and deallocated by each thread inside the region
! (per-thread scratch), an orphan-free `!$omp do schedule(guided)` writing an
! `intent(inout)` array, `!$omp end do nowait` then `!$omp barrier`, a second `!$omp do`
! reading neighbours written by other threads; then `parallel do` with `reduction(max:)`
! and `reduction(min:)` over active values and `schedule(dynamic, 2)` with
! `collapse(2)` and a `reduction(+:)`. Reverse mode against central differences, forward
! mode against reverse (the dot-product identity), at 1, 2 and 3 threads.
module m48omp
  implicit none
  integer, parameter :: n = 12, m = 4
contains
  subroutine sweep(u, v)
    real(8), intent(in) :: u(:)
    real(8), intent(inout) :: v(:)
    real(8), allocatable :: work(:)
    real(8) :: t
    integer :: i, k
    !$omp parallel private(work, i, k, t)
    allocate (work(m))
    !$omp do schedule(guided)
    do i = 1, size(u)
      do k = 1, m
        work(k) = u(i)**k / k
      end do
      t = sum(work)
      v(i) = v(i) * 0.5d0 + t
    end do
    !$omp end do nowait
    deallocate (work)
    !$omp barrier
    !$omp do
    do i = 2, size(u) - 1
      v(i) = v(i) + 0.25d0 * (u(i - 1) + u(i + 1)) * v(i)
    end do
    !$omp end do
    !$omp end parallel
  end subroutine sweep

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: v(n), hi, lo, s
    integer :: i, j
    v = w
    call sweep(x, v)
    hi = -huge(1d0)
    lo = huge(1d0)
    !$omp parallel do reduction(max:hi) reduction(min:lo)
    do i = 1, n
      hi = max(hi, v(i) * x(i))
      lo = min(lo, v(i) - x(i))
    end do
    !$omp end parallel do
    s = 0
    !$omp parallel do collapse(2) schedule(dynamic, 2) reduction(+:s)
    do j = 1, m
      do i = 1, n
        s = s + cos(v(i) * j * 0.1d0) * x(i)
      end do
    end do
    !$omp end parallel do
    f = hi + 2 * lo + s
  end subroutine loss
end module m48omp

program p48omp
  use ferrozyme
  use fz_check
  use m48omp
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i
  seed = 148
  call fill(x, -1d0, 1d0, seed)
  call fill(w, -1d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  tx = [(0.1d0 * i - 0.25d0, i=1, n)]
  tw = [(0.05d0 * i - 0.1d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p48omp
