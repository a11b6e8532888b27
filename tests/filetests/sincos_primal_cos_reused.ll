; Decision: when the primal computes `cos(t)` next to `sin(t)` (a rotation), the
; adjoint of `sin` multiplies by the primal's `cos` value instead of calling `cos`
; again (`primal_call_of` in reverse/adjoint.rs), and vice versa: the derivative calls
; neither `sin` nor `cos` beyond the primal's two calls. Here they are the C library's
; `sin`/`cos` (clang keeps libm calls under the default `-fmath-errno`);
; sincos_intrinsics_reused.ll is the same with LLVM's intrinsics.
; Why it matters: a transcendental call costs tens of cycles; rotations and spherical
; coordinates always compute both. (Regression: only the intrinsics were recognised,
; so plain C code computed both functions twice.)
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double rot(double t, double r) { return r * sin(t) + r * r * cos(t); }
; pair grad(double t, double r) { return __enzyme_autodiff2((void *)rot, t, r); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @rot(double %t, double %r) {
entry:
  %call = call double @sin(double %t)
  %mul1 = fmul double %r, %r
  %call2 = call double @cos(double %t)
  %mul3 = fmul double %mul1, %call2
  %0 = call double @llvm.fmuladd.f64(double %r, double %call, double %mul3)
  ret double %0
}

declare double @sin(double)

declare double @cos(double)

declare double @llvm.fmuladd.f64(double, double, double)

define { double, double } @grad(double %t, double %r) {
entry:
  %call = call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @rot, double %t, double %r)
  ret { double, double } %call
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_grad_rot(
; CHECK: [[S:%.*]] = call double @sin(double %t)
; CHECK: [[C:%.*]] = call double @cos(double %t)
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NOT: @llvm.{{sin|cos}}
; CHECK-NOT: @{{sin|cos}}(
; CHECK: fneg {{(contract )?}}double [[S]]
; CHECK-NOT: @llvm.{{sin|cos}}
; CHECK-NOT: @{{sin|cos}}(
; CHECK: ret { double, double }
