! OPT: O0 O2
! A small 3-D field code: the input vectors reshaped into rank-3 arrays, a `pure`
! function returning a rank-3 array (a smoothing along the third dimension) taking an
! assumed-shape `u(:,:,:)` dummy, an internal procedure (`contains` inside the loss)
! that updates its assumed-shape rank-3 argument from host-associated variables (the
! weights and a scale it also changes), `associate` names for a plane of the field and
! of the weights, a `block` with its own local and a `maxval` over a section, and a
! real function of two assumed-shape rank-3 arrays. Reverse mode against central
! differences; forward mode by the dot-product identity.
module vol79
  implicit none
  integer, parameter :: nx = 3, ny = 2, nz = 4, n = nx * ny * nz
contains
  pure function smooth3(u) result(v)
    real(8), intent(in) :: u(:, :, :)
    real(8) :: v(size(u, 1), size(u, 2), size(u, 3))
    integer :: k
    do k = 1, size(u, 3)
      v(:, :, k) = u(:, :, k) * (1 + 0.1d0 * k) + 0.5d0 * u(:, :, max(k - 1, 1))
    end do
  end function smooth3

  real(8) function energy3(u, w)
    real(8), intent(in) :: u(:, :, :), w(:, :, :)
    integer :: i, j, k
    energy3 = 0
    do k = 1, size(u, 3)
      do j = 1, size(u, 2)
        do i = 1, size(u, 1)
          energy3 = energy3 + w(i, j, k) * u(i, j, k)**2
        end do
      end do
    end do
  end function energy3

  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8) :: u(nx, ny, nz), ww(nx, ny, nz), v(nx, ny, nz), scale
    u = reshape(x, [nx, ny, nz])
    ww = reshape(w, shape(ww))
    scale = 0.5d0
    v = smooth3(u)
    call add_layers(v)
    associate (top => v(:, :, nz), base => ww(:, :, 1))
      f = energy3(v, ww) + sum(top * base) * scale
    end associate
    block
      real(8) :: m
      m = maxval(v(2, :, :))
      f = f + m * m
    end block
  contains
    subroutine add_layers(a)
      real(8), intent(inout) :: a(:, :, :)
      integer :: k
      do k = 2, size(a, 3)
        a(:, :, k) = a(:, :, k) + scale * sin(ww(:, :, k - 1)) * a(:, :, k - 1)
      end do
      scale = scale + sum(ww(:, 1, 1)**2)
    end subroutine add_layers
  end subroutine loss
end module vol79

program p79
  use ferrozyme
  use fz_check
  use vol79
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: i
  x = [(sin(1.3d0 * i) * 0.8d0, i=1, n)]
  w = [(0.7d0 + 0.4d0 * cos(0.9d0 * i), i=1, n)]
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('df/dx vs fd', dx, fx, 1d-6)
  call check_arr('df/dw vs fd', dw, fw, 1d-6)
  tx = [(0.1d0 * mod(i, 5) - 0.2d0, i=1, n)]
  tw = [(0.05d0 * mod(i, 3) - 0.04d0, i=1, n)]
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, tx) + dot_product(dw, tw), 1d-10)
  call finish()
end program p79
