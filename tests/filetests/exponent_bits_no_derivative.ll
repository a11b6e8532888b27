; Decision: a right shift of a float's bits by at least the mantissa width (`lshr i64
; %bits, 52` of a double) leaves the sign and the exponent, a step function of the value
; with derivative zero: the check accepts it, the integer work after it (mask, bias,
; `sitofp`) carries nothing, and the derivative of log(v) = log(v / 2^e) + e log 2 is
; the mantissa path's alone. Before sweep23 the shift was refused ("integer arithmetic on
; the bits of a floating-point value cannot be differentiated", tests/c/937). Shifts by
; less (the fast-inverse-square-root seed `i >> 1` is `magic_seed`'s, not this) keep the
; refusal. Reduced from clang-22 -O2 output of tests/c/937.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @log_by_bits(double %v) {
entry:
  %bits = bitcast double %v to i64
  %sh = lshr i64 %bits, 52
  %field = and i64 %sh, 2047
  %e64 = add nsw i64 %field, -1023
  %e = trunc i64 %e64 to i32
  %scale = call double @ldexp(double 1.0, i32 %e)
  %m = fdiv double %v, %scale
  %lm = call double @log(double %m)
  %ef = sitofp i32 %e to double
  %r = call double @llvm.fmuladd.f64(double %ef, double 0x3FE62E42FEFA39EF, double %lm)
  ret double %r
}

define double @g(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @log_by_bits, double %x)
  ret double %d
}

declare double @ldexp(double, i32)
declare double @log(double)
declare double @llvm.fmuladd.f64(double, double, double)
declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define {{.*}} @fz_{{.*}}log_by_bits(
; CHECK: lshr i64 {{.*}}, 52
; CHECK: fdiv double
; CHECK: ret
