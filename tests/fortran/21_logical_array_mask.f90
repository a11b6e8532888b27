! OPT: O0 O2
! A selection kept in a LOGICAL array variable, as codes keep it (`mask = x > 0.1d0`; no
! derivative flows through it), used by PACK, COUNT and MERGE (20_pack_eoshift_count
! uses mask expressions). Reverse mode against central finite differences (the mask
! does not change under the step). At -O0 flang fills a temporary with the LOGICAL values
! and copies it into `mask` with _FortranAAssign; sent to the differentiable Assign (which
! also moves reals) type analysis could not type the temporary (a cannot-deduce-type
! error): an Assign whose source descriptor has a constant non-real type code in the IR
! now calls flang's routine directly.
module m21
  implicit none
contains
  subroutine selected(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    logical :: mask(n)
    mask = x > 0.1d0
    y = sum(pack(x, mask)**3) / max(count(mask), 1) + sum(merge(x, 2 * x, mask)**2)
  end subroutine selected
end module m21

program p21
  use ferrozyme
  use fz_check
  use m21
  implicit none
  integer, parameter :: n = 7
  real(8) :: x(n), dx(n), fx(n), y, dy, t, h, yp, ym
  integer :: seed, i
  seed = 21
  call fill(x, -1d0, 1d0, seed)
  where (abs(x - 0.1d0) < 0.05d0) x = x + 0.2d0
  dx = 0; dy = 1
  call __enzyme_autodiff(selected, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, y, dy)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call selected(n, x, yp)
    x(i) = t - h; call selected(n, x, ym)
    x(i) = t; fx(i) = (yp - ym) / (2 * h)
  end do
  call check_arr('dy/dx fd', dx, fx, 1d-6)
  call finish()
end program p21
