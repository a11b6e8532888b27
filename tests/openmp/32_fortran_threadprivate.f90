! OMP_THREADS: 1 2 4
! OPT: O0 O2
! `!$omp threadprivate` the way Fortran codes use it: a module work array and a common
! block, each thread's own copy (libomp's `__kmpc_threadprivate_cached`). `stage`
! fills the per-thread copies in one parallel region and reads them in the next (the
! copies persist between regions with the same team), an integer threadprivate counter
! stays inactive, and `reseed` reads the copies main's own parallel region set before
! the call, then overwrites them. The
! gradient is checked against central finite differences, twice in a row (the shadow
! copies start from zero in every top-level call), and forward mode against reverse mode
! (the dot-product identity).
module m32
  implicit none
  real(8) :: work(4)
  integer :: visits
  !$omp threadprivate(work, visits)
contains
  subroutine stage(n, x, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: e
    real(8) :: a, b, c
    integer :: i, k
    common /scratch/ a, b, c
    !$omp threadprivate(/scratch/)
    e = 0
    !$omp parallel private(i, k)
    work = 0
    visits = 0
    !$omp do schedule(static)
    do i = 1, n
      k = mod(i, 4) + 1
      work(k) = work(k) + x(i) * x(i)
      visits = visits + 1
    end do
    !$omp end do
    !$omp end parallel
    !$omp parallel reduction(+:e)
    a = sum(work)
    b = sin(work(1)) + work(2) * work(3)
    c = a * b
    e = e + c + work(4) * a
    !$omp end parallel
  end subroutine stage

  ! Reads the copy each thread had on entry, then overwrites it: the adjoint of the
  ! incoming copy is left in the thread's shadow copy, which the next top-level call
  ! must not consume (the shadow copies restart from zero).
  subroutine reseed(n, x, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: e
    integer :: i
    e = 0
    !$omp parallel do reduction(+:e) schedule(static)
    do i = 1, n
      e = e + work(1) * x(i) * x(i)
    end do
    !$omp end parallel do
    !$omp parallel reduction(+:e)
    work(1) = x(1)
    e = e + work(1)**3
    !$omp end parallel
  end subroutine reseed

  subroutine set_work(w)
    real(8), intent(in) :: w
    !$omp parallel
    work(1) = w
    !$omp end parallel
  end subroutine set_work
end module m32

program p32
  use ferrozyme
  use fz_check
  use m32
  implicit none
  integer, parameter :: n = 37
  real(8) :: x(n), dx(n), e, de, h, ep, em, xi, fd(n), v(n), te, w0
  integer :: i, seed, round
  seed = 32
  call fill(x, -1d0, 1d0, seed)
  do i = 1, n
    xi = x(i)
    h = fd_step(xi)
    x(i) = xi + h
    call stage(n, x, ep)
    x(i) = xi - h
    call stage(n, x, em)
    x(i) = xi
    fd(i) = (ep - em) / (2 * h)
  end do
  do round = 1, 2
    dx = 0; de = 1
    call __enzyme_autodiff(stage, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, e, de)
    call check_arr('stage fd', dx, fd, 1d-6)
  end do
  call fill(v, -1d0, 1d0, seed)
  te = 0
  call __enzyme_fwddiff_sub(stage, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, e, te)
  call check('stage forward vs reverse', te, dot_product(dx, v), 1d-10)
  do round = 1, 2
    w0 = 0.8d0 * round
    do i = 1, n
      xi = x(i)
      h = fd_step(xi)
      x(i) = xi + h
      call set_work(w0)
      call reseed(n, x, ep)
      x(i) = xi - h
      call set_work(w0)
      call reseed(n, x, em)
      x(i) = xi
      fd(i) = (ep - em) / (2 * h)
    end do
    call set_work(w0)
    dx = 0; de = 1
    call __enzyme_autodiff(reseed, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, e, de)
    call check_arr('reseed fd', dx, fd, 1d-6)
  end do
  call finish()
end program p32
