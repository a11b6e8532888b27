! OPT: O0 O2
! A parameter fit as a modeller writes it: an integrator module with explicit Euler and
! classical RK4 steppers for a damped oscillator, the right-hand side an array-valued
! function returning an allocatable result, `intent(in), value` scalars, a `do while`
! over time with a labelled `exit` from an inner search loop and a labelled `cycle`
! skipping unobserved samples, and a least-squares misfit against observations. The
! misfit is differentiated with respect to the model parameters (frequency, damping,
! initial state) in reverse mode, checked against central finite differences, and in
! forward mode against reverse mode; Euler's result is checked the same way.
module ode36
  implicit none
  integer, parameter :: dp = kind(1d0)
contains
  function rhs(y, p) result(dy)
    real(dp), intent(in) :: y(2), p(4)
    real(dp), allocatable :: dy(:)
    allocate (dy(2))
    dy(1) = y(2)
    dy(2) = -p(1)**2 * y(1) - p(2) * y(2)
  end function rhs

  subroutine rk4(y, p, h)
    real(dp), intent(inout) :: y(2)
    real(dp), intent(in) :: p(4)
    real(dp), intent(in), value :: h
    real(dp) :: k1(2), k2(2), k3(2), k4(2)
    k1 = rhs(y, p)
    k2 = rhs(y + 0.5_dp * h * k1, p)
    k3 = rhs(y + 0.5_dp * h * k2, p)
    k4 = rhs(y + h * k3, p)
    y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
  end subroutine rk4

  subroutine euler(y, p, h)
    real(dp), intent(inout) :: y(2)
    real(dp), intent(in) :: p(4)
    real(dp), intent(in), value :: h
    y = y + h * rhs(y, p)
  end subroutine euler

  ! Misfit at observation times tobs(1:m) (sorted); observations with weight 0 skipped.
  subroutine misfit(p, tobs, yobs, wobs, m, method, f)
    integer, intent(in) :: m, method
    real(dp), intent(in) :: p(4), tobs(m), yobs(m), wobs(m)
    real(dp), intent(out) :: f
    real(dp) :: y(2), t, h
    integer :: j, next
    y = p(3:4)
    t = 0
    h = 0.02_dp
    f = 0
    next = 1
    do while (next <= m)
      if (method == 1) then
        call rk4(y, p, h)
      else
        call euler(y, p, h)
      end if
      t = t + h
      samples: do j = next, m
        if (tobs(j) > t + 1d-12) exit samples
        next = j + 1
        if (wobs(j) == 0) cycle samples
        f = f + wobs(j) * (y(1) - yobs(j))**2
      end do samples
    end do
  end subroutine misfit
end module ode36

program p36
  use ferrozyme
  use fz_check
  use ode36
  implicit none
  integer, parameter :: m = 8
  real(dp) :: p(4), dpar(4), tp(4), fd(4), tobs(m), yobs(m), wobs(m), f, df, tf, t, h, fp, fm
  integer :: i, method
  p = [2.1_dp, 0.3_dp, 1.0_dp, -0.4_dp]
  tobs = [(0.2_dp * i, i=1, m)]
  yobs = cos(1.9_dp * tobs) * exp(-0.1_dp * tobs)
  wobs = 1
  wobs(3) = 0
  wobs(6) = 0.5_dp
  do method = 1, 2
    dpar = 0; df = 1
    call __enzyme_autodiff(misfit, enzyme_dup, p, dpar, enzyme_const, tobs, enzyme_const, yobs, &
                           enzyme_const, wobs, enzyme_const, m, enzyme_const, method, &
                           enzyme_dup, f, df)
    do i = 1, 4
      t = p(i); h = fd_step(t)
      p(i) = t + h; call misfit(p, tobs, yobs, wobs, m, method, fp)
      p(i) = t - h; call misfit(p, tobs, yobs, wobs, m, method, fm)
      p(i) = t; fd(i) = (fp - fm) / (2 * h)
    end do
    if (method == 1) then
      call check_arr('rk4 d misfit / dp vs fd', dpar, fd, 1d-6)
    else
      call check_arr('euler d misfit / dp vs fd', dpar, fd, 1d-6)
    end if
    tp = [0.3_dp, -0.5_dp, 0.2_dp, 0.7_dp]
    tf = 0
    call __enzyme_fwddiff_sub(misfit, enzyme_dup, p, tp, enzyme_const, tobs, enzyme_const, yobs, &
                              enzyme_const, wobs, enzyme_const, m, enzyme_const, method, &
                              enzyme_dup, f, tf)
    call check('forward . v = reverse . v', tf, dot_product(dpar, tp), 1d-10)
  end do
  call finish()
end program p36
