; Decision: a counted loop that clang left without a preheader (the guard `n > 0`
; branches straight into the loop body or past it, as for a loop whose `int` counter
; indexes nothing) still gets its stack reserved once, in the guard block: the loop's
; *entry* (its unique predecessor outside the loop) runs once per execution of the
; loop. The loop leaves when `i + 1 == n`: `(n - 1) mod 2^32 + 2` records of 16 bytes,
; and since the guard may skip the loop (where `n - 1` means nothing: 2^32 - 1 for
; `n = 0`), the reservation is selected by the guard's condition. The pushes are then
; unchecked (`__fz_push_reserved`, reverse/fixed_tape.rs).
; Why it matters: this is the shape of ODE integrator loops; without the reservation
; their stack grows by doubling. (Regression: only loops with a preheader were
; reserved.)
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double integrate(double x, double h, int n) {
;   for (int i = 0; i < n; i++) x = x + h * sin(x) * x;
;   return x;
; }
; pair grad(double x, double h, int n) { return __enzyme_autodiff2((void *)integrate, x, h, n); }
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
; CHECK-LABEL: {{^}}entry:
; CHECK: [[GUARD:%.*]] = icmp sgt i32 %n, 0
; CHECK-NEXT: [[D:%.*]] = sub i32 %n, 1
; CHECK-NEXT: [[DW:%.*]] = zext i32 [[D]] to i64
; CHECK: mul i64 {{%.*}}, 16
; CHECK-NEXT: [[SAT:%.*]] = select i1 {{%.*}}, i64 4611686018427387904, i64
; CHECK-NEXT: [[BYTES:%.*]] = select i1 [[GUARD]], i64 [[SAT]], i64 0
; CHECK: call void @__fz_reserve(ptr {{%.*}}, i64 [[BYTES]])
; CHECK-NEXT: br i1 [[GUARD]], label %for.body, label %for.cond.cleanup
; CHECK-LABEL: {{^}}for.body:
; CHECK-NOT: @__fz_reserve
; CHECK-NOT: @__fz_push(
; CHECK: call ptr @__fz_push_reserved(ptr {{%.*}}, i64 16)
; CHECK-NOT: @__fz_reserve
; CHECK-NOT: call ptr @__fz_push(
; CHECK: {{^}}}
