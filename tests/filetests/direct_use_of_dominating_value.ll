; Decision: in a combined function, a primal value defined in a block that runs once and
; dominates every return is used by the reverse sweep directly: its forward copy is
; still live there, so it needs neither a tape slot nor recomputation. Here the reverse
; of `e * s` multiplies by the forward `sin` and `exp` values themselves.
; Why it matters: the tape of straight-line code stays empty (SROA then deletes it).
;
; double straight(double x) { return exp(x) * sin(x); }
; double grad(double x) { return __enzyme_autodiff((void *)straight, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @straight(double %x) {
entry:
  %call = call double @exp(double %x)
  %call1 = call double @sin(double %x)
  %mul = fmul double %call, %call1
  ret double %mul
}

declare double @exp(double)

declare double @sin(double)

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @straight, double %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_straight(
; CHECK: [[TAPE:%.*]] = alloca i8, i64 {{[0-9]+}}, align 16
; CHECK-LABEL: {{^}}entry:
; CHECK-NEXT: [[E:%.*]] = call double @exp(double %x)
; CHECK-NEXT: [[S:%.*]] = call double @sin(double %x)
; CHECK-NEXT: fmul double [[E]], [[S]]
; CHECK-NEXT: br label %rev.entry
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NOT: [[TAPE]]
; CHECK-NOT: @exp(
; CHECK-DAG: fmul double {{%.*}}, [[S]]
; CHECK-DAG: fmul double {{%.*}}, [[E]]
; CHECK-NOT: [[TAPE]]
; CHECK: {{^}}}
