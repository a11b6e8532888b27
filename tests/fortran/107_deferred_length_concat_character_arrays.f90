! OPT: O0 O2
! Character data beside active data (f42): a deferred-length allocatable character grown
! by `tag = tag // 'p'` in a loop (flang's Assign of characters, inactive, reallocates
! the variable and writes the new address into its descriptor, whose shadow slot nothing
! writes: the -O0 forward derivative copied from that garbage address, a segfault),
! INDEX/SCAN/VERIFY/LEN_TRIM of a character array, a character comparison array, MAX of
! characters, TRIM, and a module deferred-length character assigned at the end; the
! integers index the active array and LEN(tag) scales it. Reverse mode against central
! finite differences, forward mode by the dot-product identity, the module variable's
! text checked.
module m107
  implicit none
  integer, parameter :: dp = kind(1d0)
  character(len=:), allocatable :: trail
contains
  subroutine loss(n, x, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: f
    character(len=:), allocatable :: tag
    character(len=4) :: words(4)
    character(len=4) :: big
    integer, allocatable :: ix(:), sc(:), ve(:), lt(:)
    logical, allocatable :: lo(:)
    integer :: j
    words = ['abcd', 'bca ', 'zz  ', 'cab ']
    tag = ''
    f = 0
    do j = 1, n
      if (x(j) > 0) then
        tag = tag // 'p'
      else
        tag = tag // 'mm'
      end if
      f = f + x(j) * real(len(tag), dp)
    end do
    ix = index(words, 'c')
    sc = scan(words, 'ab', back=.true.)
    ve = verify(words, 'abc')
    lt = len_trim(words)
    lo = words < 'c'
    big = max(words(1), words(2), words(4))
    do j = 1, 4
      f = f + x(ix(j) + 1) * x(sc(j) + 2) + real(ve(j) + lt(j), dp) * x(j + 4)**2
      if (lo(j)) f = f + sin(x(j))
    end do
    f = f + x(index(big, 'b') + 5) * real(len_trim(tag), dp)
    trail = tag // '|' // trim(big)
  end subroutine loss
end module m107

program p107
  use ferrozyme
  use fz_check
  use m107
  implicit none
  integer, parameter :: n = 10
  real(dp) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i
  character(len=:), allocatable :: want
  seed = 107
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
  want = ''
  do i = 1, n
    if (x(i) > 0) then
      want = want // 'p'
    else
      want = want // 'mm'
    end if
  end do
  want = want // '|cab'
  call check('the module character is tag // ''|'' // trim(max(...))', &
             merge(1d0, 0d0, trail == want), 1d0, 0d0)
  call fill(v, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dx, v), 1d-10)
  call finish()
end program p107
