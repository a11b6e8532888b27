; Decision: when clang merged two hook calls that differ only in the function
; (`w ? autodiff(g, x) : autodiff(f, x)` became one call of `select w, @f, @g`), the
; call is split back into a diamond with one direct call per arm (unmerge.rs), and each
; arm calls its own derivative.
; Why it matters: a hook whose function is only known at run time cannot be
; differentiated; this is the one case where the optimizer manufactured it.
;
; double f(double x) { return x * x; }
; double g(double x) { return sin(x); }
; double pick(double x, int w) {
;   double d;
;   if (w) d = __enzyme_autodiff((void *)g, x);
;   else d = __enzyme_autodiff((void *)f, x);
;   return d;
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x) {
entry:
  %mul = fmul double %x, %x
  ret double %mul
}

define double @g(double %x) {
entry:
  %call = call double @sin(double %x)
  ret double %call
}

declare double @sin(double)

define double @pick(double %x, i32 %w) {
entry:
  %tobool.not = icmp eq i32 %w, 0
  %f.g = select i1 %tobool.not, ptr @f, ptr @g
  %call1 = call double (ptr, ...) @__enzyme_autodiff(ptr %f.g, double %x)
  ret double %call1
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define double @pick(
; CHECK-NOT: select
; CHECK: br i1 [[C:%.*]], label %[[A:.*]], label %[[B:.*]]
; CHECK: [[A]]:
; CHECK-NEXT: [[RF:%.*]] = call { double } @fz_grad_f(double %x, double 1.000000e+00)
; CHECK: [[B]]:
; CHECK-NEXT: [[RG:%.*]] = call { double } @fz_grad_g(double %x, double 1.000000e+00)
; CHECK: phi double
; CHECK-NOT: @__enzyme_autodiff
; CHECK: {{^}}}
