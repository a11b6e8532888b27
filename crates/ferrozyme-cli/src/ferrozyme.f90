! ferrozyme: Enzyme's differentiation ABI for Fortran.
!
! `ferrozyme fortran` and `ferrozyme cc` compile this module for every Fortran source they
! build, so `use ferrozyme` works without flags. It only declares names: the hooks are
! replaced by the AD pass, the markers are read by it.
!
! Fortran passes arguments by reference, so every argument of a differentiated procedure
! is a pointer: mark arrays and scalars you want derivatives of with `enzyme_dup` (the
! shadow follows) and the rest with `enzyme_const`:
!
!   call __enzyme_autodiff(loss, enzyme_const, n, enzyme_dup, x, dx, enzyme_dup, y, dy)
!   dydx_v = __enzyme_fwddiff(f, enzyme_dup, x, v)          ! f a real(8) function
!   call __enzyme_fwddiff_sub(step, enzyme_dup, u, du, enzyme_const, n)
!
! The hooks have implicit interfaces (any argument list); their names start with `__`,
! which flang accepts.
module ferrozyme
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  private :: c_int, c_double

  ! Activity markers (Enzyme's `extern int enzyme_dup;` ...), passed by reference.
  integer(c_int), bind(c, name="enzyme_dup") :: enzyme_dup
  integer(c_int), bind(c, name="enzyme_dupnoneed") :: enzyme_dupnoneed
  integer(c_int), bind(c, name="enzyme_const") :: enzyme_const
  integer(c_int), bind(c, name="enzyme_out") :: enzyme_out

  ! Reverse mode: the gradient accumulates (+=) into the shadows; a real function's
  ! result is seeded with 1.
  external :: __enzyme_autodiff
  ! Forward mode of a real(8) function: returns the tangent of its result; shadows of
  ! arrays it writes receive their tangents.
  real(c_double), external :: __enzyme_fwddiff
  ! Forward mode of a subroutine (no result to return).
  external :: __enzyme_fwddiff_sub
end module ferrozyme
