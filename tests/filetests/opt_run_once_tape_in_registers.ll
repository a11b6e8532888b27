; Decision (after `-O2`): the tape of a combined function is an `alloca`, so values kept
; in tape slots for blocks that run once (`exp(x)` of one branch) end up in registers:
; the optimized gradient has no stack memory at all and calls `exp` once, in the
; branch that needs it.
; Why it matters: slots cost nothing after optimization, which is why run-once values
; get slots rather than pushes.
;
; double branchy(double x) {
;   double y;
;   if (x > 0) y = exp(x); else y = x * x;
;   return y * y;
; }
; double grad(double x) { return __enzyme_autodiff((void *)branchy, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @branchy(double %x) {
entry:
  %cmp = fcmp ogt double %x, 0.000000e+00
  br i1 %cmp, label %if.then, label %if.else

if.then:                                          ; preds = %entry
  %call = call double @exp(double %x)
  br label %if.end

if.else:                                          ; preds = %entry
  %mul = fmul double %x, %x
  br label %if.end

if.end:                                           ; preds = %if.else, %if.then
  %y.0 = phi double [ %call, %if.then ], [ %mul, %if.else ]
  %mul1 = fmul double %y.0, %y.0
  ret double %mul1
}

declare double @exp(double)

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @branchy, double %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define double @grad(
; CHECK-NOT: alloca
; CHECK-NOT: @llvm.memset
; CHECK-COUNT-1: call double @exp(double %x)
; CHECK-NOT: call {{.*}}@
; CHECK-NOT: alloca
; CHECK: {{^}}}
