; EXPECT-ERROR: missing-derivative
; EXPECT-ERROR: _FortranADestroy
; EXPECT-ERROR: which the reverse sweep still reads
; EXPECT-ERROR: create derived-type variables with allocatable components outside loops
; A Fortran routine with a derived-type variable whose allocatable component holds
; active data, created and finalized on every iteration of a loop (a `block` construct
; with `type(bag) :: b` inside `do k = 1, n`): flang frees the component through
; `_FortranADestroy(box of b)` at the end of each iteration. The combined gradient moves
; a Destroy that runs once (a local at the end of the routine, an intent(out) dummy on
; entry) after the reverse sweep, and repeats it on the shadow (tests/fortran/48, 68);
; one in a loop would have to wait for every iteration's reverse, so it is rejected with
; its own reason and a help line. (The trip count is an argument: a loop of a constant
; small count is unrolled before differentiation, and its copies are each deferred.)
; Reduced from flang-22 -O2 output.
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare void @_FortranADestroy(ptr)
declare ptr @malloc(i64)

define void @loss(ptr %x, ptr %y, i64 %n) {
entry:
  %b = alloca [48 x i8], align 8
  %box = alloca [40 x i8], align 8
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %s, %loop ]
  %v = call ptr @malloc(i64 8)
  store ptr %v, ptr %b, align 8
  %a = load double, ptr %x, align 8
  %sq = fmul double %a, %a
  store double %sq, ptr %v, align 8
  %r = load double, ptr %v, align 8
  %s = fadd double %acc, %r
  store ptr %b, ptr %box, align 8
  call void @_FortranADestroy(ptr %box)
  %k1 = add i64 %k, 1
  %done = icmp eq i64 %k1, %n
  br i1 %done, label %exit, label %loop

exit:
  store double %s, ptr %y, align 8
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @loss, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy, i64 %n)
  ret void
}
