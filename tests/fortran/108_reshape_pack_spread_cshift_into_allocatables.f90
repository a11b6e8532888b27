! OPT: O0 O2
! Data-moving intrinsics of active arrays into allocatables reallocated on every
! iteration (f42): RESHAPE, PACK, SPREAD, CSHIFT, EOSHIFT with BOUNDARY=, TRANSPOSE and
! an array constructor of a packed result; flang's library allocates each result (at
! -O0 all, at -O2 PACK and SPREAD), and their implementations' own allocations get
! shadows that carry the adjoint. Reverse mode against central finite differences,
! forward mode by the dot-product identity. At -O2 flang also copies `x` with `memcpy`
! (inline CSHIFT): PACK and SPREAD of it go to their real(8)-only implementations (f43;
! the generic ones read `x` as floats too, and the copy stopped at run time before).
module m108
  implicit none
  integer, parameter :: dp = kind(1d0)
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: f
    real(dp), allocatable :: a(:, :), p(:), s(:, :), c(:), e(:), t(:, :), u(:)
    integer :: k
    f = 0
    do k = 1, 3
      a = reshape(x(1:12) * real(k, dp), [3, 4])
      p = pack(x, x > 0)
      s = spread(x(k:k + 2), dim=2, ncopies=k + 1)
      c = cshift(x, k)
      e = eoshift(x(1:6), -k, boundary=0.5_dp)
      t = transpose(a)
      u = [p, c(1:2)**2]
      f = f + sum(a**2) * 0.01_dp + sum(p * p(size(p):1:-1)) + sum(sin(s)) &
          + dot_product(c, x) + sum(e**3) + t(k + 1, 2) * u(size(u)) + maxval(u)
    end do
  end subroutine loss
end module m108

program p108
  use ferrozyme
  use fz_check
  use m108
  implicit none
  integer, parameter :: n = 12
  real(dp) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 108
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
end program p108
