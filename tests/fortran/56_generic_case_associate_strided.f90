! OPT: O0 O2
! Solver-style Fortran that the earlier rounds did not combine: a generic interface
! `energy` resolved at compile time to a vector and a matrix `module procedure`, an
! integer `select case` (with a range and a default) choosing the nonlinearity per
! entry, an `associate` block naming strided sections `x(1:n:2)`/`x(2:n:2)` and a
! column of a matrix, a `block` construct with its own local array, and a reverse
! strided section `x(n:1:-3)`. Reverse mode against central finite differences,
! forward mode against the reverse gradient (the dot-product identity).
module m56
  implicit none
  integer, parameter :: n = 9
  interface energy
    module procedure energy_vec, energy_mat
  end interface energy
contains
  real(8) function energy_vec(v)
    real(8), intent(in) :: v(:)
    integer :: i
    energy_vec = 0
    do i = 1, size(v)
      select case (mod(i, 4))
      case (0)
        energy_vec = energy_vec + v(i)**2
      case (1:2)
        energy_vec = energy_vec + sin(v(i)) * v(i)
      case default
        energy_vec = energy_vec + exp(0.3d0 * v(i))
      end select
    end do
  end function energy_vec

  real(8) function energy_mat(m)
    real(8), intent(in) :: m(:, :)
    integer :: j
    energy_mat = 0
    do j = 1, size(m, 2)
      energy_mat = energy_mat + j * energy_vec(m(:, j))
    end do
  end function energy_mat

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: m(3, 3)
    m = reshape(x * w, [3, 3])
    associate (odd => x(1:n:2), even => x(2:n:2), col => m(:, 2))
      f = energy(odd) + 0.5d0 * energy(even * w(1:n-1:2)) + sum(col**2)
    end associate
    block
      real(8) :: t(3)
      t = x(n:1:-3) * w(1:3)
      f = f + energy(m) * 0.1d0 + dot_product(t, t)
    end block
  end subroutine loss
end module m56

program p56
  use ferrozyme
  use fz_check
  use m56
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i
  seed = 56
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.3d0, 1.2d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  tx = [(0.1d0 * i - 0.45d0, i=1, n)]
  tw = [(0.07d0 * i - 0.2d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p56
