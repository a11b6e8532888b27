; Decision: a join whose predecessor cannot be recomputed (three predecessors, from a
; switch) records it: a `phi i32` of predecessor indices in the forward copy, stored in
; a tape slot (the join runs once), read by the reverse sweep to pick the way back.
; The values of the three cases are handled per case: `sin` and `cos` are recomputed
; from `x` where their partials need them, `exp(x)` (whose partial is its result) is
; kept in a slot.
; Why it matters: the reverse of a join without a rule needs this record; dropping it
; would send the reverse sweep down the wrong path (a silently wrong derivative).
;
; double sw(double x, int k) {
;   double r;
;   switch (k) {
;   case 0: r = sin(x); break;
;   case 1: r = cos(x); break;
;   default: r = exp(x);
;   }
;   return r * x;
; }
; double grad(double x, int k) { return __enzyme_autodiff((void *)sw, x, k); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @sw(double %x, i32 %k) {
entry:
  switch i32 %k, label %sw.default [
    i32 0, label %sw.bb
    i32 1, label %sw.bb1
  ]

sw.bb:                                            ; preds = %entry
  %call = call double @sin(double %x)
  br label %sw.epilog

sw.bb1:                                           ; preds = %entry
  %call2 = call double @cos(double %x)
  br label %sw.epilog

sw.default:                                       ; preds = %entry
  %call3 = call double @exp(double %x)
  br label %sw.epilog

sw.epilog:                                        ; preds = %sw.default, %sw.bb1, %sw.bb
  %r.0 = phi double [ %call3, %sw.default ], [ %call, %sw.bb ], [ %call2, %sw.bb1 ]
  %mul = fmul double %x, %r.0
  ret double %mul
}

declare double @sin(double)

declare double @cos(double)

declare double @exp(double)

define double @grad(double %x, i32 %k) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @sw, double %x, i32 %k)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_sw(
; CHECK: [[TAPE:%.*]] = alloca i8, i64 {{[0-9]+}}, align 16
; CHECK-LABEL: {{^}}sw.epilog:
; CHECK: [[IDX:%.*]] = phi i32 [ 0, %sw.bb ], [ 1, %sw.bb1 ], [ 2, %sw.default ]
; CHECK-NEXT: store i32 [[IDX]], ptr [[TAPE]]
; CHECK-LABEL: {{^}}rev.sw.bb:
; CHECK: call double @llvm.cos.f64(double %x)
; CHECK-LABEL: {{^}}rev.sw.bb1:
; CHECK: call double @llvm.sin.f64(double %x)
; CHECK-LABEL: {{^}}rev.sw.default:
; CHECK-NOT: @exp
; CHECK: load double, ptr
; CHECK-LABEL: {{^}}rev.sw.epilog:
; CHECK: [[RIDX:%.*]] = load i32, ptr [[TAPE]]
; CHECK-NEXT: switch i32 [[RIDX]], label %rev.sw.epilog.from.sw.bb [
; CHECK-NEXT: i32 1, label %rev.sw.epilog.from.sw.bb1
; CHECK-NEXT: i32 2, label %rev.sw.epilog.from.sw.default
; CHECK: {{^}}}
