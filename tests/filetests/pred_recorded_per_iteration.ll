; Decision: a loop without a `+1` induction variable (`while (x < 100) x *= 1.5`) records
; the header's predecessor on every iteration: the loop block is on a CFG cycle, so its
; record (here holding only the `i32` predecessor index) is pushed once per execution of
; the block and popped when the reverse sweep leaves it. The trip count is unknown, so
; no space is reserved up front (`__fz_reserve` only appears for counted loops).
; Why it matters: the reverse sweep must replay exactly as many iterations as ran;
; this record is the only place that number is kept.
;
; double grow(double x) {
;   while (x < 100.0) x = x * 1.5;
;   return x;
; }
; double grad(double x) { return __enzyme_autodiff((void *)grow, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @grow(double %x) {
entry:
  %cmp3 = fcmp olt double %x, 1.000000e+02
  br i1 %cmp3, label %while.body, label %while.end

while.body:                                       ; preds = %entry, %while.body
  %x.addr.04 = phi double [ %mul, %while.body ], [ %x, %entry ]
  %mul = fmul double %x.addr.04, 1.500000e+00
  %cmp = fcmp olt double %mul, 1.000000e+02
  br i1 %cmp, label %while.body, label %while.end

while.end:                                        ; preds = %while.body, %entry
  %x.addr.0.lcssa = phi double [ %x, %entry ], [ %mul, %while.body ]
  ret double %x.addr.0.lcssa
}

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @grow, double %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_grow(
; CHECK-NOT: @__fz_reserve
; CHECK-LABEL: {{^}}while.body:
; CHECK: [[IDX:%.*]] = phi i32 [ 0, %entry ], [ 1, %while.body ]
; CHECK: [[REC:%.*]] = call ptr @__fz_push{{(_reserved)?}}(ptr [[STACK:%.*]], i64 8)
; CHECK-NEXT: store i32 [[IDX]], ptr [[REC]]
; CHECK-NEXT: br i1
; CHECK-LABEL: {{^}}rev.while.body:
; CHECK: [[TOP:%.*]] = call ptr @__fz_top(ptr {{%.*}}, i64 8)
; CHECK-NEXT: [[RIDX:%.*]] = load i32, ptr [[TOP]]
; CHECK: call void @__fz_pop(ptr {{%.*}}, i64 8)
; CHECK-NEXT: switch i32 [[RIDX]], label
; CHECK-NOT: @__fz_reserve
; CHECK: {{^}}}
