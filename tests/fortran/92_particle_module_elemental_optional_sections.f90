! OPT: O0 O2
! A particle-smoothing module as a scientist writes one: a derived type holding
! allocatable position and weight arrays plus a name, built by a module procedure; an
! ELEMENTAL kernel function with an OPTIONAL argument (PRESENT decides the width); a
! PURE function of an assumed-shape dummy; an assumed-size dummy (`x(*)`) next to a
! CHARACTER argument that selects the norm; strided sections (`p%x(1:n:2)`, reversed
! `p%x(n:1:-1)`); MATMUL of a RESHAPEd matrix and TRANSPOSE; SPREAD and CSHIFT; WHERE with
! ELSEWHERE; FORALL; DO CONCURRENT. The loss of the input vector (positions) and a
! second input (weights) is differentiated in reverse mode (both gradients against
! central finite differences) and forward mode (the dot-product identity).
module parts92
  implicit none
  integer, parameter :: dp = kind(1d0)
  type :: cloud_t
    character(len=8) :: name
    real(dp), allocatable :: x(:), w(:)
  end type cloud_t
contains
  subroutine make_cloud(c, name, x, w)
    type(cloud_t), intent(out) :: c
    character(len=*), intent(in) :: name
    real(dp), intent(in) :: x(:), w(:)
    c%name = name
    allocate (c%x(size(x)), c%w(size(w)))
    c%x = x
    c%w = w
  end subroutine make_cloud

  elemental real(dp) function kernel(r, h)
    real(dp), intent(in) :: r
    real(dp), intent(in), optional :: h
    real(dp) :: hh
    hh = 0.7_dp
    if (present(h)) hh = h
    kernel = exp(-(r / hh)**2) / hh
  end function kernel

  pure real(dp) function spread_of(a)
    real(dp), intent(in) :: a(:)
    spread_of = sum((a - sum(a) / size(a))**2) / size(a)
  end function spread_of

  ! A norm chosen by name, of an assumed-size array of length m.
  real(dp) function norm_by(kind_name, x, m)
    character(len=*), intent(in) :: kind_name
    integer, intent(in) :: m
    real(dp), intent(in) :: x(*)
    select case (kind_name)
    case ('l2')
      norm_by = sqrt(sum(x(1:m)**2))
    case ('l1')
      norm_by = sum(abs(x(1:m)))
    case default
      norm_by = maxval(abs(x(1:m)))
    end select
  end function norm_by

  subroutine loss(n, x, w, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n), w(n)
    real(dp), intent(out) :: f
    type(cloud_t) :: c
    real(dp) :: a(3, 3), b(3), r(n), s(n), t(n, 3), m(3), xs(n)
    integer :: i, j
    call make_cloud(c, 'gas', x, w)
    ! Pairwise kernel sums on strided and reversed sections.
    r = c%x - c%x(n:1:-1)
    s = kernel(r) + kernel(r, h=1.3_dp) * c%w
    where (s > 0.9_dp)
      s = s - 0.5_dp * (s - 0.9_dp)**2
    elsewhere
      s = s * (1 + 0.1_dp * c%w)
    end where
    ! A 3x3 matrix from the first nine positions, applied with and without transpose.
    a = reshape(c%x(1:9), [3, 3])
    b = c%w(1:6:2)
    m = matmul(a, b) + matmul(transpose(a), b(3:1:-1))
    t = spread(c%w, dim=2, ncopies=3)
    forall (i = 1:n, j = 1:3) t(i, j) = t(i, j) * m(j) + 0.01_dp * i * j
    xs = cshift(c%x, 2)
    do concurrent (i = 1:n)
      r(i) = s(i) * xs(i)
    end do
    f = sum(r) + spread_of(m) + 0.1_dp * sum(t) + norm_by('l2', s, n) &
        + 0.5_dp * norm_by('l1', t(:, 2), n) + norm_by('max', m, 3)
    f = f + kernel(spread_of(c%x(2:n:3)))
  end subroutine loss
end module parts92

program p92
  use ferrozyme
  use fz_check
  use parts92
  implicit none
  integer, parameter :: n = 10
  real(dp) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), f, df, vx(n), vw(n), tf, f2
  integer :: seed
  seed = 92
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.2d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, w, dw, &
                         enzyme_dup, f, df)
  call fd_grad2(loss_xw, x, w, n, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, vx, enzyme_dup, w, vw, &
                            enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
contains
  subroutine loss_xw(xx, ww, ff)
    real(dp), intent(in) :: xx(n), ww(n)
    real(dp), intent(out) :: ff
    call loss(n, xx, ww, ff)
  end subroutine loss_xw
end program p92
