; Decision: a value computed in a loop and read after it (the sum `s`, squared after the
; loop) is kept once, in a tape slot written at the end of the block after the loop
; (`exit_context` in reverse/values.rs), not pushed on every iteration. The loop itself
; still needs nothing per iteration (`x[i]` is re-read, `i` is a counter).
; Why it matters: keeping the sum per iteration would cost a push per iteration for a
; value the reverse sweep reads once.
;
; double sumsq_squared(const double *x, int n) {
;   double s = 0;
;   int i = 0;
;   do { s += x[i] * x[i]; i++; } while (i < n);
;   return s * s;
; }
; void grad(const double *x, double *dx, int n) {
;   __enzyme_autodiff((void *)sumsq_squared, x, dx, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @sumsq_squared(ptr %x, i32 %n) {
entry:
  %smax = call i32 @llvm.smax.i32(i32 %n, i32 1)
  %wide.trip.count = zext i32 %smax to i64
  br label %do.body

do.body:                                          ; preds = %do.body, %entry
  %indvars.iv = phi i64 [ %indvars.iv.next, %do.body ], [ 0, %entry ]
  %s.0 = phi double [ %1, %do.body ], [ 0.000000e+00, %entry ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %1 = call double @llvm.fmuladd.f64(double %0, double %0, double %s.0)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %do.end, label %do.body

do.end:                                           ; preds = %do.body
  %mul = fmul double %1, %1
  ret double %mul
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @sumsq_squared, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

declare i32 @llvm.smax.i32(i32, i32)

; CHECK-LABEL: define internal void @fz_grad_sumsq_squared(
; CHECK: [[TAPE:%.*]] = alloca i8, i64 {{[0-9]+}}, align 16
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}do.body:
; CHECK: [[S:%.*]] = call double @llvm.fmuladd.f64(
; CHECK-LABEL: {{^}}do.end:
; CHECK: store double [[S]], ptr [[TAPE]]
; CHECK-LABEL: {{^}}rev.do.end:
; CHECK: [[KEPT:%.*]] = load double, ptr [[TAPE]]
; CHECK-NEXT: fmul {{(contract )?}}double {{%.*}}, [[KEPT]]
; CHECK-NOT: @__fz_push
; CHECK: {{^}}}
