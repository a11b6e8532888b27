; EXPECT-ERROR: missing-derivative
; EXPECT-ERROR: whole-object assignment of a derived type with allocatable components
; EXPECT-ERROR: assign the components one by one
; A whole-object assignment `b = a` of a derived type with an allocatable component that
; holds active data (tests/fortran/48's `w2 = w`): flang calls `_FortranAAssign` with
; the two variables' descriptors, whose addendum points at the type's description
; (`@_QMmEXdtXt`), and the runtime deep-copies the components. Its derivative (the
; shadow's deep copy, the adjoint added back component by component) is not written;
; until hpc34 the call went to the real-array implementation and failed with
; cannot-deduce-type errors at the descriptor stores (or stopped at run time). Now a
; `missing-derivative` error says what the assignment is and how to write it instead.
; Reduced from flang-22 -O0 output (the descriptor aggregate with the type description
; as element 7).
@enzyme_dup = external global i32
@_QMmEXdtXt = external constant [200 x i8]
declare void @__enzyme_autodiff(ptr, ...)
declare void @_FortranAAssign(ptr, ptr, ptr, i32)
declare ptr @malloc(i64)

define void @loss(ptr %x, ptr %y) {
entry:
  %a = alloca [48 x i8], align 8
  %b = alloca [48 x i8], align 8
  %from = alloca { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] }, align 8
  %to = alloca { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] }, align 8
  store ptr null, ptr %b, align 8
  %va = call ptr @malloc(i64 8)
  store ptr %va, ptr %a, align 8
  %x0 = load double, ptr %x, align 8
  %sq = fmul double %x0, %x0
  store double %sq, ptr %va, align 8
  %da = insertvalue { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] } { ptr undef, i64 48, i32 20240719, i8 0, i8 42, i8 0, i8 1, ptr @_QMmEXdtXt, [1 x i64] zeroinitializer }, ptr %a, 0
  store { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] } %da, ptr %from, align 8
  %db = insertvalue { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] } { ptr undef, i64 48, i32 20240719, i8 0, i8 42, i8 0, i8 1, ptr @_QMmEXdtXt, [1 x i64] zeroinitializer }, ptr %b, 0
  store { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] } %db, ptr %to, align 8
  call void @_FortranAAssign(ptr %to, ptr %from, ptr null, i32 7)
  %vb = load ptr, ptr %b, align 8
  %r = load double, ptr %vb, align 8
  %p = fmul double %r, %x0
  store double %p, ptr %y, align 8
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @loss, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy)
  ret void
}
