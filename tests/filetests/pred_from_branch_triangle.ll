; Decision: the join of an if without else (a triangle: `entry -> if.then -> if.end`
; and `entry -> if.end`) is not recorded either: the reverse sweep leaves `if.end`
; towards `if.then` exactly when the branch condition `r > 1` holds, which it reads
; (here used directly: `entry` runs once and dominates the return). Only the `exp`
; value of the branch is kept, in a slot.
; Why it matters: as for diamonds, a recorded predecessor costs a store and a slot per
; join, a push per iteration in a loop.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double tri(double x, double y) {
;   double r = x * y;
;   if (r > 1.0) r = exp(r);
;   return r * x;
; }
; pair grad(double x, double y) { return __enzyme_autodiff2((void *)tri, x, y); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @tri(double %x, double %y) {
entry:
  %mul = fmul double %x, %y
  %cmp = fcmp ogt double %mul, 1.000000e+00
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  %call = call double @exp(double %mul)
  br label %if.end

if.end:                                           ; preds = %if.then, %entry
  %r.0 = phi double [ %call, %if.then ], [ %mul, %entry ]
  %mul1 = fmul double %x, %r.0
  ret double %mul1
}

declare double @exp(double)

define { double, double } @grad(double %x, double %y) {
entry:
  %call = call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @tri, double %x, double %y)
  ret { double, double } %call
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_grad_tri(
; CHECK: [[C:%.*]] = fcmp ogt double {{%.*}}, 1.000000e+00
; CHECK-NEXT: br i1 [[C]], label %if.then, label %if.end
; CHECK-NOT: phi i32
; CHECK-LABEL: {{^}}rev.if.end:
; CHECK: [[IDX:%.*]] = select i1 [[C]], i32 1, i32 0
; CHECK-NEXT: switch i32 [[IDX]], label %rev.if.end.from.entry [
; CHECK-NEXT: i32 1, label %rev.if.end.from.if.then
; CHECK: {{^}}}
