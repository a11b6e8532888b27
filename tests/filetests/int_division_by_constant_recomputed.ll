; Decision: an integer division or remainder by a constant that cannot trap or overflow
; (`sdiv`/`srem` by anything but 0 and -1, `udiv`/`urem` by anything but 0) is
; recomputed in the reverse sweep from its operands like an add or a multiply
; (`is_division_by_constant`, reverse/values.rs): `by_const` indexes `a` with
; `(i * k) / 3` and `(i * k) % 7` and pushes nothing. A division by a variable
; (`by_var`) and a signed division by -1 (`by_minus_one`, hand-written: INT_MIN / -1
; overflows) keep their tape entry.
; Why it matters: index arithmetic like GMM's packed-triangle offset `c * (2d - c - 1) / 2`
; put one i32 per triangle entry on the tape (4.5 MB per GMM gradient in the fused
; formulation); the backend lowers a division by a constant to a shift or a
; multiply-high, a few instructions.
;
; double by_const(const double *a, int n, int k) {
;   double s = 0;
;   for (int i = 0; i < n; i++) {
;     double v = a[(i * k) / 3] * a[(i * k) % 7];
;     s += v * v;
;   }
;   return s;
; }
; double by_var(const double *a, int n, int k, int m) {
;   double s = 0;
;   for (int i = 0; i < n; i++) {
;     double v = a[(i * k) / m];
;     s += v * v;
;   }
;   return s;
; }
; (by_minus_one: by_var with `sdiv i32 %mul, -1` and no m, written by hand)
; void grad(const double *a, double *da, int n, int k, int m) {
;   __enzyme_autodiff((void *)by_const, a, da, n, k);
;   __enzyme_autodiff((void *)by_var, a, da, n, k, m);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define dso_local double @by_const(ptr noundef readonly captures(none) %a, i32 noundef %n, i32 noundef %k) {
entry:
  %cmp13 = icmp sgt i32 %n, 0
  br i1 %cmp13, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %2, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %entry, %for.body
  %s.015 = phi double [ %2, %for.body ], [ 0.000000e+00, %entry ]
  %i.014 = phi i32 [ %inc, %for.body ], [ 0, %entry ]
  %mul = mul nsw i32 %i.014, %k
  %div = sdiv i32 %mul, 3
  %idxprom = sext i32 %div to i64
  %arrayidx = getelementptr inbounds double, ptr %a, i64 %idxprom
  %0 = load double, ptr %arrayidx, align 8
  %rem = srem i32 %mul, 7
  %idxprom2 = sext i32 %rem to i64
  %arrayidx3 = getelementptr inbounds double, ptr %a, i64 %idxprom2
  %1 = load double, ptr %arrayidx3, align 8
  %mul4 = fmul double %0, %1
  %2 = tail call double @llvm.fmuladd.f64(double %mul4, double %mul4, double %s.015)
  %inc = add nuw nsw i32 %i.014, 1
  %exitcond.not = icmp eq i32 %inc, %n
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local double @by_var(ptr noundef readonly captures(none) %a, i32 noundef %n, i32 noundef %k, i32 noundef %m) {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %1, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %entry, %for.body
  %s.08 = phi double [ %1, %for.body ], [ 0.000000e+00, %entry ]
  %i.07 = phi i32 [ %inc, %for.body ], [ 0, %entry ]
  %mul = mul nsw i32 %i.07, %k
  %div = sdiv i32 %mul, %m
  %idxprom = sext i32 %div to i64
  %arrayidx = getelementptr inbounds double, ptr %a, i64 %idxprom
  %0 = load double, ptr %arrayidx, align 8
  %1 = tail call double @llvm.fmuladd.f64(double %0, double %0, double %s.08)
  %inc = add nuw nsw i32 %i.07, 1
  %exitcond.not = icmp eq i32 %inc, %n
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define dso_local double @by_minus_one(ptr noundef readonly captures(none) %a, i32 noundef %n, i32 noundef %k) {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %1, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %entry, %for.body
  %s.08 = phi double [ %1, %for.body ], [ 0.000000e+00, %entry ]
  %i.07 = phi i32 [ %inc, %for.body ], [ 0, %entry ]
  %mul = mul nsw i32 %i.07, %k
  %div = sdiv i32 %mul, -1
  %idxprom = sext i32 %div to i64
  %arrayidx = getelementptr inbounds double, ptr %a, i64 %idxprom
  %0 = load double, ptr %arrayidx, align 8
  %1 = tail call double @llvm.fmuladd.f64(double %0, double %0, double %s.08)
  %inc = add nuw nsw i32 %i.07, 1
  %exitcond.not = icmp eq i32 %inc, %n
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define dso_local void @grad(ptr noundef %a, ptr noundef %da, i32 noundef %n, i32 noundef %k, i32 noundef %m) {
entry:
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @by_const, ptr noundef %a, ptr noundef %da, i32 noundef %n, i32 noundef %k)
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @by_var, ptr noundef %a, ptr noundef %da, i32 noundef %n, i32 noundef %k, i32 noundef %m)
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @by_minus_one, ptr noundef %a, ptr noundef %da, i32 noundef %n, i32 noundef %k)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...)


; CHECK-LABEL: define internal void @fz_grad_by_const(
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[M:%.*]] = mul nsw i32 {{%.*}}, %k
; CHECK-NEXT: [[Q:%.*]] = sdiv i32 [[M]], 3
; CHECK: [[R:%.*]] = srem i32 [[M]], 7
; CHECK: getelementptr inbounds double, ptr %a.shadow
; CHECK-LABEL: define internal void @fz_grad_by_var(
; CHECK: @__fz_push
; CHECK-NEXT: store i32 %div
; CHECK-LABEL: define internal void @fz_grad_by_minus_one(
; CHECK: @__fz_push
; CHECK-NEXT: store i32 %div
