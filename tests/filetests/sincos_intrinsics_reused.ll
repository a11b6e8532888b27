; Decision: when the primal computes `cos(t)` next to `sin(t)` (a rotation), the
; adjoint of `sin` multiplies by the primal's `cos` value instead of calling `cos`
; again, and vice versa: the derivative calls neither `sin` nor `cos` beyond the
; primal's two calls. Here they are LLVM's intrinsics (`-fno-math-errno`), which two
; mechanisms reuse: `primal_call_of` (reverse/adjoint.rs) while lowering the rule, and
; cse.rs's merge of a recomputed call into the dominating primal one (either alone
; keeps this test passing). sincos_primal_cos_reused.ll is the same with the C
; library's calls, where only the first applies.
; Why it matters: a transcendental call costs tens of cycles; rotations and spherical
; coordinates always compute both.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double rot(double t, double r) { return r * sin(t) + r * r * cos(t); }
; pair grad(double t, double r) { return __enzyme_autodiff2((void *)rot, t, r); }
; (clang-22 -O2 -fno-math-errno, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @rot(double %t, double %r) {
entry:
  %0 = call double @llvm.sin.f64(double %t)
  %mul1 = fmul double %r, %r
  %1 = call double @llvm.cos.f64(double %t)
  %mul2 = fmul double %1, %mul1
  %2 = call double @llvm.fmuladd.f64(double %r, double %0, double %mul2)
  ret double %2
}

declare double @llvm.sin.f64(double)

declare double @llvm.cos.f64(double)

declare double @llvm.fmuladd.f64(double, double, double)

define { double, double } @grad(double %t, double %r) {
entry:
  %call = call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @rot, double %t, double %r)
  ret { double, double } %call
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_grad_rot(
; CHECK: [[S:%.*]] = call double @llvm.sin.f64(double %t)
; CHECK: [[C:%.*]] = call double @llvm.cos.f64(double %t)
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NOT: @llvm.{{sin|cos}}
; CHECK-NOT: @{{sin|cos}}(
; CHECK: fneg {{(contract )?}}double [[S]]
; CHECK-NOT: @llvm.{{sin|cos}}
; CHECK-NOT: @{{sin|cos}}(
; CHECK: ret { double, double }
