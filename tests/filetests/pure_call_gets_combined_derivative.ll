; Decision: an active call of a function that touches no memory (`memory(none)`, no
; shadowed arguments) stays a plain primal call in the forward sweep, and the reverse
; sweep calls the callee's *combined* derivative `fz_grad_sq` (which recomputes what it
; needs): no augmented function, no tape for the call. Both calls share one
; `fz_grad_sq` (requests are memoised).
; Why it matters: a pure helper costs its primal twice at most, never a tape; the
; split pair would store its intermediate values for nothing.
;
; __attribute__((noinline)) double sq(double v) { return v * v * sin(v); }
; double usepure(double x) { return sq(x) + sq(2 * x); }
; double grad(double x) { return __enzyme_autodiff((void *)usepure, x); }
; (clang-22 -O2 -fno-math-errno, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @sq(double %v) memory(none) {
entry:
  %mul = fmul double %v, %v
  %0 = call double @llvm.sin.f64(double %v)
  %mul1 = fmul double %mul, %0
  ret double %mul1
}

declare double @llvm.sin.f64(double)

define double @usepure(double %x) memory(none) {
entry:
  %call = call double @sq(double %x)
  %mul = fmul double %x, 2.000000e+00
  %call1 = call double @sq(double %mul)
  %add = fadd double %call, %call1
  ret double %add
}

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @usepure, double %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-NOT: @fz_aug_sq
; CHECK-LABEL: define internal { double } @fz_grad_usepure(
; CHECK-LABEL: {{^}}entry:
; CHECK-NEXT: call double @sq(double %x)
; CHECK: call double @sq(double
; CHECK-LABEL: {{^}}rev.entry:
; CHECK: call { double } @fz_grad_sq(double {{%.*}}, double
; CHECK: call { double } @fz_grad_sq(double %x, double
; CHECK-LABEL: define internal { double } @fz_grad_sq(double %v, double %d_ret)
; CHECK-NOT: @fz_aug_sq
; CHECK-NOT: define internal {{.*}} @fz_grad_sq
