! fz_check: the Fortran side of the end-to-end checks (the C side is tests/c/fz_test.h).
! Every derivative is compared with an independent oracle: `check` prints one line
! `ok ...` or `MISMATCH ...` (|got-want| <= tol * max(1, |got|, |want|), NaN never
! matches) and `finish` prints `PASS (n checks)` or `FAIL (...)` and stops with the
! program's exit status.
module fz_check
  implicit none
  integer, save :: fz_failures = 0, fz_checks = 0
contains
  subroutine check(what, got, want, tol)
    character(*), intent(in) :: what
    real(8), intent(in) :: got, want, tol
    real(8) :: scale
    logical :: ok
    fz_checks = fz_checks + 1
    scale = max(1d0, abs(got), abs(want))
    ok = abs(got - want) <= tol * scale
    if (ok) then
      write (*, '(a,a,a,es25.17,a,es25.17)') 'ok       ', what, ': got=', got, ' want=', want
    else
      fz_failures = fz_failures + 1
      write (*, '(a,a,a,es25.17,a,es25.17)') 'MISMATCH ', what, ': got=', got, ' want=', want
    end if
  end subroutine check

  subroutine check_arr(what, got, want, tol)
    character(*), intent(in) :: what
    real(8), intent(in) :: got(:), want(:), tol
    character(len=80) :: name
    integer :: i
    do i = 1, size(got)
      write (name, '(a,a,i0,a)') what, '(', i, ')'
      call check(trim(name), got(i), want(i), tol)
    end do
  end subroutine check_arr

  ! Deterministic pseudo-random numbers in [lo, hi) (a linear congruential generator).
  subroutine fill(x, lo, hi, seed)
    real(8), intent(out) :: x(:)
    real(8), intent(in) :: lo, hi
    integer, intent(inout) :: seed
    integer :: i
    do i = 1, size(x)
      seed = mod(seed * 1103515245 + 12345, 2147483647)
      if (seed < 0) seed = seed + 2147483647
      x(i) = lo + (hi - lo) * dble(seed) / 2147483647d0
    end do
  end subroutine fill

  ! The central-difference step for x (1e-6 relative).
  real(8) function fd_step(x)
    real(8), intent(in) :: x
    fd_step = 1d-6 * max(1d0, abs(x))
  end function fd_step

  ! Central differences of the loss `call loss(x, w, f)` (a subroutine with explicit-shape
  ! arrays x(n), w(n), passed through an implicit interface) with respect to every entry
  ! of x and of w; x and w are restored.
  subroutine fd_grad2(loss, x, w, n, fx, fw)
    external :: loss
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n), w(n)
    real(8), intent(out) :: fx(n), fw(n)
    integer :: i
    do i = 1, n
      fx(i) = fd_entry(loss, x, w, x, i)
      fw(i) = fd_entry(loss, x, w, w, i)
    end do
  end subroutine fd_grad2

  real(8) function fd_entry(loss, x, w, v, i)
    external :: loss
    real(8), intent(inout) :: x(*), w(*), v(*)
    integer, intent(in) :: i
    real(8) :: t, h, fp, fm
    t = v(i); h = fd_step(t)
    v(i) = t + h; call loss(x, w, fp)
    v(i) = t - h; call loss(x, w, fm)
    v(i) = t
    fd_entry = (fp - fm) / (2 * h)
  end function fd_entry

  ! Prints the verdict; on failure stops with exit status 1 (on success the program
  ! simply ends, status 0).
  subroutine finish()
    if (fz_checks == 0) then
      write (*, '(a)') 'FAIL (no checks ran)'
      stop 1
    else if (fz_failures == 0) then
      write (*, '(a,i0,a)') 'PASS (', fz_checks, ' checks)'
    else
      write (*, '(a,i0,a,i0,a)') 'FAIL (', fz_failures, ' mismatches of ', fz_checks, ' checks)'
      stop 1
    end if
  end subroutine finish
end module fz_check
