! OPT: O0 O2
! Components of a derived-type local with an allocatable component, written the way
! flang lowers to runtime calls: a fixed-size real component assigned from an array
! constructor (`s%fixed = [...]`, a temporary copied into the object next to the
! allocatable component's descriptor), the allocatable component assigned from an array
! expression (`s%u = x * s%fixed(1)`, flang's Assign on the component's descriptor inside
! the object), then RESHAPE of the component into a matrix multiplied with MATMUL; and
! module state kept between calls (`allocatable, save` work array, allocated on the first
! call only). (The constructor into the component was a cannot-deduce-type error at -O2
! before hpc35: the implementation of Assign typed the bytes after a rank-1 descriptor
! as its dimensions 2 to 15.) Reverse mode against central finite differences, forward
! mode by the dot-product identity.
module m76
  implicit none
  type :: stage_t
    real(8), allocatable :: u(:)
    real(8) :: fixed(3) = 0
    real(8) :: w = 1
  end type stage_t
  real(8), allocatable, save :: work(:)
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: f
    type(stage_t) :: s
    real(8) :: a(2, 3), b(3, 2), c(2, 2)
    if (.not. allocated(work)) allocate (work(n))
    s%fixed = [x(1) * x(2), exp(0.2d0 * x(3)), 2 * x(4)]
    s%u = x * s%fixed(1) + s%fixed(3)
    s%w = x(n) ** 2
    work = s%u * s%w
    a = reshape(s%u(1:6), [2, 3])
    b = reshape(work(1:6), [3, 2])
    c = matmul(a, b)
    f = sum(c) * s%fixed(2) + s%w * s%fixed(3)
  end subroutine loss
end module m76

program p76
  use ferrozyme
  use fz_check
  use m76
  implicit none
  integer, parameter :: n = 7
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 76
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(n, x, fp)
    x(i) = t - h; call loss(n, x, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dx, fd, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p76
