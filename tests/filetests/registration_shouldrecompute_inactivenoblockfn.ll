; Decision: Enzyme's registrations `__enzyme_inactivenoblockfn` (an inactive function,
; as `__enzyme_inactivefn`) and `__enzyme_shouldrecompute` (a hint that a function may
; be recomputed instead of cached) are accepted: the first makes the function's calls
; carry no derivative, the second is checked (it must list functions) and otherwise
; ignored, Ferrozyme deciding what to keep from the program itself.
; Why it matters: both were rejected as registrations Ferrozyme does not understand, so
; Enzyme users' programs declaring them did not compile (tests/c/683).
;
; void logv(double v);          // registered inactive (noblock)
; double sq(double z);          // registered recomputable
; double f(double x) { logv(x); return sq(x) * x; }
; (written by hand)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__enzyme_inactivenoblockfn = global [1 x ptr] [ptr @logv]
@__enzyme_shouldrecompute = global [1 x ptr] [ptr @sq]

declare void @logv(double)

define double @sq(double %z) {
entry:
  %m = fmul double %z, %z
  ret double %m
}

define double @f(double %x) {
entry:
  call void @logv(double %x)
  %s = call double @sq(double %x)
  %r = fmul double %s, %x
  ret double %r
}

define double @grad(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_f(double %x, double %d_ret)
; CHECK: call void @logv(double %x)
; CHECK-NOT: logv
; CHECK: ret { double }
