; Decision: a product of two integers affine in a loop counter (a quadratic index) is
; stepped back by differences in the reverse sweep (reverse/quadratic.rs): two slots
; hold P (the product) and D (P minus P one iteration earlier), set from the counter's
; exit value where the reverse enters the loop, and stepped where the counter steps:
; P -= D, D -= 2 k1 k2 s^2 (here k1 = 1, k2 = -1, s = 1: D -= -2). The reverse row
; loop reads the product from its slot; `sdiv exact` (is_exact_halving) still applies.
; Not taken: a product with one factor invariant (`c * k`, affine: f_lin) and a product
; that feeds no address (f_noaddr).
; Why it matters: GMM's packed-triangle index `c (2d - c - 1) / 2 + r - c - 1`
; (gmm-fused) recomputed its product per entry in the reverse triangle; gmm18:
; 59.44M -> 57.63M gradient instructions at -O3 -march=x86-64-v3 (quick input).
;
; double f_tri(const double *l, const double *x, int d) {
;   double s = 0;
;   for (int r = 0; r < d; r++) {
;     double z = x[r];
;     for (int c = 0; c < r; c++) z += l[c * (2 * d - c - 1) / 2 + r - c - 1] * x[c];
;     s += z * z;
;   }
;   return s;
; }
; double f_lin(...): s += w[c * k] * x[c];   double f_noaddr(...): s += x[c] * (double)(c * (k - c));
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops
; -fno-discard-value-names, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal void @fz_grad_f_tri(
; CHECK: [[P:%.*]] = alloca i32
; CHECK-NEXT: [[D:%.*]] = alloca i32
; CHECK-LABEL: {{^}}rev.for.body4:
; CHECK-NOT: = mul
; CHECK: [[V:%.*]] = load i32, ptr [[P]]
; CHECK-NEXT: sdiv exact i32 [[V]], 2
; CHECK-NOT: = mul
; CHECK: [[PC:%.*]] = load i32, ptr [[P]]
; CHECK-NEXT: [[DC:%.*]] = load i32, ptr [[D]]
; CHECK-NEXT: [[PN:%.*]] = sub i32 [[PC]], [[DC]]
; CHECK-NEXT: store i32 [[PN]], ptr [[P]]
; CHECK-NEXT: [[DN:%.*]] = sub i32 [[DC]], -2
; CHECK-NEXT: store i32 [[DN]], ptr [[D]]
; CHECK-LABEL: {{^}}rev.for.cond.cleanup3.from.for.body4:
; CHECK-NEXT: store i32 {{%.*}}, ptr [[P]]
; CHECK-NEXT: store i32 {{%.*}}, ptr [[D]]
; CHECK-LABEL: define internal void @fz_grad_f_lin(
; CHECK-NOT: quad
; CHECK-LABEL: define internal void @fz_grad_f_noaddr(
; CHECK-NOT: quad
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define dso_local double @f_tri(ptr noundef readonly captures(none) %l, ptr noundef readonly captures(none) %x, i32 noundef %d) {
entry:
  %cmp35 = icmp sgt i32 %d, 0
  br i1 %cmp35, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %mul = shl nuw nsw i32 %d, 1
  %wide.trip.count45 = zext nneg i32 %d to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.cond.cleanup3, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %2, %for.cond.cleanup3 ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %for.cond.cleanup3
  %indvars.iv42 = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next43, %for.cond.cleanup3 ]
  %s.036 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %2, %for.cond.cleanup3 ]
  %arrayidx = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv42
  %0 = load double, ptr %arrayidx, align 8
  %cmp232.not = icmp eq i64 %indvars.iv42, 0
  br i1 %cmp232.not, label %for.cond.cleanup3, label %for.body4.preheader

for.body4.preheader:                              ; preds = %for.body
  %1 = trunc nuw nsw i64 %indvars.iv42 to i32
  br label %for.body4

for.cond.cleanup3:                                ; preds = %for.body4, %for.body
  %z.0.lcssa = phi double [ %0, %for.body ], [ %9, %for.body4 ]
  %2 = tail call double @llvm.fmuladd.f64(double %z.0.lcssa, double %z.0.lcssa, double %s.036)
  %indvars.iv.next43 = add nuw nsw i64 %indvars.iv42, 1
  %exitcond46.not = icmp eq i64 %indvars.iv.next43, %wide.trip.count45
  br i1 %exitcond46.not, label %for.cond.cleanup, label %for.body

for.body4:                                        ; preds = %for.body4.preheader, %for.body4
  %indvars.iv = phi i64 [ 0, %for.body4.preheader ], [ %indvars.iv.next, %for.body4 ]
  %z.033 = phi double [ %0, %for.body4.preheader ], [ %9, %for.body4 ]
  %3 = trunc nuw nsw i64 %indvars.iv to i32
  %4 = xor i32 %3, -1
  %sub5 = add nsw i32 %mul, %4
  %5 = trunc i64 %indvars.iv to i32
  %6 = mul i32 %sub5, %5
  %div = sdiv i32 %6, 2
  %add = add nsw i32 %1, %4
  %sub8 = add i32 %add, %div
  %idxprom9 = sext i32 %sub8 to i64
  %arrayidx10 = getelementptr inbounds double, ptr %l, i64 %idxprom9
  %7 = load double, ptr %arrayidx10, align 8
  %arrayidx12 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %8 = load double, ptr %arrayidx12, align 8
  %9 = tail call double @llvm.fmuladd.f64(double %7, double %8, double %z.033)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %indvars.iv42
  br i1 %exitcond.not, label %for.cond.cleanup3, label %for.body4
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local double @f_lin(ptr noundef readonly captures(none) %w, ptr noundef readonly captures(none) %x, i32 noundef %n, i32 noundef %k) {
entry:
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %0 = sext i32 %k to i64
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %4, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.09 = phi double [ 0.000000e+00, %for.body.preheader ], [ %4, %for.body ]
  %1 = mul nsw i64 %indvars.iv, %0
  %arrayidx = getelementptr inbounds double, ptr %w, i64 %1
  %2 = load double, ptr %arrayidx, align 8
  %arrayidx2 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %3 = load double, ptr %arrayidx2, align 8
  %4 = tail call double @llvm.fmuladd.f64(double %2, double %3, double %s.09)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define dso_local double @f_noaddr(ptr noundef readonly captures(none) %x, i32 noundef %n, i32 noundef %k) {
entry:
  %cmp7 = icmp sgt i32 %n, 0
  br i1 %cmp7, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %1, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.08 = phi double [ 0.000000e+00, %for.body.preheader ], [ %1, %for.body ]
  %indvars11 = trunc i64 %indvars.iv to i32
  %arrayidx = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %sub = sub nsw i32 %k, %indvars11
  %mul = mul nsw i32 %sub, %indvars11
  %conv = sitofp i32 %mul to double
  %1 = tail call double @llvm.fmuladd.f64(double %0, double %conv, double %s.08)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define dso_local void @grad(ptr noundef %l, ptr noundef %dl, ptr noundef %x, ptr noundef %dx, i32 noundef %d, i32 noundef %k) local_unnamed_addr {
entry:
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f_tri, ptr noundef %l, ptr noundef %dl, ptr noundef %x, ptr noundef %dx, i32 noundef %d)
  %call1 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f_lin, ptr noundef %l, ptr noundef %dl, ptr noundef %x, ptr noundef %dx, i32 noundef %d, i32 noundef %k)
  %call2 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f_noaddr, ptr noundef %x, ptr noundef %dx, i32 noundef %d, i32 noundef %k)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

