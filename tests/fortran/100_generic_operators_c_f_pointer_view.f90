! OPT: O0 O2
! A small vector algebra as Fortran libraries write it: a derived type with type-bound
! `generic :: operator(+)`, `operator(*)` (scalar times vector, both orders) and
! `assignment(=)` from a real array, a type-bound function `norm` and a `pass`
! subroutine; a flat work array viewed as a matrix through `c_f_pointer` (a
! `target, contiguous` buffer and `c_loc`), `epsilon` and `sign` in a guarded
! normalisation. Reverse mode against central differences; forward mode by the
! dot-product identity.
module vec100
  use iso_c_binding, only: c_loc, c_f_pointer, c_ptr
  implicit none
  integer, parameter :: dp = kind(1d0), n = 4
  type :: vec
    real(dp) :: v(n) = 0
  contains
    procedure :: add => vec_add
    procedure, pass(b) :: lscale => vec_lscale
    procedure :: rscale => vec_rscale
    procedure :: from_array => vec_from_array
    procedure :: norm => vec_norm
    procedure :: damp => vec_damp
    generic :: operator(+) => add
    generic :: operator(*) => lscale, rscale
    generic :: assignment(=) => from_array
  end type vec
contains
  type(vec) function vec_add(a, b) result(c)
    class(vec), intent(in) :: a, b
    c%v = a%v + b%v
  end function vec_add
  type(vec) function vec_lscale(s, b) result(c)
    real(dp), intent(in) :: s
    class(vec), intent(in) :: b
    c%v = s * b%v
  end function vec_lscale
  type(vec) function vec_rscale(a, s) result(c)
    class(vec), intent(in) :: a
    real(dp), intent(in) :: s
    c%v = a%v * s
  end function vec_rscale
  subroutine vec_from_array(a, r)
    class(vec), intent(inout) :: a
    real(dp), intent(in) :: r(:)
    a%v = r(1:n)
  end subroutine vec_from_array
  real(dp) function vec_norm(a)
    class(vec), intent(in) :: a
    vec_norm = sqrt(sum(a%v**2) + epsilon(1d0))
  end function vec_norm
  subroutine vec_damp(a, k)
    class(vec), intent(inout) :: a
    real(dp), intent(in) :: k
    a%v = a%v - k * sign(min(abs(a%v), 0.5d0), a%v)
  end subroutine vec_damp

  subroutine loss(x, w, f)
    real(dp), intent(in) :: x(n * n), w(n * n)
    real(dp), intent(out) :: f
    real(dp), target :: buf(n * n)
    real(dp), pointer, contiguous :: m(:, :)
    type(vec) :: a, b, c
    integer :: j
    buf = x * w + 0.1d0 * x**2
    call c_f_pointer(c_loc(buf), m, [n, n])
    a = m(:, 1)
    b = m(2, :)
    c = a + 2d0 * b
    do j = 2, n
      a = m(:, j)
      c = c * 0.9d0 + (1d0 / a%norm()) * a
    end do
    call c%damp(0.3d0)
    f = c%norm() + sum(c%v * b%v)
  end subroutine loss
end module vec100

program p100
  use ferrozyme
  use fz_check
  use vec100
  implicit none
  real(dp) :: x(n * n), w(n * n), dx(n * n), dw(n * n), fx(n * n), fw(n * n), f, df
  real(dp) :: vx(n * n), vw(n * n), tf, f2
  integer :: seed
  seed = 100
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.2d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n * n, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
end program p100
