; Decision: an exact (value) stream is carried only when every other stream of its
; shadow object is proven never to touch its cells (`streams::far::exact_apart`): the
; streams' cells are compared in bytes from the object, the bases' offsets read through
; constant GEPs, over the counter's constant range. `apart` (u = x, v = x + 64: the
; windows 64 cells apart, the loop 60 cells long) carries both fields' streams
; (`fz.cell` phis); `near` (v = x + 2: both windows hold the same cells) carries none.
; Why it matters: two value streams holding one cell in registers each store their own
; value of it, and one field's contributions are lost: before bruss15 `near` got both
; streams and a silently wrong gradient (tests/c/705's `two_near` at O1: 37 wrong
; coordinates); the Brusselator whose u and v blocks are one array
; (`brusselator-periodic-br`) needs the `apart` case to carry its streams at all.
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void near(double *restrict out, const double *restrict x) {
;   const double *u = x, *v = x + 2;
;   for (int i = 1; i < 62; i++) {
;     int ip = clampi(i + 1, 62);
;     out[i] = u[i - 1] * u[i] + u[ip] * u[i - 1];
;     out[64 + i] = v[i - 1] + v[ip] * v[i];
;   }
; }
; void apart(...): the same with v = x + 64
; void grad(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)near, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
; }
; (grad2: the same for apart; clang-22 -O1, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @near(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1) {
  %3 = getelementptr inbounds nuw i8, ptr %1, i64 16
  br label %5

4:                                                ; preds = %5
  ret void

5:                                                ; preds = %2, %5
  %6 = phi i64 [ 1, %2 ], [ %7, %5 ]
  %7 = add nuw nsw i64 %6, 1
  %8 = trunc nuw nsw i64 %7 to i32
  %9 = tail call range(i32 0, 62) i32 @llvm.smin.i32(i32 %8, i32 61)
  %10 = add nsw i64 %6, -1
  %11 = getelementptr inbounds double, ptr %1, i64 %10
  %12 = load double, ptr %11, align 8
  %13 = getelementptr inbounds nuw double, ptr %1, i64 %6
  %14 = load double, ptr %13, align 8
  %15 = zext nneg i32 %9 to i64
  %16 = getelementptr inbounds nuw double, ptr %1, i64 %15
  %17 = load double, ptr %16, align 8
  %18 = fmul double %12, %17
  %19 = tail call double @llvm.fmuladd.f64(double %12, double %14, double %18)
  %20 = getelementptr inbounds nuw double, ptr %0, i64 %6
  store double %19, ptr %20, align 8
  %21 = getelementptr inbounds double, ptr %3, i64 %10
  %22 = load double, ptr %21, align 8
  %23 = getelementptr inbounds nuw double, ptr %3, i64 %15
  %24 = load double, ptr %23, align 8
  %25 = getelementptr inbounds nuw double, ptr %3, i64 %6
  %26 = load double, ptr %25, align 8
  %27 = tail call double @llvm.fmuladd.f64(double %24, double %26, double %22)
  %28 = getelementptr inbounds nuw i8, ptr %20, i64 512
  store double %27, ptr %28, align 8
  %29 = icmp eq i64 %7, 62
  br i1 %29, label %4, label %5
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @apart(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1) {
  %3 = getelementptr inbounds nuw i8, ptr %1, i64 512
  br label %5

4:                                                ; preds = %5
  ret void

5:                                                ; preds = %2, %5
  %6 = phi i64 [ 1, %2 ], [ %7, %5 ]
  %7 = add nuw nsw i64 %6, 1
  %8 = trunc nuw nsw i64 %7 to i32
  %9 = tail call range(i32 0, 62) i32 @llvm.smin.i32(i32 %8, i32 61)
  %10 = add nsw i64 %6, -1
  %11 = getelementptr inbounds double, ptr %1, i64 %10
  %12 = load double, ptr %11, align 8
  %13 = getelementptr inbounds nuw double, ptr %1, i64 %6
  %14 = load double, ptr %13, align 8
  %15 = zext nneg i32 %9 to i64
  %16 = getelementptr inbounds nuw double, ptr %1, i64 %15
  %17 = load double, ptr %16, align 8
  %18 = fmul double %12, %17
  %19 = tail call double @llvm.fmuladd.f64(double %12, double %14, double %18)
  %20 = getelementptr inbounds nuw double, ptr %0, i64 %6
  store double %19, ptr %20, align 8
  %21 = getelementptr inbounds double, ptr %3, i64 %10
  %22 = load double, ptr %21, align 8
  %23 = getelementptr inbounds nuw double, ptr %3, i64 %15
  %24 = load double, ptr %23, align 8
  %25 = getelementptr inbounds nuw double, ptr %3, i64 %6
  %26 = load double, ptr %25, align 8
  %27 = tail call double @llvm.fmuladd.f64(double %24, double %26, double %22)
  %28 = getelementptr inbounds nuw i8, ptr %20, i64 512
  store double %27, ptr %28, align 8
  %29 = icmp eq i64 %7, 62
  br i1 %29, label %4, label %5
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dupnoneed, align 4
  %6 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @near, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

define dso_local void @grad2(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dupnoneed, align 4
  %6 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @apart, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3)
  ret void
}

declare i32 @llvm.smin.i32(i32, i32)


; CHECK-LABEL: define internal void @fz_grad_apart(
; CHECK: {{^}}rev.{{[0-9]+}}:
; CHECK-NEXT: phi i64
; CHECK-NEXT: %fz.cell = phi double
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double
; CHECK: br i1 %{{[0-9]+}}, label %rev.{{[0-9]+}}, label %fz.stream.flush
; CHECK-LABEL: define internal void @fz_grad_near(
; CHECK-NOT: fz.cell
; CHECK: ret void
