! OPT: O0 O2
! A rank-3 `intent(inout)` field updated in place as climate/ocean kernels do: every
! other level passed as a strided section `q(:, 1:ny:2, k)` to an explicit-shape dummy
! (copy-in/copy-out), `associate` names for slices, a `block` with its own work array,
! `do concurrent` with `local_init` of a per-iteration accumulator and `integer(8)`
! indices, then a column-wise `maxval`/`minval` range in the loss. The field's final
! state feeds the loss; its derivative with respect to the field's initial state and a
! coefficient array. Reverse mode against central differences; forward mode by the
! dot-product identity.
module col101
  implicit none (type, external)
  integer, parameter :: dp = kind(1d0), nx = 3, ny = 4, nz = 2
contains
  subroutine relax(a, m, c)
    integer, intent(in) :: m
    real(dp), intent(inout) :: a(m)
    real(dp), intent(in) :: c
    integer :: i
    do i = 2, m
      a(i) = a(i) + c * a(i - 1) * a(i)
    end do
  end subroutine relax

  subroutine step(q, c)
    real(dp), intent(inout) :: q(nx, ny, nz)
    real(dp), intent(in) :: c(nz)
    integer :: k
    integer(8) :: i, j
    real(dp) :: acc
    do k = 1, nz
      call relax(q(:, 1:ny:2, k), nx * ((ny + 1) / 2), c(k))
    end do
    associate (top => q(:, :, nz), bot => q(:, :, 1))
      top = top + 0.1_dp * bot**2
    end associate
    block
      real(dp) :: tmp(nx, ny)
      tmp = q(:, :, 1)
      q(:, 2:ny, 1) = tmp(:, 2:ny) - 0.2_dp * tmp(:, 1:ny - 1)
    end block
    acc = 1
    do concurrent (i = 1:nx, j = 1:ny) local_init(acc)
      acc = acc + q(i, j, nz)
      q(i, j, nz) = q(i, j, nz) * acc / (1 + abs(acc))
    end do
  end subroutine step

  subroutine loss(x, w, f)
    real(dp), intent(in) :: x(nx * ny * nz), w(nz)
    real(dp), intent(out) :: f
    real(dp) :: q(nx, ny, nz)
    integer :: t
    q = reshape(x, [nx, ny, nz])
    do t = 1, 2
      call step(q, w)
    end do
    f = sum(q**2) + sum(maxval(q, dim=1) - minval(q, dim=1))
  end subroutine loss
end module col101

program p101
  use ferrozyme
  use fz_check
  use col101
  implicit none
  integer, parameter :: n = nx * ny * nz
  real(dp) :: x(n), w(nz), dx(n), dw(nz), fx(n), f, df, vx(n), vw(nz), tf, f2, fw
  integer :: seed, i
  seed = 101
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.1d0, 0.4d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  do i = 1, n
    fx(i) = fd_entry(loss, x, w, x, i)
  end do
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  do i = 1, nz
    fw = fd_entry(loss, x, w, w, i)
    call check('d f / d w vs fd', dw(i), fw, 1d-6)
  end do
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
end program p101
