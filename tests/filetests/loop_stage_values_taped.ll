; Decision: in a loop, a float value of one iteration whose recomputation in the reverse
; sweep would cost at least LOOP_SLOT_COST operations, computed only from what the
; iteration tapes anyway (its carried state; no load), gets a field of the iteration's
; tape record instead of being recomputed (reverse/recompute.rs, "Loops: deep chains of
; one iteration"). Here RK4's stage values k2 = -1.2 (x + h/2 k1), k3 and k4 (a chain
; of 2 to 7 operations from the state x) are pushed with x; k1 = -1.2 x (two: a read and
; a multiply) is still recomputed.
; Why it matters: rk4-odeint at -O3 -march=native (issue 14, bruss19): the reverse loop
; recomputed every stage from the taped state, 27 multiplies and FMAs per step on Zen 5's
; two FMA pipes, its bound; with the stages taped grad/primal 1.48 -> 1.35-1.40, at 32
; instead of 8 bytes of tape per step. A chain that reads memory is still recomputed
; (recompute_float_chain.ll: the stencil's reverse keeps no tape).
;
; double rk4_linear(double x, double h, int n) {
;   const double lam = -1.2;
;   for (int i = 0; i < n; i++) {
;     double k1 = lam * x;
;     double k2 = lam * (x + 0.5 * h * k1);
;     double k3 = lam * (x + 0.5 * h * k2);
;     double k4 = lam * (x + h * k3);
;     x = x + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
;   }
;   return x;
; }
; fz_grad2 grad(double x, double h, int n) {
;   return __enzyme_autodiff2((void *)rk4_linear, x, h, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @rk4_linear(double %x, double %h, i32 %n) {
entry:
  %cmp24 = icmp sgt i32 %n, 0
  br i1 %cmp24, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %mul1 = fmul double %h, 5.000000e-01
  %div = fdiv double %h, 6.000000e+00
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %x.addr.0.lcssa = phi double [ %x, %entry ], [ %6, %for.body ]
  ret double %x.addr.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %for.body
  %x.addr.026 = phi double [ %x, %for.body.lr.ph ], [ %6, %for.body ]
  %i.025 = phi i32 [ 0, %for.body.lr.ph ], [ %inc, %for.body ]
  %mul = fmul double %x.addr.026, -1.200000e+00
  %0 = tail call double @llvm.fmuladd.f64(double %mul1, double %mul, double %x.addr.026)
  %mul3 = fmul double %0, -1.200000e+00
  %1 = tail call double @llvm.fmuladd.f64(double %mul1, double %mul3, double %x.addr.026)
  %mul6 = fmul double %1, -1.200000e+00
  %2 = tail call double @llvm.fmuladd.f64(double %h, double %mul6, double %x.addr.026)
  %mul8 = fmul double %2, 1.200000e+00
  %3 = tail call double @llvm.fmuladd.f64(double %mul3, double 2.000000e+00, double %mul)
  %4 = tail call double @llvm.fmuladd.f64(double %mul6, double 2.000000e+00, double %3)
  %5 = fsub double %4, %mul8
  %6 = tail call double @llvm.fmuladd.f64(double %div, double %5, double %x.addr.026)
  %inc = add nuw nsw i32 %i.025, 1
  %exitcond.not = icmp eq i32 %inc, %n
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define { double, double } @grad(double %x, double %h, i32 %n) {
entry:
  %r = call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @rk4_linear, double %x, double %h, i32 %n)
  ret { double, double } %r
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

; CHECK-LABEL: define internal {{.*}} @fz_grad_rk4_linear(
; CHECK-LABEL: {{^}}for.body:
; CHECK: [[Y2:%.*]] = tail call double @llvm.fmuladd.f64(double %mul1, double %mul, double %x.addr.026)
; CHECK: [[Y3:%.*]] = tail call double @llvm.fmuladd.f64(double %mul1, double %mul3, double %x.addr.026)
; CHECK: [[S:%.*]] = fsub double {{%.*}}, %mul8
; CHECK: call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 32)
; CHECK: store double %x.addr.026,
; CHECK: store double [[Y2]],
; CHECK: store double [[Y3]],
; CHECK: store double [[S]],
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: call ptr @__fz_top(ptr {{%.*}}, i64 32)
; CHECK-NOT: @llvm.fmuladd
; CHECK: call void @__fz_pop(ptr {{%.*}}, i64 32)
