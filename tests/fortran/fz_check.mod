!mod$ v1 sum:eecc11e710f0c57e
module fz_check
integer(4),save::fz_failures
integer(4),save::fz_checks
contains
subroutine check(what,got,want,tol)
character(*,1),intent(in)::what
real(8),intent(in)::got
real(8),intent(in)::want
real(8),intent(in)::tol
end
subroutine check_arr(what,got,want,tol)
character(*,1),intent(in)::what
real(8),intent(in)::got(:)
real(8),intent(in)::want(:)
real(8),intent(in)::tol
end
subroutine fill(x,lo,hi,seed)
real(8),intent(out)::x(:)
real(8),intent(in)::lo
real(8),intent(in)::hi
integer(4),intent(inout)::seed
end
function fd_step(x)
real(8),intent(in)::x
real(8)::fd_step
end
subroutine fd_grad2(loss,x,w,n,fx,fw)
procedure()::loss
integer(4),intent(in)::n
real(8),intent(inout)::x(1_8:int(n,kind=8))
real(8),intent(inout)::w(1_8:int(n,kind=8))
real(8),intent(out)::fx(1_8:int(n,kind=8))
real(8),intent(out)::fw(1_8:int(n,kind=8))
end
function fd_entry(loss,x,w,v,i)
procedure()::loss
real(8),intent(inout)::x(1_8:*)
real(8),intent(inout)::w(1_8:*)
real(8),intent(inout)::v(1_8:*)
integer(4),intent(in)::i
real(8)::fd_entry
end
subroutine finish()
end
end
