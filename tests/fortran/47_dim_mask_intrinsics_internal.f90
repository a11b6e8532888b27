! OPT: O0 O2
! The DIM= and MASK= forms of the reductions on a 2-D array, which flang calls its
! runtime for at -O0: SUM(a, dim=), PRODUCT(a, dim=), NORM2(a, dim=), MAXVAL(a, mask=),
! MINVAL(a, dim=), DOT_PRODUCT of sections, MATMUL of a vector by a matrix, COUNT/ANY
! driving control flow (inactive), and an internal procedure (contains) using the host's
! dummy arrays, with an `optional` weight and an `intent(out)` diagnostics array.
! Reverse mode against central finite differences, forward mode by the dot product.
module m47
  implicit none
  integer, parameter :: nr = 4, nc = 3
contains
  subroutine loss(a, w, f)
    real(8), intent(in) :: a(nr, nc), w(nc)
    real(8), intent(out) :: f
    real(8) :: diag(4)
    call core(a, f, diag, w)
    f = f + 0.01d0 * sum(diag)
  end subroutine loss

  subroutine core(a, f, diag, w)
    real(8), intent(in) :: a(nr, nc)
    real(8), intent(out) :: f, diag(4)
    real(8), intent(in), optional :: w(nc)
    real(8) :: cs(nc), rp(nr), cn(nc), rm(nr), vm(nc)
    cs = sum(a, dim=1)
    rp = product(1d0 + 0.2d0 * a, dim=2)
    cn = norm2(a, dim=1)
    rm = minval(a, dim=2)
    vm = matmul(rp, a)
    f = dot_product(cs, cn) + sum(rp) + sum(rm**2) + weighted(vm)
    if (count(a > 0d0) > nr * nc / 2 .or. any(a < -0.99d0)) then
      f = f + maxval(a, mask=a < 0.5d0)
    else
      f = f + 2 * maxval(a, mask=a < 0.5d0)
    end if
    f = f + dot_product(a(2:nr, 1), a(1:nr - 1, nc))
    diag = [sum(cs), product(cn), maxval(rp), minval(rm)]
  contains
    real(8) function weighted(v)
      real(8), intent(in) :: v(nc)
      if (present(w)) then
        weighted = sum(v * w) + sum(a(:, 1) * a(:, nc))
      else
        weighted = sum(v)
      end if
    end function weighted
  end subroutine core
end module m47

program p47
  use ferrozyme
  use fz_check
  use m47
  implicit none
  real(8) :: a(nr, nc), da(nr, nc), fa(nr, nc), va(nr, nc), w(nc), dw(nc), fw(nc), vw(nc)
  real(8) :: f, df, t, h, fp, fm, tf, f2
  integer :: seed, i, j
  seed = 47
  do j = 1, nc
    call fill(a(:, j), -1d0, 1d0, seed)
  end do
  call fill(w, 0.5d0, 1.5d0, seed)
  da = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, a, da, enzyme_dup, w, dw, enzyme_dup, f, df)
  do j = 1, nc
    do i = 1, nr
      t = a(i, j); h = fd_step(t)
      a(i, j) = t + h; call loss(a, w, fp)
      a(i, j) = t - h; call loss(a, w, fm)
      a(i, j) = t; fa(i, j) = (fp - fm) / (2 * h)
    end do
  end do
  do i = 1, nc
    t = w(i); h = fd_step(t)
    w(i) = t + h; call loss(a, w, fp)
    w(i) = t - h; call loss(a, w, fm)
    w(i) = t; fw(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d a vs fd', reshape(da, [nr * nc]), reshape(fa, [nr * nc]), 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  do j = 1, nc
    call fill(va(:, j), -1d0, 1d0, seed)
  end do
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, a, va, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, sum(da * va) + dot_product(dw, vw), 1d-10)
  call finish()
end program p47
