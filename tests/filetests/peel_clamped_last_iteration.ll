; Decision: before differentiating (reverse mode, on the clone), an innermost counted
; loop with a constant trip count whose neighbour index is clamped, `umin(i + 1, 36)`,
; loses its last iteration to a straight-line copy on the exit edge (`.peel` blocks,
; counter the constant 36); the loop now exits at 36 instead of 37, its clamp is the
; identity and is replaced by `i + 1`, and the centre address `x[i]` becomes `gep
; (x[i + 1]), -1` (both indices read as exact affine forms: `zext nneg`, `trunc nuw
; nsw`, `add nuw nsw`). The shadow addresses follow: `gep (dx[i + 1]), -1` (seen after
; the SSA cleanup streams/mod.rs runs on gradients of peeled functions; no stream here, the
; adds have no `reassoc`). The left neighbour `smax(i, 1) - 1` clamps the first
; iteration, which is not peeled.
; Why it matters: in the reverse loop of the Brusselator (issue 14) the clamp made the
; neighbour's shadow index non-affine; peeled, the gradient executes 130.8k -> 120.7k
; instructions with users' flags (peel.rs, affine_index.rs).
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x) {
;   for (int i = 0; i < 37; i++)
;     out[i] = x[clampi(i - 1, 37)] + x[clampi(i + 1, 37)] - 2.0 * x[i] * x[i];
; }
; void grad(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)st, enzyme_dup, out, dout, enzyme_dup, x, dx);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @st(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1) {
  br label %4

3:                                                ; preds = %4
  ret void

4:                                                ; preds = %2, %4
  %5 = phi i64 [ 0, %2 ], [ %12, %4 ]
  %6 = trunc nuw nsw i64 %5 to i32
  %7 = tail call i32 @llvm.smax.i32(i32 %6, i32 1)
  %8 = zext nneg i32 %7 to i64
  %9 = getelementptr double, ptr %1, i64 %8
  %10 = getelementptr i8, ptr %9, i64 -8
  %11 = load double, ptr %10, align 8
  %12 = add nuw nsw i64 %5, 1
  %13 = trunc nuw nsw i64 %12 to i32
  %14 = tail call noundef range(i32 0, 37) i32 @llvm.umin.i32(i32 %13, i32 36)
  %15 = zext nneg i32 %14 to i64
  %16 = getelementptr inbounds nuw double, ptr %1, i64 %15
  %17 = load double, ptr %16, align 8
  %18 = fadd double %11, %17
  %19 = getelementptr inbounds nuw double, ptr %1, i64 %5
  %20 = load double, ptr %19, align 8
  %21 = fmul double %20, -2.000000e+00
  %22 = tail call double @llvm.fmuladd.f64(double %21, double %20, double %18)
  %23 = getelementptr inbounds nuw double, ptr %0, i64 %5
  store double %22, ptr %23, align 8
  %24 = icmp eq i64 %12, 37
  br i1 %24, label %3, label %4
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i32 @llvm.umin.i32(i32, i32)

declare i32 @llvm.smax.i32(i32, i32)


; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK: {{^}}.peel:
; CHECK: getelementptr inbounds nuw i8, ptr %1, i64 288
; CHECK: phi i64 [ 0,
; CHECK-NOT: @llvm.umin
; CHECK: [[RIGHT:%[0-9]+]] = getelementptr inbounds nuw double, ptr %1, i64
; CHECK-NOT: @llvm.umin
; CHECK: getelementptr inbounds i8, ptr [[RIGHT]], i64 -8
; CHECK-NOT: @llvm.umin
; CHECK: icmp eq i64 %{{[0-9]+}}, 36
; CHECK: {{^}}rev.{{[0-9]+}}:
; CHECK-NOT: @llvm.umin
; CHECK: [[DRIGHT:%[0-9]+]] = getelementptr inbounds nuw double, ptr %.shadow1, i64
; CHECK-NEXT: getelementptr inbounds i8, ptr [[DRIGHT]], i64 -8
