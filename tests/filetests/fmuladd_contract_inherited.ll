; Decision: when the primal function contains `llvm.fmuladd` (clang's contractable
; `a * b + c`, emitted only when the compile allows contraction: `-ffp-contract=on`, the
; default, or `fast`), every floating-point operation of its derivative gets `contract`
; (`ferrozyme_llvm::fastmath::contraction_allowed`), on top of the flags it inherits.
; Why it matters: at `-ffp-contract=on` no instruction carries `contract`, so
; inheritance alone never let the reverse sweep fuse a product into an adjoint sum while
; the primal's recurrences got FMAs; RK4 at -O3 -march=x86-64-v3: 7.17M -> 5.97M gradient
; instructions (bench/README "native9"). Sound: derivative code has no source
; expressions of its own, and each adjoint update `dx += d * y` is one contractable
; expression the compiler writes.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double axpy(double x, double y) { return x * y + x; }
; pair grad(double x, double y) { return __enzyme_autodiff2((void *)axpy, x, y); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @axpy(double %x, double %y) {
  %r = tail call double @llvm.fmuladd.f64(double %x, double %y, double %x)
  ret double %r
}

declare double @llvm.fmuladd.f64(double, double, double)

define { double, double } @grad(double %x, double %y) {
  %c = tail call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @axpy, double %x, double %y)
  ret { double, double } %c
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_grad_axpy(
; The primal copy stays a call of llvm.fmuladd.
; CHECK: call double @llvm.fmuladd.f64(double %x, double %y, double %x)
; CHECK-LABEL: {{^}}rev.
; Every product and sum of the reverse sweep is contractable.
; CHECK-NOT: {{fadd|fmul}} {{(nsz )?}}double
; CHECK: fmul contract double %d_ret, %y
; CHECK-NOT: {{fadd|fmul}} {{(nsz )?}}double
; CHECK: fadd nsz contract double
; CHECK-NOT: {{fadd|fmul}} {{(nsz )?}}double
; CHECK: ret { double, double }
