; Decision: an `invoke` on the differentiated path becomes a call to the same callee with
; the same calling convention. The optimizer gives an internal helper whose address is
; never taken the `fastcc` convention; C++ calls it with `invoke` where a cleanup is due
; (a local `std::vector`), and the derivative, which follows the normal path only, turned
; the `invoke` into a plain (C convention) call: undefined behaviour that LLVM folds to
; `unreachable`, so the gradient crashed at -O2 (tests/cxx/409, 404). Written by hand after
; 409's IR.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define internal fastcc double @scale(ptr %text) noinline {
entry:
  %c = load i8, ptr %text, align 1
  %k = sitofp i8 %c to double
  ret double %k
}

define double @f(ptr %x, ptr %text) personality ptr @__gxx_personality_v0 {
entry:
  %a = invoke fastcc double @scale(ptr %text)
          to label %ok unwind label %lp

ok:
  %v = load double, ptr %x, align 8
  %r = fmul double %a, %v
  %r2 = fmul double %r, %v
  ret double %r2

lp:
  %e = landingpad { ptr, i32 }
          cleanup
  resume { ptr, i32 } %e
}

define double @grad(ptr %x, ptr %dx, ptr %text) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %1, ptr %text)
  ret double %call
}

define double @tan(ptr %x, ptr %tx, ptr %text) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %0, ptr %x, ptr %tx, i32 %1, ptr %text)
  ret double %call
}

declare i32 @__gxx_personality_v0(...)
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: call fastcc double @scale(
; CHECK-LABEL: define internal {{.*}} @fz_fwd_f(
; CHECK: call fastcc double @scale(
