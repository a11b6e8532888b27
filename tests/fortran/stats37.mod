!mod$ v1 sum:5c27e04102ed1e64
module stats37
integer(4),parameter::dp=8_4
intrinsic::kind
type::stats
real(8)::mean=0._8
real(8)::var=0._8
real(8)::scale=1._8
integer(4)::count=0_4
end type
contains
subroutine describe(x,n,s)
integer(4),intent(in)::n
real(8),intent(in)::x(1_8:int(n,kind=8))
type(stats),intent(out)::s
end
function shifted(s,d) result(t)
type(stats),intent(in)::s
real(8),intent(in)::d
type(stats)::t
end
subroutine model(x,n,f)
integer(4),intent(in)::n
real(8),intent(in)::x(1_8:int(n,kind=8))
real(8),intent(out)::f
end
end
