; Decision: forward mode copies the primal once, in order, and emits each active
; instruction's tangent right after its copy: no tape, no stack, no reverse blocks,
; no adjoint slots. The generated function returns `{ primal, tangent }`.
; Why it matters: forward mode's cost is the primal plus a constant factor, with no
; memory traffic of its own.
;
; double f(double x) { return sin(x) * x; }
; double df(double x, double dx) { return __enzyme_fwddiff((void *)f, x, dx); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x) {
entry:
  %call = call double @sin(double %x)
  %mul = fmul double %x, %call
  ret double %mul
}

declare double @sin(double)

define double @df(double %x, double %dx) {
entry:
  %call = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %call
}

declare double @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define double @df(
; CHECK: [[R:%.*]] = call { double, double } @fz_fwd_f(double %x, double %dx)
; CHECK-NEXT: [[T:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK-NEXT: ret double [[T]]
; CHECK-LABEL: define internal { double, double } @fz_fwd_f(double %x, double %x.d0)
; CHECK-NOT: alloca
; CHECK-NOT: @__fz_
; CHECK: [[S:%.*]] = call double @sin(double %x)
; CHECK-NEXT: [[C:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT: [[DS:%.*]] = fmul double %x.d0, [[C]]
; CHECK-NEXT: [[P:%.*]] = fmul double %x, [[S]]
; CHECK-NEXT: [[A:%.*]] = fmul double %x.d0, [[S]]
; CHECK-NEXT: [[B:%.*]] = fmul double [[DS]], %x
; CHECK-NEXT: [[DP:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT: [[R0:%.*]] = insertvalue { double, double } undef, double [[P]], 0
; CHECK-NEXT: [[R1:%.*]] = insertvalue { double, double } [[R0]], double [[DP]], 1
; CHECK-NEXT: ret { double, double } [[R1]]
; CHECK-NEXT: {{^}}}
