; Decision: in a reverse loop that carries an order-preserving (value) stream, the sums
; of the loop's parameter adjoints (phis of the loop whose every update is an `fadd`
; carrying the reverse sweep's adjoint mark, the phi's and each partial sum's only user
; the next add) get `reassoc`: `a` enters each cell twice, so `da` gets
; `da + dout[i] * x[i + 1]` and `da + (dout[i] * x[i]) * x[i - 1]` per iteration, `db`
; gets `db + dout[i]`; all three adds become `fadd reassoc nsz contract`. The value
; stream's adds (`fz.cell`, the cells' adjoints) keep their flags and order, and nothing
; is moved after the loop (no `fz.sums` buffer, bruss13's `ordered_sums.rs` is gone).
; At -O2 LoopVectorize then makes `da` and `db` ordinary vector reductions (a
; `<2 x double>` partial sum per lane, `llvm.vector.reduce.fadd` with `reassoc` after
; the loop) instead of refusing the loop (two in-order adds of `da`).
; Why it matters: the grouping of a parameter adjoint's contributions is the AD tool's
; choice (rounding only, as in adjoint_split.rs and adjoint_chain.rs); bruss13 kept
; their exact order by replaying the chains after the loop, which vectorized the loop
; but put 1,920 dependent fused multiply-adds per Brusselator call on the critical
; path: gradient/primal by time at -O3 -march=native 3.93 (main) -> 2.38 with the
; reductions (reassoc_sums.rs, bench/README.md "bruss14").
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
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s --check-prefix=OPT

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
; CHECK-NOT: fz.sums
; CHECK: {{^}}rev.{{[0-9]+}}:
; CHECK-NEXT: phi i64
; CHECK-NEXT: %[[DA:d[.0-9]+]] = phi double
; CHECK-NEXT: %[[DB:d[.0-9]+]] = phi double
; CHECK-NEXT: %fz.cell = phi double
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double
; CHECK: fadd reassoc nsz contract double %[[DB]], %sh
; CHECK: %[[DA1:[0-9]+]] = fadd reassoc nsz contract double %[[DA]], %
; CHECK: fadd reassoc nsz contract double %[[DA1]], %
; CHECK: fadd nsz contract double %sh{{[0-9]+}}, %
; CHECK-NEXT: fadd nsz contract double %fz.cell, %
; CHECK-NEXT: fadd nsz contract double %fz.cell{{[0-9]+}}, %
; CHECK: br i1 %{{[0-9]+}}, label %rev.{{[0-9]+}}, label %fz.stream.flush

; OPT-LABEL: define dso_local { double, double } @grad(
; OPT-NOT: fz.sums
; OPT: {{^}}vector.body:
; OPT: fadd reassoc nsz contract <2 x double>
; OPT: call reassoc nsz contract double @llvm.vector.reduce.fadd.v2f64(
; OPT: call reassoc nsz contract double @llvm.vector.reduce.fadd.v2f64(
