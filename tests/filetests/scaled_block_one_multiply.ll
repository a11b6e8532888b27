; Decision: under `-ffast-math` (`reassoc`), a loop block that computes one active
; scalar from its phis and outside values (an integrator step `x += h*sin(x)*x`) is
; reversed with the seed 1 (reverse/scaled.rs): the block's adjoint code runs on the
; constant 1, its contributions to each outside value (the previous `x`, and `h`) are
; summed, and the real adjoint multiplies each sum once. The loop-carried chain of the
; reverse sweep is then one multiplication per step instead of the step's whole chain
; of partials.
; Why it matters: the reverse of an ODE integrator is latency-bound on that chain; with
; the seed 1, the partials of different iterations can be computed in parallel.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double integrate(double x, double h, int n) {
;   for (int i = 0; i < n; i++) x = x + h * sin(x) * x;
;   return x;
; }
; pair grad(double x, double h, int n) { return __enzyme_autodiff2((void *)integrate, x, h, n); }
; // The step's adjoint D is taken, and the seed 1 takes its place.
; // D is used exactly twice, each time to scale one summed partial: once for the
; // previous x (the loop-carried path) and once for h.
; (clang-22 -O2 -ffast-math, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define nofpclass(nan inf) double @integrate(double nofpclass(nan inf) %x, double nofpclass(nan inf) %h, i32 %n) {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %x.addr.0.lcssa = phi double [ %x, %entry ], [ %add, %for.body ]
  ret double %x.addr.0.lcssa

for.body:                                         ; preds = %entry, %for.body
  %i.08 = phi i32 [ %inc, %for.body ], [ 0, %entry ]
  %x.addr.07 = phi double [ %add, %for.body ], [ %x, %entry ]
  %0 = call fast double @llvm.sin.f64(double %x.addr.07)
  %mul = fmul fast double %x.addr.07, %h
  %mul1 = fmul fast double %mul, %0
  %add = fadd fast double %mul1, %x.addr.07
  %inc = add i32 %i.08, 1
  %exitcond.not = icmp eq i32 %inc, %n
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.sin.f64(double)

define { double, double } @grad(double nofpclass(nan inf) %x, double nofpclass(nan inf) %h, i32 %n) {
entry:
  %call = call fast { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @integrate, double nofpclass(nan inf) %x, double nofpclass(nan inf) %h, i32 %n)
  ret { double, double } %call
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_grad_integrate(
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK-NEXT: [[D:%.*]] = load double, ptr [[ADJ:%.*]], align 8
; CHECK-NEXT: store double 0.000000e+00, ptr [[ADJ]]
; CHECK-NEXT: store double 1.000000e+00, ptr [[ADJ]]
; CHECK-NOT: [[D]]{{,|$}}
; CHECK: fmul reassoc nsz arcp contract afn double [[D]], {{%.*}}
; CHECK-NOT: [[D]]{{,|$}}
; CHECK: fmul reassoc nsz arcp contract afn double [[D]], {{%.*}}
; CHECK-NOT: [[D]]{{,|$}}
; CHECK: switch i32
