; Decision: without -ffast-math, an order-preserving stream (stream_exact_values) is
; carried next to another add into the same shadow at a constant offset far from the
; window: in `st` (i = 1..36, reverse i = 35..1 after peel.rs's last iteration) the cells
; dx[i - 1], dx[i], dx[i + 1] are the stream and dx[i + 40] stays a plain
; read-modify-write add in the loop (load, fadd, store at byte offset 320 from the
; anchor). Proven: the window's cells over the whole loop are anchor + [-1 - 34, 1] and
; the far add's anchor + [40 - 34, 40], disjoint (40 > 1 + 35 - 1). In `near` the
; offset is 20, inside that range: the far add may touch a cell held in a register, so
; the exact stream is refused (no fz.cell), as before this change for any other add.
; Why it matters: once the Brusselator's rows are unclamped (peel_rows.rs), its rows
; i - 1, i + 1 are adds of the same shadow at -32 and +32 cells from the anchor:
; grouped into one stream, its window spanned 65 cells (104k -> 386k instructions with
; users' flags), and the exact form refused it as not contiguous; split, the contiguous
; run is carried and the rows stay plain adds (streams/far.rs, bench/README.md "bruss13").
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x) {
;   for (int i = 1; i < 37; i++)
;     out[i] = x[i - 1] + x[clampi(i + 1, 37)] - 2.0 * x[i] * x[i] + 0.5 * x[i + 40];
; }
; void near(double *restrict out, const double *restrict x) {
;   for (int i = 1; i < 37; i++)
;     out[i] = x[i - 1] + x[clampi(i + 1, 37)] - 2.0 * x[i] * x[i] + 0.5 * x[i + 20];
; }
; void grad(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)st, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
; }
; void grad2(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)near, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
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
  br label %4

3:                                                ; preds = %4
  ret void

4:                                                ; preds = %2, %4
  %5 = phi i64 [ 1, %2 ], [ %9, %4 ]
  %6 = getelementptr double, ptr %1, i64 %5
  %7 = getelementptr i8, ptr %6, i64 -8
  %8 = load double, ptr %7, align 8
  %9 = add nuw nsw i64 %5, 1
  %10 = trunc nuw nsw i64 %9 to i32
  %11 = tail call noundef range(i32 0, 37) i32 @llvm.umin.i32(i32 %10, i32 36)
  %12 = zext nneg i32 %11 to i64
  %13 = getelementptr inbounds nuw double, ptr %1, i64 %12
  %14 = load double, ptr %13, align 8
  %15 = fadd double %8, %14
  %16 = load double, ptr %6, align 8
  %17 = fmul double %16, -2.000000e+00
  %18 = tail call double @llvm.fmuladd.f64(double %17, double %16, double %15)
  %19 = getelementptr inbounds nuw i8, ptr %6, i64 320
  %20 = load double, ptr %19, align 8
  %21 = tail call double @llvm.fmuladd.f64(double %20, double 5.000000e-01, double %18)
  %22 = getelementptr inbounds nuw double, ptr %0, i64 %5
  store double %21, ptr %22, align 8
  %23 = icmp eq i64 %9, 37
  br i1 %23, label %3, label %4
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @near(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1) {
  br label %4

3:                                                ; preds = %4
  ret void

4:                                                ; preds = %2, %4
  %5 = phi i64 [ 1, %2 ], [ %9, %4 ]
  %6 = getelementptr double, ptr %1, i64 %5
  %7 = getelementptr i8, ptr %6, i64 -8
  %8 = load double, ptr %7, align 8
  %9 = add nuw nsw i64 %5, 1
  %10 = trunc nuw nsw i64 %9 to i32
  %11 = tail call noundef range(i32 0, 37) i32 @llvm.umin.i32(i32 %10, i32 36)
  %12 = zext nneg i32 %11 to i64
  %13 = getelementptr inbounds nuw double, ptr %1, i64 %12
  %14 = load double, ptr %13, align 8
  %15 = fadd double %8, %14
  %16 = load double, ptr %6, align 8
  %17 = fmul double %16, -2.000000e+00
  %18 = tail call double @llvm.fmuladd.f64(double %17, double %16, double %15)
  %19 = getelementptr inbounds nuw i8, ptr %6, i64 160
  %20 = load double, ptr %19, align 8
  %21 = tail call double @llvm.fmuladd.f64(double %20, double 5.000000e-01, double %18)
  %22 = getelementptr inbounds nuw double, ptr %0, i64 %5
  store double %21, ptr %22, align 8
  %23 = icmp eq i64 %9, 37
  br i1 %23, label %3, label %4
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
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @near, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3)
  ret void
}

declare i32 @llvm.umin.i32(i32, i32)


; CHECK-LABEL: define internal void @fz_grad_near(
; CHECK-NOT: fz.cell
; CHECK: ret void
; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK: {{^}}.peel:
; CHECK: %fz.cell.first = load double
; CHECK: {{^}}fz.stream.flush:
; CHECK: {{^}}rev.{{[0-9]+}}:
; CHECK: %fz.cell = phi double
; CHECK: %[[FAR:[0-9]+]] = getelementptr i8, ptr %{{[0-9]+}}, i64 320
; CHECK-NEXT: %[[OLD:sh[0-9]+]] = load double, ptr %[[FAR]], align 8
; CHECK-NEXT: %[[SUM:[0-9]+]] = fadd nsz contract double %[[OLD]], %{{[0-9]+}}
; CHECK-NEXT: store double %[[SUM]], ptr %[[FAR]], align 8
; CHECK: fadd nsz contract double %fz.cell,
; CHECK: br i1 %{{[0-9]+}}, label %rev.{{[0-9]+}}, label %fz.stream.flush
