; Decision: a value that only reaches comparisons (`exp(x) > 2` choosing the result) is
; not active after activity's backward half (`restrict_to_useful`): the reverse sweep
; emits no adjoint code for `exp`, and the forward `exp` value is not used by it.
; Why it matters: a comparison passes no derivative back; the dead adjoint was zero,
; and zero times exp(800) = inf made the gradient NaN (regression, tests/c/147).
;
; double pick(double x) {
;   double t = exp(x);
;   if (t > 2.0) return x * x;
;   return 3.0 * x;
; }
; double grad(double x) { return __enzyme_autodiff((void *)pick, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @pick(double %x) {
entry:
  %call = call double @exp(double %x)
  %cmp = fcmp ogt double %call, 2.000000e+00
  %x. = select i1 %cmp, double %x, double 3.000000e+00
  %retval.0 = fmul double %x, %x.
  ret double %retval.0
}

declare double @exp(double)

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @pick, double %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_pick(
; CHECK-LABEL: {{^}}entry:
; CHECK-NEXT: [[T:%.*]] = call double @exp(double %x)
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NOT: [[T]]
; CHECK-NOT: @exp
; CHECK: ret { double }
; CHECK-NEXT: {{^}}}
