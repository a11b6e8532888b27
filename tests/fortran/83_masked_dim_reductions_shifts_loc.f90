! OPT: O0 O2
! Array intrinsics on active arrays not combined before (hpc37): SUM and PRODUCT with
! DIM= and MASK=, MAXVAL with DIM=, NORM2 with DIM=, MINLOC/MAXLOC picking the active
! element that enters the loss, EOSHIFT with a BOUNDARY, CSHIFT along DIM=2, SPREAD
! along a new first dimension, MERGE with an array mask, PACK of a masked section, and
! MATMUL of a TRANSPOSE. Reverse mode against central finite differences (the data keep
! the masks, the locations and the maxima away from ties), forward mode by the
! dot-product identity.
module m83
  implicit none
  integer, parameter :: m = 3, k = 4
contains
  subroutine loss(a, v, f)
    real(8), intent(in) :: a(m, k), v(k)
    real(8), intent(out) :: f
    real(8) :: cs(k), rp(m), mx(k), nr(m), sh(m, k), sp(m, k), mg(m, k), b(k, k), p(m * k)
    logical :: mask(m, k)
    integer :: lo(1), hi(2), np
    mask = a > -0.2d0
    cs = sum(a, dim=1, mask=mask)
    rp = product(1 + 0.1d0 * a, dim=2, mask=mask)
    mx = maxval(a, dim=1)
    nr = norm2(a, dim=2)
    sh = cshift(a, shift=1, dim=2) + eoshift(a, shift=-1, boundary=0.5d0, dim=1)
    sp = spread(v, dim=1, ncopies=m)
    mg = merge(a * sp, sh, mask)
    b = matmul(transpose(a), mg)
    lo = minloc(v)
    hi = maxloc(mg)
    np = count(mask)
    p(1:np) = pack(a * a, mask)
    f = sum(cs * v) + sum(rp) + dot_product(mx, v) + sum(nr ** 2) + sum(b) * 0.1d0 &
        + v(lo(1)) ** 2 + mg(hi(1), hi(2)) * 3 + sum(p(1:np))
  end subroutine loss
end module m83

program p83
  use ferrozyme
  use fz_check
  use m83
  implicit none
  real(8) :: a(m, k), v(k), flat(m * k), da(m, k), dv(k), fa(m, k), fv(k), ta(m, k), tv(k), f, df, tf
  real(8) :: t, h, fp, fm
  integer :: seed, i, j
  seed = 83
  call fill(flat, -1d0, 1d0, seed)
  a = reshape(flat, [m, k])
  call fill(v, -1d0, 1d0, seed)
  da = 0; dv = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, a, da, enzyme_dup, v, dv, enzyme_dup, f, df)
  do j = 1, k
    do i = 1, m
      t = a(i, j); h = fd_step(t)
      a(i, j) = t + h; call loss(a, v, fp)
      a(i, j) = t - h; call loss(a, v, fm)
      a(i, j) = t; fa(i, j) = (fp - fm) / (2 * h)
    end do
  end do
  do j = 1, k
    t = v(j); h = fd_step(t)
    v(j) = t + h; call loss(a, v, fp)
    v(j) = t - h; call loss(a, v, fm)
    v(j) = t; fv(j) = (fp - fm) / (2 * h)
  end do
  call check_arr('df/da vs fd', reshape(da, [m * k]), reshape(fa, [m * k]), 1d-6)
  call check_arr('df/dv vs fd', dv, fv, 1d-6)
  call fill(flat, -1d0, 1d0, seed)
  ta = reshape(flat, [m, k])
  call fill(tv, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, a, ta, enzyme_dup, v, tv, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, sum(da * ta) + dot_product(dv, tv), 1d-10)
  call finish()
end program p83
