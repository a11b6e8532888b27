; Decision: without -ffast-math an order-preserving stream (stream_exact_values) is
; refused when the loop also adds into the same shadow at an offset not known at compile
; time: dx[i + k] (k a parameter) may be a cell the window holds in a register, and its
; add would then land in memory between adds the register still has to write back.
; With -ffast-math the same loop is carried (partial sums commute with that add).
; Why it matters: the value form is exact only if nothing else touches the cells in the
; window; this is the Brusselator's rows i - 1, i + 1 of one shadow, which coincide with
; row i at the boundary (streams/values.rs, streams/mod.rs `others_ok`).
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x, long k) {
;   for (long i = 1; i < 37; i++)
;     out[i] = x[i - 1] + x[clampi(i + 1, 37)] - 2.0 * x[i] * x[i] + 0.5 * x[i + k];
; }
; void grad(double *out, double *dout, double *x, double *dx, long k) {
;   __enzyme_autodiff((void *)st, enzyme_dup, out, dout, enzyme_dup, x, dx, enzyme_const, k);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local void @st(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1, i64 noundef %2) {
  br label %5

4:                                                ; preds = %5
  ret void

5:                                                ; preds = %3, %5
  %6 = phi i64 [ 1, %3 ], [ %10, %5 ]
  %7 = getelementptr double, ptr %1, i64 %6
  %8 = getelementptr i8, ptr %7, i64 -8
  %9 = load double, ptr %8, align 8
  %10 = add nuw nsw i64 %6, 1
  %11 = trunc nuw nsw i64 %10 to i32
  %12 = tail call noundef range(i32 0, 37) i32 @llvm.umin.i32(i32 %11, i32 36)
  %13 = zext nneg i32 %12 to i64
  %14 = getelementptr inbounds nuw double, ptr %1, i64 %13
  %15 = load double, ptr %14, align 8
  %16 = fadd double %9, %15
  %17 = load double, ptr %7, align 8
  %18 = fmul double %17, -2.000000e+00
  %19 = tail call double @llvm.fmuladd.f64(double %18, double %17, double %16)
  %20 = getelementptr double, ptr %7, i64 %2
  %21 = load double, ptr %20, align 8
  %22 = tail call double @llvm.fmuladd.f64(double %21, double 5.000000e-01, double %19)
  %23 = getelementptr inbounds nuw double, ptr %0, i64 %6
  store double %22, ptr %23, align 8
  %24 = icmp eq i64 %10, 37
  br i1 %24, label %4, label %5
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i64 noundef %4) local_unnamed_addr {
  %6 = load i32, ptr @enzyme_dup, align 4
  %7 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3, i32 noundef %7, i64 noundef %4)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i32 @llvm.umin.i32(i32, i32)


; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK-NOT: fz.cell
; CHECK-NOT: fz.stream
; CHECK: {{^}}.peel:
; CHECK-NOT: fz.cell
; CHECK-NOT: fz.stream
; CHECK: {{^}}rev.{{[0-9]+}}:
; CHECK-NOT: fz.cell
; CHECK-NOT: fz.stream
; CHECK: %sh{{[0-9]*}} = load double
; CHECK-NOT: fz.cell
; CHECK-NOT: fz.stream
; CHECK: {{^}}}
