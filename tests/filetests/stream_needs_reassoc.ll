; Decision: the same peeled stencil compiled without -ffast-math keeps its reverse
; neighbour updates in memory, one load/add/store per neighbour per iteration: carrying
; a cell's sum in a register adds its contributions in another order, which only
; `reassoc` allows. The loop is still peeled (peeling changes no arithmetic).
; Why it matters: without fast-math the derivative must be the one the scatter computes,
; rounding included (streams.rs; the carried case: stream_neighbours_carried).
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x) {
;   for (int i = 1; i < 37; i++)
;     out[i] = x[i - 1] + x[clampi(i + 1, 37)] - 2.0 * x[i] * x[i];
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
  %19 = getelementptr inbounds nuw double, ptr %0, i64 %5
  store double %18, ptr %19, align 8
  %20 = icmp eq i64 %9, 37
  br i1 %20, label %3, label %4
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i32 @llvm.umin.i32(i32, i32)


; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK-NOT: fz.stream
; CHECK: {{^}}.peel:
; CHECK-NOT: fz.stream
; CHECK: {{^}}rev.{{[0-9]+}}:
; CHECK-NOT: fz.stream
; CHECK: %sh{{[0-9]*}} = load double
; CHECK-NOT: fz.stream
; CHECK: fadd nsz {{(contract )?}}double
; CHECK-NOT: fz.stream
; CHECK: {{^}}}
