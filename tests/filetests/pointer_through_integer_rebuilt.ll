; Decision: a pointer rebuilt from an integer is rebuilt as a pointer before
; differentiation (ferrozyme-transform/src/intptr.rs) when the integer is `ptrtoint p`
; plus plain offsets: `inttoptr(ptrtoint(x) + 8)` becomes `gep i8, x, off` with `off` the
; integer minus `ptrtoint(x)`, so the shadow address is the same byte offset from x's
; shadow, in both modes. A pointer loaded as `i64` and rebuilt by `inttoptr` (InstCombine's
; copy of a struct holding a pointer: Eigen's Transpose at -O1) is loaded as `ptr`, so
; its shadow is loaded from the shadow memory. No `inttoptr` is left in the derivatives.
; Why it matters: these were `unsupported-instruction` errors (Eigen's matrix-vector
; products at -O1), and a shadow lost through an integer would be a silent zero.
;
; double f(double *x, double **h) {
;   double *q = (double *)((uintptr_t)x + 8);
;   return q[0] * x[0] * (*(double **)h)[0];   // *h read as an integer, then inttoptr
; }
; (hand-written IR in clang-22 -O1's shapes)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4

define double @f(ptr %x, ptr %h) {
entry:
  %xi = ptrtoint ptr %x to i64
  %qi = add i64 %xi, 8
  %q = inttoptr i64 %qi to ptr
  %a = load double, ptr %q, align 8
  %b = load double, ptr %x, align 8
  %pi = load i64, ptr %h, align 8
  %p = inttoptr i64 %pi to ptr
  %c = load double, ptr %p, align 8
  %m = fmul double %a, %b
  %r = fmul double %m, %c
  ret double %r
}

define void @grad(ptr %x, ptr %dx, ptr %h, ptr %dh) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %h, ptr %dh)
  ret void
}

define double @tangent(ptr %x, ptr %tx, ptr %h, ptr %th) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %0, ptr %x, ptr %tx, i32 %0, ptr %h, ptr %th)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK-NOT: inttoptr
; CHECK: %qi = add i64 %xi, 8
; CHECK: %[[OFF:[0-9]+]] = sub i64 %qi,
; CHECK: getelementptr i8, ptr %x, i64 %[[OFF]]
; CHECK: %[[SH:[0-9]+]] = getelementptr i8, ptr %x.shadow, i64 %[[OFF]]
; CHECK: load ptr, ptr %h, align 8
; CHECK: %[[HS:.*]] = load ptr, ptr %h.shadow, align 8
; CHECK-NOT: inttoptr
; CHECK: store double %{{.*}}, ptr %[[HS]]
; CHECK: store double %{{.*}}, ptr %x.shadow
; CHECK: store double %{{.*}}, ptr %[[SH]]
; CHECK: ret void

; CHECK-LABEL: define internal { double, double } @fz_fwd_f(
; CHECK-NOT: inttoptr
; CHECK: %[[OFF2:[0-9]+]] = sub i64 %qi,
; CHECK: %[[T:[0-9]+]] = getelementptr i8, ptr %x.d0, i64 %[[OFF2]]
; CHECK: load double, ptr %[[T]]
; CHECK: %[[HT:.*]] = load ptr, ptr %h.d0, align 8
; CHECK: load double, ptr %[[HT]]
; CHECK-NOT: inttoptr
; CHECK: ret { double, double }
