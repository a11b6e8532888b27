! OPT: O0 O2
! A module as an HPC Fortran code organises a model: a derived type `ensemble` with
! allocatable components (weights, a coupling matrix) built outside the differentiated
! call, a type-bound function computing an energy with `do concurrent (...) local(t)
! reduce(+:en)` (Fortran 2023 locality clauses), a type-bound subroutine called from it
! that fills an automatic array with SUM(..., DIM=), MATMUL of the allocatable matrix,
! and DOT_PRODUCT. The entry point takes explicit-shape arrays and the ensemble (constant:
! its components carry no derivative here) and differentiates with respect to the
! state. Reverse mode is checked against central finite differences, forward mode
! against reverse mode (the dot-product identity). The ensemble is passed with a
! shadow (enzyme_dup, zero components): `call self%couple(...)` on the `class(ensemble)`
! dummy is a dynamic dispatch through flang's type descriptor, whose shadow used to be a
! null pointer (a segmentation fault, or an endless loop once LLVM took the null load as
! unreachable); read-only tables without reals are now their own shadow, and a constant
! aggregate (flang -O0 stores the class descriptor whole) has its pointer fields'
! shadows (`common/shadows.rs`). With enzyme_const the same call is a clear
! mismatched-activity error (the descriptor of a constant stored into shadowed memory).
module ens27
  implicit none
  integer, parameter :: dp = kind(1d0)
  type :: ensemble
    integer :: n = 0
    real(dp), allocatable :: w(:), c(:, :)
  contains
    procedure :: energy => ensemble_energy
    procedure :: couple => ensemble_couple
  end type ensemble
contains
  subroutine ensemble_init(e, n)
    type(ensemble), intent(out) :: e
    integer, intent(in) :: n
    integer :: i, j
    e%n = n
    allocate (e%w(n), e%c(n, n))
    do i = 1, n
      e%w(i) = 0.5_dp + 0.1_dp * i
      do j = 1, n
        e%c(i, j) = 0.2_dp * sin(real(i + 2 * j, dp))
      end do
    end do
  end subroutine ensemble_init

  subroutine ensemble_couple(self, x, g)
    class(ensemble), intent(in) :: self
    real(dp), intent(in) :: x(self%n)
    real(dp), intent(out) :: g(self%n)
    real(dp) :: m(self%n, 2)
    m(:, 1) = matmul(self%c, x)
    m(:, 2) = x**2 * self%w
    g = sum(m, dim=2)
  end subroutine ensemble_couple

  real(dp) function ensemble_energy(self, x) result(en)
    class(ensemble), intent(in) :: self
    real(dp), intent(in) :: x(self%n)
    real(dp) :: g(self%n), t
    integer :: i
    call self%couple(x, g)
    en = 0
    do concurrent(i=1:self%n) local(t) reduce(+:en)
      t = x(i) * self%w(i) + 0.1_dp * g(i)
      en = en + sin(t) * t
    end do
    en = en + dot_product(g, x)
  end function ensemble_energy

  subroutine loss(e, n, x, f)
    type(ensemble), intent(in) :: e
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: f
    f = e%energy(x) + 0.5_dp * sum(x**4)
  end subroutine loss
end module ens27

program p27
  use ferrozyme
  use fz_check
  use ens27
  implicit none
  integer, parameter :: n = 7
  type(ensemble) :: e, de
  real(dp) :: x(n), dx(n), fd(n), v(n), f, df, t, h, fp, fm, tf
  integer :: seed, i
  call ensemble_init(e, n)
  call ensemble_init(de, n)
  seed = 27
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1; de%w = 0; de%c = 0
  call __enzyme_autodiff(loss, enzyme_dup, e, de, enzyme_const, n, enzyme_dup, x, dx, &
                         enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(e, n, x, fp)
    x(i) = t - h; call loss(e, n, x, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('reverse vs fd', dx, fd, 1d-6)
  call fill(v, -1d0, 1d0, seed)
  tf = 0; de%w = 0; de%c = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, e, de, enzyme_const, n, enzyme_dup, x, v, &
                            enzyme_dup, f, tf)
  call check('forward <J v> = <grad, v>', tf, sum(dx * v), 1d-10)
  call finish()
end program p27
