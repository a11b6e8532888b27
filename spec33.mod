!mod$ v1 sum:eecda1410adafc6a
module spec33
integer(4),parameter::dp=8_4
intrinsic::kind
integer(4),parameter::sp=4_4
contains
subroutine special(x,f)
real(8),intent(in)::x(1_8:6_8)
real(8),intent(out)::f
end
subroutine special4(x,f)
real(4),intent(in)::x(1_8:6_8)
real(4),intent(out)::f
end
subroutine response(p,w,n,f)
real(8),intent(in)::p(1_8:4_8)
integer(4),intent(in)::n
real(8),intent(in)::w(1_8:int(n,kind=8))
real(8),intent(out)::f
end
end
