!mod$ v1 sum:d7ed85c88a035470
module remap32
integer(4),parameter::dp=8_4
intrinsic::kind
contains
subroutine loss(flat,x,n,m,f)
real(8),contiguous,intent(in),target::flat(:)
real(8),intent(in)::x(:)
integer(4),intent(in)::n
integer(4),intent(in)::m
real(8),intent(out)::f
end
end
