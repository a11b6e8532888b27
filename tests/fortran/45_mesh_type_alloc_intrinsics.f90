! OPT: O0 O2
! A model in a module, as solver codes organise one: a derived type `field_t` with
! allocatable components (values, weights, a 2-D coefficient matrix) built by a
! constructor routine (RESHAPE) outside the differentiated call and passed in with a
! shadow allocated alike (locals of such a type inside the differentiated routine:
! tests/fortran/68), module variables for the parameters (set
! before the call), `intent(out)` results, and the array intrinsics scientists chain:
! NORM2, PRODUCT, SPREAD, TRANSPOSE, MATMUL, DOT_PRODUCT, MAXVAL/MINVAL with DIM=, SUM
! with MASK=, and `where`. Reverse mode against central finite differences of every
! component, forward mode by the dot-product identity.
module m45
  implicit none
  integer, parameter :: nr = 3, nc = 4
  real(8) :: alpha = 0.3d0, beta = 1.2d0
  type field_t
    real(8), allocatable :: v(:), w(:), a(:, :)
  end type field_t
contains
  subroutine build(f, x)
    type(field_t), intent(out) :: f
    real(8), intent(in) :: x(:)
    allocate (f%v(nr * nc), f%w(nc), f%a(nr, nc))
    f%v = x(1:nr * nc)
    f%w = x(nr * nc + 1:nr * nc + nc)
    f%a = reshape(f%v, [nr, nc])
  end subroutine build

  subroutine energy_of(f, e)
    type(field_t), intent(in) :: f
    real(8), intent(out) :: e
    real(8) :: b(nc, nr), c(nr, nr), s(nr, nc), colmax(nc), rowmin(nr), y(nr)
    b = transpose(f%a)
    c = matmul(f%a, b)                       ! nr x nr
    s = spread(f%w, 1, nr) * f%a              ! scale each column by w
    colmax = maxval(s, dim=1)
    rowmin = minval(s, dim=2)
    y = matmul(f%a, f%w)
    e = alpha * norm2(c) + dot_product(colmax, f%w) + sum(rowmin**2)
    e = e + beta * product(1d0 + 0.1d0 * y)
    e = e + sum(f%v, mask=f%v > 0d0) * 0.5d0
    where (abs(y) > 0.2d0)
      y = y**3
    elsewhere
      y = 0
    end where
    e = e + sum(y)
  end subroutine energy_of

end module m45

program p45
  use ferrozyme
  use fz_check
  use m45
  implicit none
  integer, parameter :: n = nr * nc + nc, m = 2 * nr * nc + nc
  type(field_t) :: f, df, vf
  real(8) :: x(n), e, de, te, e2, got(m), fd(m)
  integer :: seed, k
  seed = 45
  call fill(x, -1d0, 1d0, seed)
  alpha = 0.4d0
  call build(f, x)
  x = 0
  call build(df, x)
  de = 1
  call __enzyme_autodiff(energy_of, enzyme_dup, f, df, enzyme_dup, e, de)
  got(1:nr * nc) = df%v
  got(nr * nc + 1:nr * nc + nc) = df%w
  got(nr * nc + nc + 1:) = reshape(df%a, [nr * nc])
  do k = 1, nr * nc
    fd(k) = fd_of(f%v(k))
  end do
  do k = 1, nc
    fd(nr * nc + k) = fd_of(f%w(k))
  end do
  do k = 1, nr * nc
    fd(nr * nc + nc + k) = fd_of(f%a(mod(k - 1, nr) + 1, (k - 1) / nr + 1))
  end do
  call check_arr('d e / d f vs fd', got, fd, 1d-6)
  call fill(x, -1d0, 1d0, seed)
  call build(vf, x)
  vf%a = reshape(x(nc + 1:nc + nr * nc), [nr, nc])
  te = 0
  call __enzyme_fwddiff_sub(energy_of, enzyme_dup, f, vf, enzyme_dup, e2, te)
  call check('forward . v = reverse . v', te, &
             dot_product(df%v, vf%v) + dot_product(df%w, vf%w) + sum(df%a * vf%a), 1d-10)
  call finish()
contains
  real(8) function fd_of(c)
    real(8), intent(inout) :: c
    real(8) :: t, h, fp, fm
    t = c; h = fd_step(t)
    c = t + h; call energy_of(f, fp)
    c = t - h; call energy_of(f, fm)
    c = t; fd_of = (fp - fm) / (2 * h)
  end function fd_of
end program p45
