! A Fortran OpenMP kernel with a C interface (tests/openmp/50): a 2-D field (column
! major, seen from C as rows of length nx) smoothed with `!$omp parallel do collapse(2)`
! into an `intent(inout)` work array, then its energy summed with
! `!$omp parallel do reduction(+:e) reduction(max:emax)`.
module omp_bind_c_kernel
  use iso_c_binding
  implicit none
contains
  subroutine field_energy(nx, ny, u, work, e) bind(c, name="field_energy")
    integer(c_int), value :: nx, ny
    real(c_double), intent(in) :: u(nx, ny)
    real(c_double), intent(inout) :: work(nx, ny)
    real(c_double), intent(out) :: e
    real(c_double) :: emax
    integer :: i, j
    !$omp parallel do collapse(2)
    do j = 1, ny
      do i = 1, nx
        work(i, j) = u(i, j) + 0.2d0 * (u(max(i - 1, 1), j) + u(min(i + 1, nx), j) &
                     + u(i, max(j - 1, 1)) + u(i, min(j + 1, ny)) - 4 * u(i, j))
      end do
    end do
    !$omp end parallel do
    e = 0
    emax = -huge(1d0)
    !$omp parallel do reduction(+:e) reduction(max:emax)
    do j = 1, ny
      do i = 1, nx
        e = e + work(i, j)**2 * (1 + 0.01d0 * i)
        emax = max(emax, exp(work(i, j)))
      end do
    end do
    !$omp end parallel do
    e = e + emax
  end subroutine field_energy
end module omp_bind_c_kernel
