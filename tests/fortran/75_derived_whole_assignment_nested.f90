! OPT: O0 O2
! Whole-object assignment of derived types with allocatable components (flang's
! `_FortranAAssign` deep copy, differentiated by a built-in rule since hpc35): a type
! whose components are an allocatable real(8) array with lower bound 0, an allocatable
! complex(8) array, an allocatable integer array, a real(4) scalar, a fixed-size real
! array, a nested derived-type component holding its own allocatable array and a
! pointer component to the input; assigned into a fresh local (`b = a`), then again in
! a loop into the same local (flang reuses the storage of the same shape), then into an
! element of an array of the type (`arr(2) = b`), then the array whole (`arr2 = arr`).
! The copies are modified afterwards, so a wrong shadow (shared with the source, or not
! zeroed) changes the gradient. Reverse mode against central finite differences, forward
! mode by the dot-product identity with reverse mode.
module m75
  implicit none
  type :: inner_t
    real(8), allocatable :: v(:)
    real(8) :: s = 1d0
  end type inner_t
  type :: rec_t
    real(8), allocatable :: u(:)
    complex(8), allocatable :: z(:)
    integer, allocatable :: idx(:)
    real(4) :: f = 0
    real(8) :: fixed(2) = 0
    type(inner_t) :: in
    real(8), pointer :: p(:) => null()
  end type rec_t
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in), target :: x(n)
    real(8), intent(out) :: f
    type(rec_t) :: a, b
    type(rec_t) :: arr(2), arr2(2)
    integer :: i, k
    allocate (a%u(0:n - 1), a%z(n), a%idx(n), a%in%v(n))
    do i = 1, n
      a%u(i - 1) = sin(x(i))
      a%z(i) = cmplx(x(i), x(i)**2, 8)
      a%idx(i) = n + 1 - i
      a%in%v(i) = exp(0.3d0 * x(i))
    end do
    a%f = 0.5
    a%fixed(1) = x(2); a%fixed(2) = 2 * x(3)
    a%in%s = x(n)
    a%p => x
    b = a
    do k = 1, 2
      b%u(0) = b%u(0) + x(k)
      b = a
      b%u = b%u * (1 + 0.1d0 * k) + b%in%v
    end do
    b%in%v(1) = b%in%v(1) * 3
    arr(1) = a
    arr(2) = b
    arr2 = arr
    arr(2)%u = 0
    f = 0
    do i = 1, n
      f = f + arr2(2)%u(i - 1) * real(arr2(1)%z(arr2(1)%idx(i))) &
        + aimag(arr2(2)%z(i)) * arr2(1)%in%v(i) + b%p(i) * a%u(i - 1)
    end do
    f = f + arr2(1)%f * arr2(2)%fixed(1) + arr2(2)%fixed(2) * arr2(2)%in%s &
      + sum(arr2(2)%in%v) * arr(1)%in%s
  end subroutine loss
end module m75

program p75
  use ferrozyme
  use fz_check
  use m75
  implicit none
  integer, parameter :: n = 5
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 75
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(n, x, fp)
    x(i) = t - h; call loss(n, x, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  ! a%f is real(4): its rounding makes the finite differences of x(1) noisy.
  call check_arr('d f / d x vs fd', dx, fd, 1d-5)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p75
