; Decision: the partials of `r = x / y` are `1/y` and `-r * (1/y)` (ferrozyme-rules'
; table): the reverse sweep computes one division, `1 / y`, shared by both partials
; (the seed is scaled once, `s = d * (1/y)`, then `x_bar += s`, `y_bar -= r * s`: lower.rs
; `shared_reciprocal`), and reuses the primal quotient `r` instead of dividing again
; (`x / (y*y)` would be a second division). Scaling the seed first also keeps a zero
; seed zero where `-r/y` overflows (tests/c/990).
; Why it matters: divisions are the slowest basic float operation; the derivative of a
; division costs one, not two or three.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double quot(double x, double y) { return x / y; }
; pair grad(double x, double y) { return __enzyme_autodiff2((void *)quot, x, y); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @quot(double %x, double %y) {
entry:
  %div = fdiv double %x, %y
  ret double %div
}

define { double, double } @grad(double %x, double %y) {
entry:
  %call = call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @quot, double %x, double %y)
  ret { double, double } %call
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_grad_quot(
; CHECK-LABEL: {{^}}entry:
; CHECK-NEXT: [[R:%.*]] = fdiv double %x, %y
; CHECK-LABEL: {{^}}rev.entry:
; CHECK: [[INV:%.*]] = fdiv double 1.000000e+00, %y
; CHECK-NEXT: [[S:%.*]] = fmul double %d_ret, [[INV]]
; CHECK-NOT: fdiv
; CHECK: [[RS:%.*]] = fmul double [[R]], [[S]]
; CHECK-NEXT: fneg double [[RS]]
; CHECK-NOT: fdiv
; CHECK: ret { double, double }
