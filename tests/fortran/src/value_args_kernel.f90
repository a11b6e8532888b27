! A Fortran library routine with a C interface as scientists export one: `value`
! arguments (the size, a real(c_double) rate, a one-character mode), an assumed-size
! input, an `intent(inout)` state array updated in a `do while` time loop that stops at
! a final time, and the result returned as a function value (tests/fortran/53).
module value_args_kernel
  use iso_c_binding
  implicit none
contains
  real(c_double) function decay_energy(n, u, k, rate, mode, tend) bind(c, name="decay_energy")
    integer(c_int), value :: n
    real(c_double), intent(inout) :: u(n)
    real(c_double), intent(in) :: k(*)
    real(c_double), value :: rate, tend
    character(kind=c_char), value :: mode
    real(c_double) :: t, dt
    integer :: i
    t = 0
    dt = 0.05d0
    do while (t < tend - 1d-12)
      do i = 1, n
        u(i) = u(i) - dt * rate * k(i) * u(i) + dt * 0.1d0 * u(mod(i, n) + 1)**2
      end do
      t = t + dt
    end do
    if (mode == 'q') then
      decay_energy = sum(u**2)
    else
      decay_energy = sum(abs(u))
    end if
  end function decay_energy
end module value_args_kernel
