; Decision: clamped loops are peeled only when the peel is proven and small: a clamp
; `smin(i + 1, n - 1)` by a run-time `n` (the iterations where it is not the identity
; are not known at compile time) and a clamp `umin(i, 33)` that is not the identity on
; the last three of 37 iterations (more than the two the transform peels) leave their
; loops as they are: no `.peel` copy, the clamps stay in the loop and in the reverse
; sweep.
; Why it matters: peeling copies the loop body once per peeled iteration; a bound only
; known at run time would need a run-time guard, and deep clamps grow code for little
; gain (peel.rs; the peeled case: peel_clamped_last_iteration).
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x, int n) {
;   for (int i = 0; i < n; i++) out[i] = x[i] * x[clampi(i + 1, n)];
; }
; void st3(double *restrict out, const double *restrict x) {
;   for (int i = 0; i < 37; i++) out[i] = x[i] * x[clampi(i + 3, 37)];
; }
; void grad(double *out, double *dout, double *x, double *dx, int n) {
;   __enzyme_autodiff((void *)st, enzyme_dup, out, dout, enzyme_dup, x, dx, enzyme_const, n);
;   __enzyme_autodiff((void *)st3, enzyme_dup, out, dout, enzyme_dup, x, dx);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local void @st(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1, i32 noundef %2) {
  %4 = icmp sgt i32 %2, 0
  br i1 %4, label %5, label %8

5:                                                ; preds = %3
  %6 = add nsw i32 %2, -1
  %7 = zext nneg i32 %2 to i64
  br label %9

8:                                                ; preds = %9, %3
  ret void

9:                                                ; preds = %5, %9
  %10 = phi i64 [ 0, %5 ], [ %13, %9 ]
  %11 = getelementptr inbounds nuw double, ptr %1, i64 %10
  %12 = load double, ptr %11, align 8
  %13 = add nuw nsw i64 %10, 1
  %14 = trunc nuw nsw i64 %13 to i32
  %15 = tail call i32 @llvm.smin.i32(i32 range(i32 -2147483647, -2147483648) %14, i32 %6)
  %16 = sext i32 %15 to i64
  %17 = getelementptr inbounds double, ptr %1, i64 %16
  %18 = load double, ptr %17, align 8
  %19 = fmul double %12, %18
  %20 = getelementptr inbounds nuw double, ptr %0, i64 %10
  store double %19, ptr %20, align 8
  %21 = icmp eq i64 %13, %7
  br i1 %21, label %8, label %9
}

define dso_local void @st3(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1) {
  br label %4

3:                                                ; preds = %4
  ret void

4:                                                ; preds = %2, %4
  %5 = phi i64 [ 0, %2 ], [ %16, %4 ]
  %6 = getelementptr inbounds nuw double, ptr %1, i64 %5
  %7 = load double, ptr %6, align 8
  %8 = trunc nuw nsw i64 %5 to i32
  %9 = tail call i32 @llvm.umin.i32(i32 %8, i32 33)
  %10 = zext nneg i32 %9 to i64
  %11 = getelementptr inbounds nuw double, ptr %1, i64 %10
  %12 = getelementptr inbounds nuw i8, ptr %11, i64 24
  %13 = load double, ptr %12, align 8
  %14 = fmul double %7, %13
  %15 = getelementptr inbounds nuw double, ptr %0, i64 %5
  store double %14, ptr %15, align 8
  %16 = add nuw nsw i64 %5, 1
  %17 = icmp eq i64 %16, 37
  br i1 %17, label %3, label %4
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4) local_unnamed_addr {
  %6 = load i32, ptr @enzyme_dup, align 4
  %7 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3, i32 noundef %7, i32 noundef %4)
  %8 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st3, i32 noundef %8, ptr noundef %0, ptr noundef %1, i32 noundef %8, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i32 @llvm.smin.i32(i32, i32)

declare i32 @llvm.umin.i32(i32, i32)


; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK-NOT: .peel
; CHECK: @llvm.smin.i32(
; CHECK-NOT: .peel
; CHECK: {{^}}rev.
; CHECK-NOT: .peel
; CHECK: @llvm.smin.i32(
; CHECK-NOT: .peel
; CHECK-LABEL: define internal void @fz_grad_st3(
; CHECK-NOT: .peel
; CHECK: @llvm.umin.i32(i32 %{{[0-9]+}}, i32 33)
; CHECK-NOT: .peel
; CHECK: {{^}}rev.
; CHECK-NOT: .peel
; CHECK: @llvm.umin.i32(i32 %{{[0-9]+}}, i32 33)
; CHECK-NOT: .peel
; CHECK: {{^}}}
