; Decision: an `i32` loaded from memory that type analysis sees as both a double and an
; integer (`Anything`), used only as `llvm.powi`'s exponent, is an integer the rule
; computes with (its partial is a structural zero), not a float's bits moved: the
; access is accepted, the exponent reloaded for `k r^(k-1)` in the reverse of the integer
; branch, and the real branch's adjoint goes to the shadow of the memory.
; Why it matters: a Fortran `class(*)` argument inspected with `select type` (a real(8)
; at one call, an integer power at another: `r**w`) is one memory read as both; at -O0
; (flang keeps the function out of line) this was a cannot-deduce-type error
; (tests/fortran/30).
;
; double weight(void *w, double r, int is_int)  // written by hand after flang -O0
;   { return is_int ? pow(r, *(int *)w) : *(double *)w; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define internal { double } @fz_grad_weight(
; CHECK: rev.int:
; CHECK: %[[K:[0-9]+]] = load i32, ptr %w
; CHECK: sitofp i32 %[[K]] to double
; CHECK: call double @llvm.pow.f64(double %r,
; CHECK: rev.real:
; CHECK: load double, ptr %w.shadow

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32
@enzyme_out = external global i32

define double @weight(ptr %w, double %r, i1 %is_int) {
entry:
  br i1 %is_int, label %int, label %real

int:
  %k = load i32, ptr %w, align 4
  %p = call double @llvm.powi.f64.i32(double %r, i32 %k)
  br label %done

real:
  %d = load double, ptr %w, align 8
  br label %done

done:
  %v = phi double [ %p, %int ], [ %d, %real ]
  ret double %v
}

define double @grad(ptr %w, ptr %dw, double %r, i1 %is_int) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @weight, ptr @enzyme_dup, ptr %w, ptr %dw, ptr @enzyme_out, double %r, i1 %is_int)
  ret double %g
}

declare double @llvm.powi.f64.i32(double, i32)
declare double @__enzyme_autodiff(ptr, ...)
