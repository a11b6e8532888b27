; Decision: a partial that divides a constant by a value the primal already inverted
; reads the primal reciprocal instead of dividing (reverse/reciprocals.rs, lower.rs):
; for `r = 1/y` the partial `-r*(1/y)` becomes `-r*r` (applied as `-(r * (d * r))`: the
; seed meets the reciprocal first, lower.rs `shared_reciprocal`); `iq = 2/q` (q = sqrt z) gives
; `1/q = iq * 0.5` for its own partial and `0.5/q = iq * 0.25` for sqrt's; the numerator
; must be a power of two (scaling by it is exact), so `t = 3/x` keeps its division
; `1/x` in the reverse sweep.
; Why it matters: a division is the slowest basic float operation (latency ~15-20
; cycles); BA computes `theta_inverse = 1/theta` next to `theta = sqrt(...)`, and its
; reverse sweep divided by theta twice more.
;
; typedef struct { double a, b, c; } triple;
; extern triple __enzyme_autodiff3(void *, ...);
; double recips(double x, double y, double z) {
;   double r = 1.0 / y;
;   double q = sqrt(z);
;   double iq = 2.0 / q;
;   double t = 3.0 / x;
;   return r * x + iq * y + t * z;
; }
; triple grad(double x, double y, double z) { return __enzyme_autodiff3((void *)recips, x, y, z); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.triple = type { double, double, double }

define double @recips(double %x, double %y, double %z) {
entry:
  %div = fdiv double 1.000000e+00, %y
  %call = tail call double @sqrt(double %z)
  %div1 = fdiv double 2.000000e+00, %call
  %div2 = fdiv double 3.000000e+00, %x
  %mul3 = fmul double %y, %div1
  %0 = tail call double @llvm.fmuladd.f64(double %div, double %x, double %mul3)
  %1 = tail call double @llvm.fmuladd.f64(double %div2, double %z, double %0)
  ret double %1
}

declare double @sqrt(double noundef)

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr dead_on_unwind noalias writable sret(%struct.triple) align 8 %agg.result, double %x, double %y, double %z) {
entry:
  tail call void (ptr, ptr, ...) @__enzyme_autodiff3(ptr dead_on_unwind writable sret(%struct.triple) align 8 %agg.result, ptr @recips, double %x, double %y, double %z)
  ret void
}

declare void @__enzyme_autodiff3(ptr dead_on_unwind writable sret(%struct.triple) align 8, ptr noundef, ...)


; CHECK-LABEL: define internal { double, double, double } @fz_grad_recips(
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NOT: fdiv
; CHECK: [[INVX:%.*]] = fdiv {{(contract )?}}double 1.000000e+00, %x
; CHECK-NEXT: [[SX:%.*]] = fmul {{(contract )?}}double %{{.*}}, [[INVX]]
; CHECK-NEXT: fmul {{(contract )?}}double %div2, [[SX]]
; CHECK-NOT: fdiv
; CHECK: [[INVQ:%.*]] = fmul {{(contract )?}}double %div1, 5.000000e-01
; CHECK-NEXT: [[SQ:%.*]] = fmul {{(contract )?}}double %{{.*}}, [[INVQ]]
; CHECK-NEXT: fmul {{(contract )?}}double %div1, [[SQ]]
; CHECK-NOT: fdiv
; CHECK: fmul {{(contract )?}}double %div1, 2.500000e-01
; CHECK-NOT: fdiv
; CHECK: [[SR:%.*]] = fmul {{(contract )?}}double %{{.*}}, %div
; CHECK-NEXT: fmul {{(contract )?}}double %div, [[SR]]
; CHECK-NOT: fdiv
; CHECK: ret { double, double, double }
