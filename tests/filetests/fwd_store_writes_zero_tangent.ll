; Decision: in forward mode, every store into memory with a shadow also stores the
; stored value's tangent into the shadow, and an inactive value (the constant 1.0)
; stores a zero tangent; loads read the shadow next to the primal. So shadow memory
; always holds the tangent of what the primal memory holds.
; Why it matters: skipping the zero store would leave a stale tangent in `dy` (from
; the caller, or from an earlier store to the same element).
;
; void store2(const double *x, double *y, int n) {
;   for (int i = 0; i < n; i++) {
;     y[2 * i] = x[i] * x[i];
;     y[2 * i + 1] = 1.0;
;   }
; }
; void dstore(const double *x, double *dx, double *y, double *dy, int n) {
;   __enzyme_fwddiff((void *)store2, x, dx, y, dy, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @store2(ptr %x, ptr %y, i32 %n) {
entry:
  %cmp16 = icmp sgt i32 %n, 0
  br i1 %cmp16, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  ret void

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %mul = fmul double %0, %0
  %arrayidx5.idx = shl i64 %indvars.iv, 4
  %arrayidx5 = getelementptr i8, ptr %y, i64 %arrayidx5.idx
  store double %mul, ptr %arrayidx5, align 8
  %arrayidx8 = getelementptr i8, ptr %arrayidx5, i64 8
  store double 1.000000e+00, ptr %arrayidx8, align 8
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define void @dstore(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_fwddiff(ptr @store2, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n)
  ret void
}

declare double @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_fwd_store2(ptr %x, ptr %x.d0, ptr %y, ptr %y.d0, i32 %n)
; CHECK: [[XP:%.*]] = getelementptr double, ptr %x, i64 [[I:%.*]]
; CHECK-NEXT: [[DXP:%.*]] = getelementptr double, ptr %x.d0, i64 [[I]]
; CHECK-NEXT: load double, ptr [[XP]]
; CHECK-NEXT: load double, ptr [[DXP]]
; CHECK: store double [[SQ:%.*]], ptr [[YP:%.*]], align 8
; CHECK-NEXT: store double [[DSQ:%.*]], ptr [[DYP:%.*]], align 8
; CHECK: [[YP1:%.*]] = getelementptr i8, ptr [[YP]], i64 8
; CHECK-NEXT: [[DYP1:%.*]] = getelementptr i8, ptr [[DYP]], i64 8
; CHECK-NEXT: store double 1.000000e+00, ptr [[YP1]]
; CHECK-NEXT: store double 0.000000e+00, ptr [[DYP1]]
; CHECK-NOT: @__fz_
; CHECK: {{^}}}
