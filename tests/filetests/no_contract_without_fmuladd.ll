; Decision: without `llvm.fmuladd` in the primal (here `-ffp-contract=off`: clang emits
; a separate `fmul` and `fadd`, neither `contract`), derivative code gets no `contract`
; (`ferrozyme_llvm::fastmath::contraction_allowed`): only flags the primal carries are
; inherited.
; Why it matters: a user who turned contraction off asked for every product to be
; rounded; fusing derivative products would silently give different gradients than the
; unfused arithmetic the user asked for.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double axpy(double x, double y) { return x * y + x; }
; pair grad(double x, double y) { return __enzyme_autodiff2((void *)axpy, x, y); }
; (clang-22 -O2 -ffp-contract=off, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @axpy(double %x, double %y) {
  %m = fmul double %x, %y
  %r = fadd double %x, %m
  ret double %r
}

define { double, double } @grad(double %x, double %y) {
  %c = tail call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @axpy, double %x, double %y)
  ret { double, double } %c
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_grad_axpy(
; CHECK-NOT: contract
; CHECK: fmul double %{{.*}}, %y
; CHECK-NOT: contract
; CHECK: ret { double, double }
