; EXPECT-ERROR: missing-derivative
; EXPECT-ERROR: _FortranADestroy
; EXPECT-ERROR: deallocates the allocatable components of a derived-type variable
; EXPECT-ERROR: create derived-type variables with allocatable components outside the differentiated routine
; A Fortran routine with a local derived-type variable whose allocatable component holds
; active data (`type(bag) :: b; allocate(b%v(n)); b%v = x*x; y = sum(b%v)`): at the end
; of the routine flang frees the component through `_FortranADestroy(box of b)`. The
; reverse sweep still needs it (and the shadow's component), so the call is rejected
; with its own reason and a help line saying how to restructure (the generic flang help
; suggested -O2, which does not help here). Reduced from flang-22 -O2 output.
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare void @_FortranADestroy(ptr)
declare ptr @malloc(i64)

define void @loss(ptr %x, ptr %y) {
entry:
  %b = alloca [48 x i8], align 8
  %box = alloca [40 x i8], align 8
  %v = call ptr @malloc(i64 8)
  store ptr %v, ptr %b, align 8
  %a = load double, ptr %x, align 8
  %sq = fmul double %a, %a
  store double %sq, ptr %v, align 8
  %r = load double, ptr %v, align 8
  store double %r, ptr %y, align 8
  store ptr %b, ptr %box, align 8
  call void @_FortranADestroy(ptr %box)
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @loss, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy)
  ret void
}
