! bind(c) kernels with assumed-shape dummies: C passes ISO_Fortran_binding descriptors
! (CFI_cdesc_t) built with CFI_establish/CFI_section (tests/fortran/67).
module cfi_kernel
  use iso_c_binding
  implicit none
contains
  ! The energy of a chain: the assumed-shape x(:) (any stride), a 2-D coefficient
  ! matrix w(:, :), and an allocatable work array of x's size.
  real(c_double) function chain_energy(x, w) bind(c, name="chain_energy")
    real(c_double), intent(in) :: x(:), w(:, :)
    real(c_double), allocatable :: d(:)
    integer :: i, n
    n = size(x)
    allocate (d(n - 1))
    do i = 1, n - 1
      d(i) = x(i + 1) - x(i)
    end do
    chain_energy = sum(w(1, 1:n - 1) * d**2) + sum(w(2, :) * sin(x)) + maxval(x) * w(1, n)
  end function chain_energy
end module cfi_kernel
