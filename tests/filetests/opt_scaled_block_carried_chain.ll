; Decision (after `-O2`, `-ffast-math`): with the scaled reverse block, the value the
; reverse loop carries from one step to the next (the adjoint of `x`) is updated by a
; single multiplication, `next = sum * d`, where `sum` (the step's partials, computed
; with the seed 1) does not depend on `d`. See scaled_block_one_multiply.ll for the
; unoptimized form.
; Why it matters: this one multiplication per step is the whole loop-carried latency
; of the reverse sweep of an integrator. (With the record stack reserved before the
; loop, LLVM peels the reverse loop's first step: the carried value then starts from
; that step's product instead of the seed 1.)
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double integrate(double x, double h, int n) {
;   for (int i = 0; i < n; i++) x = x + h * sin(x) * x;
;   return x;
; }
; pair grad(double x, double h, int n) { return __enzyme_autodiff2((void *)integrate, x, h, n); }
; // D, the adjoint of x carried around the loop, starts at the seed 1 (inlined d_ret).
; // Nothing uses D before the one multiplication that makes the next D: the factor it
; // multiplies (the step's summed partials) cannot depend on D.
; (clang-22 -O2 -ffast-math, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

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

; CHECK-LABEL: define { double, double } @grad(
; CHECK-LABEL: {{^}}rev.for.body{{[a-z.]*}}.i:
; CHECK: [[D:%[^ ]+]] = phi double [ [[NEXT:%[^ ,]+]], %rev.for.body{{[a-z.]*}}.i ], [ {{1.000000e\+00|%[0-9]+}}, {{%[^ ]+}} ]
; CHECK-NOT: [[D]]{{,|$}}
; CHECK: [[NEXT]] = fmul reassoc nsz arcp contract afn double {{%[^ ,]+}}, [[D]]{{$}}
; CHECK: br i1
