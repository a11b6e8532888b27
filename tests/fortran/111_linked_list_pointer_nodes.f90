! OPT: O0 O2
! Failed before hpc45 (compile-time cannot-deduce-type at the stores into a node, and mismatched activity at flang's 40-byte copy of `p%next`'s descriptor into `p`'s): the generic PointerAllocate/PointerDeallocate read a rank-0 descriptor's addendum (the type description pointer at offset 24) as an array's first dimension (integers); the pass now calls scalar versions where the IR fixes the rank at 0.
! A linked list as a scientist writes it: nodes of a recursive derived type (`type(node),
! pointer :: next`) allocated inside the differentiated routine, one per sample whose
! weight passes a threshold (the list's length depends on the data, not on the inputs
! being differentiated), each holding a real computed from the inputs; the list is
! walked with `do while (associated(p))` to accumulate a weighted sum of squares and a
! running product, then freed node by node. Reverse mode against central finite
! differences; forward mode by the dot-product identity.
module m111
  implicit none
  integer, parameter :: dp = kind(1d0)
  type :: node
    real(dp) :: v = 0
    integer :: k = 0
    type(node), pointer :: next => null()
  end type node
contains
  subroutine loss(n, x, w, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n), w(n)
    real(dp), intent(out) :: f
    type(node), pointer :: head, p, q
    real(dp) :: prod
    integer :: i
    head => null()
    do i = n, 1, -1
      if (w(i) > 0.3_dp) then
        allocate (p)
        p%v = x(i) * w(i) + sin(x(i))
        p%k = i
        p%next => head
        head => p
      end if
    end do
    f = 0
    prod = 1
    p => head
    do while (associated(p))
      f = f + w(p%k) * p%v**2
      prod = prod * (1 + 0.1_dp * p%v)
      p => p%next
    end do
    f = f + prod
    p => head
    do while (associated(p))
      q => p%next
      deallocate (p)
      p => q
    end do
  end subroutine loss
end module m111

program p111
  use ferrozyme
  use fz_check
  use m111
  implicit none
  integer, parameter :: n = 8
  real(dp) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), vx(n), vw(n), f, df, tf, f2
  integer :: seed
  seed = 111
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, w, dw, &
                         enzyme_dup, f, df)
  call fd_grad2(loss_xw, x, w, n, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call check_arr('d f / d w vs fd', dw, fw, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(vw, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, vx, enzyme_dup, w, vw, &
                            enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx) + dot_product(dw, vw), 1d-10)
  call finish()
contains
  subroutine loss_xw(xx, ww, ff)
    real(dp), intent(in) :: xx(n), ww(n)
    real(dp), intent(out) :: ff
    call loss(n, xx, ww, ff)
  end subroutine loss_xw
end program p111
