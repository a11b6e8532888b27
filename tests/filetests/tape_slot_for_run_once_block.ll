; Decision: a value the reverse sweep needs, computed in a block that runs at most once
; but does not dominate the return (one side of an if), goes to a fixed tape slot: one
; store in the forward copy of that block, one load in its reverse block, no stack.
; `exp(x)` is not recomputed (a libm call costs more than a load); `x * x` on the other
; side is not needed at all (its partials only use `x`, an argument).
; Why it matters: slots of a combined function live in an `alloca` that SROA turns into
; registers, whereas a stack push would go through memory and the runtime.
;
; double branchy(double x) {
;   double y;
;   if (x > 0) y = exp(x); else y = x * x;
;   return y * y;
; }
; double grad(double x) { return __enzyme_autodiff((void *)branchy, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

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

; CHECK-LABEL: define internal { double } @fz_grad_branchy(
; CHECK: [[TAPE:%.*]] = alloca i8, i64 {{[0-9]+}}, align 16
; CHECK-LABEL: {{^}}if.then:
; CHECK-NEXT: [[E:%.*]] = call double @exp(double %x)
; CHECK-NEXT: store double [[E]], ptr [[TAPE]], align 8
; CHECK-LABEL: {{^}}if.else:
; CHECK-NOT: store
; CHECK: br label %if.end
; CHECK-LABEL: {{^}}rev.if.then:
; CHECK: [[CACHED:%.*]] = load double, ptr [[TAPE]], align 8
; CHECK-NEXT: fmul double {{%.*}}, [[CACHED]]
; CHECK-LABEL: {{^}}rev.if.else:
; CHECK-NOT: @exp
; CHECK-NOT: @__fz_
; CHECK: {{^}}}
