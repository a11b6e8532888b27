! OPT: O0 O2
! Implicit 1D heat steps as a scientist writes them: a module keeps an `allocatable, save`
! workspace allocated on the first call and reused (its size checked on later calls), a
! `save`d call counter, and a conductivity table (`parameter` arrays) read by bisection
! and linear interpolation at each cell's temperature; each step assembles the
! tridiagonal system and solves it with the Thomas algorithm (forward sweep into the
! saved workspace, back substitution). Three calls of the differentiated routine reuse
! the workspace. Reverse mode against central finite differences; forward mode by the
! dot-product identity.
module m112
  implicit none
  integer, parameter :: dp = kind(1d0)
  real(dp), parameter :: t_tab(5) = [0.0_dp, 0.25_dp, 0.5_dp, 0.75_dp, 1.0_dp]
  real(dp), parameter :: k_tab(5) = [1.0_dp, 1.3_dp, 1.45_dp, 1.8_dp, 2.4_dp]
  real(dp), allocatable, save :: cp(:), dq(:)
  integer, save :: calls = 0
contains
  ! k(t) by bisection in t_tab and linear interpolation (clamped outside the table).
  real(dp) function conductivity(t)
    real(dp), intent(in) :: t
    integer :: lo, hi, mid
    real(dp) :: s
    if (t <= t_tab(1)) then
      conductivity = k_tab(1)
      return
    end if
    if (t >= t_tab(size(t_tab))) then
      conductivity = k_tab(size(k_tab))
      return
    end if
    lo = 1; hi = size(t_tab)
    do while (hi - lo > 1)
      mid = (lo + hi) / 2
      if (t_tab(mid) <= t) then
        lo = mid
      else
        hi = mid
      end if
    end do
    s = (t - t_tab(lo)) / (t_tab(hi) - t_tab(lo))
    conductivity = (1 - s) * k_tab(lo) + s * k_tab(hi)
  end function conductivity

  ! One implicit step u <- (I + dt A(u)) \ u with A the conductivity-weighted Laplacian
  ! (Dirichlet zero ends), by the Thomas algorithm.
  subroutine step(n, u, dt)
    integer, intent(in) :: n
    real(dp), intent(inout) :: u(n)
    real(dp), intent(in) :: dt
    real(dp) :: a, b, c, m
    integer :: i
    if (.not. allocated(cp)) then
      allocate (cp(n), dq(n))
    else if (size(cp) /= n) then
      error stop 'workspace of another size'
    end if
    do i = 1, n
      a = -dt * conductivity(u(i))
      c = a
      b = 1 - 2 * a
      if (i == 1) then
        cp(i) = c / b
        dq(i) = u(i) / b
      else
        m = b - a * cp(i - 1)
        cp(i) = c / m
        dq(i) = (u(i) - a * dq(i - 1)) / m
      end if
    end do
    u(n) = dq(n)
    do i = n - 1, 1, -1
      u(i) = dq(i) - cp(i) * u(i + 1)
    end do
  end subroutine step

  subroutine loss(n, u0, w, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: u0(n), w(n)
    real(dp), intent(out) :: f
    real(dp) :: u(n)
    integer :: s
    calls = calls + 1
    u = u0
    do s = 1, 3
      call step(n, u, 0.05_dp * w(s))
    end do
    f = sum(w * u**2)
  end subroutine loss
end module m112

program p112
  use ferrozyme
  use fz_check
  use m112
  implicit none
  integer, parameter :: n = 7
  real(dp) :: u(n), w(n), du(n), dw(n), fu(n), fw(n), vu(n), vw(n), f, df, tf, f2
  integer :: seed
  seed = 112
  call fill(u, 0.05d0, 0.95d0, seed)
  call fill(w, 0.5d0, 1.5d0, seed)
  du = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, u, du, enzyme_dup, w, dw, &
                         enzyme_dup, f, df)
  call fd_grad2(loss_uw, u, w, n, fu, fw)
  call check_arr('d f / d u0 vs fd', du, fu, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vu, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, u, vu, enzyme_dup, w, vw, &
                            enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(du, vu) + dot_product(dw, vw), 1d-10)
  call check('calls counted (1 + 4n FD + 1)', real(calls, dp), real(2 + 4 * n, dp), 0d0)
  call finish()
contains
  subroutine loss_uw(uu, ww, ff)
    real(dp), intent(in) :: uu(n), ww(n)
    real(dp), intent(out) :: ff
    call loss(n, uu, ww, ff)
  end subroutine loss_uw
end program p112
