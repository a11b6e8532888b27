! OPT: O0 O2
! More scalar POINTERs allocated in the differentiated routine (hpc45, after fortran/111):
! a binary search tree of derived-type nodes (`left`/`right` pointers, default-initialized
! components), keyed by an inactive weight and built by walking down from the root with
! a pointer to the current node; a recursive subroutine sums over the tree in order
! (each node's value times its depth and a running factor), a `real(8), pointer` scalar
! allocated and deallocated in the routine holds a scale, and the nodes are freed by a
! recursive subroutine. Reverse mode against central finite differences; forward mode by
! the dot-product identity.
module m118
  implicit none
  integer, parameter :: dp = kind(1d0)
  type :: tnode
    real(dp) :: key = 0, v = 0
    integer :: depth = 0
    type(tnode), pointer :: left => null(), right => null()
  end type tnode
contains
  recursive subroutine walk(t, acc)
    type(tnode), pointer, intent(in) :: t
    real(dp), intent(inout) :: acc
    if (.not. associated(t)) return
    call walk(t%left, acc)
    acc = acc * 0.9_dp + t%v * (1 + t%depth) + 0.1_dp * t%v**2
    call walk(t%right, acc)
  end subroutine walk

  recursive subroutine free_tree(t)
    type(tnode), pointer, intent(inout) :: t
    if (.not. associated(t)) return
    call free_tree(t%left)
    call free_tree(t%right)
    deallocate (t)
  end subroutine free_tree

  subroutine loss(n, x, w, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n), w(n)
    real(dp), intent(out) :: f
    type(tnode), pointer :: root, p, q
    real(dp), pointer :: scale
    integer :: i, d
    allocate (scale)
    scale = 1 + 0.5_dp * x(1)**2
    root => null()
    do i = 1, n
      allocate (q)
      q%key = w(i)
      q%v = x(i) * cos(x(i)) / scale
      if (.not. associated(root)) then
        root => q
        cycle
      end if
      p => root
      d = 1
      do
        if (q%key < p%key) then
          if (.not. associated(p%left)) then
            p%left => q
            exit
          end if
          p => p%left
        else
          if (.not. associated(p%right)) then
            p%right => q
            exit
          end if
          p => p%right
        end if
        d = d + 1
      end do
      q%depth = d
    end do
    f = 0
    call walk(root, f)
    f = f * scale
    call free_tree(root)
    deallocate (scale)
  end subroutine loss
end module m118

program p118
  use ferrozyme
  use fz_check
  use m118
  implicit none
  integer, parameter :: n = 7
  real(dp) :: x(n), w(n), dx(n), dw(n), fx(n), fw(n), vx(n), vw(n), f, df, tf, f2
  integer :: seed
  seed = 118
  call fill(x, -1d0, 1d0, seed)
  call fill(w, 0d0, 1d0, seed)
  dx = 0; dw = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_const, w, &
                         enzyme_dup, f, df)
  call fd_grad2(loss_xw, x, w, n, fx, fw)
  call check_arr('d f / d x vs fd', dx, fx, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, vx, enzyme_const, w, &
                            enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, vx), 1d-10)
  call finish()
contains
  subroutine loss_xw(xx, ww, ff)
    real(dp), intent(in) :: xx(n), ww(n)
    real(dp), intent(out) :: ff
    call loss(n, xx, ww, ff)
  end subroutine loss_xw
end program p118
