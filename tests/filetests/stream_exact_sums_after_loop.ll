; Decision: in a reverse loop that carries an order-preserving (value) stream, an
; in-order sum chain of the loop's parameter adjoint with two adds per iteration, or
; with one add of a product, leaves the loop: `a` enters each cell twice, so `da` gets
; `da + dout[i] * x[i + 1]` and `da + (dout[i] * x[i]) * x[i - 1]` per iteration. The
; loop stores the products' factors per iteration into a stack buffer (`fz.sums`, four
; slots of 35 iterations, slot-major, one element per iteration: dout[i], x[i + 1],
; dout[i] * x[i], x[i - 1]); on the exit edge (`fz.stream.flush`) straight-line copies
; of the original `fmul contract` / `fadd nsz contract` run the chain in iteration
; order over the buffer, so that the same operations meet the same values (and the code
; generator fuses each product and add into one FMA as it did in the loop): the sum is
; bit-identical. `db` (one add of dout[i], no product) stays in the loop: an in-order
; reduction LoopVectorize vectorizes exactly. No `da` phi is left in the loop.
; Why it matters: LoopVectorize vectorizes an in-order reduction only with one add of it
; per iteration and then adds rounded products (no fusion): the Brusselator's `dalpha`
; (two adds per cell) kept its exact reverse stencil loop scalar, and moving `dA` (one
; product) is what keeps dp bit-identical. With both moved the loop is VF 4: 57,983 ->
; 40,280 instructions per gradient call at -O3 -march=x86-64-v3 (ordered_sums.rs,
; bench/README.md "bruss13").
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x, double a, double b) {
;   for (int i = 1; i < 37; i++)
;     out[i] = a * x[i - 1] * x[i] + a * x[clampi(i + 1, 37)] - 2.0 * x[i] * x[i] + b;
; }
; pair grad(double *out, double *dout, double *x, double *dx, double a, double b) {
;   return __enzyme_autodiff((void *)st, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx, a, b);
; }
; (pair: struct { double da, db; }; clang-22 -O2 -fno-vectorize -fno-slp-vectorize
; -fno-unroll-loops, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @st(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1, double noundef %2, double noundef %3) {
  br label %6

5:                                                ; preds = %6
  ret void

6:                                                ; preds = %4, %6
  %7 = phi i64 [ 1, %4 ], [ %13, %6 ]
  %8 = getelementptr double, ptr %1, i64 %7
  %9 = getelementptr i8, ptr %8, i64 -8
  %10 = load double, ptr %9, align 8
  %11 = fmul double %2, %10
  %12 = load double, ptr %8, align 8
  %13 = add nuw nsw i64 %7, 1
  %14 = trunc nuw nsw i64 %13 to i32
  %15 = tail call noundef range(i32 0, 37) i32 @llvm.umin.i32(i32 %14, i32 36)
  %16 = zext nneg i32 %15 to i64
  %17 = getelementptr inbounds nuw double, ptr %1, i64 %16
  %18 = load double, ptr %17, align 8
  %19 = fmul double %2, %18
  %20 = tail call double @llvm.fmuladd.f64(double %11, double %12, double %19)
  %21 = fmul double %12, -2.000000e+00
  %22 = tail call double @llvm.fmuladd.f64(double %21, double %12, double %20)
  %23 = fadd double %3, %22
  %24 = getelementptr inbounds nuw double, ptr %0, i64 %7
  store double %23, ptr %24, align 8
  %25 = icmp eq i64 %13, 37
  br i1 %25, label %5, label %6
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local { double, double } @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, double noundef %4, double noundef %5) local_unnamed_addr {
  %7 = load i32, ptr @enzyme_dupnoneed, align 4
  %8 = load i32, ptr @enzyme_dup, align 4
  %9 = tail call { double, double } (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %7, ptr noundef %0, ptr noundef %1, i32 noundef %8, ptr noundef %2, ptr noundef %3, double noundef %4, double noundef %5)
  ret { double, double } %9
}

declare { double, double } @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i32 @llvm.umin.i32(i32, i32)


; CHECK-LABEL: define internal { double, double } @fz_grad_st(
; CHECK: %fz.sums = alloca [140 x double]
; CHECK: {{^}}fz.stream.flush:
; CHECK: %[[A0:fz.sum.term]] = load double
; CHECK: %[[B0:fz.sum.term[0-9]+]] = load double
; CHECK-NEXT: %[[P0:[0-9]+]] = fmul contract double %[[A0]], %[[B0]]
; CHECK-NEXT: fadd nsz contract double %{{[0-9]+}}, %[[P0]]
; CHECK: {{^}}rev.{{[0-9]+}}:
; CHECK-NEXT: phi i64
; CHECK-NEXT: %[[DB:d[.0-9]+]] = phi double
; CHECK-NEXT: %fz.cell = phi double
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double
; CHECK-NEXT: getelementptr
; CHECK: fadd nsz contract double %[[DB]], %sh
; CHECK: sub i64 35, %
; CHECK: store double %sh{{[0-9]+}}, ptr %{{[0-9]+}}, align 8
; CHECK: br i1 %{{[0-9]+}}, label %rev.{{[0-9]+}}, label %fz.stream.flush
