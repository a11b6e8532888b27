; Decision: the tape stacks' length arithmetic in the runtime pieces (`runtime/ir/stack.ll`)
; carries `nuw nsw`: a push adds to a length that stays within its buffer, a top or a pop
; subtracts bytes the same stack pushed before, so no length wraps. The pieces are inlined
; into every generated loop that pushes or pops a record, where the length is an induction
; variable.
; Why it matters: without the flags, IndVars asks SCEV to prove them for every such loop
; (`getStrengthenedNoWrapFlagsFromBinOp`), and SCEV's loop guards walk the dominators of
; the whole merged function; on bench/compile_scaling's `chain` n = 80 that was 60M of the
; post-AD pipeline's 1,285M instructions (IndVars 93.5M -> 71.6M with the flags; issue 18,
; bench/compile_scaling/README.md, tree23).
;
; __attribute__((noinline)) double two(const double *x, int n) {
;   double s = 0.0;
;   for (int i = 0; i < n; i++) s += exp(x[i]) * x[i];
;   return s;
; }
; double top(const double *x, int n) { return two(x, n) * 2.0; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)top, x, dx, enzyme_const, n); }
; (clang-22 -O2, attributes and metadata removed; tests/c/880 and bench/compile_scaling run
; such loops against finite differences)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external local_unnamed_addr global i32, align 4
define dso_local double @two(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %6

4:                                                ; preds = %2
  %5 = zext nneg i32 %1 to i64
  br label %8

6:                                                ; preds = %8, %2
  %7 = phi double [ 0.000000e+00, %2 ], [ %14, %8 ]
  ret double %7

8:                                                ; preds = %4, %8
  %9 = phi i64 [ 0, %4 ], [ %15, %8 ]
  %10 = phi double [ 0.000000e+00, %4 ], [ %14, %8 ]
  %11 = getelementptr inbounds nuw double, ptr %0, i64 %9
  %12 = load double, ptr %11, align 8
  %13 = tail call double @exp(double noundef %12)
  %14 = tail call double @llvm.fmuladd.f64(double %13, double %12, double %10)
  %15 = add nuw nsw i64 %9, 1
  %16 = icmp eq i64 %15, %5
  br i1 %16, label %6, label %8
}
declare double @exp(double noundef) local_unnamed_addr
declare double @llvm.fmuladd.f64(double, double, double)
define dso_local double @top(ptr noundef readonly captures(none) %0, i32 noundef %1) {
  %3 = tail call double @two(ptr noundef %0, i32 noundef %1)
  %4 = fmul double %3, 2.000000e+00
  ret double %4
}
define dso_local void @grad(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr {
  %4 = load i32, ptr @enzyme_const, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @top, ptr noundef %0, ptr noundef %1, i32 noundef %4, i32 noundef %2)
  ret void
}
declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal ptr @__fz_push(
; CHECK: %new = add nuw nsw i64 %len, %n
; CHECK-LABEL: define internal ptr @__fz_push_reserved(
; CHECK: %new = add nuw nsw i64 %len, %n
; CHECK-LABEL: define internal void @__fz_reserve(
; CHECK: %new = add nuw nsw i64 %len, %extra
; CHECK-LABEL: define internal ptr @__fz_top(
; CHECK: %off = sub nuw nsw i64 %len, %n
; CHECK-LABEL: define internal void @__fz_pop(
; CHECK: %new = sub nuw nsw i64 %len, %n
