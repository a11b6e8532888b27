!mod$ v1 sum:bad6b4a3ed616944
module vecalg29
integer(4),parameter::dp=8_4
intrinsic::kind
type::vec3
real(8)::x=0._8
real(8)::y=0._8
real(8)::z=0._8
end type
interface operator(+)
procedure::add3
end interface
interface operator(-)
procedure::sub3
end interface
interface operator(*)
procedure::scale_left
procedure::scale_right
end interface
interface operator(.dot.)
procedure::dot3
end interface
interface norm
procedure::norm3
procedure::norm_arr
end interface
contains
elemental function add3(a,b) result(c)
type(vec3),intent(in)::a
type(vec3),intent(in)::b
type(vec3)::c
end
elemental function sub3(a,b) result(c)
type(vec3),intent(in)::a
type(vec3),intent(in)::b
type(vec3)::c
end
elemental function scale_left(s,a) result(c)
real(8),intent(in)::s
type(vec3),intent(in)::a
type(vec3)::c
end
elemental function scale_right(a,s) result(c)
type(vec3),intent(in)::a
real(8),intent(in)::s
type(vec3)::c
end
elemental function dot3(a,b)
type(vec3),intent(in)::a
type(vec3),intent(in)::b
real(8)::dot3
end
elemental function norm3(a)
type(vec3),intent(in)::a
real(8)::norm3
end
pure function norm_arr(a)
real(8),intent(in)::a(:)
real(8)::norm_arr
end
function spring(a,b,k,r0)
type(vec3),intent(in)::a
type(vec3),intent(in)::b
real(8),intent(in),value::k
real(8),intent(in),value::r0
real(8)::spring
end
subroutine chain_energy(p,n,e)
integer(4),intent(in)::n
type(vec3),intent(in)::p(1_8:int(n,kind=8))
real(8),intent(out)::e
end
end
