; Decision: after the pipeline, a reverse loop whose carried adjoint `d` comes back as a
; linear function of itself with loop-invariant coefficients (the reverse sweep of a
; linear, constant-coefficient step: Heun/RK4/Euler on x' = -1.2 x) carries
; `d * C` instead, `C` the same chain evaluated at d = 1 in the loop's preheader (a
; block of its own, `fz.chain.pre`, when the entering block branches elsewhere too,
; e.g. the forward sweep's latch); the chain's operations only the carried value used are deleted
; (`crates/ferrozyme-transform/src/adjoint_chain.rs`). Only operations the reverse sweep
; built for adjoints are rewritten (they carry the `ferrozyme.adjoint` mark until then):
; the primal's own linear recurrence (`heun`) keeps its chain, and a recurrence whose
; coefficients come from the tape (`logistic`: x_n read back each step) is left alone.
; Why it matters: both sweeps of such a step are latency-bound, the reverse one as long as
; the primal's (RK4: eight dependent operations per step), so the gradient took twice
; the primal's time; with one multiply on the carried path RK4's grad/primal by time at
; `-O3 -march=x86-64-v3` went 2.07 -> 1.29 (bench/README "native11"). The derivative
; changes by rounding only: the grouping of the chain rule's products is the AD tool's
; choice (as forward vs reverse mode), not an expression of the user's program.
;
; extern double __enzyme_autodiff(void *, ...);
; extern int enzyme_const;
; double heun(double x, double h, long n) {
;   for (long i = 0; i < n; i++) {
;     double k1 = -1.2 * x;
;     double k2 = -1.2 * (x + h * k1);
;     x = x + 0.5 * h * (k1 + k2);
;   }
;   return x;
; }
; double logistic(double x, double h, long n) {
;   for (long i = 0; i < n; i++) x = x + h * x * (1.0 - x);
;   return x;
; }
; double g1(double x, double h, long n) { return __enzyme_autodiff((void *)heun, x, enzyme_const, h, n); }
; double g2(double x, double h, long n) { return __enzyme_autodiff((void *)logistic, x, enzyme_const, h, n); }
; (clang-22 -O2 -fno-unroll-loops, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4

define dso_local double @heun(double noundef %0, double noundef %1, i64 noundef %2) {
  %4 = icmp sgt i64 %2, 0
  br i1 %4, label %5, label %7

5:                                                ; preds = %3
  %6 = fmul double %1, 5.000000e-01
  br label %9

7:                                                ; preds = %9, %3
  %8 = phi double [ %0, %3 ], [ %16, %9 ]
  ret double %8

9:                                                ; preds = %5, %9
  %10 = phi double [ %0, %5 ], [ %16, %9 ]
  %11 = phi i64 [ 0, %5 ], [ %17, %9 ]
  %12 = fmul double %10, -1.200000e+00
  %13 = tail call double @llvm.fmuladd.f64(double %1, double %12, double %10)
  %14 = fmul double %13, 1.200000e+00
  %15 = fsub double %12, %14
  %16 = tail call double @llvm.fmuladd.f64(double %6, double %15, double %10)
  %17 = add nuw nsw i64 %11, 1
  %18 = icmp eq i64 %17, %2
  br i1 %18, label %7, label %9
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local double @logistic(double noundef %0, double noundef %1, i64 noundef %2) {
  %4 = icmp sgt i64 %2, 0
  br i1 %4, label %7, label %5

5:                                                ; preds = %7, %3
  %6 = phi double [ %0, %3 ], [ %12, %7 ]
  ret double %6

7:                                                ; preds = %3, %7
  %8 = phi i64 [ %13, %7 ], [ 0, %3 ]
  %9 = phi double [ %12, %7 ], [ %0, %3 ]
  %10 = fmul double %1, %9
  %11 = fsub double 1.000000e+00, %9
  %12 = tail call double @llvm.fmuladd.f64(double %10, double %11, double %9)
  %13 = add nuw nsw i64 %8, 1
  %14 = icmp eq i64 %13, %2
  br i1 %14, label %5, label %7
}

define dso_local double @g1(double noundef %0, double noundef %1, i64 noundef %2) {
  %4 = load i32, ptr @enzyme_const, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @heun, double noundef %0, i32 noundef %4, double noundef %1, i64 noundef %2)
  ret double %5
}

declare double @__enzyme_autodiff(ptr noundef, ...)

define dso_local double @g2(double noundef %0, double noundef %1, i64 noundef %2) {
  %4 = load i32, ptr @enzyme_const, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @logistic, double noundef %0, i32 noundef %4, double noundef %1, i64 noundef %2)
  ret double %5
}


; The primal's recurrence is the user's arithmetic: untouched.
; CHECK-LABEL: define dso_local double @heun(
; CHECK-NOT: fz.chain.pre
; CHECK: call double @llvm.fmuladd.f64(double %1, double
; CHECK: call double @llvm.fmuladd.f64(double
; CHECK-LABEL: define dso_local double @logistic(
; CHECK-NOT: fz.chain.pre
; CHECK: ret double
; Heun's reverse loop: the coefficient once, then one multiply per trip; the exit takes
; the carried value.
; CHECK-LABEL: define dso_local double @g1(
; CHECK: %[[C:[0-9]+]] = fsub nsz contract double
; CHECK-NEXT: br label %[[LOOP:[a-z0-9.]+]]
; CHECK: [[LOOP]]:
; CHECK: %[[D:[a-z0-9.]+]] = phi double [ %[[NEXT:[0-9]+]], %[[LOOP]] ]
; CHECK-NOT: fadd
; CHECK: %[[NEXT]] = fmul nsz contract double %[[D]], %[[C]]
; CHECK-NEXT: br i1
; CHECK: phi double {{.*}}[ %[[NEXT]], %[[LOOP]] ]
; The logistic map's coefficients are read from the tape: no preheader, the reverse loop
; keeps its per-step chain.
; CHECK-LABEL: define dso_local double @g2(
; CHECK-NOT: fz.chain.pre
; CHECK: load double
; CHECK: fadd nsz contract double
; CHECK: ret double
