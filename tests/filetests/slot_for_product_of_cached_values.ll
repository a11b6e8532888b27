; Decision: in a combined function, float arithmetic of a block that runs once per call
; but does not dominate the return (one side of an if) goes to a tape slot when
; recomputing it in the reverse sweep would cost 3 or more operations (its own, one per
; cached leaf it reads, those of the operands it would recompute): `p = exp(x) * exp(y)`
; reads two cached calls, so the forward block stores `p` and the reverse block loads it
; (reverse/recompute.rs). `p * x` costs 2 from there (one product, the slot of `p`) and is
; still recomputed for the partial `cos(p * x)`.
; Why it matters: BA's Rodrigues rotation sits in such a block; recomputing its chains
; (`rot * (1/theta)`, cross products, `(w . pt) * (1 - cos)`) from their cached leaves
; put them again on the reverse sweep's critical path, while a slot of the local tape
; becomes a register after SROA.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double chain(double x, double y) {
;   double s = x;
;   if (x > 0) {
;     double p = exp(x) * exp(y);
;     s = sin(p * x);
;   }
;   return s;
; }
; pair grad(double x, double y) { return __enzyme_autodiff2((void *)chain, x, y); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @chain(double %x, double %y) {
entry:
  %cmp = fcmp ogt double %x, 0.000000e+00
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  %call = tail call double @exp(double %x)
  %call1 = tail call double @exp(double %y)
  %mul = fmul double %call, %call1
  %mul2 = fmul double %x, %mul
  %call3 = tail call double @sin(double %mul2)
  br label %if.end

if.end:                                           ; preds = %if.then, %entry
  %s.0 = phi double [ %call3, %if.then ], [ %x, %entry ]
  ret double %s.0
}

declare double @exp(double noundef)

declare double @sin(double noundef)

define { double, double } @grad(double %x, double %y) {
entry:
  %call = tail call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @chain, double %x, double %y)
  ret { double, double } %call
}

declare { double, double } @__enzyme_autodiff2(ptr noundef, ...)


; CHECK-LABEL: define internal { double, double } @fz_grad_chain(
; CHECK: [[TAPE:%.*]] = alloca i8, i64 {{[0-9]+}}, align 16
; CHECK-LABEL: {{^}}if.then:
; CHECK: [[P:%.*]] = fmul double %call, %call1
; CHECK-NEXT: store double [[P]], ptr [[TAPE]], align 8
; CHECK-LABEL: {{^}}rev.if.then:
; CHECK: [[CACHED:%.*]] = load double, ptr [[TAPE]], align 8
; CHECK-NEXT: [[ARG:%.*]] = fmul double %x, [[CACHED]]
; CHECK-NEXT: call double @llvm.cos.f64(double [[ARG]])
; The product of the two cached exponentials is not formed again.
; CHECK-NOT: fmul double %fz.cached{{[0-9]*}}, %fz.cached
; CHECK: br label %rev.entry
