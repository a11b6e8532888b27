; Decision: the tangent of `r = x / y` with both operands active is `(dx - r*dy) * (1/y)`
; (tangent/inst.rs `over_shared_reciprocal`, lower.rs `shared_reciprocal`), not
; `dx * (1/y) + dy * (-r * (1/y))`: the partial `-r/y` overflows where `x/y` and `1/y`
; are both large (y = 1e-160), and `inf * 0` made the derivative NaN whenever y's tangent
; was 0 (tests/c/990). Also one multiplication fewer.
;
; double quot(double x, double y) { return x / y; }
; double tan(double x, double y, double dx, double dy) {
;   return __enzyme_fwddiff((void *)quot, x, dx, y, dy);
; }
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

define double @tan(double %x, double %y, double %dx, double %dy) {
entry:
  %call = call double (ptr, ...) @__enzyme_fwddiff(ptr @quot, double %x, double %dx, double %y, double %dy)
  ret double %call
}

declare double @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define internal {{.*}}@fz_fwd_quot(
; CHECK: [[R:%.*]] = fdiv double %x, %y
; CHECK: [[INV:%.*]] = fdiv double 1.000000e+00, %y
; CHECK: [[RDY:%.*]] = fmul double {{%.*}}, [[R]]
; CHECK-NEXT: [[SUM:%.*]] = fsub double {{%.*}}, [[RDY]]
; CHECK-NEXT: fmul double [[SUM]], [[INV]]
; CHECK-NOT: fdiv
; CHECK: ret
