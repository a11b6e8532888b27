; Decision: flang's array constructor routines on real data (`t = [x(1:2)]` when flang
; cannot size the constructor itself: InitArrayConstructorVector then one
; PushArrayConstructorValue per value) are redirected, inside the clone being
; differentiated, to the C implementations `__fz_f18_ctor_init`/`__fz_f18_ctor_push`
; (runtime/fortran.c), whose IR is differentiated like the user's: the adjoint of the
; constructed array flows back to the values pushed. Non-real constructors reach flang's
; own routines through inactive aliases renamed back after differentiation, so no call of
; an `_inactive` alias is left.
; Why it matters: the calls used to be a missing-derivative error (flang's runtime has
; no IR), and any array expression like `[x, x(n:1:-1)]` of an assumed-shape array in a
; differentiated Fortran routine hit it at every optimisation level.
;
; Hand-reduced from flang-22 output: `to` is a rank-1 real(8) descriptor of two
; elements, `from` describes x(1:2); the result is to(1) * to(2).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%desc = type { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }

@enzyme_dup = external global i32

declare void @_FortranAInitArrayConstructorVector(ptr, ptr, i1 zeroext, ptr, i32)
declare void @_FortranAPushArrayConstructorValue(ptr, ptr)
declare ptr @malloc(i64)
declare void @free(ptr)
declare double @__enzyme_autodiff(ptr, ...)

define double @ctor(ptr %x) {
entry:
  %vec = alloca [10 x i64], align 8
  %to = alloca %desc, align 8
  %from = alloca %desc, align 8
  %buf = call ptr @malloc(i64 16)
  %t0 = insertvalue %desc { ptr undef, i64 8, i32 20240719, i8 1, i8 28, i8 2, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 2, i64 8]] }, ptr %buf, 0
  store %desc %t0, ptr %to, align 8
  %f0 = insertvalue %desc { ptr undef, i64 8, i32 20240719, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 2, i64 8]] }, ptr %x, 0
  store %desc %f0, ptr %from, align 8
  call void @_FortranAInitArrayConstructorVector(ptr %vec, ptr %to, i1 false, ptr null, i32 1)
  call void @_FortranAPushArrayConstructorValue(ptr %vec, ptr %from)
  %a = load double, ptr %buf, align 8
  %p = getelementptr double, ptr %buf, i64 1
  %b = load double, ptr %p, align 8
  %r = fmul double %a, %b
  call void @free(ptr %buf)
  ret double %r
}

define void @grad(ptr %x, ptr %dx) {
entry:
  %0 = call double (ptr, ...) @__enzyme_autodiff(ptr @ctor, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_ctor(
; CHECK-NOT: @_FortranAPushArrayConstructorValue
; CHECK: call { ptr } @fz_aug___fz_f18_ctor_init(ptr %vec, ptr %vec.shadow, ptr %to, ptr %to.shadow,
; CHECK: call { ptr } @fz_aug___fz_f18_ctor_push(ptr %vec, ptr %vec.shadow, ptr %from, ptr %from.shadow)
; CHECK: call void @fz_rev___fz_f18_ctor_push(ptr %vec, ptr %vec.shadow, ptr %from, ptr %from.shadow,
; CHECK: call void @fz_rev___fz_f18_ctor_init(
; CHECK-NOT: _inactive(
