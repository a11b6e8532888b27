! OPT: O0 O2
! Complex arithmetic and single precision as physics codes write them: a complex(8)
! transfer function H(w) = sum_k c_k / (1 + i w tau_k) evaluated with CMPLX, CONJG, ABS,
! AIMAG, REAL and EXP of a complex argument, an `elemental` function with an `optional`
! argument (present in one call, absent in the other), a `pure` function returning a
! complex, `intent(out)` arrays, and the same smoothing model computed in real(4) and
! checked against real(8). Reverse mode against central finite differences.
module m46
  implicit none
contains
  pure complex(8) function response(w, c, tau)
    real(8), intent(in) :: w, c, tau
    response = c / cmplx(1d0, w * tau, kind=8)
  end function response

  elemental real(8) function damp(v, scale)
    real(8), intent(in) :: v
    real(8), intent(in), optional :: scale
    if (present(scale)) then
      damp = v / (1 + scale * v * v)
    else
      damp = v / (1 + v * v)
    end if
  end function damp

  subroutine spectrum(n, c, tau, f)
    integer, intent(in) :: n
    real(8), intent(in) :: c(n), tau(n)
    real(8), intent(out) :: f
    complex(8) :: h, z
    real(8) :: w, d(n)
    integer :: j, k
    f = 0
    do j = 1, 5
      w = 0.5d0 * j
      h = (0d0, 0d0)
      do k = 1, n
        h = h + response(w, c(k), tau(k))
      end do
      z = exp(cmplx(0d0, 0.3d0 * w, kind=8) * h)
      f = f + abs(h)**2 + real(h * conjg(z)) + aimag(h) * w
    end do
    d = damp(c)
    f = f + sum(damp(tau, 0.5d0)) + dot_product(d, tau)
  end subroutine spectrum

  subroutine smooth4(n, x, y)
    integer, intent(in) :: n
    real(4), intent(in) :: x(n)
    real(4), intent(out) :: y
    real(4) :: t(n)
    integer :: i
    t = x
    do i = 2, n - 1
      t(i) = 0.25 * x(i - 1) + 0.5 * x(i) + 0.25 * x(i + 1)
    end do
    y = sum(tanh(t) * t)
  end subroutine smooth4

  subroutine smooth8(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    real(8) :: t(n)
    integer :: i
    t = x
    do i = 2, n - 1
      t(i) = 0.25d0 * x(i - 1) + 0.5d0 * x(i) + 0.25d0 * x(i + 1)
    end do
    y = sum(tanh(t) * t)
  end subroutine smooth8
end module m46

program p46
  use ferrozyme
  use fz_check
  use m46
  implicit none
  integer, parameter :: n = 6
  real(8) :: c(n), tau(n), dc(n), dtau(n), fc(n), ft(n), f, df, t, h, fp, fm
  real(8) :: x8(n), dx8(n), y8, dy8
  real(4) :: x4(n), dx4(n), y4, dy4
  integer :: seed, i
  seed = 46
  call fill(c, -1d0, 1d0, seed)
  call fill(tau, 0.1d0, 2d0, seed)
  dc = 0; dtau = 0; df = 1
  call __enzyme_autodiff(spectrum, enzyme_const, n, enzyme_dup, c, dc, enzyme_dup, tau, dtau, &
                         enzyme_dup, f, df)
  do i = 1, n
    t = c(i); h = fd_step(t)
    c(i) = t + h; call spectrum(n, c, tau, fp)
    c(i) = t - h; call spectrum(n, c, tau, fm)
    c(i) = t; fc(i) = (fp - fm) / (2 * h)
    t = tau(i); h = fd_step(t)
    tau(i) = t + h; call spectrum(n, c, tau, fp)
    tau(i) = t - h; call spectrum(n, c, tau, fm)
    tau(i) = t; ft(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d c vs fd', dc, fc, 1d-6)
  call check_arr('d f / d tau vs fd', dtau, ft, 1d-6)
  call fill(x8, -1d0, 1d0, seed)
  x4 = real(x8, 4)
  x8 = real(x4, 8)
  dx8 = 0; dy8 = 1; dx4 = 0; dy4 = 1
  call __enzyme_autodiff(smooth8, enzyme_const, n, enzyme_dup, x8, dx8, enzyme_dup, y8, dy8)
  call __enzyme_autodiff(smooth4, enzyme_const, n, enzyme_dup, x4, dx4, enzyme_dup, y4, dy4)
  do i = 1, n
    call check('real(4) gradient vs real(8)', real(dx4(i), 8), dx8(i), 1d-5)
  end do
  call finish()
end program p46
