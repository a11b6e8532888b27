! OMP_THREADS: 1 3
! OPT: O0 O2
! Fortran OpenMP as a scientist writes it, in shapes the suite lacked: an
! `!$omp parallel do reduction(+:hist)` over an ALLOCATABLE array (allocated inside the
! differentiated routine), a `private` derived-type local (`type(acc_t) :: a`: a real and
! an integer component reset per iteration), `reduction(min:)` of an active value,
! `schedule(dynamic, 2)` over iterations of uneven work (iteration i runs i inner steps),
! and an `omp_lock_kind` lock (`omp_init_lock`/`omp_set_lock`/`omp_unset_lock`/
! `omp_destroy_lock`) protecting an accumulation into a shared active scalar. Reverse mode
! against central finite differences of the same routine (run with the same thread
! count), forward mode against reverse mode by the dot-product identity.
module m99omp
  use omp_lib
  implicit none
  integer, parameter :: n = 7, nb = 3
  type :: acc_t
    real(8) :: s = 0
    integer :: cnt = 0
  end type acc_t
contains
  subroutine loss(x, f)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    real(8), allocatable :: hist(:)
    real(8) :: lo, locked
    type(acc_t) :: a
    integer(omp_lock_kind) :: lck
    integer :: i, j
    allocate (hist(nb))
    hist = 0
    lo = 1d300
    locked = 0
    call omp_init_lock(lck)
    !$omp parallel do private(a, j) reduction(+:hist) reduction(min:lo) schedule(dynamic, 2)
    do i = 1, n
      a%s = 0
      a%cnt = 0
      do j = 1, i
        a%s = a%s + x(i) * sin(j * x(mod(i + j, n) + 1))
        a%cnt = a%cnt + 1
      end do
      hist(mod(i, nb) + 1) = hist(mod(i, nb) + 1) + a%s / a%cnt
      lo = min(lo, a%s + 0.5d0 * x(i)**2)
      call omp_set_lock(lck)
      locked = locked + a%s * x(i)
      call omp_unset_lock(lck)
    end do
    !$omp end parallel do
    call omp_destroy_lock(lck)
    f = lo**2 + 0.3d0 * locked
    do j = 1, nb
      f = f + j * hist(j)**2
    end do
    deallocate (hist)
  end subroutine loss
end module m99omp

program p99
  use ferrozyme
  use fz_check
  use m99omp
  implicit none
  real(8) :: x(n), dx(n), tx(n), f, df, tf, t, hh, fp, fm, fx(n)
  integer :: i
  x = [(0.7d0 * cos(1.1d0 * i) + 0.2d0, i=1, n)]
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); hh = fd_step(t)
    x(i) = t + hh; call loss(x, fp)
    x(i) = t - hh; call loss(x, fm)
    fx(i) = (fp - fm) / (2 * hh)
    x(i) = t
  end do
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  tx = [(0.1d0 * i - 0.3d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx), 1d-10)
  call finish()
end program p99
