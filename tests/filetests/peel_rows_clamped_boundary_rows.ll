; Decision: before differentiating (reverse mode, on the clone), an outer counted loop
; (rows 0..5, constant bounds) whose counter is clamped from below, `smax(i, 1) - 1`
; (row i - 1), and from above, `umin(i, 4) + 1` (row i + 1), loses its first row to a
; straight-line copy on its entry edge (`.first` blocks, the inner column loop copied
; with it, the row the constant 0) and its last row to a copy on its exit edge
; (`.peel`, peel.rs's `peel_last`); the loop left runs rows 1..4 (counter from 1, exit at
; 5) where both clamps are identities, replaced by `i - 1` and `i`; no clamp is left in
; the function (the copies' clamps of constants fold). Taken only when a clamped row
; reaches an element address that moves by one or two elements per inner iteration:
; `st2` (rows read with stride 2, the interleaved layout) is peeled the same way since
; bruss16 (streams/mod.rs carries stride-2 streams, one per field).
; Why it matters: in the reverse stencil the clamped rows hide the rows' distance (the
; clamped row is row i on the boundary rows): LLVM's LoopAccessAnalysis gave the
; Brusselator's reverse column loop always-failing run-time checks or kept it scalar,
; and streams/mod.rs could not carry its neighbour updates (bench/README.md "bruss12",
; "bruss13"; peel_rows.rs). Until bruss16 the interleaved layout was not peeled (its
; adds were no stream); peeled, its reverse column loop now vectorizes
; (brusselator-interleaved at -O3 -march=native, bench/README.md "bruss16").
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x) {
;   for (int i = 0; i < 6; i++)
;     for (int j = 0; j < 64; j++)
;       out[64 * i + j] = x[64 * clampi(i - 1, 6) + j] * x[64 * i + j] + x[64 * clampi(i + 1, 6) + j];
; }
; void st2(double *restrict out, const double *restrict x) {
;   for (int i = 0; i < 6; i++)
;     for (int j = 0; j < 64; j++)
;       out[64 * i + j] = x[2 * (64 * clampi(i - 1, 6) + j)] * x[2 * (64 * i + j)] +
;                         x[2 * (64 * clampi(i + 1, 6) + j)];
; }
; void grad(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)st, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
; }
; void grad2(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)st2, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @st(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1) {
  br label %3

3:                                                ; preds = %2, %18
  %4 = phi i64 [ 0, %2 ], [ %19, %18 ]
  %5 = trunc nuw nsw i64 %4 to i32
  %6 = tail call i32 @llvm.smax.i32(i32 %5, i32 1)
  %7 = add nsw i32 %6, -1
  %8 = tail call noundef range(i32 0, 6) i32 @llvm.umin.i32(i32 %7, i32 5)
  %9 = shl nuw nsw i32 %8, 6
  %10 = shl nuw nsw i64 %4, 6
  %11 = tail call i32 @llvm.umin.i32(i32 %5, i32 4)
  %12 = shl nuw nsw i32 %11, 6
  %13 = zext nneg i32 %9 to i64
  %14 = getelementptr inbounds nuw double, ptr %1, i64 %13
  %15 = zext nneg i32 %12 to i64
  %16 = getelementptr inbounds nuw double, ptr %1, i64 %15
  br label %21

17:                                               ; preds = %18
  ret void

18:                                               ; preds = %21
  %19 = add nuw nsw i64 %4, 1
  %20 = icmp eq i64 %19, 6
  br i1 %20, label %17, label %3

21:                                               ; preds = %3, %21
  %22 = phi i64 [ 0, %3 ], [ %33, %21 ]
  %23 = getelementptr inbounds nuw double, ptr %14, i64 %22
  %24 = load double, ptr %23, align 8
  %25 = add nuw nsw i64 %22, %10
  %26 = getelementptr inbounds nuw double, ptr %1, i64 %25
  %27 = load double, ptr %26, align 8
  %28 = getelementptr inbounds nuw double, ptr %16, i64 %22
  %29 = getelementptr inbounds nuw i8, ptr %28, i64 512
  %30 = load double, ptr %29, align 8
  %31 = tail call double @llvm.fmuladd.f64(double %24, double %27, double %30)
  %32 = getelementptr inbounds nuw double, ptr %0, i64 %25
  store double %31, ptr %32, align 8
  %33 = add nuw nsw i64 %22, 1
  %34 = icmp eq i64 %33, 64
  br i1 %34, label %18, label %21
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @st2(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1) {
  br label %3

3:                                                ; preds = %2, %18
  %4 = phi i64 [ 0, %2 ], [ %19, %18 ]
  %5 = trunc nuw nsw i64 %4 to i32
  %6 = tail call i32 @llvm.smax.i32(i32 %5, i32 1)
  %7 = add nsw i32 %6, -1
  %8 = tail call noundef range(i32 0, 6) i32 @llvm.umin.i32(i32 %7, i32 5)
  %9 = shl nuw nsw i32 %8, 7
  %10 = shl nuw nsw i64 %4, 6
  %11 = tail call i32 @llvm.umin.i32(i32 %5, i32 4)
  %12 = shl nuw nsw i32 %11, 7
  %13 = zext nneg i32 %9 to i64
  %14 = getelementptr inbounds nuw double, ptr %1, i64 %13
  %15 = zext nneg i32 %12 to i64
  %16 = getelementptr inbounds nuw double, ptr %1, i64 %15
  br label %21

17:                                               ; preds = %18
  ret void

18:                                               ; preds = %21
  %19 = add nuw nsw i64 %4, 1
  %20 = icmp eq i64 %19, 6
  br i1 %20, label %17, label %3

21:                                               ; preds = %3, %21
  %22 = phi i64 [ 0, %3 ], [ %35, %21 ]
  %23 = shl nuw nsw i64 %22, 1
  %24 = getelementptr inbounds nuw double, ptr %14, i64 %23
  %25 = load double, ptr %24, align 8
  %26 = add nuw nsw i64 %22, %10
  %27 = shl nuw nsw i64 %26, 4
  %28 = getelementptr inbounds nuw i8, ptr %1, i64 %27
  %29 = load double, ptr %28, align 8
  %30 = getelementptr inbounds nuw double, ptr %16, i64 %23
  %31 = getelementptr inbounds nuw i8, ptr %30, i64 1024
  %32 = load double, ptr %31, align 8
  %33 = tail call double @llvm.fmuladd.f64(double %25, double %29, double %32)
  %34 = getelementptr inbounds nuw double, ptr %0, i64 %26
  store double %33, ptr %34, align 8
  %35 = add nuw nsw i64 %22, 1
  %36 = icmp eq i64 %35, 64
  br i1 %36, label %18, label %21
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dupnoneed, align 4
  %6 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

define dso_local void @grad2(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dupnoneed, align 4
  %6 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st2, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3)
  ret void
}

declare i32 @llvm.umin.i32(i32, i32)

declare i32 @llvm.smax.i32(i32, i32)


; CHECK-LABEL: define internal void @fz_grad_st2(
; CHECK-NOT: @llvm.{{smax|umin}}
; CHECK: {{^}}.first:
; CHECK-NOT: @llvm.{{smax|umin}}
; CHECK: phi i64 [ 1, %.first1 ]
; CHECK-NOT: @llvm.{{smax|umin}}
; CHECK: {{^}}.peel:
; CHECK-NOT: @llvm.{{smax|umin}}
; CHECK: ret void
; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK-NOT: @llvm.{{smax|umin}}
; CHECK: {{^}}.first:
; CHECK-NOT: @llvm.{{smax|umin}}
; CHECK: phi i64 [ 1, %.first1 ]
; CHECK-NOT: @llvm.{{smax|umin}}
; CHECK: add nsw i32 %{{[0-9]+}}, -1
; CHECK-NOT: @llvm.{{smax|umin}}
; CHECK: {{^}}.peel:
; CHECK-NOT: @llvm.{{smax|umin}}
; CHECK: icmp eq i64 %{{[0-9]+}}, 5
; CHECK-NOT: @llvm.{{smax|umin}}
; CHECK: ret void
