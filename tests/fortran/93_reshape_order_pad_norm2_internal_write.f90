! OPT: O0 O1 O2 O3
! -O2 was refused (cannot-deduce-type at the copy of the TRIMmed log line: flang's TRIM has no IR, so nothing was known about its result); type analysis now knows that TRIM, ADJUSTL, ADJUSTR and REPEAT fill their result descriptor's data with characters.
! Intrinsics and habits the earlier programs leave out: RESHAPE with ORDER= and PAD=
! (refused at run time until hpc38), NORM2 of a whole array and along a dimension,
! EOSHIFT with an array BOUNDARY along dimension 2 (refused until hpc38), MATMUL of allocatable arrays allocated in the routine, an internal WRITE
! of a real into a character variable and a log line built with it (inactive work next
! to the active computation), an OPTIONAL array dummy that is absent in one call and
! present in another, and a character dummy selecting the branch. Reverse mode against
! central finite differences, forward mode by the dot-product identity.
module m93
  implicit none
  integer, parameter :: dp = kind(1d0)
  character(len=64) :: last_log = ''
contains
  real(dp) function mix(mode, a, b)
    character(len=*), intent(in) :: mode
    real(dp), intent(in) :: a(:)
    real(dp), intent(in), optional :: b(:)
    if (present(b)) then
      mix = dot_product(a, b)
    else if (mode == 'norm') then
      mix = norm2(a)
    else
      mix = sum(a**3)
    end if
  end function mix

  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: f
    real(dp) :: a(3, 4), b(4, 3), c(3, 3), e(3, 4), bd(3)
    real(dp), allocatable :: p(:, :), q(:, :), r(:, :)
    character(len=24) :: buf
    a = reshape(x(1:10), [3, 4], pad=[1.5_dp, -0.5_dp], order=[2, 1])
    b = reshape(x(3:12), [4, 3], pad=[0.25_dp])
    allocate (p(3, 4), q(4, 3))
    p = a * 0.5_dp + 0.1_dp
    q = transpose(a) - b
    r = matmul(p, q)
    c = matmul(a, b)
    bd = [x(1), -x(2), 0.5_dp]
    e = eoshift(a, shift=1, boundary=bd, dim=2)
    f = norm2(c) + sum(norm2(e, dim=1)**2) + 0.1_dp * sum(r)
    f = f + mix('norm', x(1:5)) + 0.01_dp * mix('cube', x(4:n)) &
        + mix('dot', x(1:3), c(:, 2))
    write (buf, '(es12.4)') f
    last_log = 'loss = ' // trim(adjustl(buf))
    deallocate (p, q)
  end subroutine loss
end module m93

program p93
  use ferrozyme
  use fz_check
  use m93
  implicit none
  integer, parameter :: n = 12
  real(dp) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  seed = 93
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
  call check('the log line was written', merge(1d0, 0d0, last_log(1:7) == 'loss = '), 1d0, 0d0)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p93
