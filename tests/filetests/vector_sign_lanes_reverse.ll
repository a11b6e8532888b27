; Decision: `xor <2 x i64>` of a `<2 x double>`'s bits with `<0, signbit>` (Eigen's SSE
; sign flips, `_mm_xor_pd`, in `Matrix4d::inverse`) negates lane 1 and keeps lane 0; the
; reverse multiplies the adjoint by <1, -1>. Before sweep22 the adjoint of a vector sign
; trick was dropped without a message (a wrong gradient, tests/cxx/188 at -O1..-O3).
; f(p) = p0^2 - p1^2, so the gradient is (2 p0, -2 p1). Written by hand.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4

define double @f(ptr %p) {
entry:
  %v = load <2 x double>, ptr %p, align 16
  %b = bitcast <2 x double> %v to <2 x i64>
  %x = xor <2 x i64> %b, <i64 0, i64 -9223372036854775808>
  %c = bitcast <2 x i64> %x to <2 x double>
  %m = fmul <2 x double> %c, %v
  %e0 = extractelement <2 x double> %m, i32 0
  %e1 = extractelement <2 x double> %m, i32 1
  %s = fadd double %e0, %e1
  ret double %s
}

define void @grad(ptr %p, ptr %dp) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %a = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %p, ptr %dp)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal {{.*}} @fz_grad_f(
; CHECK: fmul <2 x double> {{.*}}<double 1.000000e+00, double -1.000000e+00>
; CHECK: ret
