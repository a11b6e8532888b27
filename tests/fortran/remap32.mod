!mod$ v1 sum:374e5af6acd7f6c9
module remap32
integer(4),parameter::dp=8_4
intrinsic::kind
contains
subroutine loss(flat,x,n,m,f)
integer(4),intent(in)::n
integer(4),intent(in)::m
real(8),intent(in),target::flat(1_8:int(n*m,kind=8))
real(8),intent(in)::x(1_8:int(2_4*m,kind=8))
real(8),intent(out)::f
end
end
