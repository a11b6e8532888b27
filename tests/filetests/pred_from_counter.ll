; Decision: the predecessor of a loop header is not recorded when the loop has a `+1`
; induction variable with a start value known before the loop (PredRule::Counter in
; reverse/forward.rs). The reverse sweep leaving the header asks `i == lo`: true only on
; the first iteration, so it goes back to the entry, otherwise around the loop again.
; Why it matters: recording the predecessor would push an `i32` per iteration onto a
; stack (and make this loop, which needs nothing else, allocate one).
;
; double range_sum(const double *x, long lo, long hi) {
;   double s = 0;
;   for (long i = lo; i < hi; i++) s += x[i] * x[i];
;   return s;
; }
; void grad(const double *x, double *dx, long lo, long hi) {
;   __enzyme_autodiff((void *)range_sum, x, dx, lo, hi);
; }
; // No predecessor index is built (a `phi i32`) or stored anywhere.
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @range_sum(ptr %x, i64 %lo, i64 %hi) {
entry:
  %cmp7 = icmp slt i64 %lo, %hi
  br i1 %cmp7, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %1, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %entry, %for.body
  %i.09 = phi i64 [ %inc, %for.body ], [ %lo, %entry ]
  %s.08 = phi double [ %1, %for.body ], [ 0.000000e+00, %entry ]
  %arrayidx = getelementptr double, ptr %x, i64 %i.09
  %0 = load double, ptr %arrayidx, align 8
  %1 = call double @llvm.fmuladd.f64(double %0, double %0, double %s.08)
  %inc = add i64 %i.09, 1
  %exitcond.not = icmp eq i64 %inc, %hi
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, i64 %lo, i64 %hi) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @range_sum, ptr %x, ptr %dx, i64 %lo, i64 %hi)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_range_sum(
; CHECK-NOT: phi i32
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[I:%.*]] = load i64, ptr [[CTR:%.*]], align 8
; CHECK: [[FIRST:%.*]] = icmp eq i64 [[I]], %lo
; CHECK-NEXT: [[IDX:%.*]] = select i1 [[FIRST]], i32 [[ENTRY:[01]]], i32 [[LATCH:[01]]]
; CHECK: switch i32 [[IDX]], label
; CHECK-NOT: phi i32
; CHECK: {{^}}}
