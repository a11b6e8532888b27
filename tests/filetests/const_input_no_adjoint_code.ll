; Decision: a value that depends only on `enzyme_const` inputs is inactive: `sin(c)`
; gets no adjoint code (no `cos(c)` in the derivative), and the reverse of `x * sin(c)`
; uses the forward `sin(c)` value for `x`'s partial only.
; Why it matters: activity analysis is what keeps the derivative of a function with
; many constant parameters as cheap as the part that depends on the active ones.
;
; double inact(double x, double c) { return x * sin(c); }
; double grad(double x, double c) { return __enzyme_autodiff((void *)inact, x, enzyme_const, c); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4

define double @inact(double %x, double %c) {
entry:
  %call = call double @sin(double %c)
  %mul = fmul double %x, %call
  ret double %mul
}

declare double @sin(double)

define double @grad(double %x, double %c) {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @inact, double %x, i32 %0, double %c)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_inact(double %x, double %c, double %d_ret)
; CHECK: [[S:%.*]] = call double @sin(double %c)
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NOT: @llvm.cos
; CHECK: fmul double {{%.*}}, [[S]]
; CHECK-NOT: fmul
; CHECK-NOT: @llvm.cos
; CHECK: ret { double }
