! OPT: O0 O1 O2 O3
! Character results of flang's library next to the active computation: an internal WRITE
! of active values, then TRIM, ADJUSTL, ADJUSTR and REPEAT of the buffer concatenated
! into a module variable and a local (flang's TRIM/... have no IR: their results were
! memory nothing is known about, a cannot-deduce-type error at -O2 before), beside
! MATMUL of reshaped arrays (RESHAPE with ORDER=), MAXVAL/MINVAL/SUM with DIM= and NORM2
! along a dimension of an allocatable result. Reverse mode against central finite
! differences, forward mode by the dot-product identity.
module m89
  implicit none
  integer, parameter :: dp = kind(1d0)
  character(len=80) :: banner = ''
  integer :: nlog = 0
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: f
    real(dp) :: a(2, 5), b(5, 2)
    real(dp), allocatable :: c(:, :), g(:)
    character(len=16) :: buf
    character(len=40) :: line
    a = reshape(x, [2, 5], order=[2, 1])
    b = reshape(x(n:1:-1), [5, 2])
    c = matmul(a, b) + 0.5_dp * matmul(transpose(b), transpose(a))
    g = norm2(a, dim=2) + maxval(b, dim=1) - minval(b, dim=1)
    f = sum(c**2) * 0.1_dp + sum(g * sum(c, dim=1)) + maxval(sum(a, dim=1))
    write (buf, '(f12.5)') f
    line = adjustr(buf) // repeat('-', 3)
    banner = 'f = ' // trim(adjustl(buf)) // ' ' // trim(line)
    nlog = nlog + len_trim(banner)
    deallocate (c, g)
  end subroutine loss
end module m89

program p89
  use ferrozyme
  use fz_check
  use m89
  implicit none
  integer, parameter :: n = 10
  real(dp) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 89
  call fill(x, -1d0, 1d0, seed)
  dx = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, f, df)
  do i = 1, n
    t = x(i); h = fd_step(t)
    x(i) = t + h; call loss(n, x, fp)
    x(i) = t - h; call loss(n, x, fm)
    x(i) = t; fd(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dx, fd, 1d-6)
  call loss(n, x, f2)
  call check('the banner was written', merge(1d0, 0d0, banner(1:4) == 'f = '), 1d0, 0d0)
  call check('the banner ends with the dashes', &
             merge(1d0, 0d0, banner(len_trim(banner) - 2:len_trim(banner)) == '---'), 1d0, 0d0)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p89
