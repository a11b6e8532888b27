! OPT: O0 O2
! Character-valued functions next to real results, as a scientist writes them: a
! fixed-length `character(len=12) function regime(re)` names the flow regime of each
! pipe segment from its Reynolds number, a deferred-length `character(:), allocatable`
! function builds a tag by concatenation, `select case (regime(re))` picks the friction
! factor (laminar 64/Re, Blasius 0.316 Re**-0.25, Haaland's turbulent fit), `trim`,
! `len_trim` and `index` of the names enter as integers; the segments' velocities keep
! their Reynolds numbers away from the regime boundaries. Reverse mode against central
! finite differences; forward mode by the dot-product identity.
module m115
  implicit none
  integer, parameter :: dp = kind(1d0)
  real(dp), parameter :: nu = 1d-6, diam = 0.05_dp
contains
  character(len=12) function regime(re)
    real(dp), intent(in) :: re
    if (re < 2300) then
      regime = 'laminar'
    else if (re < 1d5) then
      regime = 'blasius'
    else
      regime = 'turbulent'
    end if
  end function regime

  function tag(name, k) result(t)
    character(*), intent(in) :: name
    integer, intent(in) :: k
    character(:), allocatable :: t
    character(len=4) :: num
    write (num, '(i4.4)') k
    t = trim(name) // '#' // num
  end function tag

  real(dp) function friction(re)
    real(dp), intent(in) :: re
    select case (regime(re))
    case ('laminar')
      friction = 64 / re
    case ('blasius')
      friction = 0.316_dp * re**(-0.25_dp)
    case default
      friction = (1 / (-1.8_dp * log10(6.9_dp / re)))**2
    end select
  end function friction

  subroutine loss(n, v, len_, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: v(n), len_(n)
    real(dp), intent(out) :: f
    character(:), allocatable :: t
    real(dp) :: re, dp_seg
    integer :: i, marks
    f = 0
    marks = 0
    do i = 1, n
      re = v(i) * diam / nu
      dp_seg = friction(re) * len_(i) / diam * 0.5_dp * v(i)**2
      t = tag(regime(re), i)
      marks = marks + len_trim(t) + index(t, 'blas')
      f = f + dp_seg
    end do
    f = f * (1 + 1d-3 * marks)
  end subroutine loss
end module m115

program p115
  use ferrozyme
  use fz_check
  use m115
  implicit none
  integer, parameter :: n = 6
  real(dp) :: v(n), l(n), dv(n), dl(n), fv(n), fl(n), vv(n), vl(n), f, df, tf, f2
  integer :: seed
  seed = 115
  ! Re = v * 5e4: laminar below v = 0.046, Blasius up to v = 2, turbulent beyond.
  v = [0.02d0, 0.035d0, 0.5d0, 1.2d0, 3.0d0, 6.0d0]
  call fill(l, 1d0, 3d0, seed)
  dv = 0; dl = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, v, dv, enzyme_dup, l, dl, &
                         enzyme_dup, f, df)
  call fd_grad2(loss_vl, v, l, n, fv, fl)
  call check_arr('d f / d v vs fd', dv, fv, 1d-6)
  call check_arr('d f / d len vs fd', dl, fl, 1d-6)
  call fill(vv, -1d0, 1d0, seed)
  call fill(vl, -1d0, 1d0, seed)
  tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, v, vv, enzyme_dup, l, vl, &
                            enzyme_dup, f2, tf)
  call check('forward . v = reverse . v', tf, dot_product(dv, vv) + dot_product(dl, vl), 1d-10)
  call finish()
contains
  subroutine loss_vl(vv_, ll, ff)
    real(dp), intent(in) :: vv_(n), ll(n)
    real(dp), intent(out) :: ff
    call loss(n, vv_, ll, ff)
  end subroutine loss_vl
end program p115
