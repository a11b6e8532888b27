! OPT: O0 O2
! POINTER arrays allocated and deallocated in the differentiated routine (`real(8),
! pointer :: p(:), q(:), r(:, :)`; `allocate (q(2:n + 1))` with a lower bound, a pointer
! deallocated and allocated again at another size, `associated`), beside a recursive
! adaptive Simpson rule, a `pure` function, an OPTIONAL argument tested with PRESENT, SUM
! and MAXVAL with MASK=, COUNT, ANY, PRODUCT of a section, MINLOC, NORM2 of a strided
! section and an automatic array. flang allocates pointers through its runtime
! (`_FortranAPointerSetBounds`, `PointerAllocate`, `PointerDeallocate`), which were
! missing-derivative errors at -O0 and -O2 before hpc40. Reverse mode against central
! differences, forward mode by the dot-product identity.
module m98
  implicit none
  integer, parameter :: n = 8
  integer, parameter :: seed0 = 98
contains
  recursive function adapt(a, b, c, depth) result(s)
    real(8), intent(in) :: a, b, c
    integer, intent(in) :: depth
    real(8) :: s, m
    m = 0.5d0 * (a + b)
    if (depth == 0) then
      s = (b - a) * (g(a, c) + 4 * g(m, c) + g(b, c)) / 6
    else
      s = adapt(a, m, c, depth - 1) + adapt(m, b, c, depth - 1)
    end if
  end function adapt
  pure real(8) function g(t, c)
    real(8), intent(in) :: t, c
    g = exp(-c * t * t) * cos(t)
  end function g
  real(8) function weighted(v, w)
    real(8), intent(in) :: v(:)
    real(8), intent(in), optional :: w(:)
    if (present(w)) then
      weighted = sum(v * w, mask=w > 0.8d0)
    else
      weighted = sum(v, mask=v > 0)
    end if
  end function weighted
  subroutine loss(x, w, f)
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: f
    real(8), pointer :: p(:), q(:), r(:, :)
    real(4) :: r4(n)
    real(8) :: auto(size(x))
    integer :: i, k
    allocate (p(n))
    p = x * w
    r4 = 0
    auto = p * 1.5d0 + dble(r4)
    k = count(auto > 0)
    f = weighted(auto) + weighted(auto, w) + k * 0.01d0
    if (any(x > 0.7d0)) f = f + product(1 + 0.1d0 * x(1:4))
    f = f + maxval(auto, mask=w < 1d0) + minval(abs(x)) + adapt(0d0, 1d0, w(1), 3)
    i = minloc(x, dim=1)
    f = f + x(i) * w(i) + norm2(p(2:n:3))
    allocate (q(2:n + 1))
    q = p(n:1:-1) * x
    allocate (r(0:1, 3))
    r = reshape(q(2:7), [2, 3])
    f = f + sum(q(3:n + 1:2)) * 0.3d0 + r(1, 2) * r(0, 3)
    deallocate (q)
    allocate (q(3))
    q = w(1:3) ** 2
    f = f + dot_product(q, x(4:6))
    deallocate (q, r)
    if (associated(p)) deallocate (p)
  end subroutine loss
end module m98
program p98
  use m98
  include 'src/check_loss_xw.inc'
end program p98
