; Decision: a loop without a sure bound on its iterations keeps the checked push
; (`__fz_push`, with its growth path) and gets no reservation: here the counter's test
; against `n` runs only on the iterations where `sin(x[i]) > 0` (the others may leave on
; `s > 100` or go on), so `n` bounds nothing (reverse/fixed_tape.rs; the counter's step
; also reaches the header through a phi, which the loose trip count does not take
; either).
; Why it matters: an unchecked push into room reserved from a wrong bound writes past
; the buffer.
;
; double partial(const double *x, int n) {
;   double s = 0;
;   for (int i = 0;; i++) {
;     double t = sin(x[i]);
;     s += t * x[i];
;     if (t > 0) {
;       if (i + 1 >= n) break;
;     } else if (s > 100) {
;       break;
;     }
;   }
;   return s;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)partial, x, dx, n); }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define dso_local double @partial(ptr noundef readonly captures(none) %0, i32 noundef %1) {
  br label %3

3:                                                ; preds = %19, %2
  %4 = phi i64 [ 0, %2 ], [ %20, %19 ]
  %5 = phi double [ 0.000000e+00, %2 ], [ %9, %19 ]
  %6 = getelementptr inbounds nuw double, ptr %0, i64 %4
  %7 = load double, ptr %6, align 8
  %8 = tail call double @sin(double noundef %7)
  %9 = tail call double @llvm.fmuladd.f64(double %8, double %7, double %5)
  %10 = fcmp ogt double %8, 0.000000e+00
  br i1 %10, label %11, label %15

11:                                               ; preds = %3
  %12 = add nuw nsw i64 %4, 1
  %13 = trunc nuw i64 %12 to i32
  %14 = icmp sgt i32 %1, %13
  br i1 %14, label %19, label %21

15:                                               ; preds = %3
  %16 = fcmp ogt double %9, 1.000000e+02
  br i1 %16, label %21, label %17

17:                                               ; preds = %15
  %18 = add nuw nsw i64 %4, 1
  br label %19

19:                                               ; preds = %17, %11
  %20 = phi i64 [ %18, %17 ], [ %12, %11 ]
  br label %3

21:                                               ; preds = %11, %15
  ret double %9
}

declare double @sin(double noundef) local_unnamed_addr

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @grad(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr {
  %4 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @partial, ptr noundef %0, ptr noundef %1, i32 noundef %2)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal void @fz_grad_partial(
; CHECK-NOT: @__fz_reserve(
; CHECK-NOT: @__fz_push_reserved(
; CHECK: call ptr @__fz_push(ptr {{%.*}}, i64 8)
; CHECK-NOT: @__fz_reserve(
; CHECK-NOT: @__fz_push_reserved(
; CHECK: {{^}}}
