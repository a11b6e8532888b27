; Decision: the block after a guarded loop (`if (n > 0)` around a rotated loop) has two
; predecessors, the guard and the loop; the reverse sweep does not record which one ran:
; it re-evaluates the guard's condition, `n > 0` (the guarded-region case of
; PredRule::Branch). Inside the loop, the header's predecessor comes from the counter
; (pred_from_counter.ll), so nothing about the control flow is taped at all.
; Why it matters: a recorded predecessor would be the only thing on this tape.
;
; double dot(const double *a, const double *b, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += a[i] * b[i];
;   return s;
; }
; void grad(const double *a, double *da, const double *b, double *db, int n) {
;   __enzyme_autodiff((void *)dot, a, da, b, db, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @dot(ptr %a, ptr %b, i32 %n) {
entry:
  %cmp7 = icmp sgt i32 %n, 0
  br i1 %cmp7, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %2, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.08 = phi double [ 0.000000e+00, %for.body.preheader ], [ %2, %for.body ]
  %arrayidx = getelementptr double, ptr %a, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %arrayidx2 = getelementptr double, ptr %b, i64 %indvars.iv
  %1 = load double, ptr %arrayidx2, align 8
  %2 = call double @llvm.fmuladd.f64(double %0, double %1, double %s.08)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %a, ptr %da, ptr %b, ptr %db, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @dot, ptr %a, ptr %da, ptr %b, ptr %db, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_dot(
; CHECK: [[GUARD:%.*]] = icmp sgt i32 %n, 0
; CHECK-NEXT: br i1 [[GUARD]], label %for.body.preheader, label %for.cond.cleanup
; CHECK-NOT: phi i32
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.cond.cleanup:
; CHECK: [[IDX:%.*]] = select i1 [[GUARD]], i32 1, i32 0
; CHECK-NEXT: switch i32 [[IDX]], label %rev.entry [
; CHECK-NEXT: i32 1, label %rev.for.cond.cleanup.from.for.body
; CHECK: {{^}}}
