; Decision: higher-order derivatives are built innermost first: `__enzyme_autodiff`
; inside `grad` is replaced first, then forward mode differentiates `grad`, whose
; derivative calls `fz_fwd_fz_grad_f`, the forward derivative of the generated reverse
; code, tape runtime included. Generated code that is differentiated again calls the
; runtime's plain variants (`__fz_stack_free_plain`, `__fz_grow_plain`), never the
; per-thread pool or arena, which have no derivative. (The loop is counted, so its
; record stack grows once, in `__fz_reserve`, and is pushed by `__fz_push_reserved`,
; which, a single block, is inlined into the clone before it is differentiated.)
; Why it matters: the shadow of a pool would be a second pool out of step with the
; primal one; plain malloc/realloc/free differentiate like any other allocation.
;
; double f(const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += exp(x[i]) * x[i];
;   return s;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)f, x, dx, n); }
; void hvp(const double *x, const double *v, double *dx, double *ddx, int n) {
;   __enzyme_fwddiff((void *)grad, x, v, dx, ddx, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(ptr %x, i32 %n) {
entry:
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %1, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.09 = phi double [ 0.000000e+00, %for.body.preheader ], [ %1, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %call = call double @exp(double %0)
  %1 = call double @llvm.fmuladd.f64(double %call, double %0, double %s.09)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @exp(double)

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

define void @hvp(ptr %x, ptr %v, ptr %dx, ptr %ddx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_fwddiff(ptr @grad, ptr %x, ptr %v, ptr %dx, ptr %ddx, i32 %n)
  ret void
}

declare double @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define void @grad(
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @fz_grad_f(ptr %x, ptr %dx, i32 %n, double 1.000000e+00)
; CHECK-LABEL: define void @hvp(
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @fz_fwd_grad(ptr %x, ptr %v, ptr %dx, ptr %ddx, i32 %n)
; CHECK-LABEL: define internal void @fz_fwd_grad(
; CHECK: call void @fz_fwd_fz_grad_f(
; CHECK-LABEL: define internal void @fz_fwd_fz_grad_f(
; CHECK-NOT: @fz_fwd___fz_stack_free(
; CHECK: call void @fz_fwd___fz_stack_free_plain(
; CHECK-NOT: @fz_fwd___fz_pool
; CHECK-LABEL: define internal void @fz_fwd___fz_reserve(
; CHECK: call { { ptr, i64 }, { ptr, i64 } } @fz_fwd___fz_grow_plain(
; `__fz_push_reserved` (one block) is inlined into the clone: no derivative of its own.
; CHECK-NOT: define {{.*}}@fz_fwd___fz_push_reserved(
; CHECK-NOT: define {{.*}}@fz_fwd___fz_pool
; CHECK-NOT: define {{.*}}@fz_fwd___fz_grow(
; CHECK-NOT: define {{.*}}@fz_fwd___fz_tape_alloc(
