; Decision: an `i64` load of a constant character literal (`'weighted'`, a constant
; `[8 x i8]` global) stored into a stack buffer that has a shadow is understood as
; constant bytes, like an integer literal: the derivative is generated, and the store
; clears the buffer's adjoint in the reverse sweep instead of being refused.
; Why it matters: flang -O2 passes `character(len=*)` literals beside real arguments
; this way (`penalty(x, w, 'weighted', 3d0)`); the integer store into the byte buffer was
; a cannot-deduce-type error "type punning" (tests/fortran/42 before the fix,
; reverse/check.rs `is_constant_bytes_load`).
;
; Reduced from flang-22 -O2: f = penalty(x, 'weighted') with penalty reading the
; literal's length to pick a scale (the bytes go to `_FortranATrim`, which types nothing).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

@enzyme_dup = external global i32
$lit = comdat any
@lit = linkonce constant [8 x i8] c"weighted", comdat

declare void @__enzyme_autodiff(ptr, ...)

define internal double @penalty(ptr %x, ptr %mode, i64 %len) {
entry:
  %desc = alloca { ptr, i64, i32, i8, i8, i8, i8 }, align 8
  %res = alloca { ptr, i64, i32, i8, i8, i8, i8 }, align 8
  store ptr %mode, ptr %desc, align 8
  %dl = getelementptr i8, ptr %desc, i64 8
  store i64 %len, ptr %dl, align 8
  call void @_FortranATrim(ptr nonnull %res, ptr nonnull %desc, ptr null, i32 0)
  %w = icmp eq i64 %len, 8
  %s = select i1 %w, double 3.000000e+00, double 1.000000e+00
  %xv = load double, ptr %x, align 8
  %sq = fmul double %xv, %xv
  %r = fmul double %s, %sq
  ret double %r
}

declare void @_FortranATrim(ptr, ptr, ptr, i32)

define void @loss(ptr %x, ptr %f) {
entry:
  %buf = alloca [8 x i8], align 8
  %v = load i64, ptr @lit, align 1
  store i64 %v, ptr %buf, align 8
  %p = call double @penalty(ptr %x, ptr nonnull %buf, i64 8)
  store double %p, ptr %f, align 8
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %f, ptr %df) {
entry:
  %d = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @loss, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %f, ptr %df)
  ret void
}

; The literal is stored into the buffer, the adjoint of x is computed by penalty's
; reverse, and the buffer's adjoint is cleared where the store is reversed.
; CHECK-LABEL: define internal void @fz_grad_loss(
; CHECK: store i64 %v, ptr %buf
; CHECK: call void @fz_rev_penalty{{[.a-z]*}}(ptr %x, ptr %x.shadow,
; CHECK: store double 0.000000e+00, ptr %buf.shadow
