! OPT: O0 O2
! An explicit diffusion stencil written with array intrinsics, time step after time step:
! a periodic Laplacian from CSHIFT (shifts +1 and -1), a second, non-periodic one from
! EOSHIFT with a fixed BOUNDARY value, a source term from SPREAD of a row weight
! reshaped to the grid (RESHAPE), a lookup table in `save` variables filled on the first
! call only (`logical, save :: ready`), a `save` call counter, and MAXLOC/FINDLOC picking
! the entry that enters the loss. Reverse mode against central finite differences (the
! data keep the MAXLOC winner clear), forward mode against the reverse gradient.
module m57
  implicit none
  integer, parameter :: n = 8, steps = 4
  integer :: calls = 0
contains
  subroutine loss(u0, w, f)
    real(8), intent(in) :: u0(n), w(n)
    real(8), intent(out) :: f
    real(8), save :: table(4)
    logical, save :: ready = .false.
    integer, save :: counter = 0
    real(8) :: u(n), lap(n), src(2, n / 2), g(n)
    integer :: s, k, j
    integer :: flags(n)
    if (.not. ready) then
      table = [0.1d0, 0.05d0, 0.02d0, 0.01d0]
      ready = .true.
    end if
    counter = counter + 1
    calls = counter
    u = u0
    src = spread(w(1:n / 2), 1, 2)
    g = reshape(src, [n])
    do s = 1, steps
      lap = cshift(u, 1) - 2 * u + cshift(u, -1)
      u = u + table(1) * lap
      lap = eoshift(u, 1, boundary=0.5d0) - 2 * u + eoshift(u, -1, boundary=-0.25d0)
      u = u + table(mod(s, 4) + 1) * lap + 0.01d0 * g * u
    end do
    k = maxloc(u * w, dim=1)
    flags = 0
    where (w > 0.9d0) flags = 1
    j = findloc(flags, 1, dim=1)
    if (j == 0) j = n
    f = sum(u**2) + 3 * u(k) * w(k) + u(j)
  end subroutine loss
end module m57

program p57
  use ferrozyme
  use fz_check
  use m57
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), tx(n), tw(n), f, df, tf
  integer :: seed, i
  seed = 57
  call fill(x, -1d0, 1d0, seed)
  w = [0.3d0, 0.5d0, 1.4d0, 0.2d0, 0.95d0, 0.4d0, 0.6d0, 0.1d0]
  x(3) = 1.8d0
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
  call check('save counter counted every call', dble(calls), dble(4 * n + 2), 0d0)
  call finish()
end program p57
