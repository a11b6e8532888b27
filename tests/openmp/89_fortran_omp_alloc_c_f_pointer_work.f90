! OMP_THREADS: 1 2 3
! OPT: O0 O2
! OpenMP's allocator API from Fortran (`use omp_lib`): a work array from
! `omp_alloc(bytes, omp_default_mem_alloc)` viewed through `c_f_pointer`, filled and
! read in `!$omp parallel do` loops (one with `reduction(+:s)`), released with
! `omp_free`; a second buffer from `omp_aligned_alloc` (64-byte alignment) holding a
! smoothed copy. Reverse mode against central finite differences of the same routine,
! forward mode against reverse mode (the dot-product identity).
module m89omp
  use omp_lib
  use iso_c_binding
  implicit none
  integer, parameter :: n = 14
contains
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    type(c_ptr) :: p, q
    real(8), pointer :: a(:), b(:)
    real(8) :: s
    integer :: i
    p = omp_alloc(int(n * 8, c_size_t), omp_default_mem_alloc)
    q = omp_aligned_alloc(64_c_size_t, int(n * 8, c_size_t), omp_default_mem_alloc)
    call c_f_pointer(p, a, [n])
    call c_f_pointer(q, b, [n])
    !$omp parallel do
    do i = 1, n
      a(i) = x(i) * w(i) + 0.3d0 * sin(x(i))
    end do
    !$omp end parallel do
    s = 0
    !$omp parallel do reduction(+:s)
    do i = 1, n
      b(i) = a(i) + 0.25d0 * (a(mod(i, n) + 1) - a(i))
      s = s + b(i) * b(i) * w(mod(i + 2, n) + 1)
    end do
    !$omp end parallel do
    f = s + sum(a * b)
    call omp_free(q, omp_default_mem_alloc)
    call omp_free(p, omp_default_mem_alloc)
  end subroutine loss
end module m89omp

program p89
  use ferrozyme
  use fz_check
  use m89omp
  implicit none
  real(8) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), f, df, vx(n), vw(n), tf, f2
  integer :: seed
  seed = 89
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0.3d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, f, df)
  call fd_grad2(loss, x, w, n, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
end program p89
