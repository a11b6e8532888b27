; Decision: flang's default initialization of a derived-type object (`_FortranAInitialize`,
; called for every local, function result and intent(out) dummy of a type whose
; components have default values, `type :: vec3; real(8) :: x = 0, ...`) is redirected
; inside the clone to `__fz_f18_initialize` (runtime/fortran.c): a memset clears the
; object (its shadow's bytes in forward mode, their adjoints in reverse mode), then
; flang's routine initializes it (an inactive alias, renamed back to `_FortranAInitialize`
; afterwards): constants carry no derivative, and the adjoint of the old contents is
; dropped. (Until hpc34 flang filled a scratch copy that a memcpy moved over the object;
; that copy could not be typed for an array of such objects.)
; Why it matters: every elemental function returning such a type (overloaded operators
; on a vector type, tests/fortran/29_operator_overloading_generics.f90) was a
; missing-derivative error at -O0 and -O2.
;
; Reduced from flang-22: c = vec3(s * a%x, ...) after the result's default
; initialization; the result is a stack object described by a scalar descriptor.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%desc0 = type { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] }

@enzyme_dup = external global i32
@dt_vec3 = external constant [8 x i8]

declare void @_FortranAInitialize(ptr, ptr, i32)
declare double @__enzyme_autodiff(ptr, ...)

define double @scaled(ptr %s) {
entry:
  %c = alloca [3 x double], align 8
  %d = alloca %desc0, align 8
  %d0 = insertvalue %desc0 { ptr undef, i64 24, i32 20240719, i8 0, i8 42, i8 0, i8 1, ptr @dt_vec3, [1 x i64] zeroinitializer }, ptr %c, 0
  store %desc0 %d0, ptr %d, align 8
  call void @_FortranAInitialize(ptr %d, ptr null, i32 7)
  %sv = load double, ptr %s, align 8
  %y = getelementptr i8, ptr %c, i64 8
  %old = load double, ptr %y, align 8
  %new = fmul double %sv, %sv
  store double %new, ptr %c, align 8
  %x = load double, ptr %c, align 8
  %r = fadd double %x, %old
  ret double %r
}

define void @grad(ptr %s, ptr %ds) {
entry:
  %0 = call double (ptr, ...) @__enzyme_autodiff(ptr @scaled, ptr @enzyme_dup, ptr %s, ptr %ds)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_scaled(
; CHECK-NOT: @_FortranAInitialize(
; CHECK: @fz_aug___fz_f18_initialize(ptr %d, ptr %d.shadow, ptr null, i32 7)
; CHECK: @fz_rev___fz_f18_initialize(ptr %d, ptr %d.shadow, ptr null, i32 7,
; CHECK-LABEL: define
; CHECK-NOT: _inactive(
