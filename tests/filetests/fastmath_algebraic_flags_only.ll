; Decision: derivative arithmetic inherits the algebraic fast-math flags of the primal
; (`reassoc nsz arcp contract afn` from `-ffast-math`'s `fast`), never `nnan`/`ninf`
; (`ferrozyme_llvm::fastmath`): an adjoint can overflow or be NaN where the primal is
; not, and with `nnan`/`ninf` LLVM may assume it is not. The forward copy of the primal
; keeps its own `fast` flags.
; Why it matters: `nnan`/`ninf` on the derivative would let LLVM fold away the very
; checks (or produce poison) that make an overflowing gradient visible.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double fm(double x, double y) { return x * y + x / y; }
; pair grad(double x, double y) { return __enzyme_autodiff2((void *)fm, x, y); }
; // Every floating-point instruction of the reverse sweep carries exactly the five
; // algebraic flags.
; (clang-22 -O2 -ffast-math, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define nofpclass(nan inf) double @fm(double nofpclass(nan inf) %x, double nofpclass(nan inf) %y) {
entry:
  %mul = fmul fast double %y, %x
  %div = fdiv fast double %x, %y
  %add = fadd fast double %mul, %div
  ret double %add
}

define { double, double } @grad(double nofpclass(nan inf) %x, double nofpclass(nan inf) %y) {
entry:
  %call = call fast { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @fm, double nofpclass(nan inf) %x, double nofpclass(nan inf) %y)
  ret { double, double } %call
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_grad_fm(
; CHECK-LABEL: {{^}}entry:
; CHECK-NEXT: fmul fast double %y, %x
; CHECK-NEXT: fdiv fast double %x, %y
; CHECK-NEXT: fadd fast double
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NOT: {{fadd|fsub|fmul|fdiv|fneg}} {{(fast|nnan|ninf)}}
; CHECK-NOT: {{fadd|fsub|fmul|fdiv|fneg}} double
; CHECK: fdiv reassoc nsz arcp contract afn double 1.000000e+00, %y
; CHECK-NOT: {{fadd|fsub|fmul|fdiv|fneg}} {{(fast|nnan|ninf)}}
; CHECK-NOT: {{fadd|fsub|fmul|fdiv|fneg}} double
; CHECK: ret { double, double }
