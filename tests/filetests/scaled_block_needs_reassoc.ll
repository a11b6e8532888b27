; Decision: without `reassoc` (no `-ffast-math`) the same integrator step is reversed
; as usual: no seed 1, the real adjoint flows through every partial of the step.
; `d * (a + b)` and `d*a + d*b` round differently, so scaling is only allowed when the
; function allows reassociation (reverse/scaled.rs); scaled_block_one_multiply.ll is
; the fast-math case.
; Why it matters: the derivative of strict IEEE code must not change its rounding.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double integrate(double x, double h, int n) {
;   for (int i = 0; i < n; i++) x = x + h * sin(x) * x;
;   return x;
; }
; pair grad(double x, double h, int n) { return __enzyme_autodiff2((void *)integrate, x, h, n); }
; // The step's adjoint D is taken, and the seed 1 takes its place.
; // D is used exactly twice, each time to scale one summed partial: once for the
; // previous x (the loop-carried path) and once for h.
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @integrate(double %x, double %h, i32 %n) {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %x.addr.0.lcssa = phi double [ %x, %entry ], [ %0, %for.body ]
  ret double %x.addr.0.lcssa

for.body:                                         ; preds = %entry, %for.body
  %i.08 = phi i32 [ %inc, %for.body ], [ 0, %entry ]
  %x.addr.07 = phi double [ %0, %for.body ], [ %x, %entry ]
  %call = call double @sin(double %x.addr.07)
  %mul = fmul double %h, %call
  %0 = call double @llvm.fmuladd.f64(double %mul, double %x.addr.07, double %x.addr.07)
  %inc = add i32 %i.08, 1
  %exitcond.not = icmp eq i32 %inc, %n
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @sin(double)

declare double @llvm.fmuladd.f64(double, double, double)

define { double, double } @grad(double %x, double %h, i32 %n) {
entry:
  %call = call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @integrate, double %x, double %h, i32 %n)
  ret { double, double } %call
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_grad_integrate(
; CHECK-NOT: reassoc
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK-NEXT: [[D:%.*]] = load double, ptr [[ADJ:%.*]], align 8
; CHECK-NEXT: store double 0.000000e+00, ptr [[ADJ]]
; CHECK-NOT: store double 1.000000e+00
; CHECK-NOT: reassoc
; CHECK: switch i32
