!mod$ v1 sum:3df9b9231858d0eb
module ode36
integer(4),parameter::dp=8_4
intrinsic::kind
contains
function rhs(y,p) result(dy)
real(8),intent(in)::y(1_8:2_8)
real(8),intent(in)::p(1_8:4_8)
real(8),allocatable::dy(:)
end
subroutine rk4(y,p,h)
real(8),intent(inout)::y(1_8:2_8)
real(8),intent(in)::p(1_8:4_8)
real(8),intent(in),value::h
end
subroutine euler(y,p,h)
real(8),intent(inout)::y(1_8:2_8)
real(8),intent(in)::p(1_8:4_8)
real(8),intent(in),value::h
end
subroutine misfit(p,tobs,yobs,wobs,m,method,f)
real(8),intent(in)::p(1_8:4_8)
integer(4),intent(in)::m
real(8),intent(in)::tobs(1_8:int(m,kind=8))
real(8),intent(in)::yobs(1_8:int(m,kind=8))
real(8),intent(in)::wobs(1_8:int(m,kind=8))
integer(4),intent(in)::method
real(8),intent(out)::f
end
end
