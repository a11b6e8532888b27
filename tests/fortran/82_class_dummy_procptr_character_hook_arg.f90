! OPT: O0 O2
! Object-oriented model code with a character argument passed through the hook (hpc37):
! an abstract type with a deferred type-bound function and two extensions whose
! components come from the input, a `class(term_t)` dummy dispatched with `select type`
! (`type is` and `class is`), a procedure pointer chosen by a `character(len=*)` mode
! that `__enzyme_autodiff` receives as `enzyme_const` (flang appends its hidden length
! after the other arguments), and a module variable written as state and read back.
! Reverse mode against central finite differences for both modes, forward mode by the
! dot-product identity.
module m82
  implicit none
  type, abstract :: term_t
    real(8) :: scale = 1
  contains
    procedure(term_eval), deferred :: eval
  end type term_t
  abstract interface
    real(8) function term_eval(self, x)
      import :: term_t
      class(term_t), intent(in) :: self
      real(8), intent(in) :: x
    end function term_eval
    real(8) function mix_fn(a, b)
      real(8), intent(in) :: a, b
    end function mix_fn
  end interface
  type, extends(term_t) :: quad_t
    real(8) :: c = 0
  contains
    procedure :: eval => quad_eval
  end type quad_t
  type, extends(term_t) :: wave_t
    real(8) :: k = 1
  contains
    procedure :: eval => wave_eval
  end type wave_t
  real(8) :: bias = 0
contains
  real(8) function quad_eval(self, x)
    class(quad_t), intent(in) :: self
    real(8), intent(in) :: x
    quad_eval = self%scale * (x - self%c) ** 2
  end function quad_eval
  real(8) function wave_eval(self, x)
    class(wave_t), intent(in) :: self
    real(8), intent(in) :: x
    wave_eval = self%scale * sin(self%k * x)
  end function wave_eval
  real(8) function mix_mul(a, b)
    real(8), intent(in) :: a, b
    mix_mul = a * b
  end function mix_mul
  real(8) function mix_add(a, b)
    real(8), intent(in) :: a, b
    mix_add = a + 2 * b
  end function mix_add
  real(8) function apply(t, x)
    class(term_t), intent(in) :: t
    real(8), intent(in) :: x
    select type (t)
    type is (quad_t)
      apply = t%eval(x) + t%c * x
    class is (wave_t)
      apply = t%eval(x) * t%k
    class default
      apply = 0
    end select
  end function apply
  subroutine loss(n, x, mode, f)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    character(len=*), intent(in) :: mode
    real(8), intent(out) :: f
    type(quad_t) :: q
    type(wave_t) :: w
    procedure(mix_fn), pointer :: mix
    integer :: i
    q%c = x(1)
    q%scale = 0.5d0
    w%k = x(2)
    w%scale = x(3)
    if (mode == 'product') then
      mix => mix_mul
    else
      mix => mix_add
    end if
    f = 0
    do i = 1, n
      f = f + mix(apply(q, x(i)), apply(w, x(i)))
    end do
    bias = 0.1d0 * f
    f = f + bias ** 2
  end subroutine loss
end module m82

program p82
  use ferrozyme
  use fz_check
  use m82
  implicit none
  integer, parameter :: n = 6
  real(8) :: x(n), dx(n), f, df, fd(n), t, h, fp, fm, v(n), tf, f2
  integer :: seed, i, k
  character(len=7) :: modes(2)
  modes = ['product', 'sum    ']
  seed = 82
  call fill(x, -1d0, 1d0, seed)
  do k = 1, 2
    dx = 0; df = 1
    call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_const, &
                           trim(modes(k)), enzyme_dup, f, df)
    do i = 1, n
      t = x(i); h = fd_step(t)
      x(i) = t + h; call loss(n, x, trim(modes(k)), fp)
      x(i) = t - h; call loss(n, x, trim(modes(k)), fm)
      x(i) = t; fd(i) = (fp - fm) / (2 * h)
    end do
    call check_arr('d f / d x vs fd, mode ' // trim(modes(k)), dx, fd, 1d-6)
    call fill(v, -1d0, 1d0, seed)
    tf = 0
    call __enzyme_fwddiff_sub(loss, enzyme_const, n, enzyme_dup, x, v, enzyme_const, &
                              trim(modes(k)), enzyme_dup, f2, tf)
    call check('forward . v = reverse . v, mode ' // trim(modes(k)), tf, dot_product(dx, v), 1d-10)
  end do
  call finish()
end program p82
