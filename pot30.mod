!mod$ v1 sum:530f8b3709f10812
module pot30
integer(4),parameter::dp=8_4
intrinsic::kind
type,abstract::potential
contains
procedure(energy_if),deferred::energy
end type
abstract interface
function energy_if(self,r)
import::potential
class(potential),intent(in)::self
real(8),intent(in)::r
real(8)::energy_if
end
end interface
type,extends(potential)::harmonic
real(8)::k
real(8)::r0
contains
procedure::energy=>harmonic_energy
end type
type,extends(potential)::morse
real(8)::d
real(8)::a
real(8)::r0
contains
procedure::energy=>morse_energy
end type
type::slot
class(potential),allocatable::p
end type
contains
function harmonic_energy(self,r)
class(harmonic),intent(in)::self
real(8),intent(in)::r
real(8)::harmonic_energy
end
function morse_energy(self,r)
class(morse),intent(in)::self
real(8),intent(in)::r
real(8)::morse_energy
end
function weight(w,r)
class(*),intent(in)::w
real(8),intent(in)::r
real(8)::weight
end
subroutine total(pots,r,n,e)
integer(4),intent(in)::n
type(slot),intent(in)::pots(1_8:int(n,kind=8))
real(8),intent(in)::r(1_8:int(n,kind=8))
real(8),intent(out)::e
end
end
