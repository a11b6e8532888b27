; Decision: the join of an if/else is not recorded: which side ran follows from the
; branch condition, which the reverse sweep can read (PredRule::Branch, reverse/forward.rs).
; Values of the branches that the reverse needs and cannot recompute (`exp(x)`) go to
; a tape slot written in the branch (the block runs at most once).
; Why it matters: a recorded predecessor costs a tape slot and a store per join; in a
; loop body it is a push per iteration.
;
; double branchy(double x) {
;   double y;
;   if (x > 0) y = exp(x); else y = x * x;
;   return y * y;
; }
; double grad(double x) { return __enzyme_autodiff((void *)branchy, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @branchy(double %x) {
entry:
  %cmp = fcmp ogt double %x, 0.000000e+00
  br i1 %cmp, label %if.then, label %if.else

if.then:                                          ; preds = %entry
  %call = call double @exp(double %x)
  br label %if.end

if.else:                                          ; preds = %entry
  %mul = fmul double %x, %x
  br label %if.end

if.end:                                           ; preds = %if.else, %if.then
  %y.0 = phi double [ %call, %if.then ], [ %mul, %if.else ]
  %mul1 = fmul double %y.0, %y.0
  ret double %mul1
}

declare double @exp(double)

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @branchy, double %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_branchy(
; CHECK: [[COND:%.*]] = fcmp ogt double %x, 0.000000e+00
; CHECK-NEXT: br i1 [[COND]], label %if.then, label %if.else
; CHECK-NOT: phi i32
; CHECK-LABEL: {{^}}rev.if.end:
; CHECK: [[IDX:%.*]] = select i1 [[COND]], i32 0, i32 1
; CHECK-NEXT: switch i32 [[IDX]], label %rev.if.end.from.if.then [
; CHECK-NEXT: i32 1, label %rev.if.end.from.if.else
; CHECK: {{^}}}
